"""Random army orders for the bot (property tests, empty seats): moves along land paths
within the commander's initiative, occasional assaults, standing orders, units going
inside or out of major cities, and answers to reaction windows (R-9.1, R-9.3, R-10, R-5).
Uses only the given ``rng``.
"""
from __future__ import annotations

import heapq
import random
from typing import Any

from pbem.pack.model import Pack
from pbem.rules.core.armies import group_initiative
from pbem.rules.core.board import LAND_KINDS, info
from pbem.rules.core.pieces import (
    capacity,
    controlled_royals,
    enemy_of,
    group_at,
    inside_cus,
    outside_cus,
)
from pbem.rules.core.state import GameState


def _armies(s: dict, seat: str) -> list[str]:
    """Start spaces of ``seat``'s armies (a major or minor general there)."""
    out = {g["space"] for g in s["generals"].values()
           if g["where"] == "map" and g["seat"] == seat and g["space"]}
    out |= {x for x in s["minors"].get(seat, []) if s["cus"].get(x, {}).get(seat)}
    return sorted(out)


def _reacting(s: dict) -> bool:
    """True in games with the option ``ask_windows`` or ``bot_inside`` (the war
    playouts): the bot then also makes naval moves and gives inside_join and losses
    standing orders (R-15, R-9.2), so other bot games keep their random sequence."""
    opts = s.get("options") or {}
    return bool(opts.get("ask_windows") or opts.get("bot_inside"))


def random_moves(pack: Pack, state: GameState, seat: str, rng: random.Random,
                 mp: int | None = None) -> list[dict[str, Any]]:
    """Up to two random land moves of ``seat``'s armies (R-9.1); empty when the pack
    has no battle chart (the mini test pack). With the option ``bot_inside`` the moves
    head for other players' major cities half the time (sieges, sallies, R-5, R-10)."""
    if "battle" not in pack.charts:
        return []
    s = state.peek()
    besiege = bool((s.get("options") or {}).get("bot_inside"))
    armies = _armies(s, seat)
    rng.shuffle(armies)
    moves = []
    for start in armies[:rng.randint(1, 2)]:
        g = group_at(s, seat, start, controlled_royals(pack, s, seat))
        allowance = mp if mp is not None else group_initiative(pack, s, seat, g)
        siege = _siege_path(pack, s, seat, start, allowance) if besiege else None
        if siege and rng.random() < 0.5:
            mv = {"army": start, "path": siege}
            if rng.random() < 0.7:
                mv["assault"] = rng.randint(1, 2)
            moves.append(mv)
            continue
        if _reacting(s) and pack.spaces[start].port and rng.random() < 0.2:  # naval
            cost = int(pack.constants["path_mp_cost"]["sea"])
            path, here, left = [], start, allowance
            for _ in range(rng.randint(1, 2)):
                nxt = sorted({y for y, k in info(pack).adjacent.get(here, ())
                              if k == "sea" and y not in path and y != start})
                if not nxt or cost > left:
                    break
                here = rng.choice(nxt)
                path.append(here)
                left -= cost
            if path:
                moves.append({"army": start, "path": path})
                continue
        path, here, left = [], start, allowance
        for _ in range(rng.randint(1, 3)):
            nxt = [(y, k) for y, k in info(pack).adjacent.get(here, ())
                   if k in LAND_KINDS and y not in path and y != start]
            if not nxt:
                break
            y, k = rng.choice(nxt)
            cost = int(pack.constants["path_mp_cost"][k])
            if cost > left:
                break
            path.append(y)
            here, left = y, left - cost
        if path:
            mv: dict[str, Any] = {"army": start, "path": path}
            if rng.random() < 0.3:
                mv["assault"] = rng.randint(1, 2)
            moves.append(mv)
    return moves


def _siege_path(pack: Pack, s: dict, seat: str, start: str, allowance: int
                ) -> list[str] | None:
    """The cheapest land path (within ``allowance`` MPs, through spaces with no other
    faction) from ``start`` to the nearest major city of another player whose units
    there are all inside it (a siege situation, R-5, R-10), or None."""


    best: dict[str, int] = {start: 0}
    todo: list[tuple[int, str, list[str]]] = [(0, start, [])]
    while todo:
        cost, x, path = heapq.heappop(todo)
        if path and pack.spaces[x].kind == "major_city" and (s.get("inside") or {}).get(x) \
                and s["garrisons"].get(x) not in (None, seat) and enemy_of(s, seat, x) is None:
            return path
        if path and enemy_of(s, seat, x) is not None:
            continue
        for y, k in info(pack).adjacent.get(x, ()):
            if k not in LAND_KINDS:
                continue
            c = cost + int(pack.constants["path_mp_cost"][k])
            if c <= allowance and c < best.get(y, allowance + 1):
                best[y] = c
                heapq.heappush(todo, (c, y, path + [y]))
    return None


