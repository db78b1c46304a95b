"""Independent armies (R-14): activation by a Tyche card, scripted moves from the pack
(the card's ``activate_independent`` effect names ``path``), overrun, battle and its
results (defeated: removed, Scythians/Illyrians back to their box; victorious: stays and
removes non-independent markers; tie: back where it came from).
"""
from __future__ import annotations

from pbem.pack.model import Pack
from pbem.rules.context import Ctx
from pbem.rules.core.armies import can_overrun
from pbem.rules.core.board import info
from pbem.rules.core.pieces import INDEP, enemy_of
from pbem.rules.resolve.combat import battle, overrun


def activate_independent(ctx: Ctx, seat: str, army: str, path: list[str],
                         card: int | None = None) -> None:
    """R-14: bring ``army`` onto the map (first space of its entry area when it waits in
    its box; a removed army stays out) and run its scripted ``path``: entering a space
    with a player's units overruns them when strong enough (R-9.4, strength = its CU
    count) or fights a battle as attacker; the battle ends its move."""
    pack, s = ctx.pack, ctx.s
    info_ = pack.independent_armies[army]
    a = s["indep_armies"].get(army) or {"space": None, "strength": info_.strength}
    if a.get("gone"):
        ctx.emit("Note", {"text": f"{info_.name} was destroyed and does not return",
                          "rule": "R-14"})
        return
    ctx.emit("IndependentArmyActivated", {"army": army, "seat": seat, "card": card,
                                          "path": list(path), "rule": "R-14"})
    if not a.get("space"):
        entries = [x for x in (info_.entry_area or (info_.start,)) if x in pack.spaces]
        if not entries:
            return
        free = [x for x in entries if enemy_of(s, INDEP, x) is None]
        entry = free[0] if free else entries[0]
        ctx.emit("IndependentArmyPlaced", {"army": army, "space": entry,
                                           "strength": info_.strength, "rule": "R-14"})
        enemy = enemy_of(s, INDEP, entry)
        if enemy is not None:  # [D] every entry space is occupied: it attacks there
            if can_overrun(pack, s, INDEP, entry, {army: 1}, enemy):
                overrun(ctx, INDEP, enemy, entry)
            elif battle(ctx, INDEP, enemy, entry, None, why="independent") == "tie":
                ctx.emit("IndependentArmyRemoved", {"army": army, "space": entry,
                                                    "to_box": True, "rule": "R-14",
                                                    "why": "tie on entry: back to its box"})
                return
            if s["indep_armies"][army].get("space") != entry:
                return
    steps = scripted_steps(pack, s["indep_armies"][army]["space"], path)
    if path and not steps:
        ctx.emit("Note", {"text": f"{info_.name} has no step of its scripted path left "
                                  f"to walk and stays where it is", "rule": "R-14"})
    for b in steps:
        here = s["indep_armies"][army]["space"]
        if here is None or b == here:
            continue
        ctx.emit("IndependentArmyMoved", {"army": army, "from": here, "to": b,
                                          "rule": "R-14"})
        enemy = enemy_of(s, INDEP, b)
        if enemy is None:
            continue
        if can_overrun(pack, s, INDEP, b, {army: 1}, enemy):
            overrun(ctx, INDEP, enemy, b)
            continue
        _fight(ctx, army, enemy, b, here)
        break
    besiege_if_major_city(ctx, army)


def besiege_if_major_city(ctx: Ctx, army: str) -> None:
    """R-14: an independent army ending its move in a major city besieges it
    (``IndependentSiegeBegan``): it never removes the marker nor assaults, but the city
    is besieged for every purpose (:func:`pbem.rules.inside.besieger`: no reinforcements
    inside, no unlimited placement, R-7.2; its space blocks isolation tracing, R-13;
    the units inside may sally, R-5)."""
    x = (ctx.s["indep_armies"].get(army) or {}).get("space")
    if x and ctx.pack.spaces[x].kind == "major_city":
        ctx.emit("IndependentSiegeBegan", {"army": army, "space": x,
                                           "seat": ctx.s["garrisons"].get(x),
                                           "rule": "R-14"})


def scripted_steps(pack: Pack, here: str | None, path: list[str]) -> list[str]:
    """R-14 [D]: the part of a scripted ``path`` an army in ``here`` still walks: the
    spaces after ``here`` when it stands on the path (an army activated again goes on
    from where it stopped; at the path's end it stays), the whole path when its first
    space is next to ``here``, else nothing (it stands off its path and stays)."""
    if here is None or not path:
        return list(path)
    if here in path:
        return list(path[len(path) - path[::-1].index(here):])
    if any(y == path[0] for y, _k in info(pack).adjacent.get(here, ())):
        return list(path)
    return []


def _fight(ctx: Ctx, army: str, enemy: str, space: str, came_from: str) -> None:
    """A battle with ``army`` attacking ``enemy`` (a space never holds a player's units
    and another independent army together, so it attacks alone, R-14)."""
    battle(ctx, INDEP, enemy, space, came_from, why="independent")
