"""The poll loop: connect, reconcile and fetch, handle each message, deadlines, send the
outbox, wait (IDLE or sleep), and reconnect with backoff when the server drops."""
from __future__ import annotations

import imaplib
import logging
import socket
import ssl
import threading

from imapclient.exceptions import IMAPClientError

from pbem.config import Config
from pbem.mail.imap import ImapPoller
from pbem.service.judge import Judge
from pbem.store import Store

log = logging.getLogger(__name__)

NETWORK_ERRORS = (IMAPClientError, imaplib.IMAP4.abort, imaplib.IMAP4.error, OSError, socket.timeout,
                  ssl.SSLError, EOFError)


def run_once(judge: Judge, poller: ImapPoller) -> dict[int, str]:
    """One full cycle: connect if needed, reconcile and fetch, deadlines, send mail.
    Returns the statuses of the messages handled. Network errors propagate."""
    if poller.client is None:
        poller.connect()
        handled = poller.poll_once(reconcile=True).handled
    else:
        handled = poller.poll_once().handled
    judge.tick()
    judge.flush_outbox()
    return handled


def run_forever(judge: Judge, poller: ImapPoller, stop: threading.Event | None = None,
                max_backoff: float = 300.0) -> None:
    """Poll until ``stop`` is set: wait with IDLE (or sleep+NOOP) between cycles and
    reconnect with exponential backoff when the server drops the connection."""
    stop = stop or threading.Event()
    backoff = 1.0
    while not stop.is_set():
        try:
            handled = run_once(judge, poller)
            if handled:
                log.info("handled %s", handled)
            backoff = 1.0
            poller.wait(judge.config.imap.poll_interval)
        except NETWORK_ERRORS as exc:
            log.warning("mail server problem (%s: %s); reconnecting in %.0fs", type(exc).__name__, exc, backoff)
            poller.close()
            try:
                judge.flush_outbox()
            except Exception:
                log.exception("outbox flush failed")
            stop.wait(backoff)
            backoff = min(backoff * 2, max_backoff)
    poller.close()


def make_judge(config: Config) -> tuple[Judge, ImapPoller]:
    """Open the store and build the judge and its poller for ``config``."""
    store = Store(config.database)
    judge = Judge(config, store)
    poller = ImapPoller(config.imap, store, judge.handle_message)
    return judge, poller
