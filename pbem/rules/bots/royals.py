"""The bot's royal errands (R-12.2, R-12.4): the army carrying Alexander's body heads for
Pella to bury it there, and an army goes to meet a woman whose marriage offer it holds;
and sometimes the bot grants free passage for another seat's marriage (R-12.2).
Moves follow the cheapest land path through spaces with no other faction, as far as the
army's allowance goes. Uses only the given ``rng``.
"""
from __future__ import annotations

import heapq
import random
from typing import Any

from pbem.pack.model import Pack
from pbem.rules.core.armies import group_initiative
from pbem.rules.core.board import LAND_KINDS, info
from pbem.rules.core.pieces import (
    controlled_royals,
    group_at,
    has_general,
    held_by_others,
)
from pbem.rules.core.royals import court, in_play
from pbem.rules.core.state import GameState, State, hand_of, standing_orders


def land_path(pack: Pack, s: State, seat: str, start: str, goal: str) -> list[str] | None:
    """The cheapest land or mountain path from ``start`` to ``goal`` (R-9.1 costs)
    through spaces holding no other faction (``goal`` excepted), or None. Dijkstra on
    (cost, space): each space is reached at a strictly lower cost each time, so the
    first time ``goal`` comes out of the heap its chain of parents is the path."""
    held = frozenset(held_by_others(s, seat))
    key = (id(pack), start, goal, held)
    hit = _PATHS.get(key)
    if hit is not None and hit[0] is pack:
        return None if hit[1] is None else list(hit[1])
    path = _land_path(pack, start, goal, held)
    if len(_PATHS) >= 1024:  # a few MB at most (each key holds the spaces held)
        _PATHS.clear()
    _PATHS[key] = (pack, None if path is None else tuple(path))
    return path


_PATHS: dict[tuple[int, str, str, frozenset[str]], tuple[Pack, tuple[str, ...] | None]] = {}
""":func:`land_path`'s answers by pack, start, goal and the spaces held by others (the
only part of the position it reads): a bot asks the same of one position for each
candidate it tries (issue 27 item 5)."""


def _land_path(pack: Pack, start: str, goal: str, held: frozenset[str]) -> list[str] | None:
    """:func:`land_path` with the spaces holding another faction given (``held``)."""
    costs = {k: int(v) for k, v in pack.constants["path_mp_cost"].items() if k in LAND_KINDS}
    adjacent = info(pack).adjacent
    best = {start: 0}
    parent: dict[str, str] = {}
    todo: list[tuple[int, str]] = [(0, start)]
    while todo:
        cost, x = heapq.heappop(todo)
        if cost > best[x]:
            continue  # a stale entry: x was reached cheaper since
        if x == goal:
            path = []
            while x != start:
                path.append(x)
                x = parent[x]
            return path[::-1]
        if x != start and x in held:
            continue
        for y, k in adjacent.get(x, ()):
            step = costs[k] if k in LAND_KINDS else None
            if step is not None and cost + step < best.get(y, 1 << 30):
                best[y] = cost + step
                parent[y] = x
                heapq.heappush(todo, (cost + step, y))
    return None


def within(pack: Pack, start: str, path: list[str], mp: int) -> list[str]:
    """The first spaces of ``path`` an army with ``mp`` MPs reaches (R-9.1)."""
    out, here = [], start
    costs = pack.constants["path_mp_cost"]
    for y in path:
        kind = next((k for z, k in info(pack).adjacent.get(here, ()) if z == y
                     and k in LAND_KINDS), None)
        if kind is None or int(costs[kind]) > mp:
            break
        mp -= int(costs[kind])
        out.append(y)
        here = y
    return out


def errand_goals(pack: Pack, s: State, seat: str) -> list[tuple[str, str]]:
    """``[(army start space, goal space)]``: the body's army to Pella while the body may
    move and is unburied (R-12.4); an army to each woman whose offer ``seat`` holds and
    who is not married yet, and to an inactive woman whose activation card is in
    ``seat``'s own hand (R-12.2)."""
    out = []
    body = s["royals"].get("body") or {}
    pella = pack.constants.get("burial_pella_space")
    if "body" in controlled_royals(pack, s, seat) and pella and body["space"] != pella \
            and has_general(s, seat, body["space"]):
        out.append((body["space"], pella))
    armies = sorted({g["space"] for g in s["generals"].values()
                     if g["where"] == "map" and g["seat"] == seat and g["space"]})
    for rid, offer in sorted((court(s).get("offers") or {}).items()):
        if offer["seat"] == seat and not offer["married"] and in_play(s, rid) and armies:
            out.append((armies[0], s["royals"][rid]["space"]))
    for n in hand_of(s, seat):  # the Olympias card needs a general with her
        for eff in pack.cards[n].effects:
            rid = eff.params.get("royal")
            if eff.primitive == "activate_royal" and rid and in_play(s, rid) \
                    and not s["royals"][rid]["active"] and armies:
                out.append((armies[-1], s["royals"][rid]["space"]))
    return out


def royal_errand(pack: Pack, state: GameState, seat: str, rng: random.Random,
                 mp: int | None = None) -> tuple[dict[str, Any], str | None] | None:
    """One army move toward a royal errand's goal (:func:`errand_goals`, chosen at
    random), with ``mp`` MPs (else the commander's initiative), and the goal when the
    move reaches it; None without an errand, a path or the battle chart."""
    s = state.peek()
    goals = errand_goals(pack, s, seat)
    if not goals or "battle" not in pack.charts:
        return None
    start, goal = rng.choice(goals)
    path = land_path(pack, s, seat, start, goal)
    if not path:
        return None
    g = group_at(s, seat, start, controlled_royals(pack, s, seat))
    steps = within(pack, start, path, mp if mp is not None else
                   group_initiative(pack, s, seat, g))
    if not steps:
        return None
    return {"army": start, "path": steps}, (goal if steps[-1] == goal else None)


def add_free_passage(options: dict[str, Any], s: State, seat: str,
                     orders: dict[str, Any], rng: random.Random) -> None:
    """Half the time grant free passage for one marriage the bot's CUs alone forbid
    (R-12.2: the options' ``free_passage``, from
    :func:`pbem.rules.core.royals.passage_requests`), as a standing order added to the
    ones the orders set (else to the bot's standing orders now). Draws from ``rng``
    only when there is such a marriage, so other games keep their random sequence."""
    asks = options.get("free_passage") or []
    if not asks or rng.random() < 0.5:
        return
    ask = rng.choice(asks)
    standing = orders.get("standing")
    if not isinstance(standing, list):
        standing = [dict(o) for o in standing_orders(s, seat)]
    orders["standing"] = standing + [{"when": "free_passage", "to": [ask["to"]],
                                      "royal": [ask["royal"]]}]
