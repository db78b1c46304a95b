"""Who is where (R-4, R-5, R-9.2, R-14): CUs, generals and minor generals of each seat,
independent armies, units inside a major city, the moving group of an army.

Units inside a major city (R-5; rulebook 13.6): ``s["inside"] = {space_id: {"seat": seat,
"cus": {cu_type: n}, "generals": [id]}}`` (at most one faction inside a city). Inside CUs
are a *subset* of ``s["cus"][space][seat]``: every count, control, forage and victory rule
keeps reading ``cus``; only the rules that care about inside/outside read this record.
While a battle is fought in a city whose units inside stay out of it (R-9.2 "may join"),
:func:`sitting_out` marks them, and the queries here see only the units outside.
"""
from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator
from typing import Any

from pbem.pack.model import Pack
from pbem.rules.core.control import royal_controller
from pbem.rules.core.pack import const
from pbem.rules.core.state import State, standing_orders
from pbem.rules.core.units import loss_key

INDEP = "independent"


def cus_of(s: State, seat: str, space: str) -> int:
    """Number of ``seat``'s CUs in ``space``."""
    return sum(s["cus"].get(space, {}).get(seat, {}).values())


def generals_at(s: State, seat: str, space: str) -> list[str]:
    """Ids of ``seat``'s major generals on the map in ``space``."""
    return sorted(g for g, v in s["generals"].items()  # the space first: the fewest pass
                  if v["space"] == space and v["where"] == "map" and v["seat"] == seat)


def has_enemy_units(s: State, seat: str, space: str) -> bool:
    """True when another seat (or an independent army) has CUs or a general in ``space``."""
    for other, cus in s["cus"].get(space, {}).items():
        if other != seat and sum(cus.values()):
            return True
    for v in s["generals"].values():
        if v["where"] == "map" and v["space"] == space and v["seat"] != seat:
            return True
    if any(space in sp for o, sp in s["minors"].items() if o != seat):
        return True
    return any(a["space"] == space for a in s["indep_armies"].values())


def has_general(s: State, seat: str, space: str) -> bool:
    """True when ``seat`` has a major or minor general in ``space``."""
    return space in s["minors"].get(seat, []) or any(
        v["where"] == "map" and v["space"] == space and v["seat"] == seat
        for v in s["generals"].values())


def free_minor_generals(pack: Pack, s: State, seat: str) -> int:
    """Minor generals ``seat`` has off the map (R-5: four in all)."""
    return const(pack, "minor_generals") - len(s["minors"].get(seat, []))


def general_spaces(s: State, seat: str) -> set[str]:
    """Spaces with a major or minor general of ``seat``."""
    out = {v["space"] for v in s["generals"].values()
           if v["where"] == "map" and v["seat"] == seat}
    return out | set(s["minors"].get(seat, []))


def inside_rec(s: State, space: str) -> dict[str, Any] | None:
    """The inside record of ``space`` (see the module docstring) or None."""
    return (s.get("inside") or {}).get(space)


def inside_cus(s: State, seat: str, space: str) -> dict[str, int]:
    """``{cu_type: n}`` of ``seat`` inside the major city ``space`` (a copy)."""
    rec = inside_rec(s, space)
    return dict(rec["cus"]) if rec and rec["seat"] == seat else {}


def inside_generals(s: State, seat: str, space: str) -> list[str]:
    """Major generals of ``seat`` inside ``space``."""
    rec = inside_rec(s, space)
    return list(rec["generals"]) if rec and rec["seat"] == seat else []


def outside_cus(s: State, seat: str, space: str) -> dict[str, int]:
    """``{cu_type: n}`` of ``seat`` in ``space`` that are not inside the city."""
    ins = inside_cus(s, seat, space)
    have = s["cus"].get(space, {}).get(seat, {})
    out = {t: n - ins.get(t, 0) for t, n in have.items()}
    return {t: n for t, n in out.items() if n > 0}


def wholly_inside(s: State, seat: str, space: str) -> bool:
    """True when ``seat`` has units inside ``space`` and none outside (no CUs, no major
    general outside; its minor general stays with the CUs it marks). Such units cannot
    be attacked or overrun and are no enemy to movers (R-5)."""
    rec = inside_rec(s, space)
    if not rec or rec["seat"] != seat or outside_cus(s, seat, space):
        return False
    return all(g in rec["generals"] for g, v in s["generals"].items()
               if v["where"] == "map" and v["space"] == space and v["seat"] == seat)


