"""Helpers for the service tests (issue 17): a judge config file against loopback
servers, raw mail dropped straight into the judge's maildir, IMAP folder contents, an
SMTP server whose faults the test chooses, and a `pbem run` subprocess."""
from __future__ import annotations

import email
import email.policy
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import yaml
from aiosmtpd.controller import Controller
from imapclient import IMAPClient

from pbem import rules
from pbem.config import Config, load_config
from pbem.devmail import listen_on_free_port
from tests.conftest import HASHES, KEYS, PLAYERS, SEATS, mail_orders
from tests.mailservers import MailServer

ROOT = Path(__file__).resolve().parents[2]


def write_config(tmp_path: Path, server: MailServer, smtp_port: int | None = None, options: dict | None = None,
                 imap: dict | None = None, **extra: object) -> tuple[Path, Config]:
    """A config file for game g1 against ``server`` (IMAP; ``imap`` overrides keys) and
    ``smtp_port`` (default: the server's SMTP); returns its path and the loaded config."""
    raw = {
        "judge": {"address": "judge@pbem.localhost"},
        "database": str(tmp_path / "pbem.sqlite"),
        "map_attachment": False,
        "imap": {"host": "127.0.0.1", "port": server.imap_port, "user": "judge", "password": "jpw",
                 "processed_folder": "Processed", "poll_interval": "1s", **(imap or {})},
        "smtp": {"host": "127.0.0.1", "port": smtp_port or server.smtp_port},
        "games": [{"id": "g1", "host_email": "host@pbem.localhost", "options": options or {}, "seats": [
            {"seat": s, "player": PLAYERS[s], "email": f"{s}@pbem.localhost", "key_hash": HASHES[s]}
            for s in SEATS]}],
        **extra,
    }
    path = tmp_path / "config.yaml"
    path.write_text(yaml.safe_dump(raw, sort_keys=False))
    return path, load_config(path)


def judge_and_poller(config: Config, now: list, seed: bytes = bytes(range(32))):  # noqa: ANN201
    """(Judge, ImapPoller) on ``config``'s database: the judge's clock reads ``now[0]`` (a
    one-item list of aware datetimes the test moves on) and every new game's seed is
    ``seed``; the poller hands each fetched mail to the judge as `pbem run` does."""
    from pbem.mail.imap import ImapPoller
    from pbem.service import Judge
    from pbem.store import Store

    store = Store(config.database)
    judge = Judge(config, store, clock=lambda: now[0], new_seed=lambda: seed)
    poller = ImapPoller(config.imap, store, judge.handle_message, max_bytes=config.max_message_bytes,
                        on_unfetchable=judge.handle_unfetchable)
    return judge, poller


def orders_body(judge, seed: int = 1) -> tuple[str, str]:  # noqa: ANN001
    """(seat, YAML body) of random legal orders of the seat the game waits for."""
    state = judge.state("g1")
    seat = rules.pending(state)[0].seat
    doc = {"game": "g1", "seat": seat, "key": KEYS[seat], "step": state.step,
           "orders": mail_orders(state, seat, random.Random(seed))}
    return seat, yaml.safe_dump(doc, sort_keys=False)


def drop(server: MailServer, raw: bytes, account: str = "judge", at: float | None = None) -> None:
    """Put ``raw`` (bytes as they are) into ``account``'s INBOX maildir, as an MTA would;
    ``at``: its arrival time (POSIX seconds; the file's mtime, which pymap reports as
    the IMAP INTERNALDATE), default now."""
    new = server.root / account / "new"
    new.mkdir(parents=True, exist_ok=True)
    name = f"{time.time():.6f}.{uuid.uuid4().hex}.test"
    (server.root / account / "tmp").mkdir(exist_ok=True)
    tmp = server.root / account / "tmp" / name
    tmp.write_bytes(raw)
    if at is not None:
        os.utime(tmp, (at, at))
    tmp.rename(new / name)


def folder(server: MailServer, name: str, account: str = "judge", password: str = "jpw") -> list[bytes]:
    """The raw messages of an IMAP folder (empty when it does not exist)."""
    c = IMAPClient("127.0.0.1", port=server.imap_port, ssl=False, timeout=30)
    try:
        c.login(account, password)
        if not c.folder_exists(name):
            return []
        c.select_folder(name, readonly=True)
        uids = c.search(["ALL"])
        return [d[b"BODY[]"] for d in c.fetch(uids, ["BODY.PEEK[]"]).values()] if uids else []
    finally:
        c.logout()


