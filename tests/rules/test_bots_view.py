"""A bot sees only its seat's view (issue 27 item 2, docs/bots.md "What a bot sees").

At decisions of every kind of a real-pack game (player-turns, reinforcements, the
turn-order choice, reaction windows), the deciding seat's bot is asked twice with the
same random seed: once on the real state, once on a state whose secrets the seat may not
know are changed (the other seats' hands re-dealt from the same unseen cards, the deck
in another order, the others' training, standing orders (they now intercept any army)
and withheld orders and the suspended move replaced). The orders must be the same. The game's dice seed is never in the state
(the service keeps it, docs/trust.md), so a bot cannot read it: the test checks the
state holds neither the seed nor its commitment.
"""
from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

import pbem.rules as R
from pbem.pack.loader import load_pack
from pbem.rules.bots.greedy import greedy_orders
from pbem.rules.bots.random import random_bot
from pbem.rules.bots.search import Budget, search_orders
from pbem.rules.bots.seat_view import seat_view, unseen_cards
from pbem.rules.core.state import GameState
from pbem.rules.dice import Dice, seed_commitment

SEED = b"bots-view-7"

Bot = Callable[[GameState, str, random.Random], dict[str, Any]]


def greedy(state: GameState, seat: str, rng: random.Random) -> dict[str, Any]:
    return greedy_orders(state, seat, rng, width=10)


def strong(state: GameState, seat: str, rng: random.Random) -> dict[str, Any]:
    return search_orders(state, seat, rng, Budget(seconds=None, playouts=2, width=6,
                                                  keep=3, horizon=4))


BOTS: dict[str, Bot] = {"greedy": greedy, "random": random_bot, "strong": strong}


@pytest.fixture(scope="module")
def decisions() -> list[tuple[GameState, str, str]]:
    """``[(state, seat, kind)]``: a few decisions of each kind of one random game with
    reaction windows asked and units going inside cities."""
    pack = load_pack()
    state, _ = R.new_game(pack, SEED, {"ask_windows": True, "bot_inside": True})
    rng = random.Random(3)
    seen: dict[str, int] = {}
    out = []
    while R.pending(state):
        d = R.pending(state)[0]
        seen[d.kind] = seen.get(d.kind, 0) + 1
        if seen[d.kind] % 4 == 2 or (d.kind != "player_turn" and seen[d.kind] == 1):
            out.append((state, d.seat, d.kind))
        state, _ = R.apply(state, d.seat, R.bot_orders(state, d.seat, rng),
                           Dice(SEED, state.step))
    return out


def scrambled(state: GameState, seat: str, rng: random.Random) -> GameState:
    """``state`` with every secret ``seat`` may not know changed (see the module
    docstring); the unseen cards stay the same set (the seat can count them)."""
    s = state.to_dict()
    cards = unseen_cards(state, seat)
    rng.shuffle(cards)
    at = 0
    for other, p in sorted(s["private"].items()):
        if other == seat:
            continue
        n = len(p["hand"])
        p["hand"], at = cards[at:at + n], at + n
        p["training"] = [{"unit": "auxiliary", "paid": 1, "segments": 1, "turn": s["turn"]}]
        p["standing"] = [{"when": "losses", "order": ["royal"]}] + [
            {"when": "intercept", "army": g, "if_enemy_strength_at_most": 99}
            for g, v in sorted(s["generals"].items())
            if v["seat"] == other and v["where"] == "map"]
        if "withheld" in p:
            p["withheld"] = {**p["withheld"], "orders": {"movement": "none"}}
    s["secret"] = {"deck": cards[at:]}
    if (state.secret or {}).get("suspended") is not None:
        s["secret"]["suspended"] = {"cur": None, "moves": []}
    return GameState.from_dict(s, state.pack)


def test_the_decisions_cover_every_kind(decisions) -> None:
    kinds = {k for _, _, k in decisions}
    assert {"player_turn", "reinforcements", "turn_order"} <= kinds
    assert kinds - {"player_turn", "reinforcements", "turn_order"}  # a reaction window


@pytest.mark.parametrize("name", sorted(BOTS))
def test_a_bot_reads_only_its_seats_view(decisions, name: str) -> None:
    bot = BOTS[name]
    for i, (state, seat, kind) in enumerate(decisions):
        other = scrambled(state, seat, random.Random(i))
        assert other != state or kind == "turn_order"
        assert seat_view(other, seat) == seat_view(state, seat)
        mine = bot(state, seat, random.Random(f"bot-{i}"))
        assert bot(other, seat, random.Random(f"bot-{i}")) == mine, (kind, i)
        assert R.check(state, seat, mine).problems == [], (kind, mine)


def test_the_state_holds_no_dice_seed(decisions) -> None:
    for state, _, _ in decisions[::3]:
        text = json.dumps(state.to_dict())
        assert SEED.decode() not in text and seed_commitment(SEED) not in text