def capacity(pack: Pack) -> int:
    """CUs a major city holds inside (pack ``major_city_inside_capacity``, R-5)."""
    return int(const(pack, "major_city_inside_capacity"))


_SITTING_OUT: contextvars.ContextVar[tuple[str, str] | None] = contextvars.ContextVar(
    "pbem_inside_sitting_out", default=None)


@contextlib.contextmanager
def sitting_out(seat: str | None, space: str) -> Iterator[None]:
    """While a battle in ``space`` is resolved, the units of ``seat`` inside the city
    stay out of it (R-9.2: inside units *may* join; ``seat`` None: they join). Battle
    code then sees only ``seat``'s units outside (:func:`sits_out`)."""
    token = _SITTING_OUT.set((seat, space) if seat else None)
    try:
        yield
    finally:
        _SITTING_OUT.reset(token)


def sits_out(seat: str, space: str) -> bool:
    """True while ``seat``'s units inside ``space`` stay out of the battle being fought
    (R-9.2, :func:`sitting_out`)."""
    return _SITTING_OUT.get() == (seat, space)


def enemy_unit_spaces(s: State, seat: str) -> set[str]:
    """Spaces where another seat has CUs or a general, or an independent army stands.
    R-7.2: a seat whose units there are all inside a major city does not count (a
    general besieging it may receive reinforcements), so CUs are never placed inside a
    major city while another player has CUs outside it."""
    ins = s.get("inside")
    if ins:  # only a seat of the record of a space there may be wholly inside it
        out = set()
        for x, by in s["cus"].items():
            rec = ins.get(x)
            for o, c in by.items():
                if o != seat and sum(c.values()) and not (
                        rec and rec["seat"] == o and wholly_inside(s, o, x)):
                    out.add(x)
                    break
        out |= {v["space"] for v in s["generals"].values()
                if v["where"] == "map" and v["seat"] != seat
                and not wholly_inside(s, v["seat"], v["space"])}
        out |= {x for o, ms in s["minors"].items() if o != seat for x in ms
                if not wholly_inside(s, o, x)}
    else:  # no units inside any city: nobody is wholly inside (the same sets, faster)
        out = {x for x, by in s["cus"].items()
               if any(o != seat and sum(c.values()) for o, c in by.items())}
        out.update(v["space"] for v in s["generals"].values()
                   if v["where"] == "map" and v["seat"] != seat)
        for o, ms in s["minors"].items():
            if o != seat:
                out.update(ms)
    out.update(a["space"] for a in s["indep_armies"].values() if a["space"])
    return out


def cus_at(s: State, seat: str, space: str) -> dict[str, int]:
    """``{cu_type: n}`` of ``seat`` in ``space`` (a copy); only those outside the major
    city while its units inside stay out of the battle being fought (R-9.2)."""
    if sits_out(seat, space):
        return outside_cus(s, seat, space)
    return dict(s["cus"].get(space, {}).get(seat, {}))


def indep_at(s: State, space: str) -> list[str]:
    """Ids of the independent armies in ``space`` (R-14)."""
    return sorted(a for a, v in s["indep_armies"].items() if v.get("space") == space)


def enemy_of(s: State, seat: str, space: str) -> str | None:
    """The other faction with units (CUs, a general or minor general, or an independent
    army) in ``space`` as seen by ``seat`` (a seat or ``"independent"``), else None.
    A seat whose units there are all inside the major city is no enemy (R-5)."""

    if seat != INDEP and indep_at(s, space):
        return INDEP
    found: list[str] = []
    for other, cus in sorted(s["cus"].get(space, {}).items()):
        if other != seat and sum(cus.values()):
            found.append(other)
    for v in s["generals"].values():
        if v["where"] == "map" and v["space"] == space and v["seat"] and v["seat"] != seat:
            found.append(v["seat"])
    for other, ms in sorted(s["minors"].items()):
        if other != seat and space in ms:
            found.append(other)
    # units wholly inside a major city cannot be attacked: they are no enemy here
    return next((o for o in found if not wholly_inside(s, o, space)), None)


def held_by_others(s: State, seat: str) -> set[str]:
    """Every space where :func:`enemy_of` finds another faction for ``seat`` (R-5, R-14):
    the spaces holding another seat's CUs, general or minor general or an independent
    army, each confirmed by :func:`enemy_of` (so units wholly inside a major city do not
    count). For searches that ask about many spaces of one position."""
    maybe = {x for x, by in s["cus"].items() if any(o != seat for o in by)}
    maybe |= {v["space"] for v in s["generals"].values()
              if v["where"] == "map" and v["seat"] and v["seat"] != seat}
    maybe |= {x for o, ms in s["minors"].items() if o != seat for x in ms}
    maybe |= {a["space"] for a in s["indep_armies"].values() if a.get("space")}
    return {x for x in maybe if x is not None and enemy_of(s, seat, x) is not None}


