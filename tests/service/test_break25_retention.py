"""Issue 25's fresh break-it attempt (bot25 item 2): a real ``pbem run`` SIGKILLed during
its retention pass (issue 30 item 7: a finished game copied to the archive database,
verified, dropped from the live one; later its raw mail pruned there). After a restart
the pass finishes: the game is in the archive database once, whole (every event, the
same head), gone from the live one but for its inbox rows (so a mail seen is never
applied again), pruned exactly when due, and ``pbem verify`` passes on it. Real pymap +
aiosmtpd on loopback (crash points: tests/service/standbycrash.py)."""
from __future__ import annotations

import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem import rules
from pbem.cli import main
from pbem.service import Judge
from pbem.store import Store
from tests.conftest import KEYS, mail_orders, player_mail
from tests.service.helpers import ROOT, stop, wait_until, write_config

POINTS = ["retention_copied", "retention_in_drop", "retention_in_prune", "retention_pruned"]


def _run(path: Path, crash_at: str | None = None) -> subprocess.Popen:
    """``pbem run`` under tests/service/standbycrash.py (``crash_at``: its crash point)."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    if crash_at:
        env["PBEM_TEST_CRASH_AT"] = crash_at
    out = open(path.with_suffix(".log"), "ab")  # noqa: SIM115 - the child owns it
    return subprocess.Popen([sys.executable, str(ROOT / "tests" / "service" / "standbycrash.py"), "run", "-c",
                             str(path)], stdout=out, stderr=subprocess.STDOUT, cwd=ROOT, env=env)


def _one(db: Path, sql: str, *args: object) -> object:
    conn = sqlite3.connect(db)
    try:
        return conn.execute(sql, args).fetchone()[0]
    finally:
        conn.close()


def _until(path: Path, done) -> None:  # noqa: ANN001
    """``pbem run`` (no crash) until ``done()``; then stopped."""
    proc = _run(path)
    try:
        assert wait_until(done, 120), f"the retention pass did not finish; the judge's log ends:\n{_log_tail(path)}"
    finally:
        code = stop(proc)
        assert code in (0, 1, -15, 130), f"pbem run did not stop on SIGTERM ({code}); its log ends:\n{_log_tail(path)}"


def _log_tail(path: Path, lines: int = 30) -> str:
    """The last ``lines`` of the judge's log (:func:`_run`), for a failing assertion."""
    log = path.with_suffix(".log")
    return "\n".join(log.read_text(errors="replace").splitlines()[-lines:]) if log.exists() else "(no log)"


@pytest.mark.parametrize("point", POINTS)
def test_sigkill_during_the_retention_pass_loses_and_doubles_nothing(tmp_path, pymap_server, point) -> None:
    path, config = write_config(tmp_path, pymap_server, retention={"move_after": "1d", "prune_after": "2d"})
    live, archive = Path(config.database), Path(config.retention.archive_db)
    judge = Judge(config, Store(config.database))
    judge.ensure_games()
    rng = random.Random(5)
    for _ in range(6):
        state = judge.state("g1")
        seat = rules.pending(state)[0].seat
        doc = {"game": "g1", "seat": seat, "key": KEYS[seat], "step": state.step,
               "orders": mail_orders(state, seat, rng)}
        assert judge.handle_message(player_mail(seat, doc)) == "applied"
    judge.store.close()
    out = CliRunner().invoke(main, ["abandon", "-c", str(path), "g1", "--reason", "a test"])
    assert out.exit_code == 0, out.output
    conn = sqlite3.connect(live)
    with conn:  # every mail of it sent, and it ended long ago (the log's times are not hashed)
        conn.execute("UPDATE outbox SET status = 'sent', sent_at = '2000-01-01T00:00:00+00:00'")
        conn.execute("UPDATE events SET created_at = '2000-01-01T00:00:00+00:00' WHERE game_id = 'g1'")
    conn.close()
    events = _one(live, "SELECT count(*) FROM events WHERE game_id = 'g1'")
    head = _one(live, "SELECT hash FROM events WHERE game_id = 'g1' ORDER BY seq DESC LIMIT 1")
    mails = _one(live, "SELECT count(*) FROM inbox WHERE game_id = 'g1'")
    sent = _one(live, "SELECT count(*) FROM outbox WHERE game_id = 'g1'")
    assert events > 20 and mails == 6

    def moved() -> bool:
        return _one(live, "SELECT count(*) FROM moved_games WHERE game_id = 'g1'") == 1

    def pruned() -> bool:
        return _one(live, "SELECT count(*) FROM moved_games WHERE game_id = 'g1' AND pruned_at IS NOT NULL") == 1

    if point in ("retention_in_prune", "retention_pruned"):
        _until(path, moved)  # the first pass moves it; a later one (the next start) prunes it
        assert not pruned()
    crashed = _run(path, crash_at=point)
    assert crashed.wait(120) == -9, "the crash point was not reached"
    if point == "retention_copied":  # in both databases now; the next pass copies it again and drops it
        assert _one(archive, "SELECT count(*) FROM events WHERE game_id = 'g1'") == events and not moved()
    if point == "retention_in_drop":
        assert _one(live, "SELECT count(*) FROM events WHERE game_id = 'g1'") == events and not moved()
    if point == "retention_pruned":
        assert _one(archive, "SELECT coalesce(sum(length(raw)), 0) FROM inbox WHERE game_id = 'g1'") == 0
    _until(path, moved)
    if not pruned():  # a pass prunes the games that had moved when it began: the next start's pass
        _until(path, pruned)

    assert _one(live, "SELECT count(*) FROM games WHERE id = 'g1'") == 0
    assert _one(live, "SELECT count(*) FROM events WHERE game_id = 'g1'") == 0
    assert _one(live, "SELECT count(*) FROM inbox WHERE game_id = 'g1'") == mails  # kept: never applied again
    assert _one(archive, "SELECT count(*) FROM events WHERE game_id = 'g1'") == events  # once, whole
    assert _one(archive, "SELECT count(DISTINCT seq) FROM events WHERE game_id = 'g1'") == events
    assert _one(archive, "SELECT hash FROM events WHERE game_id = 'g1' ORDER BY seq DESC LIMIT 1") == head
    assert _one(archive, "SELECT count(*) FROM inbox WHERE game_id = 'g1'") == mails
    assert _one(archive, "SELECT count(*) FROM outbox WHERE game_id = 'g1'") == sent
    assert _one(archive, "SELECT coalesce(sum(length(raw)), 0) FROM inbox WHERE game_id = 'g1'") == 0
    v = CliRunner().invoke(main, ["verify", "-c", str(path), "g1"])
    assert v.exit_code == 0 and f"g1: {events} events, hash chain intact" in v.output, v.output
