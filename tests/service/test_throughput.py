"""Issue 14's pipeline changes, by their outcomes: handled messages are moved with one
IMAP command per batch (a UID set), an outbox pass sends every due row (not 100), the
loop reads a backlog without waiting between cycles, and the embedded server wakes the
poller on delivery."""
from __future__ import annotations

import smtplib
import threading
from pathlib import Path

from imapclient import IMAPClient

from pbem.config import parse_config
from pbem.devmail import DevMail, deliver, free_port
from pbem.mail import imap
from pbem.mail.imap import ImapPoller
from pbem.service import make_judge, run_once
from pbem.service.runner import start_devmail
from pbem.store import Store
from tests.conftest import ACCOUNTS, make_config
from tests.service.helpers import folder


def _drop(server, n: int) -> None:  # noqa: ANN001
    for i in range(n):
        deliver(server.dev.root, "judge", (f"From: stranger@pbem.localhost\r\nTo: judge@pbem.localhost\r\n"
                                           f"Subject: hello {i}\r\nMessage-ID: <m{i}@players.test>\r\n\r\n"
                                           "no orders here\r\n").encode())


def test_handled_messages_move_in_one_command_per_batch(tmp_path: Path, mail_server, monkeypatch) -> None:
    config = make_config(tmp_path, mail_server)
    judge, poller = make_judge(config)
    judge.ensure_games()
    monkeypatch.setattr(imap, "FETCH_BATCH", 10)
    n = 10 + 5
    _drop(mail_server, n)
    moves: list[list[int]] = []
    real_move = IMAPClient.move

    def move(self, messages, folder):  # noqa: ANN001, ANN202
        moves.append(list(messages))
        return real_move(self, messages, folder)
    monkeypatch.setattr(IMAPClient, "move", move)
    try:
        handled = run_once(judge, poller)
    finally:
        poller.close()
    assert len(handled) == n
    assert [len(m) for m in moves] == [10, 5]  # two batches, one MOVE each
    assert folder(mail_server, "INBOX") == [] and len(folder(mail_server, "Processed")) == n


def test_an_outbox_pass_sends_every_due_row(tmp_path: Path, pymap_server) -> None:
    config = make_config(tmp_path, pymap_server)
    judge, poller = make_judge(config)
    store: Store = judge.store
    with store.transaction():
        for i in range(130):
            store.queue_mail(message_id=f"<bulk{i}@pbem.localhost>", game_id=None, kind="notice",
                             to_addr="host@pbem.localhost", subject=f"n{i}",
                             raw=f"Subject: n{i}\r\nMessage-ID: <bulk{i}@pbem.localhost>\r\n\r\nhi\r\n".encode())
    sent, failed = judge.flush_outbox()
    assert (sent, failed) == (130, 0)
    assert store.outbox_counts() == [("sent", 130)]
    assert len(pymap_server.messages("host")) == 130


def test_the_embedded_server_wakes_the_poller_on_delivery(tmp_path: Path) -> None:
    config = make_config(tmp_path, type("S", (), {"imap_port": 1, "smtp_port": 1})())
    wake = threading.Event()
    dev = DevMail(tmp_path / "mail", ACCOUNTS, on_delivery=lambda account: wake.set() if account == "judge" else None)
    dev.start()
    try:
        poller = ImapPoller(config.imap.__class__(**{**config.imap.__dict__, "port": dev.imap_port}),
                            Store(tmp_path / "db.sqlite"), lambda *a, **k: "ignored")
        poller.connect()
        poller.wake = wake
        threading.Timer(0.2, lambda: smtplib.SMTP("127.0.0.1", dev.smtp_port).sendmail(
            "host@pbem.localhost", ["judge@pbem.localhost"], b"Subject: x\r\n\r\nhi\r\n")).start()
        assert poller.wait(60) is True  # woken by the delivery, not by the 60 s timeout
        assert not wake.is_set()  # cleared for the next wait
        assert len(poller.poll_once().handled) == 1
        with smtplib.SMTP("127.0.0.1", dev.smtp_port) as smtp:  # another account's mail does not wake it
            smtp.sendmail("judge@pbem.localhost", ["host@pbem.localhost"], b"Subject: y\r\n\r\nhi\r\n")
        assert poller.wait(0.5) is False
        poller.close()
    finally:
        dev.stop()


def test_start_devmail_wakes_only_for_the_judge_account(tmp_path: Path) -> None:
    wake = threading.Event()
    config = parse_config({"judge": {"address": "judge@pbem.localhost"}, "database": str(tmp_path / "x.sqlite"),
                           "devmail": {"enabled": True, "maildir": str(tmp_path / "m"), "smtp_port": free_port(),
                                       "imap_port": free_port(), "accounts": {"judge": "jpw", "north": "n"}},
                           "imap": {"host": "127.0.0.1", "port": 1, "user": "judge", "password": "jpw"},
                           "smtp": {"host": "127.0.0.1", "port": 1}, "games": []}, base=tmp_path)
    dev = start_devmail(config, wake)
    try:
        with smtplib.SMTP("127.0.0.1", dev.smtp_port) as smtp:
            smtp.sendmail("x@pbem.localhost", ["north@pbem.localhost"], b"Subject: x\r\n\r\nhi\r\n")
        assert not wake.is_set()
        with smtplib.SMTP("127.0.0.1", dev.smtp_port) as smtp:
            smtp.sendmail("x@pbem.localhost", ["judge@pbem.localhost"], b"Subject: x\r\n\r\nhi\r\n")
        assert wake.is_set()
    finally:
        dev.stop()


def test_a_stale_uidnext_still_finds_new_mail(tmp_path: Path, pymap_server, monkeypatch) -> None:
    """New UIDs are looked for below UIDNEXT; a server that reports it too low (pymap
    can) is searched after all."""
    config = make_config(tmp_path, pymap_server)
    judge, poller = make_judge(config)
    judge.ensure_games()
    run_once(judge, poller)  # the first cycle reconciles; the next ones look below UIDNEXT
    _drop(pymap_server, 3)
    real = IMAPClient.select_folder

    def stale(self, folder, readonly=False):  # noqa: ANN001, ANN202
        info = dict(real(self, folder, readonly))
        info[b"UIDNEXT"] = 1
        return info
    monkeypatch.setattr(IMAPClient, "select_folder", stale)
    try:
        handled = poller.poll_once().handled
    finally:
        poller.close()
    assert len(handled) == 3