def besieger(pack: Pack, s: State, space: str) -> str | None:
    """Who besieges the major city ``space`` (R-7.2, R-10, R-14): an independent army
    standing there (R-14: ending its move in a major city counts as a siege), else a
    player other than the city's controller (or the seat inside) with units outside it;
    None when the city is unbesieged or ``space`` is no major city."""

    if pack.spaces[space].kind != "major_city":
        return None
    if indep_at(s, space):
        return INDEP
    rec = inside_rec(s, space)
    held = s["garrisons"].get(space) or (rec["seat"] if rec else None)
    for other, cus in sorted(s["cus"].get(space, {}).items()):
        if other != held and sum(cus.values()) and not wholly_inside(s, other, space):
            return other
    return None


def army_spaces(s: State, seat: str) -> list[str]:
    """Spaces holding an army of ``seat``: a major or minor general with CUs (R-5)."""

    return sorted(x for x, by in s["cus"].items()
                  if sum(by.get(seat, {}).values()) and has_general(s, seat, x))


def group_at(s: State, seat: str, space: str, controlled_royals: list[str]) -> dict:
    """Everything of ``seat`` in ``space`` that moves by default: CUs, major generals,
    its minor general and the royal family members it controls there (R-9.1, R-12.5);
    units inside a major city stay inside unless picked up (R-5)."""
    ins = inside_generals(s, seat, space)
    return {"cus": outside_cus(s, seat, space),
            "generals": [g for g in generals_at(s, seat, space) if g not in ins],
            "minor": space in s["minors"].get(seat, []),
            "royals": [r for r in controlled_royals if s["royals"][r].get("space") == space]}


def controlled_royals(pack: Pack, s: State, seat: str) -> list[str]:
    """Royal family members ``seat`` controls now (R-12.1) that move with its armies
    (R-12.5): not the funeral cart before turn ``cart_ready_turn`` (R-12.4: it cannot
    leave Babylon on turn 1)."""
    ready = pack.constants.get("cart_ready_turn", 0)
    return sorted(r for r in s["royals"] if r in pack.royals and not s["royals"][r].get("gone")
                  and s["royals"][r].get("space")
                  and royal_controller(pack, s, r) == seat
                  and not (pack.royals[r].kind == "body" and s["turn"] < ready))


def army_space(pack: Pack, s: State, seat: str, army: str) -> str | None:
    """Where the army named ``army`` (a general id of ``seat`` or a space id) stands."""
    g = s["generals"].get(army)
    if g is not None:
        return g["space"] if g["where"] == "map" and g["seat"] == seat else None
    return army if army in pack.spaces else None


def weakest(pack: Pack, cus: dict[str, int]) -> str | None:
    """The CU type lost first [D]: ordinary CUs before special units, lowest pack
    strength, rolled types last, then by id (:func:`pbem.rules.units.loss_key`)."""
    if not cus:
        return None
    return min((t for t, n in cus.items() if n > 0), key=lambda k: loss_key(pack, k),
               default=None)


def loss_type(pack: Pack, s: State, seat: str, cus: dict[str, int]) -> str | None:
    """The CU type ``seat`` loses next out of ``cus`` when the rules let it choose (R-9.2
    winner's loss and tie, R-9.5 hostile tribes, R-8.8 forage): the first type of its
    standing order ``{when: losses, order: [type, ..]}`` it has, else :func:`weakest`
    [D]."""
    return standing_loss(s, seat, cus) or weakest(pack, cus)


def standing_loss(s: State, seat: str, cus: dict[str, int]) -> str | None:
    """The CU type the standing order ``losses`` of ``seat`` picks out of ``cus`` (the
    first listed type it has), or None (R-9.2, R-9.5, R-8.8)."""
    for o in standing_orders(s, seat):
        if o.get("when") == "losses":
            return next((t for t in o.get("order") or [] if cus.get(t, 0) > 0), None)
    return None


def _chosen(s: State, seat: str, cus: dict[str, int]) -> dict[str, str]:
    """``{"chosen": "standing order"}`` when the seat's standing order picked the loss."""
    return {"chosen": "standing order"} if standing_loss(s, seat, cus) else {}
