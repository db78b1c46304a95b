"""A judge at a real mail table for the issue-16 tests (end, rollback, sign-up, the
whole game): pymap SMTP in, the IMAP poll, the outbox out, a judge clock that runs
ahead of real time by ``offset``, and the CLI against the same config."""
from __future__ import annotations

import email
import email.policy
import random
import re
import smtplib
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path
from typing import Any

import yaml
from click.testing import CliRunner, Result

from pbem import rules
from pbem.cli import main
from pbem.service import make_judge, run_once
from tests.conftest import PLAYERS, SEATS, mail_orders
from tests.service.helpers import wait_until, write_config


@dataclass
class Table:
    """The mail server, the config and a judge (reopened after each CLI call that
    writes, as `pbem run` and `pbem host` are separate processes in life)."""

    server: Any
    path: Path
    config: Any
    offset: list[timedelta] = field(default_factory=lambda: [timedelta(0)])
    judge: Any = None
    poller: Any = None
    keys: dict[str, str] = field(default_factory=dict)

    def open(self) -> None:
        self.judge, self.poller = make_judge(self.config)
        self.judge.clock = lambda: datetime.now(UTC) + self.offset[0]

    def close(self) -> None:
        if self.poller is not None:
            self.poller.close()
            self.judge.store.close()
        self.judge = self.poller = None

    def cli(self, *args: str) -> Result:
        """``pbem ARGS -c CONFIG`` with the judge closed meanwhile."""
        was_open = self.judge is not None
        self.close()
        out = CliRunner().invoke(main, [args[0], *(["-c", str(self.path)] if args[0] != "game" else []), *args[1:]])
        if was_open:
            self.open()
        return out

    def send(self, sender: str, body: str, subject: str = "mail") -> None:
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = sender, "judge@pbem.localhost", subject
        msg["Message-ID"] = make_msgid(domain="players.test")
        msg.set_content(body)
        with smtplib.SMTP("127.0.0.1", self.server.smtp_port) as smtp:
            smtp.send_message(msg)

    def cycle(self) -> list[str]:
        """One poll and handling cycle: the sorted statuses of the mails handled."""
        return sorted(run_once(self.judge, self.poller).values())

    def flush(self) -> None:
        """Move the judge's clock on and send what is due."""
        self.offset[0] += timedelta(seconds=2)
        self.judge.flush_outbox()

    def inbox(self, account: str) -> list[EmailMessage]:
        return [email.message_from_bytes(r, policy=email.policy.default) for r in self.server.messages(account)]

    def mails(self, account: str, subject: str, count: int = 1) -> list[EmailMessage]:
        """The mails of ``account`` whose subject contains ``subject``, waited for until
        there are ``count`` (the caller asserts)."""
        def found() -> list[EmailMessage]:
            return [m for m in self.inbox(account) if subject in str(m["Subject"])]
        wait_until(lambda: len(found()) >= count)
        return found()

    def play(self, game_id: str, rng: random.Random, addresses: dict[str, str] | None = None) -> str:
        """The waited-on seat's random bot orders by mail (its key from :attr:`keys`); the
        status (``applied``), or, when it is not, the status with the seat, the step and the
        last inbox row (its reason and problems) for the failing assertion to show."""
        state = self.judge.state(game_id)
        seat = rules.pending(state)[0].seat
        doc = {"game": game_id, "seat": seat, "key": self.keys[seat], "step": state.step,
               "orders": mail_orders(state, seat, rng)}
        self.send((addresses or {}).get(seat, f"{seat}@pbem.localhost"), yaml.safe_dump(doc, sort_keys=False),
                  "orders")
        status = ",".join(self.cycle())
        if status != "applied":  # say why, so a rare refusal of random orders names its cause
            row = self.judge.store.db.execute("SELECT status, reason, result FROM inbox ORDER BY id DESC LIMIT 1"
                                              ).fetchone()
            return f"{status} (seat {seat}, step {state.step}; last inbox row {row!r})"
        return status


def text(msg: EmailMessage) -> str:
    """The plain text part of a mail."""
    return msg.get_body(("plain",)).get_content()


def flat(msg: EmailMessage) -> str:
    """The plain text with every run of white space one space (phrases wrapped at 72
    columns read whole)."""
    return " ".join(text(msg).split())


def key_in(msg: EmailMessage) -> str:
    """The seat key a welcome or handover mail carries."""
    return re.search(r"Your seat key is:\s+(\S+)", text(msg)).group(1)


def new_table(tmp_path: Path, server: Any, game_id: str = "g2", extra: tuple[str, ...] = ()) -> tuple[Table, str]:
    """A config (game g1 in it) and ``game_id`` made by ``pbem game new`` (the CLI, with
    ``extra`` arguments), its welcomes sent and each seat's key read from its welcome;
    returns the table (judge open) and the host key."""
    path, config = write_config(tmp_path, server)
    table = Table(server, path, config)
    args = ["game", "new", "-c", str(path), "--host", "host@pbem.localhost", *extra]
    for s in SEATS:
        args += ["--seat", f"{s}={PLAYERS[s]} <{s}@pbem.localhost>"]
    out = table.cli(*args, game_id)
    assert out.exit_code == 0, out.output
    host_key = re.search(r"host key .*: (\S+)", out.output).group(1)
    table.open()
    table.cycle()
    table.flush()
    for s in SEATS:
        welcome = table.mails(s, f"[{game_id}] welcome: your seat {s}")
        assert len(welcome) == 1
        table.keys[s] = key_in(welcome[0])
    return table, host_key
