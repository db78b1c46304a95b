"""Random legal playouts of whole games (all seats bot_orders) with invariants checked
after every decision, plus per-event checks (OpenSpiel-style property test).

``PBEM_PLAYOUTS`` sets the number of games (default 200 on the real pack; the mini pack
runs a fifth of them). Every game: the accepted orders are legal, state.step advances by
one per decision, fold(initial, all events) == live state, and the game ends with a
winner within the turn track.
"""
from __future__ import annotations

import os
import random

import pytest
from rules_harness import check_invariants, cu_delta

import pbem.rules as R
from pbem.rules.dice import Dice

GAMES = int(os.environ.get("PBEM_PLAYOUTS", "200"))


def _real():
    from pbem.pack.loader import load_pack
    return load_pack()


def play(pack, g: int, check_every: int = 1) -> tuple[R.GameState, int]:
    seed = f"playout-{g}".encode()
    state, events = R.new_game(pack, seed)
    initial = R.empty_state(pack)
    log = list(events)
    added = sum(cu_delta(e) for e in events)
    gone: set[str] = set()  # members removed from play stay removed
    check_invariants(pack, state, added, gone)
    rng = random.Random(g)
    decisions = 0
    while True:
        pend = R.pending(state)
        if not pend:
            break
        assert len(pend) == 1
        d = pend[0]
        assert d.step == state.step
        orders = R.bot_orders(state, d.seat, rng)
        assert R.validate(state, d.seat, orders) == []
        before = state.step
        new, events = R.apply(state, d.seat, orders, Dice(seed, state.step))
        assert new.step == before + 1
        assert R.fold(state, events) == new
        for e in events:
            assert e.public or e.kind in ("CardsDealt", "CardDrawn", "DeckShuffled",
                                            "StandingOrdersSet", "MoveSuspended",
                                            "OrdersWithheld", "Shuffled")
            if not e.public and e.kind not in ("DeckShuffled", "MoveSuspended", "Shuffled"):  # judge-only
                assert e.seat == e.data["seat"]
            if e.public and e.kind == "OrdersApplied":  # standing orders never go public
                assert "standing" not in e.data["orders"]
        added += sum(cu_delta(e) for e in events)
        log += events
        state = new
        decisions += 1
        if decisions % check_every == 0:
            check_invariants(pack, state, added, gone)
        assert decisions < 1000, "game does not end"
    check_invariants(pack, state, added, gone)
    assert state.result and state.result["winner"] in R.SEATS
    assert R.fold(initial, log) == state
    return state, decisions


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(4))
def test_playouts_real_pack(chunk: int) -> None:
    pack = _real()
    for g in range(chunk, GAMES, 4):
        play(pack, g)


def test_playouts_mini_pack(pack) -> None:
    for g in range(max(1, GAMES // 5)):
        play(pack, 10_000 + g)


def test_one_game_reaches_the_end(pack) -> None:
    state, n = play(pack, 7)
    assert state.phase == "over" and state.result["rule"] in ("R-1.1", "R-1.2", "R-1.3")
    assert n > 20
