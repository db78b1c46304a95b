"""The ``commanders`` order (R-5): ``commanders: {Space: general}``, the owner picks
among generals of equal highest rank in a space, before the army moves; kept until
changed.

Like every order kind (:mod:`pbem.rules.orders`): :func:`read`, :func:`options`,
:func:`check`, :func:`execute`.
"""
from __future__ import annotations

from typing import Any

from pbem.pack.model import Pack
from pbem.problems import Problem
from pbem.rules.context import Ctx
from pbem.rules.core.armies import eligible_commanders
from pbem.rules.core.board import name_hint, resolve_general, space_or_reject
from pbem.rules.core.pieces import generals_at
from pbem.rules.core.problems import reject
from pbem.rules.core.state import State


def read(pack: Pack, s: State, seat: str, part: Any, where: str,
         rej: list[Problem]) -> dict[Any, Any] | None:
    """The order's shape: a mapping from spaces to generals (R-5); None after a problem."""
    if not isinstance(part, dict):
        reject(rej, "commanders.not_a_mapping", "commanders must map a space to a general",
               where, "commanders: {Babylon: Craterus}")
        return None
    return part


def options(pack: Pack, s: State, seat: str) -> dict[str, list[str]]:
    """``{space: [general id]}``: the spaces where ``seat`` has several major generals of
    equal highest rank, and who may command there (R-5)."""
    spaces = sorted({v["space"] for v in s["generals"].values()
                     if v["where"] == "map" and v["seat"] == seat and v["space"]})
    out = {x: eligible_commanders(pack, s, seat, x) for x in spaces}
    return {x: gens for x, gens in out.items() if len(gens) > 1}


def check(pack: Pack, s: State, seat: str, part: dict[Any, Any], where: str,
          rej: list[Problem], soft: bool = False) -> dict[str, str] | None:
    """Each space and general named, the general there and of the highest rank (R-5).
    Returns ``{space_id: general_id}``, or None after a problem."""
    out: dict[str, str] = {}
    n0 = len(rej)
    for key, gname in part.items():
        w = f"{where}.{key}"
        sid = space_or_reject(pack, key, w, rej)
        if sid is None:
            continue
        gid = resolve_general(pack, gname)
        if gid is None:
            reject(rej, "commanders.unknown_general", f"there is no general {gname!r}", w,
                   name_hint(gname, pack.generals, pack=pack))
            continue
        name, here = pack.generals[gid].name, pack.spaces[sid].name
        if sid in out:
            reject(rej, "commanders.duplicate", f"{here} is given twice", w,
                   f"name one commander for {here}: commanders: {{{here}: {name}}}")
            continue
        if gid not in generals_at(s, seat, sid):
            reject(rej, "commanders.not_there", f"{name} is not one of your generals in {here}",
                   w)
            continue
        top = eligible_commanders(pack, s, seat, sid)
        if gid not in top:
            reject(rej, "commanders.outranked", f"{name} is outranked in {here}: the "
                   "highest-ranking general commands", w,
                   "eligible: " + ", ".join(pack.generals[g].name for g in top))
            continue
        out[sid] = gid
    return out if len(rej) == n0 else None


def execute(ctx: Ctx, seat: str, plan: dict[str, str]) -> None:
    """Record the choices (``CommanderChosen``, R-5)."""
    for sid, gid in sorted(plan.items()):
        ctx.emit("CommanderChosen", {"seat": seat, "space": sid, "general": gid,
                                     "rule": "R-5"})
