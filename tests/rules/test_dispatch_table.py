"""The engine dispatches by one table (ARCHITECTURE.md "Machinery": a table of phases
and decision kinds, not an if-chain; issue 26): :data:`pbem.rules.engine.AWAITED` says
what a state can wait for, and both :func:`pending` and the check go by the row
:func:`awaited` picks, so the decision a seat is shown and the phase that checks its
answer cannot disagree.
"""
from __future__ import annotations

import random

from rules_minipack import mini_pack

from pbem import rules
from pbem.rules.engine import AWAITED, PLAYER_TURN, REACTION_WINDOW, awaited

WINDOW_KINDS = {"intercept", "avoid_battle", "naval_battle", "inside_join", "surprise"}


def test_the_table_names_each_thing_a_state_waits_for_once_in_order() -> None:
    kinds = [row.kind for row in AWAITED]
    assert kinds == ["reaction_window", "turn_order", "reinforcements", "player_turn"]
    assert all(row.rule.startswith("R-") for row in AWAITED)
    assert AWAITED[-1] is PLAYER_TURN and PLAYER_TURN.waits({})


def test_pending_and_the_check_follow_the_row_awaited_picks() -> None:
    """In bot-played games on the mini pack, each decision ``pending`` shows is the one
    of the row ``awaited`` picks, and its default orders pass that row's check."""
    seen = set()
    for seed in range(3):
        rng = random.Random(seed)
        state, _ = rules.new_game(mini_pack(), f"table-{seed}".encode(), {"ask_windows": True})
        for _ in range(40):
            decisions = rules.pending(state)
            if not decisions:
                break
            d = decisions[0]
            row = awaited(state.peek())
            seen.add(row.kind)
            if row is REACTION_WINDOW:
                assert d.kind in WINDOW_KINDS
            else:
                assert d.kind == row.kind and d.rule == row.rule
            assert rules.validate(state, d.seat, d.default) == [], (d.kind, d.default)
            state, _ = rules.apply(state, d.seat, rules.bot_orders(state, d.seat, rng),
                                   rules.Dice(f"table-{seed}".encode(), state.step))
    # reaction windows: tests/rules/test_war_reactions.py opens each kind through pending and the check
    assert {"turn_order", "reinforcements", "player_turn"} <= seen, seen
