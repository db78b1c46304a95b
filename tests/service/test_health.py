"""A supervisor's health check (issue 30, item 5): the loop's heartbeat, `pbem status
--check`'s exit codes (0 cycling, 1 not cycling, 3 the host is needed), `--json`, and
`--log-json`."""
from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

from click.testing import CliRunner

from pbem.cli import main
from pbem.store import Store
from pbem.store.heartbeat import beat, heartbeat_path, read_heartbeat
from tests.service.helpers import ROOT, pbem_run, stop, wait_until, write_config


def _check(path: Path, *args: str) -> tuple[int, str]:
    out = CliRunner().invoke(main, ["status", "-c", str(path), "--check", *args])
    return out.exit_code, out.output


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_the_running_loop_beats_and_status_check_says_so(tmp_path: Path, pymap_server) -> None:
    path, config = write_config(tmp_path, pymap_server)
    proc = pbem_run(path)
    try:
        seen = wait_until(lambda: read_heartbeat(config.database), timeout=90)
        assert seen is not None and seen.pid == proc.pid
        code, out = _check(path)
        assert code == 0, out
        assert "health: ok" in out
        first = seen.cycles
        assert wait_until(lambda: (read_heartbeat(config.database) or seen).cycles > first, timeout=60)
        doc = json.loads(CliRunner().invoke(main, ["status", "-c", str(path), "--json"]).output)
        assert doc["health"]["code"] == 0 and doc["health"]["pid"] == proc.pid and doc["health"]["running"]
        assert [g["id"] for g in doc["games"]] == ["g1"] and doc["games"][0]["waiting"]
    finally:
        stop(proc)
    code, out = _check(path)
    assert code == 1 and f"(pid {proc.pid}) is not running" in out


def test_no_heartbeat_a_stale_one_and_a_dead_judge_are_not_cycling(tmp_path: Path, pymap_server) -> None:
    path, config = write_config(tmp_path, pymap_server)
    Store(config.database).close()
    code, out = _check(path)
    assert code == 1 and "no judge has cycled" in out
    now = datetime.now(UTC)
    beat(config.database, now - timedelta(hours=2), 5, now - timedelta(hours=1))  # this process: alive
    code, out = _check(path)
    assert code == 1 and "has not completed a cycle for 3600 s" in out
    code, _out = _check(path, "--max-age", "7200")
    assert code == 0
    heartbeat_path(config.database).write_text(json.dumps(
        {"pid": _dead_pid(), "started_at": now.isoformat(), "last_cycle_at": now.isoformat(), "cycles": 1}))
    code, out = _check(path)
    assert code == 1 and "is not running" in out


def test_an_old_outbox_backlog_or_a_lasting_fault_needs_the_host(tmp_path: Path, pymap_server) -> None:
    path, config = write_config(tmp_path, pymap_server)
    store = Store(config.database)
    now = datetime.now(UTC)
    beat(config.database, now, 1, now)
    assert _check(path)[0] == 0
    old = (now - timedelta(hours=2)).replace(microsecond=0).isoformat()
    with store.transaction():
        oid = store.queue_mail(message_id="<late@pbem.localhost>", game_id=None, kind="notice",
                               to_addr="someone@pbem.localhost", subject="late", at=old,
                               raw=b"Subject: late\r\n\r\nlate\r\n")
    code, out = _check(path)
    assert code == 3 and "oldest due mail has waited 120 min" in out
    store.mark_sent(oid)
    assert _check(path)[0] == 0
    with store.transaction():
        store.fault_seen("smtp", "connection refused", (now - timedelta(minutes=30)).isoformat())
    code, out = _check(path)
    assert code == 3 and "server fault still going on: smtp" in out


def test_log_json_prints_one_object_a_line(tmp_path: Path, pymap_server) -> None:
    path, _config = write_config(tmp_path, pymap_server)
    out = subprocess.run([sys.executable, "-c", "from pbem.cli import main; main()", "--log-json", "run", "--once",
                          "-c", str(path)], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert out.returncode == 0, out.stderr
    lines = [json.loads(line) for line in out.stderr.splitlines() if line.strip()]  # every line is JSON
    progress = [x for x in lines if x["logger"] == "pbem.run"]
    assert any(x["message"].startswith("created game g1") for x in progress)
    assert all({"time", "level", "logger", "message"} <= x.keys() for x in lines)


def test_commands_that_never_log_in_need_no_password(tmp_path: Path, monkeypatch) -> None:
    """Issue 30, item 8: `pbem status` (and verify, backup, …) read the database only;
    a password from an unset environment variable stops only the commands that log in."""
    monkeypatch.delenv("PBEM_TEST_UNSET_PW", raising=False)
    raw = {"judge": {"address": "judge@example.org"}, "database": str(tmp_path / "pbem.sqlite"),
           "imap": {"host": "imap.example.org", "tls": "implicit", "port": 993, "user": "judge",
                    "password": "${PBEM_TEST_UNSET_PW}"},
           "smtp": {"host": "smtp.example.org", "tls": "starttls", "port": 587, "user": "judge",
                    "password_file": "secret-not-here.txt"}}
    path = tmp_path / "c.yaml"
    path.write_text(json.dumps(raw))
    Store(tmp_path / "pbem.sqlite").close()
    for args in (["status"], ["status", "--json"], ["backup", str(tmp_path / "b.sqlite")]):
        out = CliRunner().invoke(main, [args[0], "-c", str(path), *args[1:]])
        assert out.exit_code == 0, (args, out.output)
    out = CliRunner().invoke(main, ["run", "--once", "-c", str(path)])
    assert out.exit_code == 1
    assert "imap.password: environment variable PBEM_TEST_UNSET_PW is not set" in out.output
    monkeypatch.setenv("PBEM_TEST_UNSET_PW", "x")
    out = CliRunner().invoke(main, ["run", "--once", "-c", str(path)])
    assert out.exit_code == 1 and "smtp.password_file: cannot read secret-not-here.txt" in out.output
