"""An interception through real mail (issue 5): the moving seat's orders pause at the
reaction window, the defending seat gets a prompt by mail, answers by mail, and the
battle is resolved and reported to every seat."""
from __future__ import annotations

import random
from datetime import datetime, timedelta
from pathlib import Path

import yaml

from pbem import rules
from pbem.service import make_judge, run_once
from tests.conftest import KEYS, SEATS, Table, mail_orders, make_config


def test_interception_by_ask_window_through_real_mail(tmp_path: Path, pymap_server) -> None:
    config = make_config(tmp_path, pymap_server, options={"ask_windows": True}, map_attachment=False)
    judge, poller = make_judge(config)
    judge.new_seed = lambda: b"seed-1"  # a game whose bots meet early (any seed works, slower)
    judge.ensure_games()
    table = Table(pymap_server, config, judge, poller)
    run_once(judge, poller)
    rng = random.Random(0)
    answered_at = None
    for _ in range(60):
        state = judge.state("g1")
        decision = rules.pending(state)[0]
        if decision.kind == "intercept" and answered_at is None:
            # the window's prompt reached the defending seat by mail
            prompts = [m for m in table.inbox(decision.seat) if f"step {state.step}:" in str(m["Subject"])]
            assert prompts, "the defending seat got no prompt for the interception window"
            assert "intercept" in table.text_of(prompts[-1]).lower()
            # the window has the short reaction deadline, not the player-turn one
            row = judge.store.db.execute("SELECT kind, due_at FROM deadlines WHERE game_id = 'g1' AND step = ? "
                                         "AND seat = ?", [state.step, decision.seat]).fetchone()
            turn = judge.store.db.execute("SELECT due_at FROM deadlines WHERE game_id = 'g1' AND step < ? "
                                          "AND kind = 'player_turn' ORDER BY step DESC LIMIT 1",
                                          [state.step]).fetchone()  # the mover's player-turn
            assert row[0] == "intercept"
            gap = datetime.fromisoformat(turn[0]) - datetime.fromisoformat(row[1])
            assert gap >= timedelta(hours=47), (row, turn)  # 72 h vs 24 h, both from about now
            army = decision.options["choices"][0]["space"]
            orders: dict = {"intercept": {"army": army}}
            answered_at = state.step
        elif decision.kind in ("intercept", "avoid_battle"):
            orders = {decision.kind if decision.kind == "intercept" else "avoid": "none"}
        else:
            orders = mail_orders(state, decision.seat, rng)
        table.send(decision.seat, yaml.safe_dump({"game": "g1", "seat": decision.seat, "key": KEYS[decision.seat],
                                                  "step": state.step, "orders": orders}, sort_keys=False))
        statuses = list(run_once(judge, poller).values())
        assert statuses == ["applied"], (decision, orders, statuses)
        events = judge.store.events("g1")
        battles = [e for e in events if e.kind == "BattleFought" and answered_at is not None and e.step >= answered_at]
        if battles:
            break
    assert answered_at is not None, "no interception window opened"
    events = judge.store.events("g1")
    rolled = [e for e in events if e.kind == "InterceptionRolled" and e.step == answered_at]
    assert len(rolled) == 1 and rolled[0].data["read"]["chart"] == "interception"
    assert battles, "the interception led to no battle"
    step = battles[0].step
    for seat in SEATS:  # everyone got the report of the battle, with its dice
        reports = [m for m in table.inbox(seat) if f"step {step} report" in str(m["Subject"])]
        assert reports, seat
        text = table.text_of(reports[-1]).lower()
        assert "battle" in text and "r-9.2" in text
    poller.close()
