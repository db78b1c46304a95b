"""Random army orders for the bot (property tests, empty seats): moves along land paths
within the commander's initiative, occasional assaults, standing orders, units going
inside or out of major cities, and answers to reaction windows (R-9.1, R-9.3, R-10, R-5).
Uses only the given ``rng``."""
from __future__ import annotations

import random
from typing import Any

from pbem.pack.model import Pack
from pbem.rules.mapinfo import info
from pbem.rules.movement import (
    LAND_KINDS,
    controlled_royals,
    group_at,
    group_initiative,
)
from pbem.rules.state import GameState


def _armies(s: dict, seat: str) -> list[str]:
    """Start spaces of ``seat``'s armies (a major or minor general there)."""
    out = {g["space"] for g in s["generals"].values()
           if g["where"] == "map" and g["seat"] == seat and g["space"]}
    out |= {x for x in s["minors"].get(seat, []) if s["cus"].get(x, {}).get(seat)}
    return sorted(out)


def random_moves(pack: Pack, state: GameState, seat: str, rng: random.Random,
                 mp: int | None = None) -> list[dict[str, Any]]:
    """Up to two random land moves of ``seat``'s armies (R-9.1); empty when the pack
    has no battle chart (the mini test pack)."""
    if "battle" not in pack.charts:
        return []
    s = state.peek()
    armies = _armies(s, seat)
    rng.shuffle(armies)
    moves = []
    for start in armies[:rng.randint(1, 2)]:
        g = group_at(s, seat, start, controlled_royals(pack, s, seat))
        allowance = mp if mp is not None else group_initiative(pack, s, seat, g)
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
    return out


def add_war_orders(pack: Pack, state: GameState, seat: str, orders: dict[str, Any],
                   rng: random.Random) -> None:
    """Maybe replace the movement segment by army moves, give a Tyche activation its army
    and path, and add standing orders."""
    ty = orders.get("tyche") or {}
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
    """Sometimes put CUs inside one of ``seat``'s major cities, or bring them out (R-5).
    Only in games with the option ``bot_inside: true`` (the war playouts), so other bot
    games keep their random sequence."""
    from pbem.rules.combat import enemy_of
    from pbem.rules.inside import capacity, inside_cus, outside_cus

    s = state.peek()
    if not (s.get("options") or {}).get("bot_inside"):
        return
    cities = sorted(x for x, o in s["garrisons"].items()
                    if o == seat and pack.spaces[x].kind == "major_city")
    ins: dict[str, dict[str, int]] = {}
    out: list[str] = []
    for x in cities:
        inner = inside_cus(s, seat, x)
        if inner and not enemy_of(s, seat, x) and rng.random() < 0.2:
            out.append(x)
            continue
        room = capacity(pack) - sum(inner.values())
        have = outside_cus(s, seat, x)
        if room > 0 and have and rng.random() < 0.3:
            t = rng.choice(sorted(have))
            ins[x] = {t: rng.randint(1, min(room, have[t]))}
    if out:
        orders["outside"] = out
    if ins:
        orders["inside"] = ins


def reaction_orders(state: GameState, seat: str, rng: random.Random) -> dict[str, Any]:
    """A random answer to an open reaction window (R-9.3)."""
    p = (state.war or {}).get("pause") or {}
    key = p.get("kind", "intercept")
    if p.get("options") and rng.random() < 0.6:
        field = "army" if key == "intercept" else "toward"
        return {key: {field: rng.choice(p["options"])}}
    return {key: "none"}
