"""The optional capitals (R-1.4, game option ``capitals``, seed 001): the optional card
joins the Tyche deck only in a game that sets the option, a capital standing is worth
``capital_vp`` to its owner and each enemy capital destroyed ``destroy_capital_vp``."""
from __future__ import annotations

import random

import pytest
from rules_harness import check_invariants, cu_delta, position, started_game

import pbem.rules as R
from pbem.pack.loader import load_pack
from pbem.rules.core.control import victory_points
from pbem.rules.core.state import all_hands, deck
from pbem.rules.dice import Dice


@pytest.fixture(scope="module")
def real():
    return load_pack()


def _in_play(state) -> set[int]:
    s = state.peek()
    return set(deck(s)) | {n for h in all_hands(s).values() for n in h}


def test_the_optional_card_is_in_the_deck_only_with_the_option(real) -> None:
    (n,) = [c.number for c in real.cards.values() if c.optional == "capitals"]
    plain, _ = started_game(real, b"capitals-off")
    assert n not in _in_play(plain)
    with_option, _ = started_game(real, b"capitals-on", {"capitals": True})
    assert n in _in_play(with_option)


def test_capitals_count_for_victory_points(real) -> None:
    base = position(real, {"garrisons": {"pelusium": "north"}}).to_dict()
    before = victory_points(real, base)
    base["war"] = {"capitals": {"pelusium": "north"}, "capitals_destroyed": {"east": 2}}
    after = victory_points(real, base)
    assert after["north"] - before["north"] == real.constants["capital_vp"] == 2
    assert after["east"] - before["east"] == 2 * real.constants["destroy_capital_vp"] == 2


def test_the_option_takes_true_or_false(real) -> None:
    assert R.option_problems(real, {"capitals": True}) == []
    assert "capitals" in R.option_problems(real, {"capitals": "yes"})[0]


def _capitals_game(real, g: int) -> int:
    """One random bot game with the option; the invariants hold after every decision,
    a capital stands only on its owner's garrison, the log folds to the live state and
    the game ends. Returns how many capitals were founded."""
    seed = f"capitals-{g}".encode()
    state, events = R.new_game(real, seed, {"capitals": True})
    log, added = list(events), sum(cu_delta(e) for e in events)
    rng, founded = random.Random(g), 0
    while R.pending(state):
        d = R.pending(state)[0]
        orders = R.bot_orders(state, d.seat, rng)
        assert R.validate(state, d.seat, orders) == []
        state, events = R.apply(state, d.seat, orders, Dice(seed, state.step))
        log += events
        added += sum(cu_delta(e) for e in events)
        founded += sum(e.kind == "CapitalFounded" for e in events)
        check_invariants(real, state, added, set())
        caps = (state.war or {}).get("capitals") or {}
        assert all(state.garrisons.get(x) == seat for x, seat in caps.items())
    assert state.result
    assert R.fold(R.empty_state(real), log) == state
    return founded


def test_random_games_with_capitals(real) -> None:
    """Random bot games with the option found capitals (the bots play #64 for its
    event when it is dealt to them: in some of these eight games, whatever course the
    rules give them)."""
    assert sum(_capitals_game(real, g) for g in range(8)) > 0
