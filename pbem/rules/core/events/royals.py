"""Events of legitimacy and the royal family (R-11, R-12, R-16): control of a member
taken and lost, activation, marriage offers and marriages, death, entry on the map,
burial, LP from cards, Condemnation, Mutiny, the counted heir, a Champion's return.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.rules.core.events.base import EventKind, add_cus, add_dispersed, cus_count
from pbem.rules.core.names import (
    N_,
    Words,
    card_label,
    cus_text,
    general_name,
    royal_name,
    space_name,
)
from pbem.rules.core.state import SEATS, State

HOW = {"alone": N_("found alone"), "battle": N_("captured in battle"),
       "siege": N_("captured when the siege of the city completed"),
       "overrun": N_("captured when its army was overrun"), "joined": N_("its army went over")}
"""How a member changed hands, as the reports say it (R-12.3)."""


def _court(s: State) -> dict:
    c = s.get("court")
    if c is None:
        c = s["court"] = {}
    return c


def _taken(s: State, d: dict) -> None:
    s["royals"][d["royal"]]["seat"] = d["seat"]


def _lost(s: State, d: dict) -> None:
    r = s["royals"][d["royal"]]
    r["seat"] = None
    if d.get("woman"):  # a woman no longer controlled becomes inactive
        r["active"] = False


def _activated(s: State, d: dict) -> None:
    r = s["royals"][d["royal"]]
    r["active"], r["seat"] = True, d["seat"]


def _offered(s: State, d: dict) -> None:
    _court(s).setdefault("offers", {})[d["royal"]] = {"seat": d["seat"], "card": d["card"],
                                                       "married": False}
    if d["card"] in s["discards"]:  # the card lies before the player
        s["discards"].remove(d["card"])


def _married(s: State, d: dict) -> None:
    _activated(s, d)
    _court(s)["offers"][d["royal"]]["married"] = True


def _offer_ended(s: State, d: dict) -> None:
    _court(s).get("offers", {}).pop(d["royal"], None)
    s["discards"].append(d["card"])  # back to the deck with the discards


def _killed(s: State, d: dict) -> None:
    s["royals"][d["royal"]] = {"space": None, "active": False, "seat": None, "gone": True}


def _moved(s: State, d: dict) -> None:
    r = s["royals"][d["royal"]]
    r["space"], r["seat"] = d["to"], d.get("seat")


def _buried(s: State, d: dict) -> None:
    s["royals"]["body"] = {"space": None, "active": False, "seat": None, "gone": True}
    _court(s)["tomb"] = {"space": d["space"], "seat": d["seat"], "pella": d["pella"]}


def _lp(s: State, d: dict) -> None:
    _court(s).setdefault("lp_cards", []).append(
        {"seat": d["seat"], "amount": d["amount"], "card": d["card"], "turn": d["turn"]})


def _condemned(s: State, d: dict) -> None:
    _court(s)["condemned"] = {"general": d["general"], "card": d["card"], "lp": d["lp"]}


def _condemnation_lifted(s: State, d: dict) -> None:
    _court(s).pop("condemned", None)


def _mutiny(s: State, d: dict) -> None:
    add_cus(s, d["target"], d["space"], {t: -n for t, n in d["cus"].items()})
    add_dispersed(s, d["seat"], d["cus"])


def _heir(s: State, d: dict) -> None:
    _court(s).setdefault("heirs", {})[d["seat"]] = d["royal"]


def _regained(s: State, d: dict) -> None:
    s["champions"] = [x for x in SEATS if x in s["champions"] or x == d["seat"]]


def _lost_text(p: Any, d: Mapping[str, Any], t: Words) -> str:
    v = {"royal": royal_name(p, d.get('royal')), "seat": d.get('seat'), "by": d.get('by'),
         "space": space_name(p, d.get('space'), t),
         "end": t.gettext(", who becomes inactive") if d.get("woman") else ""}
    if d.get("by"):
        return t.gettext("%(royal)s is captured from %(seat)s by %(by)s in %(space)s%(end)s (R-12.3).") % v
    return t.gettext("%(seat)s no longer controls %(royal)s: nothing of theirs is left in %(space)s%(end)s "
                     "(R-12.1).") % v


def _mutiny_text(p: Any, d: Mapping[str, Any], t: Words) -> str:
    return t.ngettext(  # the verb agrees with the CUs: "1 loyal deserts" (issue 24 N10)
        "Mutiny (%(card)s, played by %(seat)s): %(cus)s of %(target)s's army under %(commander)s in "
        "%(space)s deserts to %(seat)s's dispersed box (legitimacy %(ours)s against %(theirs)s, R-11.2).",
        "Mutiny (%(card)s, played by %(seat)s): %(cus)s of %(target)s's army under %(commander)s in "
        "%(space)s desert to %(seat)s's dispersed box (legitimacy %(ours)s against %(theirs)s, R-11.2).",
        cus_count(d.get('cus'))) % {
        "card": card_label(p, d.get('card'), t), "seat": d.get('seat'), "cus": cus_text(d.get('cus') or {}, p, t),
        "target": d.get('target'), "space": space_name(p, d.get('space'), t),
        "commander": (t.gettext("a minor general") if d.get("commander") in (None, "minor")
                      else general_name(p, d.get("commander"))),
        "ours": d.get('legitimacy', {}).get(d.get('seat'), '?'),
        "theirs": d.get('legitimacy', {}).get(d.get('target'), '?')}


def _royal_taken_text(p: Any, d: Mapping[str, Any], t: Words) -> str:
    how = t.gettext(HOW[d.get('how')]) if d.get('how') in HOW else d.get('how')
    v = {"seat": d.get('seat'), "royal": royal_name(p, d.get('royal')), "space": space_name(p, d.get('space'), t),
         "how": how, "from": d.get('from'), "rule": d.get('rule')}
    if d.get("from"):
        return t.gettext("%(seat)s takes %(royal)s in %(space)s (%(how)s from %(from)s, %(rule)s).") % v
    return t.gettext("%(seat)s takes %(royal)s in %(space)s (%(how)s, %(rule)s).") % v


def _married_text(p: Any, d: Mapping[str, Any], t: Words) -> str:
    v = {"royal": royal_name(p, d.get('royal')), "seat": d.get('seat'), "space": space_name(p, d.get('space'), t),
         "passage": t.gettext(" and ").join(d.get('passage') or [])}
    if d.get("passage"):
        return t.gettext("%(royal)s marries a general of %(seat)s in %(space)s and becomes active under their control, "
                         "%(passage)s granting free passage (R-12.2).") % v
    return t.gettext("%(royal)s marries a general of %(seat)s in %(space)s and becomes active under their control "
                     "(R-12.2).") % v


def _offer_ended_text(p: Any, d: Mapping[str, Any], t: Words) -> str:
    v = {"card": card_label(p, d.get('card'), t), "royal": royal_name(p, d.get('royal')), "seat": d.get('seat')}
    if d.get("married"):
        return t.gettext("The turn ends: %(card)s goes back to the deck (R-12.2).") % v
    return t.gettext("The turn ends: %(card)s goes back to the deck; %(royal)s has lost interest in %(seat)s "
                     "(R-12.2).") % v


def _royal_moved_text(p: Any, d: Mapping[str, Any], t: Words) -> str:
    v = {"royal": royal_name(p, d.get('royal')), "to": space_name(p, d.get('to'), t), "seat": d.get('seat'),
         "card": card_label(p, d.get('card'), t)}
    if not d.get("from"):
        text = (t.gettext("%(royal)s comes from the holding box to %(to)s, with %(seat)s's army (%(card)s, R-12.5).")
                if d.get("seat") else t.gettext("%(royal)s comes from the holding box to %(to)s (%(card)s, R-12.5)."))
    else:
        text = (t.gettext("%(royal)s is moved to %(to)s, with %(seat)s's army (%(card)s, R-12.5).")
                if d.get("seat") else t.gettext("%(royal)s is moved to %(to)s (%(card)s, R-12.5)."))
    return text % v


def _buried_text(p: Any, d: Mapping[str, Any], t: Words) -> str:
    v = {"seat": d.get('seat'), "space": space_name(p, d.get('space'), t)}
    if d.get("pella"):
        return t.gettext("%(seat)s buries Alexander's body in %(space)s: their faction gains the burial LP for good "
                         "(R-12.4).") % v
    return t.gettext("%(seat)s buries Alexander's body in %(space)s: the tomb gives the Tomb Guardian LP to whoever "
                     "controls the city (R-12.4).") % v


def _lp_adjusted_text(p: Any, d: Mapping[str, Any], t: Words) -> str:
    n = int(d.get("amount") or 0)
    v = {"seat": d.get('seat'), "num": abs(n), "card": card_label(p, d.get('card'), t), "by": d.get('played_by')}
    this_turn = d.get("turn") is not None
    if n >= 0:
        text = (t.gettext("%(seat)s gains %(num)s LP this turn") if this_turn
                else t.gettext("%(seat)s gains %(num)s LP for the game")) % v
    else:
        text = (t.gettext("%(seat)s loses %(num)s LP this turn") if this_turn
                else t.gettext("%(seat)s loses %(num)s LP for the game")) % v
    if d.get("played_by") and d.get("played_by") != d.get("seat"):
        return text + t.gettext(" (%(card)s, played by %(by)s, R-11.1).") % v
    return text + t.gettext(" (%(card)s, R-11.1).") % v


def _condemned_text(p: Any, d: Mapping[str, Any], t: Words) -> str:
    v = {"seat": d.get('seat'), "general": general_name(p, d.get('general')), "owner": d.get('owner'),
         "previous": general_name(p, d.get('previous')), "lp": d.get('lp'), "card": card_label(p, d.get('card'), t)}
    text = t.gettext("%(seat)s places the Condemnation marker on %(general)s") % v
    if d.get("owner"):
        text += f" ({d['owner']})"
    if d.get("previous"):
        text += t.gettext(", taking it from %(previous)s") % v
    return text + t.gettext(": %(lp)s LP while he is condemned (%(card)s, R-16.1).") % v


KINDS: tuple[EventKind, ...] = (
    EventKind('RoyalTaken',
              ('how', 'royal', 'rule', 'seat', 'space'),
              optional=('from',),
              reduce=_taken,
              writes=('royals',),
              say=_royal_taken_text),
    EventKind('RoyalControlLost',
              ('how', 'royal', 'rule', 'seat', 'space'),
              optional=('by', 'woman'),
              reduce=_lost,
              writes=('royals',),
              say=_lost_text),
    EventKind('RoyalActivated',
              ('card', 'royal', 'rule', 'seat', 'space'),
              reduce=_activated,
              say=lambda p, d, t: t.gettext("%(royal)s becomes active under %(seat)s's control in %(space)s (%(card)s, "
                                        "R-12.2).") % {
                  "royal": royal_name(p, d.get('royal')), "seat": d.get('seat'),
                  "space": space_name(p, d.get('space'), t), "card": card_label(p, d.get('card'), t)}),
    EventKind('MarriageOffered',
              ('card', 'royal', 'rule', 'seat'),
              reduce=_offered,
              writes=('court', 'discards'),
              say=lambda p, d, t: t.gettext("%(royal)s offers marriage to %(seat)s until the end of the turn (%(card)s, "
                                        "R-12.2).") % {
                  "royal": royal_name(p, d.get('royal')), "seat": d.get('seat'), "card": card_label(p, d.get('card'), t)}),
    EventKind('MarriageConcluded',
              ('card', 'royal', 'rule', 'seat', 'space'),
              optional=('passage',),
              reduce=_married,
              say=_married_text),
    EventKind('MarriageOfferEnded',
              ('card', 'married', 'royal', 'rule', 'seat'),
              reduce=_offer_ended,
              writes=('court', 'discards'),
              say=_offer_ended_text),
    EventKind('RoyalKilled',
              ('card', 'royal', 'rule', 'seat'),
              optional=('controller', 'space'),
              reduce=_killed,
              say=lambda p, d, t: t.gettext("%(royal)s is killed (%(card)s, played by %(seat)s): the member leaves play "
                                        "(R-12.6).") % {
                  "royal": royal_name(p, d.get('royal')), "seat": d.get('seat'), "card": card_label(p, d.get('card'), t)}),
    EventKind('RoyalMoved',
              ('card', 'from', 'royal', 'rule', 'to'),
              optional=('seat',),
              reduce=_moved,
              say=_royal_moved_text),
    EventKind('BodyBuried',
              ('pella', 'rule', 'seat', 'space'),
              reduce=_buried,
              say=_buried_text),
    EventKind('LegitimacyAdjusted',
              ('amount', 'card', 'rule', 'seat', 'turn'),
              optional=('played_by', 'royal'),
              reduce=_lp,
              writes=('court',),
              say=_lp_adjusted_text),
    EventKind('CondemnationPlaced',
              ('card', 'general', 'lp', 'rule', 'seat'),
              optional=('owner', 'previous'),
              reduce=_condemned,
              writes=('court',),
              say=_condemned_text),
    EventKind('CondemnationLifted',
              ('card', 'general', 'rule', 'seat'),
              optional=('why',),
              reduce=_condemnation_lifted,
              writes=('court',),
              say=lambda p, d, t: (t.gettext("The Condemnation marker leaves %(general)s and returns to its holding box "
                                         "(%(why)s) (R-16.1).") if d.get("why") else
                               t.gettext("The Condemnation marker leaves %(general)s and returns to its holding box "
                                         "(R-16.1).")) % {"general": general_name(p, d.get('general')), "why": d.get('why')}),
    EventKind('MutinyStruck',
              ('card', 'commander', 'cus', 'legitimacy', 'rule', 'seat', 'space', 'target'),
              reduce=_mutiny,
              say=_mutiny_text),
    EventKind('HeirChosen',
              ('royal', 'rule', 'seat'),
              reduce=_heir,
              writes=('court',),
              say=lambda p, d, t: t.gettext("%(seat)s counts the LP of %(royal)s as their heir (R-11.1).") % {
                  "seat": d.get('seat'), "royal": royal_name(p, d.get('royal'))}),
    EventKind('ChampionRegained',
              ('rule', 'seat'),
              reduce=_regained,
              writes=('champions',),
              say=lambda p, d, t: t.gettext("%(seat)s's VP have fallen to 0: they are a Champion again (R-11.4).") % {
                  "seat": d.get('seat')}),
)
