"""Events of legitimacy and the royal family (R-11, R-12, R-16): control of a member
taken and lost, activation, marriage offers and marriages, death, entry on the map,
burial, LP from cards, Condemnation, Mutiny, the counted heir, a Champion's return.
"""
from __future__ import annotations

from pbem.rules.core.events.base import EventKind, add_cus, add_dispersed
from pbem.rules.core.names import (
    card_label,
    cus_text,
    general_name,
    royal_name,
    space_name,
)
from pbem.rules.core.state import SEATS, State

HOW = {"alone": "found alone", "battle": "captured in battle",
       "siege": "captured when the siege of the city completed",
       "overrun": "captured when its army was overrun", "joined": "its army went over"}
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


def _lost_text(p, d) -> str:
    end = ", who becomes inactive" if d.get("woman") else ""
    if d.get("by"):
        return (f"{royal_name(p, d.get('royal'))} is captured from {d.get('seat')} by "
                f"{d['by']} in {space_name(p, d.get('space'))}{end} (R-12.3).")
    return (f"{d.get('seat')} no longer controls {royal_name(p, d.get('royal'))}: nothing "
            f"of theirs is left in {space_name(p, d.get('space'))}{end} (R-12.1).")


def _mutiny_text(p, d) -> str:
    return (f"Mutiny ({card_label(p, d.get('card'))}, played by {d.get('seat')}): "
            f"{cus_text(d.get('cus') or {}, p)} of {d.get('target')}'s army under "
            + ("a minor general" if d.get("commander") in (None, "minor") else
               general_name(p, d.get("commander")))
            + f" in {space_name(p, d.get('space'))} "
            f"desert to {d.get('seat')}'s dispersed box (legitimacy "
            f"{d.get('legitimacy', {}).get(d.get('seat'), '?')} against "
            f"{d.get('legitimacy', {}).get(d.get('target'), '?')}, R-11.2).")


