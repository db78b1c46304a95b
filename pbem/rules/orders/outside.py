"""Units coming out of a major city (R-5; rulebook 13.6): ``outside: [Babylon]``, every
unit of the seat inside comes out, at the start of its player-turn, before the ``inside``
order (:mod:`pbem.rules.orders.inside`). Coming out while another faction stands outside
is a sally: a battle (:func:`pbem.rules.resolve.inside.sally`).

Like every order kind (:mod:`pbem.rules.orders`): :func:`read`, :func:`options`,
:func:`check`, :func:`execute`.
"""
from __future__ import annotations

from typing import Any

from pbem.pack.model import Pack
from pbem.problems import Problem
from pbem.rules.context import Ctx
from pbem.rules.core.board import space_or_reject
from pbem.rules.core.pieces import enemy_of, inside_cus, inside_generals
from pbem.rules.core.problems import reject
from pbem.rules.core.state import State
from pbem.rules.resolve.inside import RULE, sally


def read(pack: Pack, s: State, seat: str, raw: Any, where: str, rej: list[Problem]
         ) -> list[Any]:
    """The order's shape: a list of cities (one city alone is a list of one)."""
    return raw if isinstance(raw, list) else [raw]


def options(pack: Pack, s: State, seat: str) -> list[str]:
    """The major cities where ``seat`` has units inside (R-5)."""
    return sorted(x for x, r in (s.get("inside") or {}).items() if r.get("seat") == seat)


def check(pack: Pack, s: State, seat: str, raw: list[Any], where: str, rej: list[Problem],
          soft: bool = False) -> list[str] | None:
    """Validate ``outside: [city, ..]`` (R-5): every unit of ``seat`` inside comes out.
    While another faction's units stand outside this is a sally: a battle with the
    sallying side as attacker (:func:`sally`, rulebook 13.6: two factions in a space
    after a move fight)."""
    items = raw
    n0, plan = len(rej), []
    mine = sorted(pack.spaces[x].name for x, r in (s.get("inside") or {}).items()
                  if r.get("seat") == seat and x in pack.spaces)
    for i, city in enumerate(items):
        w = f"{where}[{i}]"
        sid = space_or_reject(pack, city, w, rej)
        if sid is None:
            continue
        name = pack.spaces[sid].name
        if sid in plan:
            reject(rej, "inside.duplicate", f"{name} is listed twice: its units come out "
                 "once", w, f"outside: [{name}]")
            continue
        if not inside_cus(s, seat, sid) and not inside_generals(s, seat, sid):
            reject(rej, "inside.nothing_inside", f"you have no units inside {name}", w,
                 ("your units are inside " + ", ".join(mine)) if mine else
                 "you have no units inside any city: leave out outside")
            continue
        plan.append(sid)
    return plan if len(rej) == n0 else None


def execute(ctx: Ctx, seat: str, plan: list[str]) -> None:
    """``UnitsCameOut`` for every city in ``plan`` (R-5); against an enemy outside it is
    a sally (:func:`sally`)."""

    for sid in plan:
        if enemy_of(ctx.s, seat, sid) is not None:
            sally(ctx, seat, sid)
            continue
        ctx.emit("UnitsCameOut", {"seat": seat, "space": sid,
                                  "cus": inside_cus(ctx.s, seat, sid),
                                  "generals": inside_generals(ctx.s, seat, sid),
                                  "rule": RULE})
