"""Regression tests of issue 17 on the mail path (findings 1, 2, 5, 6, 9, 10), each
against real servers on 127.0.0.1 (pymap + aiosmtpd; a hand-made SMTP server where a
fault must be chosen)."""
from __future__ import annotations

import sqlite3
import threading

import pytest
from click.testing import CliRunner

from pbem.cli import main
from pbem.service import Judge, make_judge, run_forever, run_once
from pbem.store import Store
from tests.service.helpers import (
    FaultySMTP,
    StalledSMTP,
    drop,
    folder,
    mail,
    orders_body,
    text_of,
    wait_until,
    write_config,
)


def test_finding1_a_raw_8bit_from_header_does_not_stop_the_judge(judge_env) -> None:
    """SMTPUTF8 clients send raw UTF-8 in From: and Message-ID:. Composing the answer
    raised inside the error path, run_once raised, and every restart picked the same
    mail first. Now the mail is kept (whatever the parser makes of it) and the orders
    behind it are applied."""
    judge, poller, server = judge_env
    seat, body = orders_body(judge)
    step = judge.state("g1").step
    drop(server, ("From: Kléitos <north@pbem.localhost>\r\nTo: judge@pbem.localhost\r\nSubject: ordres\r\n"
                  "Message-ID: <é-1@pbem.localhost>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
                  "salut\r\n").encode())
    handled = run_once(judge, poller)
    drop(server, mail(seat, body))
    handled.update(run_once(judge, poller))
    assert len(handled) == 2 and "applied" in handled.values()
    assert judge.state("g1").step == step + 1
    assert folder(server, "INBOX") == []
    raws = [r[0] for r in judge.store.db.execute("SELECT raw FROM inbox").fetchall()]
    assert any(b"salut" in r for r in raws), "the 8-bit mail is stored raw"


def test_finding2_an_address_smtp_cannot_take_fails_its_row_and_the_rest_go(judge_env) -> None:
    judge, poller, server = judge_env
    store = judge.store
    store.queue_mail(message_id="<nul-row@pbem.localhost>", game_id="g1", kind="reply",
                     to_addr="nor\x00th@pbem.localhost", subject="x", raw=b"Subject: x\r\n\r\nnul\r\n")
    store.queue_mail(message_id="<good-row@pbem.localhost>", game_id="g1", kind="reply",
                     to_addr="north@pbem.localhost", subject="y",
                     raw=b"Message-ID: <good-row@pbem.localhost>\r\nSubject: y\r\n\r\ngood\r\n")
    run_once(judge, poller)  # raised ValueError on main, every cycle
    bad = store.db.execute("SELECT status, last_error FROM outbox WHERE message_id = '<nul-row@pbem.localhost>'"
                           ).fetchone()
    good = store.db.execute("SELECT status FROM outbox WHERE message_id = '<good-row@pbem.localhost>'").fetchone()
    assert bad[0] == "failed" and "control character" in bad[1]
    assert good[0] == "sent"
    assert any(b"<good-row@pbem.localhost>" in m for m in server.messages("north"))


def test_finding5_a_full_database_leaves_the_mail_in_the_inbox(judge_env) -> None:
    """The apply transaction fails for want of space while a small error row would fit:
    nothing may be committed (no "error" row, no answer), the mail stays in the INBOX,
    and once there is space again it is applied exactly once."""
    judge, poller, server = judge_env
    seat, body = orders_body(judge)
    step = judge.state("g1").step
    db = judge.store.db
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    db.execute(f"PRAGMA max_page_count = {pages + 4}")  # room for a small row, not for a decision
    drop(server, mail(seat, body, subject="orders while the disk is full"))
    try:
        run_once(judge, poller)
    except Exception as exc:  # noqa: BLE001 - the loop retries; what matters is below
        assert "full" in str(exc)
    assert db.execute("SELECT count(*) FROM inbox").fetchone()[0] == 0, "nothing committed"
    assert db.execute("SELECT count(*) FROM outbox WHERE kind = 'reply'").fetchone()[0] == 0, "nobody told wrong"
    assert len(folder(server, "INBOX")) == 1, "the mail stays for a retry"
    db.execute("PRAGMA max_page_count = 1073741823")
    poller.close()
    assert list(run_once(judge, poller).values()) == ["applied"]
    assert judge.state("g1").step == step + 1
    assert folder(server, "INBOX") == [] and len(folder(server, "Processed")) == 1


