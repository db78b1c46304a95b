"""Events of the sequence of play (R-1, R-6, R-7, R-8, R-9.3): turn order, rounds, player-turns, orders, phases, reinforcements, victory, dice, notes.
"""
from __future__ import annotations

from pbem.plural import count
from pbem.rules.core.events.base import EventKind
from pbem.rules.core.names import cus_text, spaces_text
from pbem.rules.core.state import State, seat_private


def _order(s: State, d: dict) -> None:
    s["turn_order"] = list(d["order"])
    s["order_choice"] = None


def chooser_text(d: dict) -> str:
    """R-6.1: who names the first player, and how a tie for fewest VP was broken: each
    tied seat rolls one die, the highest names the first player; the seats equal
    highest roll again, each roll of dice said apart ("first roll: north 5, east 6,
    south 6, west 2; east and south roll again: east 2, south 1"); play then goes
    clockwise from the seat named. Older events without ``rounds`` keep each seat's
    last roll only."""
    seat, rolls = d.get("seat"), d.get("rolls") or {}
    if not rolls:
        return f"{seat} has the fewest VP and names the first player; play goes clockwise from him (R-6.1)."
    rounds = d.get("rounds") or []
    if rounds:
        vp = (d.get("vp") or {}).get(seat)
        said = []
        for i, r in enumerate(rounds):
            dice = ", ".join(f"{s} {n}" for s, n in r.items())
            said.append(f"First roll: {dice}" if i == 0 else
                        f"{' and '.join(r)} tie for the highest and roll again: {dice}")
        return (f"{', '.join(rounds[0])} tie for the fewest VP ({vp}); one die each, the highest names the "
                f"first player. " + "; ".join(said)
                + f". {seat} names the first player; play goes clockwise from the seat named (R-6.1).")
    vp = (d.get("vp") or {}).get(seat)
    dice = ", ".join(f"{s} {n}" for s, n in rolls.items())
    return (f"{', '.join(rolls)} tie for the fewest VP ({vp}): one die each, the highest names the "
            f"first player ({dice}{'; equal highest rolled again' if list(rolls.values()).count(rolls.get(seat)) > 1 else ''}): "
            f"{seat} names the first player, and play goes clockwise from the seat named (R-6.1).")


def _year(pack, turn) -> str:
    """`` (319 BC)``: a turn's year from the pack's turn track, or nothing."""
    year = next((t.year_bc for t in pack.turns if t.number == turn), None)
    return f" ({year} BC)" if year else ""


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


HOW_ATTACKED = {"battle": "in battle", "overrun": "by overrunning its CUs", "assault": "by an assault on its major city",
                "naval battle": "by a naval interception", "sally": "by a sally from a major city"}
"""How an attack on a Champion was made (``ChampionLost``'s ``how``, R-11.4), as a phrase."""

