"""The reinforcement decision (R-7.2): each seat in turn order places its new CUs and
may bring back CUs from the dispersed box. Like every order kind
(:mod:`pbem.rules.orders`): :func:`read`, :func:`options`, :func:`check` (the placements,
tried on a copy of the position), :func:`execute`; :func:`default` is the deadline's.

Orders::

    reinforcements:                      # list, placed in order, one CU at a time
      - {space: Memphis, cus: {mercenary: 2}}
      - {space: Gaza, cus: {loyal: 1}}
      - {space: Babylon, cus: {loyal: 1}, inside: true}   # inside his major city (R-7.2)
    # or "reinforcements: default" (or no key) for the engine's placement

CUs of each entry are taken from the new ones first, then from the dispersed box. New
CUs not listed are placed by the engine at default spaces [D]; dispersed CUs not listed
stay in the box (R-7.2: the owner may leave some there).
"""
from __future__ import annotations

from typing import Any

from pbem.pack.model import Pack
from pbem.plural import count
from pbem.problems import Problem
from pbem.rules.context import Ctx
from pbem.rules.core.board import space_or_reject
from pbem.rules.core.names import cus_text
from pbem.rules.core.pieces import INDEP, besieger, capacity, inside_cus
from pbem.rules.core.placement import (
    auto_placement,
    count_placement,
    default_target,
    limit_text,
    placement_refusal,
    placement_targets,
    targets_hint,
)
from pbem.rules.core.problems import did_you_mean, reject
from pbem.rules.core.state import State
from pbem.rules.core.units import is_unit_type, resolve_unit_type, unit_types
from pbem.rules.resolve.effects import place_cus

RULE = "R-7.2"


def pending_units(s: State, seat: str) -> tuple[dict[str, int], dict[str, int]]:
    """``(new CUs, dispersed CUs)`` of ``seat`` in the current reinforcement phase."""
    r = s["reinforce"] or {}
    return dict(r.get("grant", {}).get(seat, {})), dict(s["dispersed"].get(seat, {}))


def options(pack: Pack, s: State, seat: str) -> dict[str, Any]:
    """Options of the decision: ``{"seat", "step", "new": {type: n}, "dispersed": {type:
    n}, "placement_spaces": [id], "inside_room": {major city: free places inside},
    "limit": the placement limit in words}`` (R-7.1, R-7.2)."""
    new, back = pending_units(s, seat)
    targets = placement_targets(pack, s, seat)
    room = {x: capacity(pack) - sum(inside_cus(s, seat, x).values()) for x in sorted(targets)
            if pack.spaces[x].kind == "major_city" and s["garrisons"].get(x) == seat
            and besieger(pack, s, x) is None}
    return {"seat": seat, "step": s["step"], "new": new, "dispersed": back,
            "placement_spaces": sorted(targets),
            "inside_room": {x: n for x, n in room.items() if n > 0},
            "limit": limit_text(pack, s)}


def default(pack: Pack, s: State, seat: str) -> dict[str, Any]:
    """Deadline default [D]: the engine's placement of new and dispersed CUs."""
    new, back = pending_units(s, seat)
    return {"reinforcements": auto_placement(pack, s, seat, new, back)}


def read(pack: Pack, s: State, seat: str, orders: Any, where: str, rej: list[Problem]
         ) -> list[Any] | None:
    """The decision's orders: ``{reinforcements: [{space, cus, inside?}, ...] | default}``
    (nothing: the default, :func:`pbem.rules.core.placement.auto_placement`); returns the
    list of entries, or None when it cannot be read (R-7.2)."""
    if not isinstance(orders, dict):
        reject(rej, "orders.not_a_mapping", "orders must be a mapping", where,
               "orders: {reinforcements: [{space: Memphis, cus: {mercenary: 2}}]}", rule=RULE)
        return None
    for k in orders:
        if k not in ("reinforcements", "step"):
            reject(rej, "orders.unknown_key", f"reinforcement orders have no field {k!r}",
                   f"{where}.{k}", "only reinforcements: [...] is read in this phase",
                   rule=RULE, params={"field": k})
    part = orders.get("reinforcements", "default")
    if part in ("default", None):
        new, back = pending_units(s, seat)
        return auto_placement(pack, s, seat, new, back)
    if not isinstance(part, list):
        reject(rej, "reinforcements.not_a_list",
               "reinforcements is a list of {space, cus} entries (or default)",
               f"{where}.reinforcements",
               "reinforcements: [{space: Memphis, cus: {mercenary: 2}}]")
        return None
    return part


