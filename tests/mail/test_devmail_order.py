"""The embedded mail server (pbem.devmail) under a burst and after a crash (break-it
findings of 2026-12-02): mail delivered in a burst gets IMAP UIDs in delivery order, so
the judge handles a player's mails in the order they were sent; and a server left
behind by a judge killed with SIGKILL is stopped at the next start instead of keeping
the port. Servers on 127.0.0.1 only; every wait is bounded."""
from __future__ import annotations

import os
import signal
import smtplib
import time
from pathlib import Path

from imapclient import IMAPClient

from pbem.devmail import DevMail, delivery_order

ACCOUNTS = {"judge": "judge-pw", "north": "north-pw"}


def _burst(dev: DevMail, n: int) -> None:
    with smtplib.SMTP("127.0.0.1", dev.smtp_port, timeout=30) as smtp:
        for i in range(n):
            smtp.sendmail("north@pbem.localhost", ["judge@pbem.localhost"],
                          f"From: north@pbem.localhost\r\nTo: judge@pbem.localhost\r\n"
                          f"Subject: orders {i}\r\nMessage-ID: <burst-{i}@players.test>\r\n\r\nseq: {i}\r\n")


def test_a_burst_gets_uids_in_delivery_order(tmp_path: Path) -> None:
    with DevMail(tmp_path / "mail", ACCOUNTS) as dev:
        _burst(dev, 120)  # all waiting in new/ when the IMAP server first looks
        with IMAPClient("127.0.0.1", port=dev.imap_port, ssl=False, timeout=30) as imap:
            imap.login("judge", "judge-pw")
            imap.select_folder("INBOX")
            uids = sorted(imap.search(["ALL"]))
            got = imap.fetch(uids, ["BODY.PEEK[HEADER.FIELDS (MESSAGE-ID)]"])
    order = [int(got[u][b"BODY[HEADER.FIELDS (MESSAGE-ID)]"].split(b"burst-")[1].split(b"@")[0]) for u in uids]
    assert order == list(range(120))


def test_delivery_order_sorts_python_maildir_names_by_time_not_text() -> None:
    names = ["1796223170.M99999P5Q1.vm", "1796223170.M100000P5Q2.vm", "1796223171.M5P5Q3.vm", "other"]
    assert sorted(reversed(names), key=delivery_order) == names
    assert sorted(names) != names  # the names alone do not sort: the key has teeth


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}").exists() and b"Z" not in Path(f"/proc/{pid}/stat").read_bytes().split(b")")[-1][:3]


def test_a_server_left_by_a_killed_judge_is_stopped_at_the_next_start(tmp_path: Path) -> None:
    root = tmp_path / "mail"
    first = DevMail(root, ACCOUNTS).start()
    port, orphan = first.imap_port, first._imap.pid
    first._controller.stop()  # what a SIGKILL of the judge leaves: the IMAP child, running
    first._imap = None
    assert _alive(orphan)
    second = DevMail(root, ACCOUNTS, imap_port=port).start()  # before the fix: port in use
    try:
        deadline = time.monotonic() + 10
        while _alive(orphan) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(orphan) and second.imap_alive()
        with IMAPClient("127.0.0.1", port=port, ssl=False, timeout=30) as imap:
            imap.login("north", "north-pw")
    finally:
        second.stop()
        if _alive(orphan):
            os.kill(orphan, signal.SIGKILL)
