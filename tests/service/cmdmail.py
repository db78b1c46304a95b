"""A judge on loopback mail servers for the player-command tests (issue 16): real SMTP
in, the IMAP poll, the outbox out; the judge's clock runs ``offset`` ahead."""
from __future__ import annotations

import email
import email.policy
import smtplib
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path
from typing import Any

import yaml

from pbem.config import load_config
from pbem.service import make_judge, run_once
from pbem.service.play import setup as table_mod
from tests.conftest import ACCOUNTS, SEATS
from tests.mailservers import MailServer, start_pymap
from tests.service.helpers import wait_until, write_config

EXTRA = {"newhome": "npw"}


@dataclass
class Mail:
    """A judge, its poller and the mail server, with helpers to send and read."""

    server: MailServer
    path: Path
    judge: Any
    poller: Any
    offset: list[timedelta] = field(default_factory=lambda: [timedelta(0)])

    def send(self, sender: str, body: str | dict, subject: str = "command") -> None:
        """Mail ``body`` (text, or a document dumped as YAML) from ``sender``@pbem.localhost."""
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = f"{sender}@pbem.localhost", "judge@pbem.localhost", subject
        msg["Message-ID"] = make_msgid(domain="players.test")
        msg.set_content(body if isinstance(body, str) else yaml.safe_dump(body, sort_keys=False))
        with smtplib.SMTP("127.0.0.1", self.server.smtp_port) as smtp:
            smtp.send_message(msg)

    def cycle(self, advance: timedelta = timedelta(seconds=2)) -> dict[int, str]:
        """One poll (messages then deadlines), then the clock on and the outbox sent."""
        out = run_once(self.judge, self.poller)
        self.offset[0] += advance
        self.judge.flush_outbox()
        return out

    def inbox(self, account: str) -> list[EmailMessage]:
        return [email.message_from_bytes(r, policy=email.policy.default) for r in self.server.messages(account)]

    def mails(self, account: str, subject: str, n: int = 1) -> list[EmailMessage]:
        """The mails to ``account`` whose subject holds ``subject``, once there are ``n``."""
        pick = lambda: [m for m in self.inbox(account) if subject in str(m["Subject"])]
        wait_until(lambda: len(pick()) >= n)
        return pick()

    def close(self) -> None:
        self.poller.close()
        self.judge.store.close()
        self.server.stop()


def text(msg: EmailMessage) -> str:
    """The plain-text body of ``msg``."""
    return msg.get_body(("plain",)).get_content()


def start(tmp_path: Path, settings: dict | None = None, **extra: object) -> Mail:
    """The servers and a judge for config game g1 (with ``settings``), created and polled once."""
    server = start_pymap(tmp_path / "pymap", {**ACCOUNTS, **EXTRA})
    path, _config = write_config(tmp_path, server, **extra)
    if settings:
        raw = yaml.safe_load(path.read_text())
        raw["games"][0]["settings"] = settings
        path.write_text(yaml.safe_dump(raw, sort_keys=False))
    judge, poller = make_judge(load_config(path))
    m = Mail(server, path, judge, poller)
    judge.clock = lambda: datetime.now(UTC) + m.offset[0]
    judge.ensure_games()
    m.cycle()
    return m


def new_game(m: Mail, game_id: str, settings: dict | None = None) -> dict[str, str]:
    """A game made as by ``pbem game new`` (seats at the test accounts); its seat keys."""
    made = table_mod.new_game(m.judge, game_id, [table_mod.NewSeat(s, s.title(), f"{s}@pbem.localhost")
                                                 for s in SEATS],
                              host_email="host@pbem.localhost", settings=settings or {})
    m.cycle()
    return dict(made.keys)
