"""The ``heir`` order (R-11.1): ``heir: Philip III``, the heir whose LP the seat counts
when it controls several (only one heir counts, the player's choice); kept until changed.
Without one, the most valuable heir counts.

Like every order kind (:mod:`pbem.rules.orders`): :func:`read`, :func:`options`,
:func:`check`, :func:`execute`.
"""
from __future__ import annotations

from typing import Any

from pbem.pack.model import Pack
from pbem.problems import Problem
from pbem.rules.context import Ctx
from pbem.rules.core.board import _resolve_royal, name_hint
from pbem.rules.core.control import royal_controller
from pbem.rules.core.problems import reject
from pbem.rules.core.state import State


def read(pack: Pack, s: State, seat: str, part: Any, where: str,
         rej: list[Problem]) -> str | None:
    """The heir named (an id or a printed name, R-11.1); None after a problem."""
    rid = _resolve_royal(pack, part)
    if rid is None or pack.royals[rid].kind != "heir":
        heirs = {r: rm for r, rm in pack.royals.items() if rm.kind == "heir"}
        reject(rej, "royals.unknown_royal", f"{part!r} is no heir of Alexander", where,
               name_hint(part, heirs, otherwise="heirs: " + ", ".join(
                   rm.name for rm in heirs.values())))
        return None
    return rid


def options(pack: Pack, s: State, seat: str) -> list[str]:
    """The heirs ``seat`` controls now (R-11.1): those it may name."""
    return sorted(r for r, rm in pack.royals.items() if rm.kind == "heir"
                  and royal_controller(pack, s, r) == seat)


def check(pack: Pack, s: State, seat: str, part: str, where: str, rej: list[Problem],
          soft: bool = False) -> str | None:
    """The heir must be one ``seat`` controls now (R-11.1). Returns his id."""
    if part not in options(pack, s, seat):
        mine = options(pack, s, seat)
        reject(rej, "royals.heir_not_controlled", f"you do not control "
               f"{pack.royals[part].name}", where,
               ("heirs you control: " + ", ".join(pack.royals[r].name for r in mine))
               if mine else "you control no heir now")
        return None
    return part


def execute(ctx: Ctx, seat: str, plan: str) -> None:
    """Record the choice (``HeirChosen``, R-11.1)."""
    ctx.emit("HeirChosen", {"seat": seat, "royal": plan, "rule": "R-11.1"})
