"""Sending the outbox when an address or the relay misbehaves (issue 17, break-it
findings 1 and 8): internationalised addresses go with SMTPUTF8 (RFC 6531) or fail
alone; one bad row never spoils the SMTP connection for the next; a relay that is down
charges no row, and every row goes once it is back. Servers on 127.0.0.1 only."""
from __future__ import annotations

import threading
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace

from click.testing import CliRunner

from pbem.cli import main
from pbem.devmail import free_port
from pbem.mail.smtp import MAX_ATTEMPTS
from pbem.service import Judge
from pbem.service.base.text import now_utc
from pbem.service.outgoing import outbox, sending
from pbem.store import Store
from tests.service.helpers import FaultySMTP, text_of, wait_until, write_config

IDN = "δοκ@παρά.δοκιμή"
WEST = "wést@pbem.localhost"


def _judge(tmp_path: Path, smtp_port: int) -> tuple[Path, Judge, list]:
    """A judge whose SMTP is ``smtp_port`` (no IMAP is used), with a settable clock."""
    path, config = write_config(tmp_path, SimpleNamespace(imap_port=1, smtp_port=smtp_port))
    now = [now_utc()]
    return path, Judge(config, Store(config.database), clock=lambda: now[0]), now


def _queue(judge: Judge, to_addr: str, tag: str) -> None:
    with judge.store.transaction():
        outbox.queue(judge, game_id="g1", kind="reply", to_addr=to_addr, to_name="Ἀλέξανδρος", subject=f"row {tag}",
                     text=f"body {tag} — ἄλφα", html=None, id_parts=("g1", "test", tag))


def _rows(judge: Judge) -> dict[str, tuple[str, int, str | None]]:
    return {r[0]: (r[1], r[2], r[3]) for r in judge.store.db.execute(
        "SELECT subject, status, attempts, last_error FROM outbox WHERE kind = 'reply' ORDER BY id")}


def test_breakit1_an_internationalised_address_goes_with_smtputf8_and_spoils_no_other_row(tmp_path) -> None:
    smtp = FaultySMTP(smtputf8=True).start()
    try:
        _path, judge, _now = _judge(tmp_path, smtp.port)
        for tag, to in (("a", IDN), ("b", "north@pbem.localhost"), ("c", WEST), ("d", "east@pbem.localhost")):
            _queue(judge, to, tag)
        judge.flush_outbox()
        assert {s for s, (st, _a, _e) in _rows(judge).items() if st == "sent"} == {"row a", "row b", "row c", "row d"}
        by_rcpt = {tos[0]: (raw, opts) for (_f, tos, raw), opts in zip(smtp.received, smtp.options, strict=True)}
        assert "SMTPUTF8" in by_rcpt[IDN][1] and "SMTPUTF8" in by_rcpt[WEST][1]
        assert "SMTPUTF8" not in by_rcpt["north@pbem.localhost"][1], "ASCII mail needs no extension"
        assert "body a — ἄλφα" in text_of(by_rcpt[IDN][0])
    finally:
        smtp.stop()


def test_breakit1_without_smtputf8_only_that_row_fails_the_host_is_told_and_resend_works(tmp_path) -> None:
    smtp = FaultySMTP(smtputf8=False).start()
    try:
        path, judge, clock = _judge(tmp_path, smtp.port)
        for tag, to in (("a", IDN), ("b", "north@pbem.localhost"), ("c", WEST), ("d", "east@pbem.localhost")):
            _queue(judge, to, tag)
        judge.flush_outbox()
        rows = _rows(judge)
        assert rows["row b"][0] == rows["row d"][0] == "sent", rows  # was 503 nested MAIL command: lost
        assert rows["row a"][0] == rows["row c"][0] == "failed"
        assert "SMTPUTF8" in rows["row a"][2] and "RFC 6531" in rows["row a"][2]
        judge.flush_outbox()  # the host notice of the rows that gave up
        notice = [text_of(m) for m in smtp.to("host@pbem.localhost")]
        assert len(notice) == 1 and "SMTPUTF8" in notice[0] and WEST in notice[0]
    finally:
        smtp.stop()
    fixed = FaultySMTP(smtputf8=True).start(smtp.port)  # the relay now offers SMTPUTF8
    try:
        assert CliRunner().invoke(main, ["outbox", "resend", "-c", str(path)]).exit_code == 0
        clock[0] = now_utc()  # the CLI puts the rows back due at the wall clock's now
        judge.flush_outbox()
        assert all(st == "sent" for st, _a, _e in _rows(judge).values())
        assert {tos[0] for _f, tos, _r in fixed.received} == {IDN, WEST}
    finally:
        fixed.stop()


