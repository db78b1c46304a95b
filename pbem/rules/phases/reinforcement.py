"""The reinforcement phase (R-7): the turn's new CUs are granted, dispersed and arriving
generals come back (R-7.3), and each seat's placement becomes a decision
(:mod:`pbem.rules.orders.reinforcements`).
"""
from __future__ import annotations

from typing import Any

from pbem.problems import Problem
from pbem.rules.context import Ctx
from pbem.rules.core.control import victory_points
from pbem.rules.core.pieces import cus_of, has_enemy_units
from pbem.rules.core.placement import reinforcement_counts
from pbem.rules.core.problems import reject
from pbem.rules.orders import reinforcements
from pbem.rules.orders.common import plan_of


def reinforcement_phase(ctx: Ctx) -> None:
    """R-7 opening: grant the turn's new CUs (R-7.1, ``ReinforcementsGranted``), bring
    back dispersed major generals (R-7.3) and open one ``reinforcements`` decision per
    seat in turn order (``ReinforcementQueued``); :mod:`pbem.rules.reinforce_orders`
    handles each seat's placement."""
    pack, s = ctx.pack, ctx.s
    ctx.emit("PhaseStarted", {"phase": "reinforcement", "rule": "R-7"})
    counts = reinforcement_counts(pack, s)
    for seat in s["turn_order"]:
        _arrive_generals(ctx, seat)
    _arrive_track_generals(ctx)
    ctx.emit("ReinforcementsGranted", {"cus": counts, "queue": list(s["turn_order"]),
                                       "rule": "R-7.1"})


def _general_spot(ctx: Ctx, seat: str) -> str | None:
    s = ctx.s
    spots = [x for x, o in s["garrisons"].items() if o == seat
             and not has_enemy_units(s, seat, x)]
    if not spots:
        return None
    return min(spots, key=lambda x: (ctx.pack.spaces[x].kind != "major_city",
                                     -cus_of(s, seat, x), x))


def _arrive_generals(ctx: Ctx, seat: str) -> None:
    for gid, g in sorted(ctx.s["generals"].items()):
        if g["where"] == "dispersed" and g["seat"] == seat:
            spot = _general_spot(ctx, seat)
            if spot:
                ctx.emit("GeneralPlaced", {"general": gid, "seat": seat, "where": "map",
                                           "space": spot, "rule": "R-7.3"})


def _arrive_track_generals(ctx: Ctx) -> None:
    """R-7.3 [D]: a general on the turn track whose arrival turn has come joins the
    seat with fewest VP (ties: turn order) at one of its garrisons."""
    s = ctx.s
    for gid, g in sorted(s["generals"].items()):
        pg = ctx.pack.generals.get(gid)
        if g["where"] != "track" or not pg or not pg.arrival_turn:
            continue
        if pg.arrival_turn > s["turn"]:
            continue
        vp = victory_points(ctx.pack, s)
        seat = min(s["turn_order"], key=lambda x: (vp[x], s["turn_order"].index(x)))
        spot = _general_spot(ctx, seat)
        if spot:
            ctx.emit("GeneralPlaced", {"general": gid, "seat": seat, "where": "map",
                                       "space": spot, "rule": "R-7.3",
                                       "decision": "[D] joins the seat with fewest VP"})


def run_reinforcement(ctx: Ctx, seat: str, orders: Any) -> list[Problem]:
    """A seat's reinforcement decision (R-6.3, R-7.2): the seat first in the queue reads
    and checks its placements once (:mod:`pbem.rules.orders.reinforcements`), which are
    then carried out. Returns every problem found (nothing is carried out then)."""
    pack, s = ctx.pack, ctx.s
    rej: list[Problem] = []
    queue = (s["reinforce"] or {}).get("queue", [])
    if not queue or queue[0] != seat:
        reject(rej, "turn.not_your_turn", f"{queue[0] if queue else 'nobody'} places "
               f"reinforcements now, not {seat}", "orders",
               "wait for your reinforcements prompt (turn order)", rule="R-6.3")
        return rej
    plan = ctx.planned("reinforcements", lambda: plan_of(
        reinforcements, pack, s, seat, orders, "orders", rej))
    ctx.emit("OrdersApplied", {"seat": seat, "step": s["step"], "orders": orders,
                               "rule": "R-7"})
    if plan is not None:
        reinforcements.execute(ctx, seat, plan)
    return rej
