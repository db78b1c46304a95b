"""The turn-order decision (R-6.1): the seat with fewest VP (ties by die roll) names the
first player; play then goes clockwise from him. Like every order kind
(:mod:`pbem.rules.orders`): :func:`read`, :func:`options`, :func:`check`,
:func:`execute`; :func:`default` is the deadline's.

Orders::

    first_player: east        # a seat (case ignored); "default" (or nothing): the
                              # chooser himself goes first, as before this decision [D]
"""
from __future__ import annotations

from typing import Any

from pbem.pack.model import Pack
from pbem.problems import Problem
from pbem.rules.context import Ctx
from pbem.rules.core.problems import did_you_mean, reject
from pbem.rules.core.state import SEATS, State

RULE = "R-6.1"
KEY = "first_player"


def chooser(s: State) -> str | None:
    """The seat that names the first player now (R-6.1), or None."""
    return (s.get("order_choice") or {}).get("seat")


def clockwise_from(first: str) -> list[str]:
    """The turn order starting with ``first``, clockwise (R-6.1, seating of R-2)."""
    i = SEATS.index(first)
    return [SEATS[(i + k) % len(SEATS)] for k in range(len(SEATS))]


def options(pack: Pack, s: State, seat: str) -> dict[str, Any]:
    """``{"seat", "step", "first_player": [seat, ...], "vp": {seat: VP}}``: the seats the
    chooser may name (every seat, himself included) and the VP that made him chooser
    (R-6.1); for another seat ``first_player`` is empty."""
    mine = chooser(s) == seat
    return {"seat": seat, "step": s["step"], KEY: list(SEATS) if mine else [],
            "vp": dict((s.get("order_choice") or {}).get("vp", {}))}


def default(pack: Pack, s: State, seat: str) -> dict[str, Any]:
    """Deadline default [D]: the chooser goes first himself."""
    return {KEY: seat}


def read(pack: Pack, s: State, seat: str, orders: Any, where: str, rej: list[Problem]
         ) -> dict[str, Any] | None:
    """The decision's orders: ``{first_player: seat | default}`` (no key: the default);
    unknown fields are refused (R-6.1)."""
    if not isinstance(orders, dict):
        reject(rej, "orders.not_a_mapping", "orders must be a mapping", where,
               f"orders: {{{KEY}: east}}", rule=RULE)
        return None
    for k in orders:
        if k not in (KEY, "step"):
            reject(rej, "orders.unknown_key", f"turn-order orders have no field {k!r}",
                   f"{where}.{k}",
                   did_you_mean(k, (KEY,), f"only {KEY}: <seat> is read in this decision"),
                   rule=RULE, params={"field": k})
    return {KEY: orders.get(KEY, "default")}


def check(pack: Pack, s: State, seat: str, order: dict[str, Any], where: str,
          rej: list[Problem], soft: bool = False) -> dict[str, Any] | None:
    """``seat`` must be the chooser (``turn.not_your_turn``) and ``first_player`` a seat
    (``turn.first_player_unknown``). Returns ``{"first": seat, "chosen": bool}``."""
    who = chooser(s)
    if who != seat:
        reject(rej, "turn.not_your_turn", f"{who or 'nobody'} names the first player now, "
               f"not {seat}", where, "wait for your prompt", rule=RULE)
        return None
    value = order[KEY]
    if value == "default":
        return {"first": seat, "chosen": False}
    first = value.strip().lower() if isinstance(value, str) else None
    if first not in SEATS:
        reject(rej, "turn.first_player_unknown", f"{value!r} is not a seat of this game",
               f"{where}.{KEY}", did_you_mean(first, SEATS, "seats: " + ", ".join(SEATS)))
        return None
    return {"first": first, "chosen": True}


def execute(ctx: Ctx, seat: str, plan: dict[str, Any]) -> None:
    """``TurnOrderSet``: the order clockwise from the named first player (R-6.1)."""
    vp = dict((ctx.s.get("order_choice") or {}).get("vp", {}))
    ctx.emit("TurnOrderSet", {"order": clockwise_from(plan["first"]), "chooser": seat,
                              "first": plan["first"], "vp": vp, "rule": RULE,
                              "decision": (f"named by {seat}" if plan["chosen"] else
                                           "[D] default: the chooser goes first")})