def test_finding6_a_5xx_is_reported_to_the_host_and_resent_after_the_fix(tmp_path, pymap_server) -> None:
    smtp = FaultySMTP(refuse={"north@pbem.localhost"}).start()
    try:
        path, config = write_config(tmp_path, pymap_server, smtp_port=smtp.port)
        judge, _poller = make_judge(config)
        judge.ensure_games()
        judge.flush_outbox()
        failed = judge.store.db.execute("SELECT message_id, to_addr FROM outbox WHERE status = 'failed'").fetchall()
        assert failed and {to for _mid, to in failed} == {"north@pbem.localhost"}
        judge.flush_outbox()  # the host notice goes out on the next pass
        notices = [n for n in smtp.to("host@pbem.localhost") if b"could not be delivered" in n]
        assert len(notices) == 1 and b"north@pbem.localhost" in notices[0]
        assert [(r["game_id"], r["seat"]) for r in judge.store.bouncing_seats()] == [("g1", "north")]  # issue 25.12
        smtp.refuse.clear()  # the relay is fixed
        result = CliRunner().invoke(main, ["outbox", "resend", "-c", str(path)])
        assert result.exit_code == 0, result.output
        judge.flush_outbox()
        got = b"".join(smtp.to("north@pbem.localhost"))
        assert all(mid.encode() in got for mid, _to in failed), "the same Message-IDs, delivered"
        judge.flush_outbox()
        assert len(smtp.to("host@pbem.localhost")) == 2, "told once of each: the bounce and the failed rows"
        assert judge.store.bouncing_seats() == [], "the host's resend says the address works"
    finally:
        smtp.stop()


def test_finding9_a_stalled_smtp_server_does_not_hold_up_imap(tmp_path, pymap_server) -> None:
    stalled = StalledSMTP()
    stop = threading.Event()
    try:
        _path, config = write_config(tmp_path, pymap_server, smtp_port=stalled.port)
        make_judge(config)[0].ensure_games()  # setup mail waits in the outbox
        thread = threading.Thread(target=lambda: run_forever(*make_judge(config), stop, max_backoff=1.0))
        thread.start()
        assert wait_until(lambda: stalled.conns, 30), "the judge tries to send"
        store = Store(config.database)
        seat, body = orders_body(Judge(config, store))
        drop(pymap_server, mail(seat, body))
        applied = wait_until(lambda: store.db.execute("SELECT count(*) FROM inbox WHERE status = 'applied'"
                                                      ).fetchone()[0], 25)
        assert applied == 1, "the order was handled while SMTP hung"
    finally:
        stop.set()
        stalled.stop()
        thread.join(120)
    assert not thread.is_alive()


def test_finding9_a_pass_over_the_outbox_keeps_to_its_budget(tmp_path, pymap_server) -> None:
    from pbem.mail.smtp import send_due

    stalled = StalledSMTP()
    try:
        _path, config = write_config(tmp_path, pymap_server, smtp_port=stalled.port)
        judge = make_judge(config)[0]
        judge.ensure_games()
        report = send_due(judge.store, config.smtp, config.judge_address, budget=5, timeout=1)
        rows = judge.store.db.execute("SELECT attempts, last_error FROM outbox ORDER BY id").fetchall()
        assert report.sent == 0 and report.server_error and "Timeout" in report.server_error
        # a server that never greets is unreachable: no row is charged (break-it 8), the pass ends
        assert {a for a, _e in rows} == {0}, "a stalled server charged a row"
        assert rows[0][1] and all(e is None for _a, e in rows[1:]), "one row tried; the others wait"
    finally:
        stalled.stop()