def random_standing(pack: Pack, state: GameState, seat: str, rng: random.Random
                    ) -> list[dict[str, Any]]:
    """Random standing orders for ``seat``'s generals (R-9.3, R-15)."""
    s = state.peek()
    out: list[dict[str, Any]] = []
    for gid, g in sorted(s["generals"].items()):
        if g["where"] != "map" or g["seat"] != seat or rng.random() < 0.5:
            continue
        if rng.random() < 0.5:
            out.append({"when": "intercept", "army": gid,
                        "if_enemy_strength_at_most": rng.randint(2, 12)})
        else:
            out.append({"when": "avoid", "army": gid,
                        "if_attacker_ratio_at_least": rng.choice([1, 2, 3])})
    if pack.fleets and rng.random() < 0.3:
        out.append({"when": "naval_battle"})
    if not _reacting(s):
        return out
    cities = sorted(x for x, o in s["garrisons"].items()
                    if o == seat and pack.spaces[x].kind == "major_city")
    if cities and rng.random() < 0.3:  # units inside may stay out of a battle
        out.append({"when": "inside_join", "city": [rng.choice(cities)],
                    "join": rng.random() < 0.5})
    if rng.random() < 0.3:  # the CU types lost first
        types = sorted(pack.cu_types)
        rng.shuffle(types)
        out.append({"when": "losses", "order": types})
    return out


def add_war_orders(pack: Pack, state: GameState, seat: str, orders: dict[str, Any],
                   rng: random.Random) -> None:
    """Maybe replace the movement segment by army moves, give a Tyche activation its army
    and path, and add standing orders."""
    ty = orders.get("tyche") or {}
    campaign = next((e for e in pack.cards[ty["card"]].effects if e.primitive == "move_armies"),
                    None) if ty.get("use") == "event" else None
    if campaign is not None:  # Major Campaign: up to two army moves
        mp = campaign.params.get("mp", pack.constants.get("major_campaign_mp"))
        moves = random_moves(pack, state, seat, rng, mp=int(mp)) if mp else []
        if moves:
            ty["moves"] = moves[:int(campaign.params.get("armies", 2))]
        else:
            ty["use"] = "discard"
    if ty.get("use") == "activate":
        card = pack.cards[ty["card"]]
        moves = random_moves(pack, state, seat, rng, mp=card.ops)
        if moves:
            ty.update(moves[0])
        else:
            ty["use"] = "discard" if not card.must_play else "garrisons"
    if "movement" in orders and rng.random() < 0.5:
        moves = random_moves(pack, state, seat, rng)
        if moves:
            orders["movement"] = moves
    if rng.random() < 0.2:
        orders["standing"] = random_standing(pack, state, seat, rng)
    random_inside(pack, state, seat, orders, rng)


def random_inside(pack: Pack, state: GameState, seat: str, orders: dict[str, Any],
                  rng: random.Random) -> None:
    """Sometimes put CUs inside one of ``seat``'s major cities, or bring them out (R-5;
    against an enemy outside this is a sally, a battle). Only in games with the option
    ``bot_inside: true`` (the war playouts), so other bot games keep their random
    sequence."""

    s = state.peek()
    if not (s.get("options") or {}).get("bot_inside"):
        return
    cities = sorted(x for x, o in s["garrisons"].items()
                    if o == seat and pack.spaces[x].kind == "major_city")
    ins: dict[str, dict[str, int]] = {}
    out: list[str] = []
    for x in cities:
        inner = inside_cus(s, seat, x)
        if inner and rng.random() < (0.2 if not enemy_of(s, seat, x) else 0.5):
            out.append(x)  # with an enemy outside: a sally
            continue
        room = capacity(pack) - sum(inner.values())
        have = outside_cus(s, seat, x)
        if room > 0 and have and rng.random() < 0.3:
            t = "royal" if "royal" in have and rng.random() < 0.5 else rng.choice(sorted(have))
            ins[x] = {t: rng.randint(1, min(room, have[t]))}
    if out:
        orders["outside"] = out
    if ins:
        orders["inside"] = ins


def reaction_orders(state: GameState, seat: str, rng: random.Random) -> dict[str, Any]:
    """A random answer to an open reaction window (R-9.3 intercept / avoid battle, R-15
    naval battle, R-9.2 units inside joining a battle)."""
    p = (state.war or {}).get("pause") or {}
    key = p.get("kind", "intercept")
    if key == "inside_join":
        return {key: rng.choice(["join", "stay"])}
    if key == "surprise":  # the cards, if any, come from window_plays
        return {key: "none"}
    if p.get("options") and rng.random() < 0.6:
        if key == "naval_battle":
            opts = list(p["options"])
            return {key: {"fleets": rng.sample(opts, rng.randint(1, len(opts)))}}
        field = "army" if key == "intercept" else "toward"
        return {key: {field: rng.choice(p["options"])}}
    return {key: "none"}
