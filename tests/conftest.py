"""Shared fixtures: real mail servers on loopback and a judge configured against them."""
from __future__ import annotations

import email
import email.policy
import os
import random
import smtplib
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import pytest
import yaml
from hypothesis import settings

from pbem import rules
from pbem.config import Config, parse_config
from pbem.keys import hash_key
from pbem.mail.imap import ImapPoller
from pbem.rules.core.state import GameState
from pbem.rules.engine import validate_told
from pbem.service import Judge, make_judge
from pbem.service.log.trust import json_form
from pbem.store import Store
from tests.mailservers import DOVECOT, MailServer, start_dovecot, start_pymap

# The property tests (hypothesis) draw the same examples on every run, so the README's
# test command (and CI) passes or fails the same way each time; `HYPOTHESIS_PROFILE=explore
# .venv/bin/pytest …` draws new ones (more examples) to look for new failures, whose
# examples are then kept in the test with @example (README, "Quick start").
settings.register_profile("repeatable", derandomize=True, deadline=None)
settings.register_profile("explore", max_examples=1000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))

SEATS = ("north", "east", "south", "west")
PLAYERS = {"north": "Kleitos", "east": "Peukestas", "south": "Nearchos", "west": "Aristonous"}
KEYS = {s: f"{s}-test-key" for s in SEATS}
HASHES = {s: hash_key(k, iterations=1000) for s, k in KEYS.items()}
ACCOUNTS = {"judge": "jpw", "host": "hpw", "stranger": "spw", **{s: f"{s}pw" for s in SEATS}}


@pytest.fixture(params=["pymap", "dovecot"])
def mail_server(request: pytest.FixtureRequest, tmp_path: Path) -> MailServer:
    """A real SMTP + IMAP pair on 127.0.0.1 (pymap always; Dovecot when installed)."""
    if request.param == "dovecot":
        if not DOVECOT:
            pytest.skip("dovecot-imapd is not installed here (CI installs it)")
        server = start_dovecot(tmp_path / "dovecot", ACCOUNTS)
    else:
        server = start_pymap(tmp_path / "pymap", ACCOUNTS)
    yield server
    server.stop()


@pytest.fixture
def pymap_server(tmp_path: Path) -> MailServer:
    """pymap only (tests that kill and restart the IMAP server)."""
    server = start_pymap(tmp_path / "pymap", ACCOUNTS)
    yield server
    server.stop()


def make_config(tmp_path: Path, server: MailServer, options: dict | None = None, **extra: object) -> Config:
    """A config for game ``g1`` (game ``options``) with four seats against ``server``."""
    raw = {
        "judge": {"address": "judge@pbem.localhost"},
        "database": str(tmp_path / "pbem.sqlite"),
        "imap": {"host": "127.0.0.1", "port": server.imap_port, "user": "judge", "password": "jpw",
                 "processed_folder": "Processed", "poll_interval": "1s"},
        "smtp": {"host": "127.0.0.1", "port": server.smtp_port},
        "games": [{"id": "g1", "host_email": "host@pbem.localhost", "options": options or {}, "seats": [
            {"seat": s, "player": PLAYERS[s], "email": f"{s}@pbem.localhost", "key_hash": HASHES[s]}
            for s in SEATS]}],
        **extra,
    }
    return parse_config(raw, base=tmp_path)