def test_finding10_a_huge_mail_is_refused_unread(tmp_path, pymap_server) -> None:
    _path, config = write_config(tmp_path, pymap_server, max_message_bytes="200KB")
    judge, poller = make_judge(config)
    judge.ensure_games()
    run_once(judge, poller)
    big = mail("north", "game: g1\n" + "x" * 80 + "\n" * 0 + ("filler line\n" * 100_000), subject="huge")
    drop(pymap_server, big)
    assert list(run_once(judge, poller).values()) == ["too_large"]
    row = judge.store.db.execute("SELECT status, length(raw), size, sender FROM inbox").fetchone()
    assert row[0] == "too_large" and row[1] < 70_000 and row[2] >= len(big) - 200_000 and row[2] > 1_000_000
    assert row[3] == "north@pbem.localhost"
    replies = [m for m in pymap_server.messages("north") if b"Re: huge" in m]
    assert len(replies) == 1 and "at most 200,000 bytes" in text_of(replies[0])
    assert folder(pymap_server, "INBOX") == [] and len(folder(pymap_server, "Quarantine")) == 1
    poller.close()


def test_the_sql_lock_of_another_connection_is_transient(judge_env) -> None:
    """A database busy beyond its timeout: nothing committed, the mail stays, applied
    later."""
    judge, poller, server = judge_env
    seat, body = orders_body(judge)
    judge.store.db.execute("PRAGMA busy_timeout = 300")
    blocker = sqlite3.connect(judge.store.path, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")
    drop(server, mail(seat, body))
    with pytest.raises(Exception, match="locked"):
        run_once(judge, poller)
    blocker.execute("ROLLBACK")
    assert judge.store.db.execute("SELECT count(*) FROM inbox").fetchone()[0] == 0
    poller.close()
    assert list(run_once(judge, poller).values()) == ["applied"]


def _nested_rfc822(depth: int = 400) -> bytes:
    """A mail of ``depth`` nested message/rfc822 parts: pymap's FETCH of its body dies
    and drops the connection (the break-it session's poison message)."""
    head = (b"From: attacker@evil.example\r\nTo: judge@pbem.localhost\r\nSubject: orders\r\n"
            b"Message-ID: <nested-poison@evil.example>\r\nMIME-Version: 1.0\r\nContent-Type: message/rfc822\r\n\r\n")
    return head + b"Content-Type: message/rfc822\r\n\r\n" * depth + b"Subject: x\r\n\r\nbody\r\n"


def test_breakit6_a_message_that_breaks_the_imap_fetch_is_skipped_and_the_inbox_goes_on(tmp_path,
                                                                                       pymap_server) -> None:
    from pbem.service import make_judge
    _path, config = write_config(tmp_path, pymap_server)
    judge, poller = make_judge(config)
    judge.ensure_games()
    seat, body = orders_body(judge)
    step = judge.state("g1").step
    drop(pymap_server, _nested_rfc822())
    drop(pymap_server, mail(seat, body, subject="orders behind the poison"))
    errors = []
    for _cycle in range(12):  # what run_forever does: a cycle, and on a fault close and start again
        try:
            run_once(judge, poller)
        except Exception as exc:  # noqa: BLE001 - the loop's guard
            errors.append(f"{type(exc).__name__}: {exc}")
            poller.close()
            continue
        if judge.state("g1").step > step:
            break
    assert judge.state("g1").step == step + 1, f"the orders behind the poison were never read: {errors[-3:]}"
    rows = judge.store.db.execute("SELECT status, error FROM inbox WHERE status = 'quarantined'").fetchall()
    assert errors, "pymap no longer drops the connection on this message: the test needs another poison"
    assert len(rows) == 1 and "dropped the connection" in rows[0][1], rows  # skipped and recorded
    host = judge.store.db.execute("SELECT count(*) FROM outbox WHERE kind = 'host' AND subject LIKE "
                                  "'%quarantined%'").fetchone()[0]
    assert host == 1, "the host is told once"
    poller.close()
