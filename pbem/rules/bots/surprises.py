"""Random surprise-card plays for the bot (R-8.5), so the random playouts exercise them:
a move's ``surprise`` list (Forced March, Treachery where the move ends at a siege, a
battle card pledged), ``surrender.surprise`` at a siege the bot conducts, a Mutiny in
``tyche.surprise_plays`` (R-16.3), standing orders ``{when: <moment>, play: N}`` in any
turn, and ``play`` in window answers. Draws from
``rng`` only when the bot holds a surprise card that has a moment, so games without
one keep their random sequence.
"""
from __future__ import annotations

import random
from typing import Any

from pbem.pack.model import Pack
from pbem.rules.cards.legitimacy import mutiny_targets
from pbem.rules.core.board import resolve_space
from pbem.rules.core.state import GameState, hand_of, standing_orders
from pbem.rules.resolve.siege import conducts_siege, siege_target
from pbem.rules.resolve.surprises import STANDING_MOMENTS, moments_of, surprise_effect


def _end(pack: Pack, s: dict, seat: str, mv: dict) -> str | None:
    """Where a bot move (names or ids, as the bot wrote it) ends."""
    path = mv.get("path") or []
    return resolve_space(pack, path[-1])[0] if path else None


def add_surprise_plays(pack: Pack, state: GameState, seat: str, orders: dict[str, Any],
                       rng: random.Random) -> None:
    """Sometimes (one half each) name the bot's surprise cards for their moments in
    ``orders`` (the player-turn it is writing): Forced March and the battle cards in a
    move, Treachery in a move that ends at a siege or in ``surrender.surprise``, the
    rest (and the battle cards without a move) as standing orders, kept with the bot's
    standing orders of the moment. Cards the orders discard are left alone."""
    s = state.peek()
    ty = orders.get("tyche") or {}
    gone = set(ty.get("surprise_discards") or [])
    cards = [n for n in hand_of(s, seat) if moments_of(pack, n) and n not in gone]
    if not cards:
        return
    moves = orders["movement"] if isinstance(orders.get("movement"), list) else []
    standing = orders.get("standing")
    if standing is None:
        standing = [dict(o) for o in standing_orders(s, seat)]
    new: list[dict[str, Any]] = []
    for n in cards:
        if rng.random() < 0.5:
            continue
        ms = moments_of(pack, n)
        if "move" in ms and moves:
            rng.choice(moves).setdefault("surprise", []).append(n)
        elif "siege" in ms:
            _treachery(pack, s, seat, orders, moves, n)
        elif ("battle_roll" in ms or "prestige" in ms) and moves and rng.random() < 0.5:
            rng.choice(moves).setdefault("surprise", []).append(n)
        elif "tyche" in ms and isinstance(orders.get("tyche"), dict) and rng.random() < 0.5 \
                and (targets := mutiny_targets(pack, s, seat, surprise_effect(pack, n))):
            orders["tyche"].setdefault("surprise_plays", []).append(  # a Mutiny
                {"card": n, "target": rng.choice(targets)[0]})
        elif any(m in STANDING_MOMENTS for m in ms):
            when = rng.choice([m for m in ms if m in STANDING_MOMENTS])
            if not any(o.get("play") == n for o in standing):
                new.append({"when": when, "play": n})
    if new:
        orders["standing"] = standing + new


def _treachery(pack: Pack, s: dict, seat: str, orders: dict[str, Any], moves: list[dict],
               n: int) -> None:
    """Name a ``siege`` card in a move that ends at something to besiege, else in
    ``surrender.surprise`` at a siege the bot conducts now (R-10), else nowhere."""
    for mv in moves:
        end = _end(pack, s, seat, mv)
        if end and siege_target(pack, s, seat, end)[0] is not None:
            mv.setdefault("surprise", []).append(n)
            return
    sieges = sorted(x for x in s["cus"] if conducts_siege(pack, s, seat, x))
    if sieges and "movement" in orders:  # not in a Tyche-only segment (no surrender)
        sur = orders.setdefault("surrender", {})
        if isinstance(sur, dict):
            sur.setdefault("surprise", {})[sieges[0]] = n


def window_plays(options: dict[str, Any], answer: dict[str, Any],
                 rng: random.Random) -> dict[str, Any]:
    """Sometimes add ``play`` to a window answer (R-8.5): the window's private options
    list the bot's cards that fit (``surprises``). A ``surprise`` window's answer is the
    cards themselves. Draws from ``rng`` only when a card fits."""
    rows = options.get("surprises") or []
    if not rows:
        return answer
    cards = [r["card"] for r in rows if rng.random() < 0.6]
    if not cards:
        return answer
    key = next(iter(answer))
    if key == "surprise":
        return {"surprise": {"play": cards}}
    value = answer[key]
    if key == "inside_join":
        return answer
    if not isinstance(value, dict):
        value = {}
    return {key: {**value, "play": cards}}
