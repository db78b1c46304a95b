"""`pbem demo`: a whole game turn played by four scripted players through real mail on
the embedded server (issues 2 and 4)."""
from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from pbem import rules
from pbem.cli import main
from pbem.config import load_config
from pbem.demo import GAME_ID, run_demo
from pbem.service import Judge
from pbem.store import Store


def test_demo_plays_a_whole_turn_through_real_mail(tmp_path: Path) -> None:
    result = run_demo(tmp_path / "demo", seed=3, turns=1, echo=lambda _: None)
    assert result.turns_played >= 12  # rounds of four player-turns until the hands are played
    assert set(result.statuses) == {"applied"}
    config = load_config(result.config)
    judge = Judge(config, Store(config.database))
    state = judge.state(GAME_ID)
    assert state.turn == 2 or rules.pending(state) == []  # the whole first turn was played
    assert result.game_turn == state.turn
    # every seat received prompts, receipts and reports by mail
    for seat in rules.SEATS:
        box = list((config.devmail.maildir / seat / "new").iterdir())
        assert len(box) > 20, seat
    assert result.map_png and result.map_png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    runner = CliRunner()
    out = runner.invoke(main, ["verify", "-c", str(result.config), GAME_ID])
    assert out.exit_code == 0, out.output
    assert "hash chain intact, replay equals live state" in out.output
    out = runner.invoke(main, ["status", "-c", str(result.config)])
    assert out.exit_code == 0 and f"{GAME_ID}: active" in out.output


def test_verify_detects_an_edited_log(tmp_path: Path) -> None:
    result = run_demo(tmp_path / "demo", seed=4, rounds=1, echo=lambda _: None)
    store = Store(load_config(result.config).database)
    store.db.execute("UPDATE events SET data = '{\"tampered\": true}' WHERE seq = 3")
    out = CliRunner().invoke(main, ["verify", "-c", str(result.config), GAME_ID])
    assert out.exit_code == 1