KINDS: tuple[EventKind, ...] = (
    EventKind('RoyalTaken',
              ('how', 'royal', 'rule', 'seat', 'space'),
              optional=('from',),
              reduce=_taken,
              say=lambda p, d: f"{d.get('seat')} takes {royal_name(p, d.get('royal'))} in "
                               f"{space_name(p, d.get('space'))} ("
                               f"{HOW.get(d.get('how'), d.get('how'))}"
                               + (f" from {d['from']}" if d.get("from") else "")
                               + f", {d.get('rule')})."),
    EventKind('RoyalControlLost',
              ('how', 'royal', 'rule', 'seat', 'space'),
              optional=('by', 'woman'),
              reduce=_lost,
              say=_lost_text),
    EventKind('RoyalActivated',
              ('card', 'royal', 'rule', 'seat', 'space'),
              reduce=_activated,
              say=lambda p, d: f"{royal_name(p, d.get('royal'))} becomes active under "
                               f"{d.get('seat')}'s control in {space_name(p, d.get('space'))}"
                               f" ({card_label(p, d.get('card'))}, R-12.2)."),
    EventKind('MarriageOffered',
              ('card', 'royal', 'rule', 'seat'),
              reduce=_offered,
              say=lambda p, d: f"{royal_name(p, d.get('royal'))} offers marriage to "
                               f"{d.get('seat')} until the end of the turn "
                               f"({card_label(p, d.get('card'))}, R-12.2)."),
    EventKind('MarriageConcluded',
              ('card', 'royal', 'rule', 'seat', 'space'),
              optional=('passage',),
              reduce=_married,
              say=lambda p, d: f"{royal_name(p, d.get('royal'))} marries a general of "
                               f"{d.get('seat')} in {space_name(p, d.get('space'))} and "
                               f"becomes active under their control"
                               + (f", {' and '.join(d['passage'])} granting free passage"
                                  if d.get("passage") else "") + " (R-12.2)."),
    EventKind('MarriageOfferEnded',
              ('card', 'married', 'royal', 'rule', 'seat'),
              reduce=_offer_ended,
              say=lambda p, d: (f"The turn ends: {card_label(p, d.get('card'))} goes back "
                                "to the deck" + ("" if d.get("married") else
                                                 f"; {royal_name(p, d.get('royal'))} has "
                                                 f"lost interest in {d.get('seat')}")
                                + " (R-12.2).")),
    EventKind('RoyalKilled',
              ('card', 'royal', 'rule', 'seat'),
              optional=('controller', 'space'),
              reduce=_killed,
              say=lambda p, d: f"{royal_name(p, d.get('royal'))} is killed "
                               f"({card_label(p, d.get('card'))}, played by {d.get('seat')}"
                               f"): the member leaves play (R-12.6)."),
    EventKind('RoyalMoved',
              ('card', 'from', 'royal', 'rule', 'to'),
              optional=('seat',),
              reduce=_moved,
              say=lambda p, d: f"{royal_name(p, d.get('royal'))} "
                               + ("comes from the holding box to "
                                  if not d.get("from") else "is moved to ")
                               + f"{space_name(p, d.get('to'))}"
                               + (f", with {d['seat']}'s army" if d.get("seat") else "")
                               + f" ({card_label(p, d.get('card'))}, R-12.5)."),
    EventKind('BodyBuried',
              ('pella', 'rule', 'seat', 'space'),
              reduce=_buried,
              say=lambda p, d: f"{d.get('seat')} buries Alexander's body in "
                               f"{space_name(p, d.get('space'))}: "
                               + ("their faction gains the burial LP for good"
                                  if d.get("pella") else
                                  "the tomb gives the Tomb Guardian LP to whoever "
                                  "controls the city") + " (R-12.4)."),
    EventKind('LegitimacyAdjusted',
              ('amount', 'card', 'rule', 'seat', 'turn'),
              optional=('played_by', 'royal'),
              reduce=_lp,
              say=lambda p, d: f"{d.get('seat')} "
                               + ("gains" if int(d.get("amount") or 0) >= 0 else "loses")
                               + f" {abs(int(d.get('amount') or 0))} LP "
                               + ("this turn" if d.get("turn") is not None else "for the game")
                               + f" ({card_label(p, d.get('card'))}"
                               + (f", played by {d['played_by']}" if d.get("played_by")
                                  and d.get("played_by") != d.get("seat") else "")
                               + ", R-11.1)."),
    EventKind('CondemnationPlaced',
              ('card', 'general', 'lp', 'rule', 'seat'),
              optional=('owner', 'previous'),
              reduce=_condemned,
              say=lambda p, d: f"{d.get('seat')} places the Condemnation marker on "
                               f"{general_name(p, d.get('general'))}"
                               + (f" ({d['owner']})" if d.get("owner") else "")
                               + (f", taking it from {general_name(p, d['previous'])}"
                                  if d.get("previous") else "")
                               + f": {d.get('lp')} LP while he is condemned "
                               f"({card_label(p, d.get('card'))}, R-16.1)."),
    EventKind('CondemnationLifted',
              ('card', 'general', 'rule', 'seat'),
              optional=('why',),
              reduce=_condemnation_lifted,
              say=lambda p, d: f"The Condemnation marker leaves "
                               f"{general_name(p, d.get('general'))} and returns to its "
                               f"holding box" + (f" ({d['why']})" if d.get("why") else "")
                               + " (R-16.1)."),
    EventKind('MutinyStruck',
              ('card', 'commander', 'cus', 'legitimacy', 'rule', 'seat', 'space', 'target'),
              reduce=_mutiny,
              say=_mutiny_text),
    EventKind('HeirChosen',
              ('royal', 'rule', 'seat'),
              reduce=_heir,
              say=lambda p, d: f"{d.get('seat')} counts the LP of "
                               f"{royal_name(p, d.get('royal'))} as their heir (R-11.1)."),
    EventKind('ChampionRegained',
              ('rule', 'seat'),
              reduce=_regained,
              say=lambda p, d: f"{d.get('seat')}'s VP have fallen to 0: they are a "
                               f"Champion again (R-11.4)."),
)