@dataclass
class Table:
    """A judge wired to real mail servers, plus helpers to act as players."""

    server: MailServer
    config: Config
    judge: Judge
    poller: ImapPoller

    def send(self, sender: str, body: str, subject: str = "orders", headers: dict | None = None,
             message_id: str | None = None) -> str:
        """Mail ``body`` from ``sender`` (an account name or address) to the judge over SMTP."""
        addr = sender if "@" in sender else f"{sender}@pbem.localhost"
        msg = EmailMessage()
        msg["From"] = addr
        msg["To"] = "judge@pbem.localhost"
        msg["Subject"] = subject
        msg["Message-ID"] = message_id or make_msgid(domain="players.test")
        for k, v in (headers or {}).items():
            msg[k] = v
        msg.set_content(body)
        with smtplib.SMTP("127.0.0.1", self.server.smtp_port) as smtp:
            smtp.send_message(msg, from_addr=addr, to_addrs=["judge@pbem.localhost"])
        return str(msg["Message-ID"])

    def send_raw(self, sender: str, raw: bytes) -> None:
        """Mail raw bytes to the judge over SMTP."""
        with smtplib.SMTP("127.0.0.1", self.server.smtp_port) as smtp:
            smtp.sendmail(sender, ["judge@pbem.localhost"], raw)

    def inbox(self, account: str) -> list[EmailMessage]:
        """Parsed messages in ``account``'s mailbox, oldest first."""
        return [email.message_from_bytes(r, policy=email.policy.default)  # type: ignore[misc]
                for r in self.server.messages(account)]

    def text_of(self, msg: EmailMessage) -> str:
        """The text/plain body of a message."""
        part = msg.get_body(("plain",))
        return part.get_content() if part is not None else ""

    def orders_doc(self, seat: str, step: int, orders: dict, key: str | None = None, game: str = "g1") -> str:
        """An orders YAML document as a player writes it."""
        return yaml.safe_dump({"game": game, "seat": seat, "key": key or KEYS[seat], "step": step,
                               "orders": orders}, sort_keys=False)


@pytest.fixture
def table(tmp_path: Path, mail_server: MailServer) -> Table:
    """A started game g1 on real servers; the setup mail has been sent."""
    from pbem.service import run_once

    config = make_config(tmp_path, mail_server)
    judge, poller = make_judge(config)
    judge.ensure_games()
    run_once(judge, poller)
    yield Table(mail_server, config, judge, poller)
    poller.close()


def player_mail(seat: str, doc: dict) -> bytes:
    """A player's orders mail (``doc`` as the YAML body) from ``seat``'s address, for
    :meth:`pbem.service.Judge.handle_message` without a mail server."""
    msg = EmailMessage()
    msg["From"] = f"{seat}@pbem.localhost"
    msg["To"] = "judge@pbem.localhost"
    msg["Subject"] = "orders"
    msg["Message-ID"] = make_msgid(domain="players.test")
    msg.set_content(yaml.safe_dump(doc, sort_keys=False))
    return msg.as_bytes(policy=email.policy.SMTP)


def local_judge(tmp_path: Path, options: dict) -> Judge:
    """A Judge with game g1 (the four seats, ``options``) and no mail server, for tests
    that feed :meth:`Judge.handle_message` directly; no map pictures."""
    config = parse_config({
        "judge": {"address": "judge@pbem.localhost"},
        "database": str(tmp_path / "pbem.sqlite"),
        "map_attachment": False,  # the picture is tested elsewhere
        "games": [{"id": "g1", "options": options, "seats": [
            {"seat": s, "player": PLAYERS[s], "email": f"{s}@pbem.localhost", "key_hash": HASHES[s]}
            for s in SEATS]}],
    }, base=tmp_path)
    judge = Judge(config, Store(config.database))
    judge.ensure_games()
    return judge


def seeded_table(tmp_path: Path, server: MailServer, seed: bytes) -> Table:
    """The config game g1 (maps off) started on ``server`` with the game seed ``seed``,
    its first mails sent (one cycle of the judge), and a :class:`Table` to play it by mail;
    ``table.judge``/``table.poller`` are the judge and its poller."""
    from pbem.service import run_once

    config = make_config(tmp_path, server, map_attachment=False)
    judge, poller = make_judge(config)
    judge.new_seed = lambda: seed
    judge.ensure_games()
    run_once(judge, poller)
    return Table(server, config, judge, poller)


def mail_orders(state: GameState, seat: str, rng: random.Random, tries: int = 20) -> dict:
    """Random orders for ``seat`` (:func:`pbem.rules.bot_orders`, the test driver) that the
    judge's mail check accepts: ``rules.bot_orders`` checks its candidates on the whole
    position, the judge's check (:func:`pbem.rules.engine.validate_told`, R-9.3) first on
    the position the seat may know, without the others' standing orders, and refuses what
    only their secret reactions would make possible (a body buried in a major city an
    interception might stop the army short of). Draws again from ``rng`` while the judge
    would refuse (so a game whose first draws are accepted plays as before), at most
    ``tries`` times; the last draw then (its refusal shows in the test)."""
    orders = rules.bot_orders(state, seat, rng)
    for _ in range(tries - 1):
        if not validate_told(state, seat, json_form(orders))[0]:
            break
        orders = rules.bot_orders(state, seat, rng)
    return orders
