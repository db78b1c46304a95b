"""Server faults (issue 17, done-when): the IMAP server drops the connection in the
middle of IDLE, UIDVALIDITY changes, the SMTP server is down, answers 4xx, the disk is
full — and the hosts hear of a lasting fault once (finding 11). Servers on 127.0.0.1;
every wait is bounded."""
from __future__ import annotations

import shutil
import subprocess
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest

from pbem.service import Judge, run_once
from pbem.service.base.text import now_utc
from pbem.service.outgoing.faults import ServerFaults
from pbem.store import Store
from tests.conftest import local_judge
from tests.service.helpers import (
    FaultySMTP,
    drop,
    folder,
    mail,
    orders_body,
    pbem_run,
    stop,
    wait_until,
    write_config,
)


def _applied(store: Store) -> int:
    return store.db.execute("SELECT count(*) FROM inbox WHERE status = 'applied'").fetchone()[0]


def test_the_imap_server_drops_the_connection_in_the_middle_of_idle(tmp_path, pymap_server) -> None:
    path, config = write_config(tmp_path, pymap_server, imap={"poll_interval": "30s"})
    proc = pbem_run(path)
    log = path.with_suffix(".log")
    try:
        assert wait_until(lambda: log.exists() and b"polling" in log.read_bytes(), 60)
        store = Store(config.database)
        assert wait_until(lambda: store.db.execute("SELECT count(*) FROM outbox WHERE status = 'sent'").fetchone()[0])
        pymap_server.restart_imap()  # the judge is waiting in IDLE (30 s chunks)
        seat, body = orders_body(Judge(config, store))
        drop(pymap_server, mail(seat, body))
        assert wait_until(lambda: _applied(store), 60) == 1
        pymap_server.restart_imap()
        seat, body = orders_body(Judge(config, store), seed=2)
        drop(pymap_server, mail(seat, body))
        assert wait_until(lambda: _applied(store) == 2, 60)
        assert proc.poll() is None, "pbem run exited"
    finally:
        stop(proc)


def test_a_changed_uidvalidity_rescans_without_applying_twice(judge_env) -> None:
    judge, poller, server = judge_env
    seat, body = orders_body(judge)
    drop(server, mail(seat, body, message_id="<a@players.test>"))
    assert list(run_once(judge, poller).values()) == ["applied"]
    seat, body = orders_body(judge, seed=2)
    raw_b = mail(seat, body, message_id="<b@players.test>")
    drop(server, raw_b)
    assert judge.handle_message(raw_b) == "applied"  # committed; the judge died before moving it
    poller.close()
    server.dev._imap.kill()  # the server is rebuilt: every UID and the UIDVALIDITY change
    server.dev._imap.wait(10)
    (server.root / "judge" / "dovecot-uidlist").unlink()
    server.dev._imap = None
    server.dev.restart_imap()
    seat, body = orders_body(judge, seed=3)
    drop(server, mail(seat, body, message_id="<c@players.test>"))
    statuses = run_once(judge, poller)
    assert sorted(statuses.values()) == ["applied", "duplicate"], statuses
    counts = judge.store.db.execute("SELECT message_id, count(*) FROM inbox GROUP BY message_id ORDER BY 1").fetchall()
    assert counts == [("<a@players.test>", 1), ("<b@players.test>", 1), ("<c@players.test>", 1)]
    assert folder(server, "INBOX") == [] and len(folder(server, "Processed")) == 3


def _clocked(tmp_path: Path, server, smtp_port: int) -> tuple[Judge, list]:  # noqa: ANN001
    _path, config = write_config(tmp_path, server, smtp_port=smtp_port)
    now = [now_utc()]
    judge = Judge(config, Store(config.database), clock=lambda: now[0])
    judge.ensure_games()
    return judge, now


def test_smtp_down_then_back(tmp_path, pymap_server) -> None:
    smtp = FaultySMTP().start()
    port = smtp.port
    smtp.stop()  # down
    judge, now = _clocked(tmp_path, pymap_server, port)
    total = judge.store.db.execute("SELECT count(*) FROM outbox").fetchone()[0]
    sent, failed = judge.flush_outbox()
    attempts = [r[0] for r in judge.store.db.execute("SELECT attempts FROM outbox WHERE status = 'pending'")]
    # a server that cannot be reached charges no row (break-it 8): nothing failed, nothing counted
    assert (sent, failed) == (0, 0) and len(attempts) == total and set(attempts) == {0}
    back = FaultySMTP().start(port)  # back, on the same port
    try:
        now[0] += timedelta(minutes=2)  # past the first backoff (30 s)
        assert judge.flush_outbox() == (total, 0)
        assert len(back.received) == total
    finally:
        back.stop()


def test_smtp_4xx_is_retried_later_and_delivered_once(tmp_path, pymap_server) -> None:
    smtp = FaultySMTP(mode="4xx").start()
    try:
        judge, now = _clocked(tmp_path, pymap_server, smtp.port)
        total = judge.store.db.execute("SELECT count(*) FROM outbox").fetchone()[0]
        assert judge.flush_outbox() == (0, total), "a 4xx fails the row, not the pass"
        smtp.mode = "ok"
        assert judge.flush_outbox() == (0, 0), "not due before its backoff"
        now[0] += timedelta(minutes=1)
        assert judge.flush_outbox() == (total, 0)
        ids = [m.split(b"Message-ID: ", 1)[1].split(b"\r\n", 1)[0] for _f, _t, m in smtp.received]
        assert len(ids) == total == len(set(ids))
        status = judge.store.db.execute("SELECT DISTINCT status, attempts FROM outbox").fetchall()
        assert status == [("sent", 1)]
    finally:
        smtp.stop()