KINDS: tuple[EventKind, ...] = (
    EventKind('TurnOrderSet',
              ('chooser', 'decision', 'first', 'order', 'rule', 'vp'),
              reduce=_order,
              writes=('turn_order', 'order_choice'),
              say=lambda p, d: f"Turn order: {', '.join(d.get('order', []))}"
                               + (f" ({d['chooser']}, with the fewest VP, names {d['first']} "
                                  "first; play goes clockwise from him, R-6.1)" if d.get("chooser") else "") + "."),
    EventKind('UsurpersLabelled',
              ('rule', 'seats', 'vp'),
              reduce=_usurpers,
              writes=('usurpers',),
              say=lambda p, d: (f"Usurper: {', '.join(d['seats'])}." if d.get("seats") else "No usurper.")),
    EventKind('ChampionsSet',
              ('seats',),
              optional=('rule',),
              reduce=_champions,
              say=lambda p, d: f"Champions: {', '.join(d.get('seats', []))}."),
    EventKind('ChampionLost',
              ('how', 'rule', 'seat', 'target'),
              reduce=_champion_lost,
              say=lambda p, d: f"{d.get('seat')} loses Champion status (R-11.4): it attacked {d.get('target')}, "
                               f"a Champion and no Usurper, {HOW_ATTACKED.get(str(d.get('how')), 'by ' + str(d.get('how')))}."),
    EventKind('RoundStarted',
              ('round', 'rule'),
              reduce=_round,
              writes=('round', 'played'),
              say=lambda p, d: f"Round {d.get('round')} begins."),
    EventKind('PlayerTurnStarted',
              ('round', 'rule', 'seat', 'tyche_only'),
              reduce=_pt_started,
              writes=('active',),
              say=lambda p, d: f"{d.get('seat')}'s player-turn begins."),
    EventKind('TurnPassed',
              ('round', 'rule', 'seat'),
              reduce=_passed,
              writes=('played', 'active'),
              say=lambda p, d: f"{d.get('seat', d.get('from'))} ends the player-turn."),
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
              seen_by='seat',
              say=lambda p, d: (f"{d.get('seat')} sets {count(len(d['orders']), 'standing order')} (R-9.3)."
                                if d.get("orders") else f"{d.get('seat')} clears its standing orders (R-9.3).")),
    EventKind('PhaseStarted',
              ('phase', 'rule'),
              optional=('turn',),
              reduce=_phase,
              writes=('phase', 'turn', 'training_cards'),
              say=lambda p, d: f"Phase: {str(d.get('phase', '')).replace('_', ' ')}."),
    EventKind('TurnEnded',
              ('next', 'rule', 'turn'),
              reduce=_turn_ended,
              writes=('turn',),
              say=lambda p, d: f"Turn {d.get('turn', '')}{_year(p, d.get('turn'))} ends; turn "
                               f"{d.get('next', '')}{_year(p, d.get('next'))} begins (R-6.7)."),
    EventKind('ReinforcementsGranted',
              ('cus', 'queue', 'rule'),
              reduce=_granted,
              writes=('reinforce',),
              say=lambda p, d: "Reinforcements (R-7.1): " + "; ".join(
            f"{seat} {cus_text(cus, p)}" for seat, cus in (d.get("cus") or {}).items()) + "."),
    EventKind('ReinforcementsPlaced',
              ('rule', 'seat'),
              reduce=_reinf_placed,
              writes=('reinforce',),
              say=lambda p, d: f"{d.get('seat')} has placed the reinforcements."),
    EventKind('VictoryClaimed',
              ('kind', 'rule', 'seat', 'waiting'),
              reduce=_claim,
              writes=('claim',),
              say=lambda p, d: f"{d.get('seat')} declares an automatic victory ({d.get('kind', '').upper()})."),
    EventKind('VictoryClaimUpdated',
              ('rule', 'seat'),
              optional=('cleared', 'waiting', 'why'),
              reduce=_claim_upd,
              writes=('claim',),
              say=lambda p, d: (f"{d.get('seat')}'s claim of an automatic victory lapses"
                               + (f": it {d['why']}" if d.get("why") else "") + " (R-1.1)."
                               if d.get("cleared") else
                               f"{d.get('seat')}'s claim of an automatic victory waits for "
                               + (", ".join(d.get("waiting") or []) or "nobody") + " (R-1.1).")),
    EventKind('GameWon',
              ('how', 'rule', 'winner'),
              optional=('heir', 'keys', 'lp', 'ranking', 'totals', 'vp'),
              reduce=_won,
              say=lambda p, d: f"{d.get('seat', d.get('winner'))} wins the game ({d.get('how', '')})."),
    EventKind('SurrenderDeclined',
              ('rule', 'seat', 'spaces'),
              say=lambda p, d: f"{d.get('seat')} declines surrender in {spaces_text(p, d.get('spaces'))}."),
    EventKind('Note',
              ('rule', 'text'),
              optional=('seat',),
              say=lambda p, d: f"Note: {d.get('text', '')}."),
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
              say=lambda p, d: chooser_text(d)),
)
