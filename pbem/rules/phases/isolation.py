"""Isolation phase (R-6.6, R-13 [D]): isolated garrisons are removed in turn order.
"""
from __future__ import annotations

from collections import deque

from pbem.pack.model import Pack
from pbem.rules.context import Ctx
from pbem.rules.core.board import info
from pbem.rules.core.pack import per_pack
from pbem.rules.core.pieces import general_spaces
from pbem.rules.core.state import State
from pbem.rules.resolve.effects import tidy_markings


def _cut(s: State, seat: str) -> set[str]:
    """R-13: the spaces a chain of ``seat`` cannot pass: those holding an enemy or
    independent marker, enemy CUs or an independent army; a lone enemy general (no CUs)
    does not cut it."""
    out = {x for x, owner in s["garrisons"].items() if owner and owner != seat}
    out.update(s["independent"])
    out.update(x for x, by in s["cus"].items()
               if any(other != seat and sum(c.values()) for other, c in by.items()))
    out.update(a["space"] for a in s["indep_armies"].values())
    return out


_LAND: dict[int, tuple[Pack, dict[str, tuple[str, ...]]]] = {}


def _land_adjacent(pack: Pack) -> dict[str, tuple[str, ...]]:
    """``{space: (neighbour, ...)}`` along land and mountain/strait paths only (the
    paths a chain of supply follows, R-13), in the order of
    :attr:`pbem.rules.core.board.MapInfo.adjacent`; made once per pack object."""
    return per_pack(_LAND, pack, lambda p: {
        x: tuple(y for y, kind in ys if kind in ("land", "mountain_strait"))
        for x, ys in info(p).adjacent.items()})


def isolated_garrisons(pack: Pack, s: State, seat: str) -> list[str]:
    """Spaces of ``seat``'s isolated garrisons (R-13): a garrison is supplied when a chain
    of land or mountain/strait paths, through spaces with no enemy CUs (an enemy general
    alone does not cut it), no independent army and no enemy or independent marker,
    links it to a space with his general (major or minor) or his major-city garrison. The garrison's own space never blocks its own chain [D]."""
    generals = general_spaces(s, seat)
    mine = {x for x, o in s["garrisons"].items() if o == seat}
    anchors = [x for x in pack.spaces  # in the pack's order, as before
               if x in generals or (x in mine and pack.spaces[x].kind == "major_city")] \
        if generals or mine else []
    adj = _land_adjacent(pack)
    cut = _cut(s, seat)
    seen = set(anchors)
    todo = deque(x for x in anchors if x not in cut)
    while todo:
        x = todo.popleft()
        for y in adj.get(x, ()):
            if y in seen:
                continue
            seen.add(y)
            if y not in cut:
                todo.append(y)
    return sorted(x for x, o in s["garrisons"].items() if o == seat and x not in seen)


def cut_off_by(pack: Pack, s: State, seat: str, space: str) -> dict[str, str]:
    """What cuts the chain of ``seat``'s garrison in ``space`` (R-13): every space that
    blocks a chain and borders the spaces the garrison reaches (land or mountain/strait
    paths through spaces that do not block), nearest first, with who blocks it there:
    the seat of the marker or CUs, or ``"independent"`` (a marker or army)."""
    adj = info(pack).adjacent
    cut = _cut(s, seat)
    seen, todo, found = {space}, deque([space]), []
    while todo:
        x = todo.popleft()
        for y, kind in adj.get(x, ()):
            if kind not in ("land", "mountain_strait") or y in seen:
                continue
            seen.add(y)
            if y in cut:
                found.append(y)
            else:
                todo.append(y)
    return {x: _blocker(s, seat, x) for x in found}


def _blocker(s: State, seat: str, space: str) -> str:
    """Who blocks ``seat``'s chains in ``space``: the enemy marker's seat, else the
    seat of the enemy CUs there, else ``"independent"`` (a marker or an army)."""
    owner = s["garrisons"].get(space)
    if owner and owner != seat:
        return owner
    if space in s["independent"]:
        return "independent"
    others = [o for o, c in s["cus"].get(space, {}).items() if o != seat and sum(c.values())]
    return others[0] if others else "independent"


def isolation_phase(ctx: Ctx) -> None:
    """R-6.6: in turn order every seat's isolated garrisons are removed
    (``GarrisonRemoved`` with rule R-13, ``cut_by``: what cuts each one's chain,
    :func:`cut_off_by`); CUs left unmarked get a free minor general or go to the
    dispersed box (R-4.2 [D])."""

    for seat in ctx.s["turn_order"]:
        gone = isolated_garrisons(ctx.pack, ctx.s, seat)
        cut = {x: cut_off_by(ctx.pack, ctx.s, seat, x) for x in gone}
        for x in gone:
            ctx.emit("GarrisonRemoved", {"seat": seat, "space": x, "rule": "R-13",
                                         "why": "isolated", "cut_by": cut[x]})
        if gone:
            tidy_markings(ctx, seat)
