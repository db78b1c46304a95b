"""The poll loop: connect, reconcile and fetch, handle each message, deadlines, wait
(IDLE or sleep), and reconnect with backoff when the server drops; the outbox is sent by
its own thread (:class:`pbem.service.outgoing.sending.Sender`), so a stalled SMTP server never
holds up IMAP or the deadlines.

Nothing a mail or a server does makes :func:`run_forever` return (issue 17): a mail that
breaks a stage is quarantined by the intake; a network failure (IMAP) or a transient
database failure (:class:`pbem.service.base.context.RetryLater`) closes the connection, waits
with exponential backoff and starts again with a reconcile pass, which finds every
message not handled yet; any other exception of a cycle is logged and treated the same
way. Each kind of fault is reported to the hosts once per episode
(:mod:`pbem.service.outgoing.faults`). Only ``stop`` (or KeyboardInterrupt / SystemExit) ends it.
"""
from __future__ import annotations

import errno
import imaplib
import logging
import socket
import ssl
import threading
from datetime import datetime

from imapclient.exceptions import IMAPClientError

from pbem.config import Config
from pbem.mail.imap import ImapPoller
from pbem.service.base.context import RetryLater
from pbem.service.judge import Judge
from pbem.service.outgoing import faults, sending
from pbem.service.recover import recover_kept_mail
from pbem.service.replica import judge_autocheckpoint
from pbem.store import Store, is_transient_db_error
from pbem.store.heartbeat import beat

log = logging.getLogger(__name__)

NETWORK_ERRORS = (IMAPClientError, imaplib.IMAP4.abort, imaplib.IMAP4.error, OSError, socket.timeout,
                  ssl.SSLError, EOFError)
#: every fault kind a successful cycle ends
CYCLE_FAULTS = ("imap", "database", "database busy", "internal")


def cycle(judge: Judge, poller: ImapPoller, recover: bool = False) -> dict[int, str]:
    """Connect if needed (then, with ``recover``, apply again the kept mail the log
    lacks — :mod:`pbem.service.recover` — and reconcile the whole folder), fetch and
    handle new messages, then deadlines. Returns the statuses of the messages handled,
    by UID. Raises network errors and RetryLater."""
    if poller.client is None:
        poller.connect()
        if recover:
            recover_kept_mail(judge, poller)
        handled = poller.poll_once(reconcile=True).handled
    else:
        handled = poller.poll_once().handled
    judge.tick()
    return handled


def run_once(judge: Judge, poller: ImapPoller) -> dict[int, str]:
    """One full cycle (:func:`cycle`), then send the outbox in this thread (within its
    time budget), then the heartbeat (``pbem run --once`` from cron is checked like the
    loop). Returns the statuses of the messages handled. Network errors and RetryLater
    propagate."""
    handled = cycle(judge, poller, recover=True)
    judge.flush_outbox()
    now = judge.clock()
    heartbeat(judge, now, 1, now)
    return handled


def heartbeat(judge: Judge, started_at: datetime, cycles: int, now: datetime) -> None:
    """Write the judge's heartbeat (:mod:`pbem.store.heartbeat`) after a successful
    cycle; a failure to write it is logged, never raised (it must not stop the judge)."""
    database = str(judge.config.database)
    if database == ":memory:":
        return
    try:
        beat(database, started_at, cycles, now)
    except OSError as exc:
        log.warning("cannot write the heartbeat beside %s: %s", database, exc)


def fault_kind(exc: BaseException) -> str:
    """The fault kind of an exception that ended a cycle (see :mod:`pbem.service.outgoing.faults`)."""
    if isinstance(exc, RetryLater) or is_transient_db_error(exc):
        # a full disk, busy or read-only database hit outside one mail (e.g. saving the
        # IMAP position) is the database's fault, not an internal error (break-it 9a)
        text = str(exc).lower()
        return "database busy" if "locked" in text or "busy" in text else "database"
    if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EROFS):
        return "database"  # our own disk, not the network
    if isinstance(exc, NETWORK_ERRORS):
        return "imap"
    return "internal"


def run_forever(judge: Judge, poller: ImapPoller, stop: threading.Event | None = None,
                max_backoff: float = 300.0, send_every: float = 30.0) -> None:
    """Poll until ``stop`` is set: wait with IDLE (or sleep+NOOP) after a cycle that
    found nothing (after one that handled mail, the next cycle starts at once, so a
    backlog is read without waiting for the server to announce each message),
    reconnect with exponential backoff (1 s doubling to ``max_backoff``) after any
    failure, and send the outbox from a thread of its own (after every cycle, and every
    ``send_every`` seconds)."""
    stop = stop or threading.Event()
    sender_stop = threading.Event()
    config, clock, seed = judge.config, judge.clock, judge.new_seed
    watch = faults.ServerFaults()
    sender = sending.Sender(lambda: Judge(config, Store(config.database, wal_autocheckpoint=judge_autocheckpoint(config)),
                                          clock, seed), sender_stop, every=send_every,
                           watch=watch)
    sender.start()
    backoff = 1.0
    started, cycles = judge.clock(), 0
    try:
        while not stop.is_set():
            try:
                # until one cycle succeeded, each connection first recovers the kept mail
                # the log lacks (issue 30): no deadline pass may run before it
                handled = cycle(judge, poller, recover=cycles == 0)
                if handled:
                    log.info("handled %d message(s): %s", len(handled), _counts(handled))
                cycles += 1
                heartbeat(judge, started, cycles, judge.clock())
                sender.kick()
                for kind in CYCLE_FAULTS:
                    watch.recovered(judge, kind)
                backoff = 1.0
                if not handled and not judge.bot_waiting():  # after a busy cycle (mail, a bot's decision
                    poller.wait(config.imap.poll_interval)    # due) look again at once: more may have come
                continue
            except Exception as exc:
                kind = fault_kind(exc)
                if kind == "internal":
                    log.exception("the cycle failed; starting again in %.0fs", backoff)
                else:
                    log.warning("%s problem (%s: %s)%s; starting again in %.0fs", kind, type(exc).__name__, exc,
                                faults.certificate_hint(kind, exc), backoff)
                watch.failed(judge, kind, exc)
            poller.close()
            sender.kick()
            stop.wait(backoff)
            backoff = min(backoff * 2, max_backoff)
    finally:
        sender_stop.set()
        sender.kick()
        sender.join(60)
        poller.close()


def _counts(handled: dict[int, str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for status in handled.values():
        counts[status] = counts.get(status, 0) + 1
    return counts


def make_judge(config: Config, store: Store | None = None) -> tuple[Judge, ImapPoller]:
    """Open the store (unless given) and build the judge and its poller for ``config``.
    Raises pbem.store.StoreError when the database cannot be used. With a replica,
    the store never checkpoints on its own (:func:`pbem.service.replica.judge_autocheckpoint`)."""
    store = store or Store(config.database, wal_autocheckpoint=judge_autocheckpoint(config))
    judge = Judge(config, store)
    poller = ImapPoller(config.imap, store, judge.handle_message, max_bytes=config.max_message_bytes,
                        on_unfetchable=judge.handle_unfetchable)
    return judge, poller