def test_a_lasting_server_fault_reaches_the_hosts_once(tmp_path) -> None:
    judge = local_judge(tmp_path, {})
    judge.config = replace(judge.config, games=tuple(replace(g, host_email="host@pbem.localhost")
                                                     for g in judge.config.games))
    now = [now_utc()]
    judge.clock = lambda: now[0]
    watch = ServerFaults()

    def notices() -> int:
        return judge.store.db.execute("SELECT count(*) FROM outbox WHERE kind = 'host' AND subject LIKE "
                                      "'%imap fault%'").fetchone()[0]
    watch.failed(judge, "imap", ConnectionRefusedError("refused"))
    assert notices() == 0, "a short outage is no news"
    for minutes in (5, 11, 20, 60):
        now[0] += timedelta(minutes=minutes)
        watch.failed(judge, "imap", ConnectionRefusedError("refused"))
    assert notices() == 1, "told once for the episode"
    watch.recovered(judge, "imap")
    watch.failed(judge, "imap", ConnectionRefusedError("refused again"))
    now[0] += timedelta(minutes=15)
    watch.failed(judge, "imap", ConnectionRefusedError("refused again"))
    assert notices() == 2, "a new episode is news again"


def _mount_tmpfs(where: Path, size: str) -> None:
    where.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here to fill a disk ({done.stderr.decode().strip() or done.returncode}); "
                    "CI machines that allow `mount -t tmpfs` run this test")


def test_a_full_disk_keeps_the_mail_tells_the_host_and_recovers(tmp_path, pymap_server) -> None:
    disk = tmp_path / "disk"
    _mount_tmpfs(disk, "24m")
    proc = None
    try:
        path, config = write_config(tmp_path, pymap_server, database=str(disk / "pbem.sqlite"))
        proc = pbem_run(path, log=tmp_path / "run.log")
        store = Store(config.database)
        assert wait_until(lambda: store.db.execute("SELECT count(*) FROM outbox WHERE status = 'sent'").fetchone()[0])
        seat, body = orders_body(Judge(config, store))
        filler = disk / "filler"
        subprocess.run(["dd", "if=/dev/zero", f"of={filler}", "bs=64k"], capture_output=True)  # until ENOSPC
        drop(pymap_server, mail(seat, body))
        told = wait_until(lambda: any(b"database fault" in m for m in pymap_server.messages("host")), 60)
        assert told, "the host was not told that the database cannot be written"
        assert proc.poll() is None, "pbem run exited"
        assert _applied(store) == 0 and len(folder(pymap_server, "INBOX")) == 1, "the mail waits in the INBOX"
        filler.unlink()
        assert wait_until(lambda: _applied(store), 90) == 1
        assert wait_until(lambda: folder(pymap_server, "INBOX") == [], 30)
        assert proc.poll() is None
        store.db.conn.close()
    finally:
        if proc is not None:
            stop(proc)
        subprocess.run(["umount", "-l", str(disk)], capture_output=True)
        shutil.rmtree(disk, ignore_errors=True)


def test_breakit9a_a_full_disk_outside_one_mail_is_a_database_fault_not_an_internal_one(tmp_path) -> None:
    from types import SimpleNamespace

    from pbem.service.loop import fault_kind
    smtp = FaultySMTP().start()
    try:
        _path, config = write_config(tmp_path, SimpleNamespace(imap_port=1, smtp_port=smtp.port))
        judge = Judge(config, Store(config.database))
        db = judge.store.db
        db.execute(f"PRAGMA max_page_count = {db.execute('PRAGMA page_count').fetchone()[0]}")
        error = None
        for n in range(10_000):  # saving the IMAP position, as the poller does after a fetch
            try:
                judge.store.set_imap_position(f"folder-{n}-" + "x" * 500, 1, n)
            except Exception as exc:  # noqa: BLE001 - the real sqlite3 error is what we test
                error = exc
                break
        assert error is not None and "full" in str(error)
        kind = fault_kind(error)
        assert kind == "database", kind
        ServerFaults().failed(judge, kind, error)  # what run_forever does with it
        db.execute("PRAGMA max_page_count = 1073741823")  # space again: the queued notice goes out
        judge.flush_outbox()
        notices = smtp.to("host@pbem.localhost")
        assert len(notices) == 1 and b"database fault" in notices[0] and b"internal fault" not in notices[0]
    finally:
        smtp.stop()


def test_breakit7_fault_episodes_survive_a_restart(tmp_path) -> None:
    judge = local_judge(tmp_path, {})
    judge.config = replace(judge.config, games=tuple(replace(g, host_email="host@pbem.localhost")
                                                     for g in judge.config.games))
    now = [now_utc()]
    judge.clock = lambda: now[0]

    def notices() -> int:
        return judge.store.db.execute("SELECT count(*) FROM outbox WHERE kind = 'host' AND subject LIKE "
                                      "'%imap fault%'").fetchone()[0]
    down = ConnectionRefusedError("refused")
    for _restart in range(3):  # the judge restarts every 5 minutes while the IMAP server is down
        ServerFaults().failed(judge, "imap", down)
        now[0] += timedelta(minutes=5)
    ServerFaults().failed(judge, "imap", down)
    assert notices() == 1, "the grace began again at every restart: the hosts were never told"
    ServerFaults().failed(judge, "imap", down)
    assert notices() == 1, "told once for the episode, restarts included"
    ServerFaults().recovered(judge, "imap")  # a fresh judge works: the episode told before is over
    now[0] += timedelta(hours=1)
    again = ServerFaults()
    again.failed(judge, "imap", down)
    now[0] += timedelta(minutes=11)
    again.failed(judge, "imap", down)
    assert notices() == 2, "a new episode after a restart was muted by the old one"
