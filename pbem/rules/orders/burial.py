"""The ``bury`` order (R-12.4): ``bury: true`` or ``bury: Pella``, the body buried at the
end of the player-turn where it then stands (in the named major city only), when the
seat controls it and stands there with a general (its army won any battle there). The
city need not be the seat's; burial needs no card.

Like every order kind (:mod:`pbem.rules.orders`): :func:`read`, :func:`options`,
:func:`check`, :func:`execute`. The check runs on the position at the end of the
player-turn; after a die was rolled that position is not known in advance, so what the
dice made impossible is cancelled then (``Note``), never refused.
"""
from __future__ import annotations

from typing import Any

from pbem.pack.model import Pack
from pbem.problems import Problem
from pbem.rules.context import Ctx
from pbem.rules.core.board import resolve_space
from pbem.rules.core.control import royal_controller
from pbem.rules.core.footprint import Unsure
from pbem.rules.core.pack import const
from pbem.rules.core.problems import reject
from pbem.rules.core.royals import why_no_burial
from pbem.rules.core.state import State
from pbem.rules.resolve.royals import bury


def read(pack: Pack, s: State, seat: str, part: Any, where: str,
         rej: list[Problem]) -> dict[str, Any] | None:
    """``{"space": id | None}`` from ``true`` (wherever the body stands) or a major city;
    ``false`` means no burial (``{"space": False}``)."""
    if part is True or part is False:
        return {"space": None if part else False}
    sid = resolve_space(pack, part)[0]
    if sid is None or pack.spaces[sid].kind != "major_city":
        reject(rej, "royals.bad_bury", f"bury is true or a major city, not {part!r}", where,
               "bury: true, or bury: Pella")
        return None
    return {"space": sid}


def options(pack: Pack, s: State, seat: str) -> list[str]:
    """The major city where ``seat`` may bury the body now, if any (R-12.4)."""
    body = s["royals"].get("body") or {}
    return [body["space"]] if why_no_burial(pack, s, seat) is None else []


def holds(pack: Pack, s: State, part: Any, seat: str, unsure: Unsure) -> bool:
    """Whether a burial refused on the checked board ``s`` (``part``: the ``bury``
    order as written) is refused whatever happens where the board is ``unsure`` (a die,
    another seat's answer, a refused part; :mod:`pbem.rules.core.footprint`), R-12.4:
    the body has left play or the turn is before ``cart_ready_turn``; the body stays
    where it is (no unit comes or goes there) and that is no major city, or not the one
    named; ``seat`` does not control the body and none can capture it there (no unit
    comes or goes, no siege completes, R-12.1, R-10); or nothing at all may differ in the
    body's space or the one named."""
    body = s["royals"].get("body") or {}
    if (s.get("court") or {}).get("tomb") or body.get("gone") or not body.get("space") \
            or s["turn"] < int(const(pack, "cart_ready_turn")):
        return True
    x = body["space"]
    if royal_controller(pack, s, "body") != seat and not unsure.touches_moved([x]) \
            and not unsure.touches_sieges([x]):
        return True
    named = resolve_space(pack, part)[0] if isinstance(part, str) else None
    if not unsure.touches_moved([x]) and (pack.spaces[x].kind != "major_city"
                                          or named not in (None, x)):
        return True
    return not unsure.touches([x, named] if named else [x])


def check(pack: Pack, s: State, seat: str, part: dict[str, Any], where: str,
          rej: list[Problem], soft: bool = False) -> dict[str, Any] | None:
    """The burial must be possible on the position at the end of the player-turn
    (:func:`pbem.rules.core.royals.why_no_burial`), unless ``soft``."""
    if part["space"] is not False and not soft:
        why = why_no_burial(pack, s, seat, part["space"])
        if why:
            reject(rej, "royals.cannot_bury", f"the body cannot be buried: {why}", where,
                   "leave out bury, or bring the body with a general into a major city")
            return None
    return part


def execute(ctx: Ctx, seat: str, plan: dict[str, Any]) -> None:
    """Bury the body (``BodyBuried``), or tell why it cannot be done now (``Note``)."""
    if plan["space"] is False:
        return
    why = why_no_burial(ctx.pack, ctx.s, seat, plan["space"])
    if why:
        ctx.emit("Note", {"seat": seat, "rule": "R-12.4",
                          "text": f"the body is not buried: {why}"})
        return
    bury(ctx, seat)
