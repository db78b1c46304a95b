"""Events of the pieces on the board (R-2, R-4, R-5, R-7, R-8.1, R-8.3, R-8.4, R-12): setup, CUs, garrisons, generals, minor generals, royals, units inside a major city, special units.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.plural import count
from pbem.rules.core.events.base import (
    EventKind,
    add_cus,
    add_dispersed,
    clip_inside,
    war,
)
from pbem.rules.core.names import (
    a_unit,
    card_label,
    cus_removed_text,
    cus_text,
    garrison_removed_text,
    general_name,
    indep_army_name,
    indep_name,
    indep_verb,
    off_map_text,
    ops_text,
    primary_text,
    royal_name,
    space_name,
    spaces_text,
    special_unit_name,
)
from pbem.rules.core.state import SEATS, State, seat_private


def _game_started(s: State, d: dict) -> None:
    s["pack_name"] = d["pack"]
    for key in ("dispersed", "training_cards", "lp_adjust", "minors", "primary"):
        s[key] = {seat: ([] if key in ("minors", "primary") else
                         ({} if key == "dispersed" else 0)) for seat in d["seats"]}
    s["private"] = {seat: {"hand": [], "training": [], "standing": []} for seat in d["seats"]}
    s["secret"] = {"deck": []}  # empty until the first shuffle
    s["turn"] = d["turn"]
    s["options"] = dict(d.get("options", {}))


def _indep(s: State, d: dict) -> None:
    s["independent"] = sorted(set(s["independent"]) | set(d["spaces"]))
    for x in d["spaces"]:
        s["garrisons"].pop(x, None)


def _indep_army(s: State, d: dict) -> None:
    s["indep_armies"][d["army"]] = {"space": d.get("space"), "strength": d["strength"]}


def _royal(s: State, d: dict) -> None:
    s["royals"][d["royal"]] = {"space": d.get("space"), "active": d["active"],
                               "seat": d.get("seat")}


def _primary(s: State, d: dict) -> None:
    s["primary"] = {k: list(v) for k, v in d["cards"].items()}


def _general_placed(s: State, d: dict) -> None:
    old = s["generals"].get(d["general"], {}).get("space")
    s["generals"][d["general"]] = {"seat": d.get("seat"), "where": d["where"],
                                   "space": d.get("space")}
    if old:
        clip_inside(s, old)


def _cus_placed(s: State, d: dict) -> None:
    add_cus(s, d["seat"], d["space"], d["cus"])
    if d.get("from_dispersed"):
        box = s["dispersed"][d["seat"]]
        for t, n in d["cus"].items():
            box[t] -= n
            if box[t] <= 0:
                del box[t]


def _cus_removed(s: State, d: dict) -> None:
    add_cus(s, d["seat"], d["space"], {t: -n for t, n in d["cus"].items()})
    specials = (s.get("war") or {}).get("specials")
    for t in d["cus"]:  # a special unit removed is destroyed, never returns
        if specials and t in specials:
            specials[t] = "destroyed"


def _cus_dispersed(s: State, d: dict) -> None:
    add_cus(s, d["seat"], d["space"], {t: -n for t, n in d["cus"].items()})
    add_dispersed(s, d["seat"], d["cus"])


def _dispersed_added(s: State, d: dict) -> None:
    add_dispersed(s, d["seat"], d["cus"])


def _garrison_placed(s: State, d: dict) -> None:
    s["garrisons"][d["space"]] = d["seat"]
    if d["space"] in s["independent"]:
        s["independent"].remove(d["space"])


def _garrison_removed(s: State, d: dict) -> None:
    s["garrisons"].pop(d["space"], None)


def _minor(s: State, d: dict) -> None:
    s["minors"][d["seat"]].append(d["space"])


def _minor_removed(s: State, d: dict) -> None:
    s["minors"][d["seat"]].remove(d["space"])


def _commander(s: State, d: dict) -> None:
    s["commanders"][d["space"]] = d["general"]


def _royal_removed(s: State, d: dict) -> None:
    s["royals"][d["royal"]] = {"space": None, "active": False, "gone": True}


def _went_inside(s: State, d: dict) -> None:
    rec = s.setdefault("inside", {}).setdefault(
        d["space"], {"seat": d["seat"], "cus": {}, "generals": []})
    for t, n in d["cus"].items():
        rec["cus"][t] = rec["cus"].get(t, 0) + n
    rec["generals"] = sorted(set(rec["generals"]) | set(d.get("generals", [])))


def _came_out(s: State, d: dict) -> None:
    rec = (s.get("inside") or {}).get(d["space"])
    if not rec:
        return
    for t, n in d["cus"].items():
        rec["cus"][t] = rec["cus"].get(t, 0) - n
    rec["cus"] = {t: n for t, n in rec["cus"].items() if n > 0}
    rec["generals"] = [g for g in rec["generals"] if g not in d.get("generals", [])]
    clip_inside(s, d["space"])


def _special_joined(s: State, d: dict) -> None:
    """R-4.1: a special unit leaves its holding box and joins an army (a CU type key)."""
    add_cus(s, d["seat"], d["space"], {d["unit"]: 1})
    war(s).setdefault("specials", {})[d["unit"]] = "in_play"


def _defected(s: State, d: dict) -> None:
    add_cus(s, d["from"], d["space"], {"royal": -d["count"]})
    add_cus(s, d["to"], d["space"], {"royal": d["count"]})


def _set_aside(s: State, d: dict) -> None:
    """R-4.3: the royal CUs set aside leave the battle (they are back in the state when
    they join the winner, ``RoyalCUsJoined``, in the same decision)."""
    add_cus(s, d["seat"], d["space"], {"royal": -d["count"]})


def _royals_joined(s: State, d: dict) -> None:
    add_cus(s, d["seat"], d["space"], {"royal": d["count"]})


def _training(s: State, d: dict) -> None:
    seat_private(s, d["seat"])["training"] = [dict(u) for u in d["units"]]


def _at_space(d: Mapping[str, Any]) -> tuple[str, ...]:
    """``where`` of the kinds that change the pieces of the one space in their data."""
    return (d["space"],)



def _general_placed_text(p: Any, d: Mapping[str, Any]) -> str:
    """A general placed (``GeneralPlaced``), with why when he comes onto the map in the
    reinforcement phase (R-7.3): back from the dispersed box to one of his seat's
    garrisons, or from the turn track to the seat with fewest VP [D]; by a card (R-8.6)."""
    name, seat, rule = general_name(p, d.get("general")), d.get("seat") or "nobody", d.get("rule")
    if not d.get("space"):
        return f"{name} {off_map_text(d.get('where'))}."
    where = space_name(p, d.get("space"))
    if rule == "R-7.3" and d.get("decision"):
        return (f"{name} arrives from the turn track in {where}: he joins {seat}, the seat with the fewest "
                f"VP, at one of its garrisons (R-7.3, docs/rules.md).")
    if rule == "R-7.3":
        return f"{name} ({seat}) returns from the dispersed box to {where}, one of {seat}'s garrisons (R-7.3)."
    if rule == "R-8.6":
        return f"{name} ({seat}) is placed in {where} by the card's event (R-8.6)."
    return f"{name} ({seat}) is placed in {where}."


def _training_text(p: Any, d: Mapping[str, Any]) -> str:
    """OPs paid toward training (``TrainingPaid``, R-8.4), summed per unit type: the
    entries of one type go into the same unit in training (its oldest unfinished one),
    so ``[2, 1]`` toward a phalangite reads "3 OPs toward a phalangite", not as two
    units (issue 24 item H)."""
    paid: dict[str, int] = {}
    for e in d.get("paid") or []:
        paid[str(e.get("unit"))] = paid.get(str(e.get("unit")), 0) + int(e.get("ops") or 0)
    return (f"{d.get('seat')} pays " + " and ".join(f"{ops_text(n)} toward {a_unit(u)}" for u, n in paid.items())
            + " in training (R-8.4).")


KINDS: tuple[EventKind, ...] = (
    EventKind('GameStarted',
              ('pack', 'seats', 'turn'),
              optional=('options',),
              reduce=_game_started,
              say=lambda p, d: f"The game begins: {d.get('year', '323')} BC, seats "
                                    f"{', '.join(d.get('seats', SEATS))}."),
    EventKind('IndependentMarkersPlaced',
              ('spaces',),
              optional=('rule', 'card'),
              reduce=_indep,
              say=lambda p, d: (f"Independent markers are placed on {count(len(d.get('spaces', [])), 'space')}."
                                if not d.get("card") else
                                f"{card_label(p, d['card'])} places independent markers on "
                                + (spaces_text(p, d.get("spaces")) or "no space: none qualifies")
                                + f" ({d.get('rule', 'R-16')}).")),
    EventKind('IndependentArmyPlaced',
              ('army', 'rule', 'space', 'strength'),
              reduce=_indep_army,
              say=lambda p, d: (f"{indep_name(p, d.get('army'), True)} (strength "
                                               f"{d.get('strength', '?')}) {indep_verb(p, d.get('army'), 'is', 'are')} in "
                                               f"{space_name(p, d.get('space'))}." if d.get("space") else
                                               f"{indep_army_name(p, d.get('army'))}: not on the map yet.")),
    EventKind('RoyalPlaced',
              ('active', 'royal', 'rule', 'space'),
              optional=('seat',),
              reduce=_royal,
              say=lambda p, d: (f"{royal_name(p, d.get('royal'))} is in {space_name(p, d.get('space'))}"
                                     + ("" if d.get("active", True) else " (inactive)")
                                     + (f", with {d['seat']}" if d.get("seat") else "") + "."
                                     if d.get("space") else f"{royal_name(p, d.get('royal'))} waits off the map.")),
    EventKind('PrimaryGeneralsDealt',
              ('cards', 'rolled', 'rule'),
              reduce=_primary,
              say=primary_text),
    EventKind('GeneralPlaced',
              ('general', 'rule', 'seat', 'space', 'where'),
              optional=('decision',),
              reduce=_general_placed,
              say=_general_placed_text),
    EventKind('CUsPlaced',
              ('cus', 'rule', 'seat', 'space'),
              optional=('from_dispersed', 'why'),
              reduce=_cus_placed,
              where=_at_space,
              say=lambda p, d: f"{d.get('seat')} places {cus_text(d.get('cus'), p)} in {space_name(p, d.get('space'))}."),
    EventKind('CUsRemoved',
              ('cus', 'rule', 'seat', 'space', 'why'),
              optional=('chosen', 'limit'),
              reduce=_cus_removed,
              where=_at_space,
              say=cus_removed_text),
    EventKind('CUsDispersed',
              ('cus', 'rule', 'seat', 'space'),
              reduce=_cus_dispersed,
              where=_at_space,
              say=lambda p, d: f"{d.get('seat')}'s {cus_text(d.get('cus'), p)} in {space_name(p, d.get('space'))} go to the "
                                     "dispersed box."),
    EventKind('DispersedAdded',
              ('cus', 'rule', 'seat', 'why'),
              reduce=_dispersed_added,
              say=lambda p, d: f"{d.get('seat')}'s {cus_text(d.get('cus'), p)} go to the dispersed box."),
    EventKind('GarrisonPlaced',
              ('rule', 'seat', 'space'),
              reduce=_garrison_placed,
              where=_at_space,
              say=lambda p, d: f"{d.get('seat')} places a garrison in {space_name(p, d.get('space'))}."),
    EventKind('GarrisonRemoved',
              ('rule', 'seat', 'space'),
              optional=('by', 'cut_by', 'why'),
              reduce=_garrison_removed,
              where=_at_space,
              say=garrison_removed_text),
    EventKind('MinorGeneralPlaced',
              ('rule', 'seat', 'space'),
              reduce=_minor,
              where=_at_space,
              say=lambda p, d: f"{d.get('seat')} places a minor general in {space_name(p, d.get('space'))}."),
    EventKind('MinorGeneralRemoved',
              ('rule', 'seat', 'space'),
              reduce=_minor_removed,
              where=_at_space,
              say=lambda p, d: f"{d.get('seat')}'s minor general leaves {space_name(p, d.get('space'))}."),
    EventKind('CommanderChosen',
              ('general', 'rule', 'seat', 'space'),
              reduce=_commander,
              say=lambda p, d: f"{general_name(p, d.get('general'))} commands in {space_name(p, d.get('space'))}."),
    EventKind('RoyalRemoved',
              ('royal', 'rule', 'why'),
              optional=('controller', 'totals'),
              reduce=_royal_removed,
              say=lambda p, d: f"{royal_name(p, d.get('royal'))} leaves play"
                                     + (f" ({d['why']})" if d.get("why") else "") + "."),
    EventKind('UnitsWentInside',
              ('cus', 'generals', 'rule', 'seat', 'space'),
              optional=('why',),
              reduce=_went_inside,
              say=lambda p, d: f"{d.get('seat')} puts {cus_text(d.get('cus') or {}, p)}"
                                        + (f" and {', '.join(general_name(p, g) for g in d['generals'])}" if d.get("generals")
                                           else "") + f" inside {space_name(p, d.get('space'))} ({d.get('rule', 'R-5')})."),
    EventKind('UnitsCameOut',
              ('cus', 'generals', 'rule', 'seat', 'space'),
              reduce=_came_out,
              say=lambda p, d: f"{d.get('seat')}'s units come out of {space_name(p, d.get('space'))} (R-5)."),
    EventKind('SpecialUnitJoined',
              ('card', 'name', 'rule', 'seat', 'space', 'unit'),
              reduce=_special_joined,
              say=lambda p, d: f"{d.get('seat')}'s army in {space_name(p, d.get('space'))} is joined by the "
                                          f"{special_unit_name(p, d.get('unit'))} ({card_label(p, d.get('card'))}, R-4.1)."),
    EventKind('RoyalCUsDefected',
              ('count', 'from', 'legitimacy', 'rule', 'space', 'to', 'without_battle'),
              reduce=_defected,
              say=lambda p, d: f"Royal CUs go over to {d.get('to', d.get('seat', 'the other side'))} at "
                                         f"{space_name(p, d.get('space'))} (R-4.3)."),
    EventKind('RoyalCUsSetAside',
              ('count', 'legitimacy', 'rule', 'seat', 'space'),
              reduce=_set_aside,
              where=_at_space,
              say=lambda p, d: f"{d.get('count')} royal CU(s) of {d.get('seat')} in "
                                         f"{space_name(p, d.get('space'))} are set aside and "
                                         "will not fight against a general with more "
                                         "legitimacy; they join the winner (R-4.3)."),
    EventKind('RoyalCUsJoined',
              ('count', 'from', 'rule', 'seat', 'space'),
              reduce=_royals_joined,
              where=_at_space,
              say=lambda p, d: f"The {d.get('count')} royal CU(s) set aside in "
                                       f"{space_name(p, d.get('space'))} "
                                       + (f"join the winner, {d.get('seat')} (R-4.3)."
                                          if d.get("seat") != d.get("from") else
                                          f"stay with {d.get('seat')} (R-4.3).")),
    EventKind('BesiegedRoyalCUsDeserted',
              ('count', 'from', 'legitimacy', 'rule', 'space', 'to'),
              reduce=_defected,
              say=lambda p, d: f"{count(int(d.get('count') or 0), 'royal CU')} besieged in {space_name(p, d.get('space'))} "
                                                 f"desert {d.get('from')} for {d.get('to')}, who has more "
                                                 "legitimacy (R-4.3)."),
    EventKind('MercenaryRaised',
              ('rule', 'seat', 'space'),
              say=lambda p, d: f"{d.get('seat')} raises a mercenary CU in {space_name(p, d.get('space'))}."),
    EventKind('UnitTrained',
              ('rule', 'seat', 'unit'),
              say=lambda p, d: f"{d.get('seat')} completes {a_unit(d.get('unit', 'unit'))}"
                                    + (f" in {space_name(p, d['space'])}" if d.get("space") else "") + "."),
    EventKind('TrainingPaid',
              ('paid', 'rule', 'seat', 'units'),
              reduce=_training,
              writes=('private',),
              say=_training_text),
)
