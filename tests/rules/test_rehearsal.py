"""A check adopts the dry run it made of the movement segment instead of running the
moves twice (:meth:`pbem.rules.context.Ctx.keep_rehearsal`, issue 14): the outcome must
be exactly what running them again gives.

Random games are played; at every player-turn decision the bot's orders are checked
twice, with the rehearsal and with it turned off, and the problems, plans, events and
the working dict must be equal. The rehearsal must have been adopted in many of them.
"""
from __future__ import annotations

import pytest
from rules_harness import bot_game

from pbem.pack.loader import load_pack
from pbem.rules import engine
from pbem.rules.context import Ctx

GAMES = 4


@pytest.fixture(scope="module")
def pack():
    return load_pack()


def _as_data(checked: engine.Checked):
    outcome = None
    if checked.outcome is not None:
        s, events = checked.outcome
        outcome = (s, [e.to_dict() for e in events])
    return ([p.code for p in checked.problems], [p.message for p in checked.problems],
            checked.plans, outcome)


def test_rehearsed_moves_equal_moves_run_again(pack, monkeypatch):
    adopted = 0
    real_replay = Ctx.replay_rehearsal

    def counting(self, seat, segment, moves):
        nonlocal adopted
        done = real_replay(self, seat, segment, moves)
        adopted += done
        return done

    compared = 0
    for g in range(GAMES):
        for state, d, orders in bot_game(pack, f"rehearsal-{g}".encode(), g):
            if d.kind == "player_turn" and isinstance(orders.get("movement"), list):
                with monkeypatch.context() as m:
                    m.setattr(Ctx, "replay_rehearsal", counting)
                    with_rehearsal = _as_data(engine.check(state, d.seat, orders))
                with monkeypatch.context() as m:
                    m.setattr(Ctx, "keep_rehearsal", lambda *a, **k: None)
                    without = _as_data(engine.check(state, d.seat, orders))
                assert with_rehearsal == without, f"game {g} step {state.step}"
                compared += 1
    assert compared > 50
    assert adopted > compared // 2