def test_breakit1_a_mail_from_an_internationalised_address_is_answered_and_others_are_sent(tmp_path) -> None:
    smtp = FaultySMTP(smtputf8=True).start()
    try:
        _path, judge, _now = _judge(tmp_path, smtp.port)
        judge.ensure_games()  # setup reports and the first prompt to the four seats
        raw = (f"From: {IDN}\r\nTo: judge@pbem.localhost\r\nSubject: orders\r\nMessage-ID: <idn-1@players.test>\r\n"
               "Content-Type: text/plain; charset=utf-8\r\n\r\ngame: g1\r\nseat: north\r\nkey: x\r\nstep: 0\r\n"
               "orders: {}\r\n").encode()
        assert judge.handle_message(raw) == "rejected"
        judge.flush_outbox()
        statuses = {r[0] for r in judge.store.db.execute("SELECT DISTINCT status FROM outbox")}
        assert statuses == {"sent"}
        assert len(smtp.to(IDN)) == 1 and all(smtp.to(f"{s}@pbem.localhost") for s in ("north", "east", "south"))
    finally:
        smtp.stop()


def test_breakit8_a_long_outage_charges_no_row_and_everything_goes_when_the_relay_is_back(tmp_path) -> None:
    port = free_port()  # nothing listens there yet: the relay is down
    _path, judge, now = _judge(tmp_path, port)
    for tag in ("a", "b", "c"):
        _queue(judge, f"{tag}@pbem.localhost", tag)
    for _ in range(MAX_ATTEMPTS + 3):  # more passes than a row may ever attempt, hours apart
        report = sending.flush(judge)
        assert report.server_error and report.failed == 0
        now[0] += timedelta(hours=2)
    rows = _rows(judge)
    assert {st for st, _a, _e in rows.values()} == {"pending"}, rows
    assert {a for _st, a, _e in rows.values()} == {0}, "an unreachable server is not an attempt of a row"
    assert rows["row a"][2], "the reason is noted for pbem status"
    smtp = FaultySMTP().start(port)  # the relay is back
    try:
        judge.flush_outbox()
        assert {st for st, _a, _e in _rows(judge).values()} == {"sent"}
        assert {tos[0] for _f, tos, _r in smtp.received} == {"a@pbem.localhost", "b@pbem.localhost", "c@pbem.localhost"}
    finally:
        smtp.stop()


def test_issue30_after_an_outage_the_outbox_goes_when_the_relay_answers_not_at_its_timer(tmp_path) -> None:
    """Issue 30 item 8: the sender thread found the relay down, then waited for its
    timer (30 s in ``pbem run``) although the relay was back. It now looks for the
    relay's greeting while it is down and sends as soon as it answers. The timer here is
    an hour and nothing else kicks the thread, so only that look can send the row."""
    port = free_port()  # nothing listens there yet: the relay is down
    _path, judge, _now = _judge(tmp_path, port)
    _queue(judge, "a@pbem.localhost", "a")
    stop = threading.Event()
    sender = sending.Sender(lambda: Judge(judge.config, Store(judge.config.database)), stop, every=3600.0)
    sender.kick()
    sender.start()
    smtp = None
    try:
        assert wait_until(lambda: sender.passes >= 1, 30), "the first pass ran"
        assert _rows(judge)["row a"][0] == "pending", "the relay was down"
        smtp = FaultySMTP().start(port)  # the relay is back
        assert wait_until(lambda: smtp.received, 30), "sent once the relay answered, not an hour later"
        assert wait_until(lambda: _rows(judge)["row a"][0] == "sent", 10)
        assert wait_until(lambda: sender.passes >= 2, 10)
        assert sender.passes == 2, "one failed pass, one that sent: the thread does not spin"
    finally:
        stop.set()
        sender.kick()
        sender.join(30)
        if smtp is not None:
            smtp.stop()