def check(pack: Pack, s: State, seat: str, part: list[Any], where: str,
          rej: list[Problem], soft: bool = False) -> list[dict[str, Any]] | None:
    """Place the entries one CU at a time on a copy of the position (new CUs first, then
    dispersed ones; the placement limit and the legal spaces after each, R-7.2), then
    the new CUs not listed at the engine's default spaces [D]. Returns the placements
    ``[{"space": id | None, "cus": {type: 1}, "from_dispersed", "inside", "why"}]`` in
    order, or None after a problem."""
    sim = Ctx(pack, dict(s), None, owned=())  # copy on write: parts copied when written
    n0 = len(rej)
    new, back = pending_units(s, seat)
    placed: dict[str, int] = {}
    plan: list[dict[str, Any]] = []

    def put(space: str | None, t: str, from_dispersed: bool, inside: bool, why: str) -> None:
        p = {"space": space, "cus": {t: 1}, "from_dispersed": from_dispersed,
             "inside": inside, "why": why}
        plan.append(p)
        _place(sim, seat, p)
        if space:
            count_placement(pack, sim.s, seat, space, placed)

    for i, entry in enumerate(part):
        w = f"{where}.reinforcements[{i}]"
        if not isinstance(entry, dict) or not {"space", "cus"} <= set(entry) \
                or not set(entry) <= {"space", "cus", "inside"} \
                or not isinstance(entry["cus"], dict):
            reject(rej, "reinforcements.entry", "each entry is {space: Space, cus: {type: n}} "
                   "(optionally inside: true)", w, "{space: Memphis, cus: {mercenary: 1}}")
            continue
        sid = space_or_reject(pack, entry["space"], f"{w}.space", rej)
        if sid is None:
            continue
        inside = entry.get("inside", False)
        if inside is not False and not _inside_ok(pack, sim.s, seat, sid, inside,
                                                  entry["cus"], w, rej):
            continue
        for typed, n in entry["cus"].items():
            t = resolve_unit_type(pack, typed) or typed  # a special unit by its name too
            if not isinstance(n, int) or isinstance(n, bool) or n < 1:
                reject(rej, "reinforcements.count", f"{t}: give a whole number ≥ 1",
                       f"{w}.cus.{t}", f"cus: {{{t}: 1}}")
                continue
            have = new.get(t, 0) + back.get(t, 0)
            if n > have:
                listed = f"new: {cus_text(new, pack)}; back from the dispersed box: {cus_text(back, pack)}"
                if not is_unit_type(pack, t):  # a misspelled type ("mercenery"): the name it is close to
                    listed = f"{did_you_mean(typed, unit_types(pack)) or 'no CU type has that name'}; {listed}"
                reject(rej, "reinforcements.too_many",
                       f"you have {count(have, cus_text({t: 1}, pack)[2:] + ' CU')} to place, not {n}", f"{w}.cus.{typed}",
                       listed)
                continue
            for _ in range(n):
                targets = placement_targets(pack, sim.s, seat, placed)
                if sid not in targets:
                    reject(rej, "reinforcements.place_illegal",
                           f"{pack.spaces[sid].name} cannot take this CU: "
                           f"{placement_refusal(pack, sim.s, seat, sid, placed, targets)}", w,
                           targets_hint(pack, sim.s, seat, targets))
                    break
                from_new = new.get(t, 0) > 0
                if from_new:
                    new[t] -= 1
                else:
                    back[t] -= 1
                put(sid, t, not from_new, inside is True, "reinforcement")
    if len(rej) != n0:
        return None
    for t, n in sorted(new.items()):
        for _ in range(n):
            targets = placement_targets(pack, sim.s, seat, placed)
            put(default_target(pack, sim.s, seat, targets), t, False, False,
                "reinforcement (engine placed)")
    return plan


def _place(ctx: Ctx, seat: str, p: dict[str, Any]) -> None:
    """One placement of a plan: the CU (and the minor general marking it, R-4.2), inside
    the city when asked (R-7.2)."""
    place_cus(ctx, seat, p["space"], p["cus"], "R-7.2", p["why"], p["from_dispersed"])
    if p["inside"]:
        ctx.emit("UnitsWentInside", {"seat": seat, "space": p["space"], "cus": p["cus"],
                                     "generals": [], "rule": "R-7.2",
                                     "why": "reinforcement placed inside"})


def execute(ctx: Ctx, seat: str, plan: list[dict[str, Any]]) -> None:
    """Carry out the placements of :func:`check` in order, then ``ReinforcementsPlaced``
    (R-7.2)."""
    for p in plan:
        _place(ctx, seat, p)
    ctx.emit("ReinforcementsPlaced", {"seat": seat, "rule": "R-7.2"})


def _inside_ok(pack: Pack, s: State, seat: str, sid: str, inside: Any,
               cus: dict[str, Any], w: str, rej: list[Problem]) -> bool:
    """R-7.2 reinforcements placed inside a major city (``inside: true``): his own major
    city, not while another player has CUs outside it (or an independent army besieges
    it, R-14), within ``major_city_inside_capacity`` (R-5). Adds rejections, returns
    whether the entry may go on."""

    name = pack.spaces[sid].name
    if inside is not True:
        reject(rej, "reinforcements.inside_not_bool", "inside is true or left out",
             f"{w}.inside", "inside: true")
        return False
    if pack.spaces[sid].kind != "major_city" or s["garrisons"].get(sid) != seat:
        reject(rej, "reinforcements.inside_not_your_city", f"{name} is no major city of "
             "yours: reinforcements go inside only a major city with your garrison",
             f"{w}.inside", "leave out inside: true to place them in the space")
        return False
    by = besieger(pack, s, sid)
    if by is not None:
        who = "an independent army stands" if by == INDEP else f"{by} has CUs"
        reject(rej, "reinforcements.inside_besieged", f"no reinforcements go inside {name} "
             f"while {who} outside it", f"{w}.inside",
             "place them in another space of yours")
        return False
    want = sum(n for n in cus.values() if isinstance(n, int))
    have = sum(inside_cus(s, seat, sid).values())
    if have + want > capacity(pack):
        reject(rej, "reinforcements.inside_full", f"{name} holds at most {capacity(pack)} "
             f"CUs inside ({have} there already, {want} more asked)", f"{w}.inside",
             f"put at most {max(0, capacity(pack) - have)} CUs inside")
        return False
    return True

