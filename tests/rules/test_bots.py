"""The bots that play to win (issue 27 Part A): their orders take the player's path.

At every decision of a few whole games on the real pack, the bot's orders document is
accepted by ``rules.check`` against the real state (not the bot's view), then carried
out with the game's dice like a player's; the game ends by the rules. A bot given the
same seed twice writes the same orders. Budgets are small so each test takes seconds.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

import pbem.rules as R
from pbem.pack.loader import load_pack
from pbem.rules.bots.greedy import greedy_orders
from pbem.rules.bots.random import random_bot
from pbem.rules.bots.search import Budget, search_orders
from pbem.rules.dice import Dice

Bot = Callable[[R.GameState, str, random.Random], dict[str, Any]]


@pytest.fixture(scope="module")
def real_pack():
    return load_pack()


def greedy(state: R.GameState, seat: str, rng: random.Random) -> dict[str, Any]:
    return greedy_orders(state, seat, rng, width=8)


SMALL = Budget(seconds=None, playouts=2, width=6, keep=3, horizon=4)
"""A strong bot that thinks little (no clock: deterministic, a test of seconds)."""


def strong(state: R.GameState, seat: str, rng: random.Random) -> dict[str, Any]:
    return search_orders(state, seat, rng, SMALL)


def play(pack, seed: bytes, bots: dict[str, Bot], options: dict | None = None,
         limit: int = 400) -> tuple[R.GameState, list[tuple[str, str, dict]]]:
    """One whole game, ``bots[seat]`` deciding for each seat (random bots elsewhere);
    every bot document must pass ``rules.check`` on the real state. Returns the final
    state and ``[(seat, decision kind, orders)]`` of the bots'."""
    state, _ = R.new_game(pack, seed, options or {})
    rngs = {x: random.Random(f"{seed!r}-{x}") for x in R.SEATS}
    played = []
    for _ in range(limit):
        pend = R.pending(state)
        if not pend:
            break
        d = pend[0]
        bot = bots.get(d.seat)
        orders = (bot or R.bot_orders)(state, d.seat, rngs[d.seat])
        checked = R.check(state, d.seat, orders)
        assert checked.problems == [], (d.kind, orders, checked.problems)
        if bot is not None:
            played.append((d.seat, d.kind, orders))
        state, _ = R.execute(state, checked, Dice(seed, state.step))
    assert state.result and state.result["winner"] in R.SEATS
    return state, played


@pytest.mark.parametrize("g", range(2))
def test_greedy_orders_pass_the_check_at_every_decision(real_pack, g: int) -> None:
    """Greedy bots at all four seats (one game with reaction windows asked): every
    decision's orders are legal, and the game ends by the rules."""
    _, played = play(real_pack, b"greedy-legal-%d" % g, dict.fromkeys(R.SEATS, greedy),
                     {"ask_windows": bool(g % 2)})
    kinds = {k for _, k, _ in played}
    assert {"player_turn", "reinforcements"} <= kinds


@pytest.mark.parametrize("g", range(3))
def test_random_player_orders_pass_the_check_at_every_decision(real_pack, g: int) -> None:
    """The random bot as a player checks its candidates on its seat's view, not on the
    real state: its orders still pass the judge's check at every decision."""
    play(real_pack, b"random-view-%d" % g, dict.fromkeys(R.SEATS, random_bot),
         {"ask_windows": bool(g % 2), "bot_inside": g == 2})


def test_greedy_is_deterministic_for_its_seed(real_pack) -> None:
    """The same game and bot seeds give the same orders at every decision."""
    bots = {"north": greedy, "south": greedy}
    _, first = play(real_pack, b"greedy-same", bots)
    _, second = play(real_pack, b"greedy-same", bots)
    assert first == second and first


def test_strong_orders_pass_the_check_at_every_decision(real_pack) -> None:
    """The strong bot at two seats (reaction windows asked): every decision's orders are
    legal, and the game ends by the rules."""
    _, played = play(real_pack, b"strong-legal", {"north": strong, "east": strong},
                     {"ask_windows": True})
    assert {"player_turn", "reinforcements"} <= {k for _, k, _ in played}


def test_strong_is_deterministic_for_its_seed(real_pack) -> None:
    """Without a clock, the same seeds give the same orders at every decision."""
    _, first = play(real_pack, b"strong-same", {"west": strong})
    _, second = play(real_pack, b"strong-same", {"west": strong})
    assert first == second and first


def test_the_strong_bot_plays_out_its_candidates(real_pack) -> None:
    """The search is not the greedy's first choice under another name: over a game's
    player-turns, the strong bot's choice differs from its best one-ply candidate at
    some decision (its playouts change the ranking)."""
    state, _ = R.new_game(real_pack, b"strong-differs")
    rng = random.Random(5)
    differs = 0
    for _ in range(40):
        d = R.pending(state)[0]
        if d.kind == "player_turn":
            wide = Budget(seconds=None, playouts=3, width=6, keep=3, horizon=6)
            one_ply = Budget(seconds=None, playouts=0, width=6, keep=1, horizon=0)
            differs += search_orders(state, d.seat, random.Random(1), wide) != \
                search_orders(state, d.seat, random.Random(1), one_ply)
        state, _ = R.apply(state, d.seat, R.bot_orders(state, d.seat, rng),
                           Dice(b"strong-differs", state.step))
    assert differs > 0
