"""Events of the sequence of play (R-1, R-6, R-7, R-8, R-9.3): turn order, rounds, player-turns, orders, phases, reinforcements, victory, dice, notes.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.rules.core.events.base import EventKind, of_seat
from pbem.rules.core.names import ENGLISH, N_, Words, cus_text, spaces_text
from pbem.rules.core.state import State, seat_private
from pbem.rules.core.notes import VICTORY_KINDS, note_text, reason_text


def _order(s: State, d: dict) -> None:
    s["turn_order"] = list(d["order"])
    s["order_choice"] = None


def chooser_text(d: Mapping[str, Any], t: Words = ENGLISH) -> str:
    """R-6.1: who names the first player, and how a tie for fewest VP was broken: each
    tied seat rolls one die, the highest names the first player; the seats equal
    highest roll again, each roll of dice said apart ("first roll: north 5, east 6,
    south 6, west 2; east and south roll again: east 2, south 1"); play then goes
    clockwise from the seat named. Older events without ``rounds`` keep each seat's
    last roll only."""
    seat, rolls = d.get("seat"), d.get("rolls") or {}
    if not rolls:
        return t.gettext("%(seat)s has the fewest VP and names the first player; play goes clockwise from him "
                         "(R-6.1).") % {"seat": seat}
    rounds = d.get("rounds") or []
    if rounds:
        vp = (d.get("vp") or {}).get(seat)
        said = []
        for i, r in enumerate(rounds):
            dice = ", ".join(f"{s} {n}" for s, n in r.items())
            said.append(t.gettext("First roll: %(dice)s") % {"dice": dice} if i == 0 else
                        t.gettext("%(seats)s tie for the highest and roll again: %(dice)s") % {
                            "seats": t.gettext(" and ").join(r), "dice": dice})
        return t.gettext("%(seats)s tie for the fewest VP (%(vp)s); one die each, the highest names the first "
                         "player. %(rolls)s. %(seat)s names the first player; play goes clockwise from the seat "
                         "named (R-6.1).") % {"seats": ', '.join(rounds[0]), "vp": vp, "rolls": "; ".join(said),
                                              "seat": seat}
    vp = (d.get("vp") or {}).get(seat)
    dice = ", ".join(f"{s} {n}" for s, n in rolls.items())
    again = (t.gettext("; equal highest rolled again") if list(rolls.values()).count(rolls.get(seat)) > 1 else "")
    return t.gettext("%(seats)s tie for the fewest VP (%(vp)s): one die each, the highest names the first player "
                     "(%(dice)s%(again)s): %(seat)s names the first player, and play goes clockwise from the seat "
                     "named (R-6.1).") % {"seats": ', '.join(rolls), "vp": vp, "dice": dice, "again": again,
                                          "seat": seat}


def _year(pack: Any, turn: Any, t: Words = ENGLISH) -> str:
    """`` (319 BC)``: a turn's year from the pack's turn track, or nothing."""
    year = next((x.year_bc for x in pack.turns if x.number == turn), None)
    return t.gettext(" (%(year)s BC)") % {"year": year} if year else ""


def _chooser(s: State, d: dict) -> None:
    s["order_choice"] = {"seat": d["seat"], "vp": dict(d["vp"])}


def _usurpers(s: State, d: dict) -> None:
    s["usurpers"] = list(d["seats"])


def _champions(s: State, d: dict) -> None:
    s["champions"] = list(d["seats"])


def _champion_lost(s: State, d: dict) -> None:
    if d["seat"] in s["champions"]:
        s["champions"].remove(d["seat"])


def _round(s: State, d: dict) -> None:
    s["round"] = d["round"]
    s["played"] = []


def _pt_started(s: State, d: dict) -> None:
    s["active"] = d["seat"]


def _passed(s: State, d: dict) -> None:
    s["played"].append(d["seat"])
    s["active"] = None


def _orders(s: State, d: dict) -> None:
    s["step"] = d["step"] + 1


def _orders_withheld(s: State, d: dict) -> None:
    """The paused mover's full orders, private until its player-turn has run (R-9.3)."""
    seat_private(s, d["seat"])["withheld"] = {"seat": d["seat"], "step": d["step"],
                                             "orders": d["orders"]}


def _orders_revealed(s: State, d: dict) -> None:
    seat_private(s, d["seat"]).pop("withheld", None)


def _standing(s: State, d: dict) -> None:
    seat_private(s, d["seat"])["standing"] = [dict(x) for x in d["orders"]]


def _phase(s: State, d: dict) -> None:
    s["phase"] = d["phase"]
    if "turn" in d:
        s["turn"] = d["turn"]
    if d["phase"] == "strategy":
        s["training_cards"] = {k: 0 for k in s["training_cards"]}


def _turn_ended(s: State, d: dict) -> None:
    s["turn"] = d["next"]


def _granted(s: State, d: dict) -> None:
    s["reinforce"] = {"queue": list(d["queue"]),
                      "grant": {k: dict(v) for k, v in d["cus"].items()}}


def _reinf_placed(s: State, d: dict) -> None:
    r = s["reinforce"]
    r["queue"].remove(d["seat"])
    r["grant"].pop(d["seat"], None)
    if not r["queue"]:
        s["reinforce"] = None


def _claim(s: State, d: dict) -> None:
    s["claim"] = {"seat": d["seat"], "kind": d["kind"], "waiting": list(d["waiting"])}


def _claim_upd(s: State, d: dict) -> None:
    s["claim"] = None if d.get("cleared") else {**s["claim"], "waiting": list(d["waiting"])}


def _won(s: State, d: dict) -> None:
    s["result"] = dict(d)
    s["phase"] = "over"
    s["active"] = None


HOW_ATTACKED = {"battle": N_("in battle"), "overrun": N_("by overrunning its CUs"),
                "assault": N_("by an assault on its major city"),
                "naval battle": N_("by a naval interception"), "sally": N_("by a sally from a major city")}
"""How an attack on a Champion was made (``ChampionLost``'s ``how``, R-11.4), as a phrase."""

PHASE_NAMES = {"turn_order": N_("turn order"), "strategy": N_("strategy"), "isolation": N_("isolation"),
               "reinforcement": N_("reinforcement"), "setup": N_("setup"), "over": N_("over")}
"""The phases of a game turn (R-6) by id, as ``PhaseStarted`` says them."""


def _phase_text(p: Any, d: Mapping[str, Any], t: Words) -> str:
    phase = str(d.get('phase', ''))
    name = t.gettext(PHASE_NAMES[phase]) if phase in PHASE_NAMES else phase.replace('_', ' ')
    return t.gettext("Phase: %(phase)s.") % {"phase": name}


def _turn_order_text(p: Any, d: Mapping[str, Any], t: Words) -> str:
    v = {"order": ', '.join(d.get('order', [])), "chooser": d.get('chooser'), "first": d.get('first')}
    if d.get("chooser"):
        return t.gettext("Turn order: %(order)s (%(chooser)s, with the fewest VP, names %(first)s first; play goes "
                         "clockwise from him, R-6.1).") % v
    return t.gettext("Turn order: %(order)s.") % v


def _champion_lost_text(p: Any, d: Mapping[str, Any], t: Words) -> str:
    how = str(d.get('how'))
    words = t.gettext(HOW_ATTACKED[how]) if how in HOW_ATTACKED else t.gettext("by %(how)s") % {"how": how}
    return t.gettext("%(seat)s loses Champion status (R-11.4): it attacked %(target)s, a Champion and no Usurper, "
                     "%(how)s.") % {"seat": d.get('seat'), "target": d.get('target'), "how": words}


def _standing_text(p: Any, d: Mapping[str, Any], t: Words) -> str:
    if d.get("orders"):
        n = len(d['orders'])
        return t.ngettext("%(seat)s sets %(num)d standing order (R-9.3).",
                          "%(seat)s sets %(num)d standing orders (R-9.3).", n) % {"seat": d.get('seat'), "num": n}
    return t.gettext("%(seat)s clears its standing orders (R-9.3).") % {"seat": d.get('seat')}


def _claim_text(p: Any, d: Mapping[str, Any], t: Words) -> str:
    v = {"seat": d.get('seat'), "why": reason_text(p, d.get('why'), t),
         "waiting": ", ".join(d.get("waiting") or []) or t.gettext("nobody")}
    if d.get("cleared"):
        return (t.gettext("%(seat)s's claim of an automatic victory lapses: it %(why)s (R-1.1).") if d.get("why")
                else t.gettext("%(seat)s's claim of an automatic victory lapses (R-1.1).")) % v
    return t.gettext("%(seat)s's claim of an automatic victory waits for %(waiting)s (R-1.1).") % v


KINDS: tuple[EventKind, ...] = (
    EventKind('TurnOrderSet',
              ('chooser', 'decision', 'first', 'order', 'rule', 'vp'),
              reduce=_order,
              writes=('turn_order', 'order_choice'),
              say=_turn_order_text),
    EventKind('UsurpersLabelled',
              ('rule', 'seats', 'vp'),
              reduce=_usurpers,
              writes=('usurpers',),
              say=lambda p, d, t: (t.gettext("Usurper: %(seats)s.") % {"seats": ', '.join(d['seats'])} if d.get("seats")
                                   else t.gettext("No usurper."))),
    EventKind('ChampionsSet',
              ('seats',),
              optional=('rule',),
              reduce=_champions,
              say=lambda p, d, t: t.gettext("Champions: %(seats)s.") % {"seats": ', '.join(d.get('seats', []))}),
    EventKind('ChampionLost',
              ('how', 'rule', 'seat', 'target'),
              reduce=_champion_lost,
              writes=('champions',),
              say=_champion_lost_text),
    EventKind('RoundStarted',
              ('round', 'rule'),
              reduce=_round,
              writes=('round', 'played'),
              say=lambda p, d, t: t.gettext("Round %(round)s begins.") % {"round": d.get('round')}),
    EventKind('PlayerTurnStarted',
              ('round', 'rule', 'seat', 'tyche_only'),
              reduce=_pt_started,
              writes=('active',),
              say=lambda p, d, t: t.gettext("%(seat)s's player-turn begins.") % {"seat": d.get('seat')}),
    EventKind('TurnPassed',
              ('round', 'rule', 'seat'),
              reduce=_passed,
              writes=('played', 'active'),
              say=lambda p, d, t: t.gettext("%(seat)s ends the player-turn.") % {"seat": d.get('seat', d.get('from'))}),
    EventKind('OrdersApplied',
              ('orders', 'rule', 'seat', 'step'),
              optional=('withheld',),
              reduce=_orders,
              writes=('step',)),
    EventKind('OrdersWithheld',
              ('orders', 'rule', 'seat', 'step'),
              reduce=_orders_withheld,
              writes=('private',),
              seen_by='seat'),
    EventKind('OrdersRevealed',
              ('orders', 'rule', 'seat', 'step'),
              reduce=_orders_revealed,
              writes=('private',)),
    EventKind('StandingOrdersSet',
              ('orders', 'rule', 'seat'),
              reduce=_standing,
              writes=('private',),
              cells=of_seat,
              seen_by='seat',
              say=_standing_text),
    EventKind('PhaseStarted',
              ('phase', 'rule'),
              optional=('turn',),
              reduce=_phase,
              writes=('phase', 'turn', 'training_cards'),
              say=_phase_text),
    EventKind('TurnEnded',
              ('next', 'rule', 'turn'),
              reduce=_turn_ended,
              writes=('turn',),
              say=lambda p, d, t: t.gettext("Turn %(turn)s%(year)s ends; turn %(next)s%(next_year)s begins (R-6.7).") % {
                  "turn": d.get('turn', ''), "year": _year(p, d.get('turn'), t), "next": d.get('next', ''),
                  "next_year": _year(p, d.get('next'), t)}),
    EventKind('ReinforcementsGranted',
              ('cus', 'queue', 'rule'),
              reduce=_granted,
              writes=('reinforce',),
              say=lambda p, d, t: t.gettext("Reinforcements (R-7.1): %(grants)s.") % {"grants": "; ".join(
                  f"{seat} {cus_text(cus, p, t)}" for seat, cus in (d.get("cus") or {}).items())}),
    EventKind('ReinforcementsPlaced',
              ('rule', 'seat'),
              reduce=_reinf_placed,
              writes=('reinforce',),
              say=lambda p, d, t: t.gettext("%(seat)s has placed the reinforcements.") % {"seat": d.get('seat')}),
    EventKind('VictoryClaimed',
              ('kind', 'rule', 'seat', 'waiting'),
              reduce=_claim,
              writes=('claim',),
              say=lambda p, d, t: t.gettext("%(seat)s declares an automatic victory (%(kind)s).") % {
                  "seat": d.get('seat'), "kind": (t.gettext(VICTORY_KINDS[d['kind']]) if d.get('kind') in VICTORY_KINDS
                                                   else str(d.get('kind', '')).upper())}),
    EventKind('VictoryClaimUpdated',
              ('rule', 'seat'),
              optional=('cleared', 'waiting', 'why'),
              reduce=_claim_upd,
              writes=('claim',),
              say=_claim_text),
    EventKind('GameWon',
              ('how', 'rule', 'winner'),
              optional=('conceded', 'heir', 'keys', 'lp', 'ranking', 'totals', 'vp'),
              reduce=_won,
              say=lambda p, d, t: t.gettext("%(seat)s wins the game (%(how)s).") % {
                  "seat": d.get('seat', d.get('winner')), "how": reason_text(p, d.get('how'), t)}),
    EventKind('SurrenderDeclined',
              ('rule', 'seat', 'spaces'),
              say=lambda p, d, t: t.gettext("%(seat)s declines surrender in %(spaces)s.") % {
                  "seat": d.get('seat'), "spaces": spaces_text(p, d.get('spaces'), t)}),
    EventKind('Note',
              ('rule', 'text'),
              optional=('seat',),
              say=lambda p, d, t: t.gettext("Note: %(text)s.") % {"text": note_text(p, d, t)}),
    EventKind('DiceRolled',
              ('index', 'purpose', 'rule', 'sides', 'values')),
    EventKind('Shuffled',  # the dice of a Fisher-Yates shuffle (docs/trust.md)
              ('index', 'items', 'order', 'purpose', 'rule'),
              seen_by='judge'),
    EventKind('TurnOrderChooserNamed',
              ('rolls', 'rule', 'seat', 'vp'),
              optional=('rounds',),
              reduce=_chooser,
              writes=('order_choice',),
              say=lambda p, d, t: chooser_text(d, t)),
)
