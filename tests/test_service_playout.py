"""The judge driven through whole games by mail-shaped messages (no mail server: the
raw messages go straight to Judge.handle_message). Every decision the rules core opens
— player-turns, reinforcements, reaction windows — must be answerable by mail, and the
stored log must replay to the live state."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from pbem import rules
from tests.conftest import KEYS, SEATS, local_judge, player_mail

_judge = local_judge


_mail = player_mail


@pytest.mark.parametrize("seed,options", [(1, {}), (2, {"ask_windows": True}), (3, {"ask_windows": True}),
                                         (4, {"ask_windows": True})])
def test_whole_games_by_mail(tmp_path: Path, seed: int, options: dict) -> None:
    judge = _judge(tmp_path, options)
    rng = random.Random(seed)
    kinds: set[str] = set()
    for _ in range(100):
        state = judge.state("g1")
        pending = rules.pending(state)
        if not pending:
            break
        decision = pending[0]
        kinds.add(decision.kind)
        # every open decision has a prompt in the outbox for its seat
        prompts = judge.store.db.execute(
            "SELECT count(*) FROM outbox WHERE kind = 'prompt' AND to_addr = ? AND subject LIKE ?",
            [f"{decision.seat}@pbem.localhost", f"%step {state.step}:%"]).fetchone()[0]
        assert prompts >= 1, f"no prompt for {decision.seat} ({decision.kind}) at step {state.step}"
        orders = rules.bot_orders(state, decision.seat, rng)
        doc = {"game": "g1", "seat": decision.seat, "key": KEYS[decision.seat], "step": state.step, "orders": orders}
        status = judge.handle_message(_mail(decision.seat, doc))
        assert status == "applied", (status, decision, orders)
        assert judge.state("g1").step > state.step
    store = judge.store
    assert store.verify_chain("g1") == []
    first = store.first_snapshot("g1")
    events = [rules.Event(kind=e.kind, data=e.data, public=e.public, seat=e.seat) for e in store.events("g1")]
    live = judge.state("g1")
    assert rules.fold(rules.GameState.from_dict(first[1]), events).to_dict() == live.to_dict()
    assert "player_turn" in kinds


def test_standing_orders_any_time_from_any_seat(tmp_path: Path) -> None:
    judge = _judge(tmp_path, {"ask_windows": True})
    state = judge.state("g1")
    active = rules.pending(state)[0].seat
    other = next(s for s in SEATS if s != active)
    army = next(a for a in rules.view(state, None)["armies"] if a["seat"] == other and a.get("commander"))
    general = judge.pack_for("g1").generals[army["commander"]].name
    standing = [{"when": "avoid", "army": general, "if_attacker_ratio_at_least": 2}]
    outbox_before = judge.store.db.execute("SELECT count(*) FROM outbox").fetchone()[0]
    doc = {"game": "g1", "seat": other, "key": KEYS[other], "step": 0, "seq": 1,  # standing orders carry a seq
           "orders": {"standing": standing}}
    assert judge.handle_message(_mail(other, doc)) == "applied"
    after = judge.state("g1")
    assert after.step == state.step and rules.pending(after)[0].seat == active  # nothing advanced
    rows = judge.store.db.execute("SELECT kind, to_addr FROM outbox ORDER BY id").fetchall()[outbox_before:]
    assert rows == [("reply", f"{other}@pbem.localhost")]  # a receipt only, no report to others
    assert rules.view(after, other)["private"].get("standing")
    assert not any(e.kind == "StandingOrdersSet" and e.public for e in judge.store.events("g1"))