def mail(sender: str, body: str, subject: str = "orders", message_id: str | None = None,
         headers: dict[str, str] | None = None) -> bytes:
    """A plain mail from ``sender`` to the judge (CRLF line ends)."""
    addr = sender if "@" in sender else f"{sender}@pbem.localhost"
    lines = [f"From: {addr}", "To: judge@pbem.localhost", f"Subject: {subject}",
             f"Message-ID: {message_id or '<' + uuid.uuid4().hex + '@players.test>'}",
             "Date: Mon, 01 Jan 2029 00:00:00 +0000", *[f"{k}: {v}" for k, v in (headers or {}).items()],
             "Content-Type: text/plain; charset=utf-8", ""]
    return ("\r\n".join(lines) + "\r\n" + body.replace("\n", "\r\n")).encode()


def text_of(raw: bytes) -> str:
    """The text/plain body of a raw message, white space collapsed."""
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    part = msg.get_body(("plain",))
    return " ".join((part.get_content() if part is not None else "").split())


def wait_until(what: Callable[[], object], timeout: float = 60.0, every: float = 0.3) -> object:
    """Poll ``what`` until it returns something true; return it, or the last value after
    ``timeout`` seconds (the caller asserts on it: no timed assert here)."""
    end = time.monotonic() + timeout
    value = what()
    while not value and time.monotonic() < end:
        time.sleep(every)
        value = what()
    return value


@dataclass
class FaultySMTP:
    """An SMTP server on 127.0.0.1 whose answer the test sets: ``mode`` ``ok`` (accept
    and keep the message), ``4xx`` (451 to every recipient), ``5xx`` (550); recipients in
    ``refuse`` get 550 in any mode. ``smtputf8``: the server offers SMTPUTF8 (RFC 6531);
    ``eightbitmime``: it offers 8BITMIME (RFC 6152; aiosmtpd does unless told not to);
    ``options`` records the MAIL FROM parameters of every message received,
    ``refused_tries`` every recipient refused."""

    mode: str = "ok"
    refuse: set[str] = field(default_factory=set)
    received: list[tuple[str, list[str], bytes]] = field(default_factory=list)
    port: int = 0
    smtputf8: bool = False
    options: list[list[str]] = field(default_factory=list)
    eightbitmime: bool = True
    refused_tries: list[str] = field(default_factory=list)
    _controller: Controller | None = None

    async def handle_EHLO(self, server, session, envelope, hostname, responses):  # noqa: ANN001
        session.host_name = hostname
        return [r for r in responses if self.eightbitmime or "8BITMIME" not in r]

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):  # noqa: ANN001
        if self.mode == "4xx":
            return "451 4.3.0 try again later"
        if self.mode == "5xx" or address.lower() in self.refuse:
            self.refused_tries.append(address)
            return "550 5.1.1 <" + address + ">: Recipient address rejected: User unknown"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):  # noqa: ANN001
        self.received.append((envelope.mail_from, list(envelope.rcpt_tos), envelope.original_content or b""))
        self.options.append(list(envelope.mail_options))
        return "250 OK"

    def start(self, port: int | None = None) -> FaultySMTP:
        """Listen on ``port`` (default: a free one, another when it is taken meanwhile:
        :func:`pbem.devmail.listen_on_free_port`). Raises OSError when ``port`` is taken."""
        if not port:
            return listen_on_free_port(self.start)
        controller = Controller(self, hostname="127.0.0.1", port=port, enable_SMTPUTF8=self.smtputf8)
        try:
            controller.start()
        except BaseException:
            controller.loop.close()
            raise
        self.port, self._controller = port, controller
        return self

    def stop(self) -> None:
        if self._controller is not None:
            self._controller.stop()

    def to(self, address: str) -> list[bytes]:
        """Raw messages received for ``address``."""
        return [raw for _f, tos, raw in self.received if address in tos]


class StalledSMTP:
    """A TCP server on 127.0.0.1 that accepts connections and never says a word (an
    SMTP server that hangs)."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(50)
        self.port = self.sock.getsockname()[1]
        self.conns: list[socket.socket] = []
        self._stop = threading.Event()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        self.sock.settimeout(0.2)
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
                self.conns.append(conn)
            except OSError:
                continue

    def stop(self) -> None:
        self._stop.set()
        for c in self.conns:
            c.close()
        self.sock.close()


def pbem_run(config: Path, *args: str, crash_at: str | None = None, log: Path | None = None) -> subprocess.Popen:
    """Start ``pbem run -c config`` as a child process (``crash_at``: the crash point of
    tests/service/crashpoints.py at which it SIGKILLs itself)."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    if crash_at:
        env["PBEM_TEST_CRASH_AT"] = crash_at
    out = open(log or config.with_suffix(".log"), "ab")  # noqa: SIM115 - the child owns it
    return subprocess.Popen([sys.executable, str(ROOT / "tests" / "service" / "crashpoints.py"), "run", "-c",
                             str(config), *args], stdout=out, stderr=subprocess.STDOUT, cwd=ROOT, env=env)


def stop(proc: subprocess.Popen, timeout: float = 30.0) -> int:
    """SIGTERM a child and wait for it; SIGKILL after ``timeout``. Returns its exit code."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    return proc.returncode

