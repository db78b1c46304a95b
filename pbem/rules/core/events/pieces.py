"""Events of the pieces on the board (R-2, R-4, R-5, R-7, R-8.1, R-8.3, R-8.4, R-12): setup, CUs, garrisons, generals, minor generals, royals, units inside a major city, special units.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.rules.core.events.base import (
    EventKind,
    cus_count,
    cus_of,
    said,
    seat_of,
    space_of,
    add_cus,
    add_dispersed,
    clip_inside,
    of_seat,
    war,
)
from pbem.rules.core.names import (
    ENGLISH,
    N_,
    Words,
    a_unit,
    card_label,
    cus_removed_text,
    cus_text,
    garrison_removed_text,
    general_name,
    indep_army_name,
    indep_name,
    indep_say,
    off_map_text,
    ops_text,
    primary_text,
    royal_name,
    space_name,
    spaces_text,
    special_unit_name,
)
from pbem.rules.core.state import SEATS, State, seat_private


ROYAL_WHY = {"not buried by the start of this turn": N_("not buried by the start of this turn"),
             "came of age without producing a regent": N_("came of age without producing a regent")}
"""Why a royal leaves play (``RoyalRemoved``'s ``why``, the rules core's words: the log
keeps them) as the reports say it (issue 28); another reads as it is."""


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



def _general_placed_text(p: Any, d: Mapping[str, Any], t: Words = ENGLISH) -> str:
    """A general placed (``GeneralPlaced``), with why when he comes onto the map in the
    reinforcement phase (R-7.3): back from the dispersed box to one of his seat's
    garrisons, or from the turn track to the seat with fewest VP [D]; by a card (R-8.6)."""
    name, seat, rule = general_name(p, d.get("general")), d.get("seat") or t.gettext("nobody"), d.get("rule")
    if not d.get("space"):
        return f"{name} {off_map_text(d.get('where'), t)}."
    v = {"name": name, "seat": seat, "space": space_name(p, d.get("space"), t)}
    if rule == "R-7.3" and d.get("decision"):
        return t.gettext("%(name)s arrives from the turn track in %(space)s: he joins %(seat)s, the seat with the "
                         "fewest VP, at one of its garrisons (R-7.3).") % v
    if rule == "R-7.3":
        return t.gettext("%(name)s (%(seat)s) returns from the dispersed box to %(space)s, one of %(seat)s's "
                         "garrisons (R-7.3).") % v
    if rule == "R-8.6":
        return t.gettext("%(name)s (%(seat)s) is placed in %(space)s by the card's event (R-8.6).") % v
    return t.gettext("%(name)s (%(seat)s) is placed in %(space)s.") % v


ENGINE_PLACED = "reinforcement (engine placed)"
"""``CUsPlaced.why`` of the new CUs a seat's reinforcement orders left out, which the
engine places at the default spaces (R-7.2 [D], :mod:`pbem.rules.orders.reinforcements`)."""


def _cus_placed_text(p: Any, d: Mapping[str, Any], t: Words = ENGLISH) -> str:
    """CUs placed (``CUsPlaced``). The new CUs that a seat's reinforcement orders left out
    go to the default space (R-7.2 [D]); their line says so, so that it does not read as
    the listed placement told twice ("north places 2 mercenary in Pella." two lines in a
    row, the fourth hand-played game of issue 24)."""
    v = {"seat": d.get("seat"), "cus": cus_text(d.get("cus"), p, t), "space": space_name(p, d.get("space"), t)}
    if d.get("why") == ENGINE_PLACED:
        return t.gettext("%(seat)s places %(cus)s in %(space)s, the default space, for the new CUs its "
                         "reinforcement orders did not place (R-7.2).") % v
    return t.gettext("%(seat)s places %(cus)s in %(space)s.") % v


def _training_text(p: Any, d: Mapping[str, Any], t: Words = ENGLISH) -> str:
    """OPs paid toward training (``TrainingPaid``, R-8.4), summed per unit type: the
    entries of one type go into the same unit in training (its oldest unfinished one),
    so ``[2, 1]`` toward a phalangite reads "3 OPs toward a phalangite", not as two
    units (issue 24 item H)."""
    paid: dict[str, int] = {}
    for e in d.get("paid") or []:
        paid[str(e.get("unit"))] = paid.get(str(e.get("unit")), 0) + int(e.get("ops") or 0)
    parts = [t.gettext("%(ops)s toward %(unit)s") % {"ops": ops_text(n, t), "unit": a_unit(u, t)}
             for u, n in paid.items()]
    return t.gettext("%(seat)s pays %(parts)s in training (R-8.4).") % {
        "seat": d.get('seat'), "parts": t.gettext(" and ").join(parts)}


def _indep_placed_text(p: Any, d: Mapping[str, Any], t: Words = ENGLISH) -> str:
    if not d.get("space"):
        return t.gettext(N_("%(army)s: not on the map yet.")) % {"army": indep_army_name(p, d.get('army'))}
    return indep_say(p, d.get("army"), N_("%(army)s (strength %(strength)s) is in %(space)s."),
                     N_("%(army)s (strength %(strength)s) are in %(space)s."), t,
                     strength=d.get('strength', '?'), space=space_name(p, d.get('space'), t))


def _royal_placed_text(p: Any, d: Mapping[str, Any], t: Words = ENGLISH) -> str:
    v = {"royal": royal_name(p, d.get('royal')), "space": space_name(p, d.get('space'), t), "seat": d.get("seat")}
    if not d.get("space"):
        return t.gettext("%(royal)s waits off the map.") % v
    active = d.get("active", True)
    if d.get("seat"):
        return (t.gettext("%(royal)s is in %(space)s, with %(seat)s.") if active
                else t.gettext("%(royal)s is in %(space)s (inactive), with %(seat)s.")) % v
    return (t.gettext("%(royal)s is in %(space)s.") if active else t.gettext("%(royal)s is in %(space)s (inactive).")) % v


def _markers_text(p: Any, d: Mapping[str, Any], t: Words = ENGLISH) -> str:
    if not d.get("card"):
        n = len(d.get('spaces', []))
        return t.ngettext("Independent markers are placed on %(num)d space.",
                          "Independent markers are placed on %(num)d spaces.", n) % {"num": n}
    return t.gettext("%(card)s places independent markers on %(spaces)s (%(rule)s).") % {
        "card": card_label(p, d['card'], t), "rule": d.get('rule', 'R-16'),
        "spaces": spaces_text(p, d.get("spaces"), t) or t.gettext("no space: none qualifies")}


def _went_inside_text(p: Any, d: Mapping[str, Any], t: Words = ENGLISH) -> str:
    v = {"seat": d.get('seat'), "cus": cus_text(d.get('cus') or {}, p, t), "space": space_name(p, d.get('space'), t),
         "rule": d.get('rule', 'R-5'), "generals": ', '.join(general_name(p, g) for g in d.get('generals') or [])}
    if d.get("generals"):
        return t.gettext("%(seat)s puts %(cus)s and %(generals)s inside %(space)s (%(rule)s).") % v
    return t.gettext("%(seat)s puts %(cus)s inside %(space)s (%(rule)s).") % v


def _royals_joined_text(p: Any, d: Mapping[str, Any], t: Words = ENGLISH) -> str:
    v = {"count": d.get('count'), "space": space_name(p, d.get('space'), t), "seat": d.get('seat')}
    n = int(d.get('count') or 0)  # the verb agrees with the count (issue 24 N10)
    if d.get("seat") != d.get("from"):
        return t.ngettext("The %(count)s royal CU set aside in %(space)s joins the winner, %(seat)s (R-4.3).",
                          "The %(count)s royal CUs set aside in %(space)s join the winner, %(seat)s (R-4.3).", n) % v
    return t.ngettext("The %(count)s royal CU set aside in %(space)s stays with %(seat)s (R-4.3).",
                      "The %(count)s royal CUs set aside in %(space)s stay with %(seat)s (R-4.3).", n) % v


KINDS: tuple[EventKind, ...] = (
    EventKind('GameStarted',
              ('pack', 'seats', 'turn'),
              optional=('options',),
              reduce=_game_started,
              say=lambda p, d, t: t.gettext("The game begins: %(year)s BC, seats %(seats)s.") % {
                  "year": d.get('year', '323'), "seats": ', '.join(d.get('seats', SEATS))}),
    EventKind('IndependentMarkersPlaced',
              ('spaces',),
              optional=('rule', 'card'),
              reduce=_indep,
              writes=('independent', 'garrisons'),
              say=_markers_text),
    EventKind('IndependentArmyPlaced',
              ('army', 'rule', 'space', 'strength'),
              reduce=_indep_army,
              writes=('indep_armies',),
              say=_indep_placed_text),
    EventKind('RoyalPlaced',
              ('active', 'royal', 'rule', 'space'),
              optional=('seat',),
              reduce=_royal,
              say=_royal_placed_text),
    EventKind('PrimaryGeneralsDealt',
              ('cards', 'rolled', 'rule'),
              reduce=_primary,
              say=primary_text),
    EventKind('GeneralPlaced',
              ('general', 'rule', 'seat', 'space', 'where'),
              optional=('decision',),
              reduce=_general_placed,
              writes=('generals', 'inside'),
              cells=lambda d: {"generals": (d["general"],)},
              say=_general_placed_text),
    EventKind('CUsPlaced',
              ('cus', 'rule', 'seat', 'space'),
              optional=('from_dispersed', 'why'),
              reduce=_cus_placed,
              writes=('cus', 'inside', 'dispersed'),
              where=_at_space,
              cells=lambda d: {"cus": (d["space"],), "dispersed": (d["seat"],)},
              say=_cus_placed_text),
    EventKind('CUsRemoved',
              ('cus', 'rule', 'seat', 'space', 'why'),
              optional=('chosen', 'limit'),
              reduce=_cus_removed,
              writes=('cus', 'inside', 'war'),
              where=_at_space,
              cells=lambda d: {"cus": (d["space"],)},
              say=cus_removed_text),
    EventKind('CUsDispersed',
              ('cus', 'rule', 'seat', 'space'),
              reduce=_cus_dispersed,
              where=_at_space,
              say=lambda p, d, t: t.ngettext(  # the verb agrees with the CUs (issue 24 N10)
                  "%(seat)s's %(cus)s in %(space)s goes to the dispersed box.",
                  "%(seat)s's %(cus)s in %(space)s go to the dispersed box.", cus_count(d.get("cus"))) % {
                  "seat": seat_of(p, d, t), "cus": cus_of(p, d, t), "space": space_of(p, d, t)}),
    EventKind('DispersedAdded',
              ('cus', 'rule', 'seat', 'why'),
              reduce=_dispersed_added,
              say=lambda p, d, t: t.ngettext(
                  "%(seat)s's %(cus)s goes to the dispersed box.",
                  "%(seat)s's %(cus)s go to the dispersed box.", cus_count(d.get("cus"))) % {
                  "seat": seat_of(p, d, t), "cus": cus_of(p, d, t)}),
    EventKind('GarrisonPlaced',
              ('rule', 'seat', 'space'),
              reduce=_garrison_placed,
              writes=('garrisons', 'independent'),
              where=_at_space,
              say=said(N_("%(seat)s places a garrison in %(space)s."), seat=seat_of, space=space_of)),
    EventKind('GarrisonRemoved',
              ('rule', 'seat', 'space'),
              optional=('by', 'cut_by', 'why'),
              reduce=_garrison_removed,
              writes=('garrisons',),
              where=_at_space,
              say=garrison_removed_text),
    EventKind('MinorGeneralPlaced',
              ('rule', 'seat', 'space'),
              reduce=_minor,
              where=_at_space,
              say=said(N_("%(seat)s places a minor general in %(space)s."), seat=seat_of, space=space_of)),
    EventKind('MinorGeneralRemoved',
              ('rule', 'seat', 'space'),
              reduce=_minor_removed,
              where=_at_space,
              say=said(N_("%(seat)s's minor general leaves %(space)s."), seat=seat_of, space=space_of)),
    EventKind('CommanderChosen',
              ('general', 'rule', 'seat', 'space'),
              reduce=_commander,
              say=said(N_("%(general)s commands in %(space)s."),
                       general=lambda p, d, t: general_name(p, d.get('general')), space=space_of)),
    EventKind('RoyalRemoved',
              ('royal', 'rule', 'why'),
              optional=('controller', 'totals'),
              reduce=_royal_removed,
              say=lambda p, d, t: (t.gettext("%(royal)s leaves play (%(why)s).") if d.get("why")
                                   else t.gettext("%(royal)s leaves play.")) % {
                  "royal": royal_name(p, d.get('royal')),
                  "why": t.gettext(ROYAL_WHY[d["why"]]) if d.get("why") in ROYAL_WHY else d.get("why")}),
    EventKind('UnitsWentInside',
              ('cus', 'generals', 'rule', 'seat', 'space'),
              optional=('why',),
              reduce=_went_inside,
              say=_went_inside_text),
    EventKind('UnitsCameOut',
              ('cus', 'generals', 'rule', 'seat', 'space'),
              reduce=_came_out,
              say=said(N_("%(seat)s's units come out of %(space)s (R-5)."), seat=seat_of, space=space_of)),
    EventKind('SpecialUnitJoined',
              ('card', 'name', 'rule', 'seat', 'space', 'unit'),
              reduce=_special_joined,
              say=said(N_("%(seat)s's army in %(space)s is joined by the %(unit)s (%(card)s, R-4.1)."),
                       seat=seat_of, space=space_of, unit=lambda p, d, t: special_unit_name(p, d.get('unit')),
                       card=lambda p, d, t: card_label(p, d.get('card'), t))),
    EventKind('RoyalCUsDefected',
              ('count', 'from', 'legitimacy', 'rule', 'space', 'to', 'without_battle'),
              reduce=_defected,
              say=said(N_("Royal CUs go over to %(seat)s at %(space)s (R-4.3)."), space=space_of,
                       seat=lambda p, d, t: d.get('to', d.get('seat', t.gettext('the other side'))))),
    EventKind('RoyalCUsSetAside',
              ('count', 'legitimacy', 'rule', 'seat', 'space'),
              reduce=_set_aside,
              where=_at_space,
              say=lambda p, d, t: t.ngettext(
                  "%(count)s royal CU of %(seat)s in %(space)s is set aside and will not fight "
                  "against a general with more legitimacy; it joins the winner (R-4.3).",
                  "%(count)s royal CUs of %(seat)s in %(space)s are set aside and will not fight "
                  "against a general with more legitimacy; they join the winner (R-4.3).", int(d.get('count') or 0)) % {
                  "count": d.get('count'), "seat": seat_of(p, d, t), "space": space_of(p, d, t)}),
    EventKind('RoyalCUsJoined',
              ('count', 'from', 'rule', 'seat', 'space'),
              reduce=_royals_joined,
              where=_at_space,
              say=_royals_joined_text),
    EventKind('BesiegedRoyalCUsDeserted',
              ('count', 'from', 'legitimacy', 'rule', 'space', 'to'),
              reduce=_defected,
              say=lambda p, d, t: t.ngettext(
                  "%(num)d royal CU besieged in %(space)s deserts %(from)s for %(to)s, who has more legitimacy "
                  "(R-4.3).",
                  "%(num)d royal CUs besieged in %(space)s desert %(from)s for %(to)s, who has more legitimacy "
                  "(R-4.3).", int(d.get('count') or 0)) % {
                  "num": int(d.get('count') or 0), "space": space_name(p, d.get('space'), t),
                  "from": d.get('from'), "to": d.get('to')}),
    EventKind('MercenaryRaised',
              ('rule', 'seat', 'space'),
              say=said(N_("%(seat)s raises a mercenary CU in %(space)s."), seat=seat_of, space=space_of)),
    EventKind('UnitTrained',
              ('rule', 'seat', 'unit'),
              say=lambda p, d, t: (t.gettext("%(seat)s completes %(unit)s in %(space)s.") if d.get("space")
                                   else t.gettext("%(seat)s completes %(unit)s.")) % {
                  "seat": d.get('seat'), "unit": a_unit(d.get('unit', 'unit'), t),
                  "space": space_name(p, d.get('space'), t)}),
    EventKind('TrainingPaid',
              ('paid', 'rule', 'seat', 'units'),
              reduce=_training,
              writes=('private',),
              cells=of_seat,
              say=_training_text),
)
