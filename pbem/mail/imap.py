"""Reading the judge's mailbox with imapclient (IMAP4rev1, RFC 3501).

- Messages are fetched with ``BODY.PEEK[]`` so reading never sets ``\\Seen``.
- The folder's UIDVALIDITY and the last UID handled are stored; when UIDVALIDITY
  changes every message is looked at again (duplicates are caught by Message-ID).
- After (re)connecting, the whole folder is reconciled once: a message whose processing
  committed but which was not yet moved (a crash between commit and move) is recognised
  by its Message-ID, not applied again, and moved now.
- A message is moved to the processed folder (MOVE, RFC 6851; COPY+EXPUNGE without it)
  or, with no processed folder configured, flagged ``\\Seen`` and ``$PbemDone``, only
  after the handler has committed it to the database.
- IDLE (RFC 2177) is used when offered; it is re-issued at least every ``idle_renew``
  seconds (25 minutes by default); without IDLE the poller sleeps ``poll_interval`` and
  sends NOOP as a health check.
"""
from __future__ import annotations

import imaplib
import logging
import ssl
import time
from collections.abc import Callable
from dataclasses import dataclass

from imapclient import IMAPClient

from pbem.config import ImapConfig
from pbem.store import Store

log = logging.getLogger(__name__)

DONE_FLAG = b"$PbemDone"
FETCH_BATCH = 20

# handler(raw, uidvalidity, uid, folder) -> status text; must commit before returning.
Handler = Callable[[bytes, int, int, str], str]


@dataclass
class PollResult:
    """What one poll cycle did: UIDs handled and the handler's status for each."""

    handled: dict[int, str]
    uidvalidity: int


def _ssl_context(cfg: ImapConfig) -> ssl.SSLContext:
    ctx = ssl.create_default_context()
    if not cfg.verify_tls:
        ctx.check_hostname = False
        ctx.verify_mode = ssl.CERT_NONE
    return ctx


class ImapPoller:
    """One connection to the judge's mailbox. Not thread-safe.

    Raises imapclient / socket errors from its methods; :func:`pbem.service.run_forever`
    catches them, closes, and reconnects with backoff.
    """

    def __init__(self, cfg: ImapConfig, store: Store, handler: Handler, timeout: float = 60.0):
        self.cfg = cfg
        self.store = store
        self.handler = handler
        self.timeout = timeout
        self.client: IMAPClient | None = None
        self.uidvalidity: int | None = None

    # -- connection -------------------------------------------------------------------------
    def connect(self) -> None:
        """Connect, authenticate, create the processed folder if needed, select the folder."""
        cfg = self.cfg
        client = IMAPClient(cfg.host, port=cfg.port, ssl=cfg.tls == "implicit",
                            ssl_context=_ssl_context(cfg) if cfg.tls != "none" else None,
                            timeout=self.timeout)
        try:
            if cfg.tls == "starttls":
                client.starttls(_ssl_context(cfg))
            if cfg.user:
                client.login(cfg.user, cfg.password or "")
            if cfg.processed_folder and not client.folder_exists(cfg.processed_folder):
                client.create_folder(cfg.processed_folder)
            info = client.select_folder(cfg.folder)
        except Exception:
            self._shutdown(client)
            raise
        self.client = client
        self.uidvalidity = int(info[b"UIDVALIDITY"])

    def close(self) -> None:
        """Log out (quietly; the connection may already be dead)."""
        if self.client is not None:
            self._shutdown(self.client)
        self.client = None

    @staticmethod
    def _shutdown(client: IMAPClient) -> None:
        try:
            client.logout()
        except Exception:  # noqa: BLE001 - a dead connection cannot log out
            try:
                client.shutdown()
            except Exception as exc:  # noqa: BLE001
                log.debug("IMAP shutdown: %s", exc)

    @property
    def has_idle(self) -> bool:
        """True when the server offers IDLE (RFC 2177) and the config allows it."""
        return bool(self.cfg.idle and self.client is not None and self.client.has_capability("IDLE"))

    # -- polling -------------------------------------------------------------------------------
    def poll_once(self, reconcile: bool = False) -> PollResult:
        """Fetch new messages (all messages in the folder when ``reconcile``), hand each to
        the handler, then move/flag it. Returns what was handled."""
        assert self.client is not None, "connect() first"
        client, cfg = self.client, self.cfg
        info = client.select_folder(cfg.folder)
        uidvalidity = int(info[b"UIDVALIDITY"])
        known_validity, last_uid = self.store.imap_position(cfg.folder)
        if known_validity != uidvalidity:
            if known_validity is not None:
                log.warning("UIDVALIDITY of %s changed (%s -> %s): rescanning", cfg.folder,
                            known_validity, uidvalidity)
            last_uid, reconcile = 0, True
        if reconcile:
            criteria: list[object] = ["NOT", "DELETED"]
            if not cfg.processed_folder:
                criteria = ["NOT", "DELETED", "UNKEYWORD", DONE_FLAG.decode()]
        else:
            criteria = ["UID", f"{last_uid + 1}:*"]
        uids = sorted(u for u in client.search(criteria) if reconcile or u > last_uid)
        handled: dict[int, str] = {}
        for start in range(0, len(uids), FETCH_BATCH):
            batch = uids[start:start + FETCH_BATCH]
            data = client.fetch(batch, ["BODY.PEEK[]"])
            for uid in batch:
                if uid not in data:  # expunged meanwhile
                    continue
                raw = data[uid][b"BODY[]"]
                status = self.handler(raw, uidvalidity, uid, cfg.folder)  # commits
                self._done(uid)
                handled[uid] = status
                self.store.set_imap_position(cfg.folder, uidvalidity, max(uid, last_uid))
                last_uid = max(uid, last_uid)
        if not uids:
            self.store.set_imap_position(cfg.folder, uidvalidity, last_uid)
        self.uidvalidity = uidvalidity
        return PollResult(handled, uidvalidity)

    def _done(self, uid: int) -> None:
        """Move (or flag) one message after its database commit."""
        client, cfg = self.client, self.cfg
        assert client is not None
        if cfg.processed_folder:
            if client.has_capability("MOVE"):
                client.move([uid], cfg.processed_folder)
            else:
                client.copy([uid], cfg.processed_folder)
                client.add_flags([uid], [b"\\Deleted"])
                if client.has_capability("UIDPLUS"):
                    client.uid_expunge([uid])
                else:
                    client.expunge()
        else:
            client.add_flags([uid], [b"\\Seen", DONE_FLAG])

    # -- waiting ---------------------------------------------------------------------------------
    def wait(self, seconds: float) -> bool:
        """Wait up to ``seconds`` for new mail: IDLE when offered (re-issued at least every
        ``idle_renew`` seconds), otherwise sleep then NOOP. True if the server reported
        something. Raises on a dead connection."""
        assert self.client is not None
        client = self.client
        if not self.has_idle:
            time.sleep(seconds)
            return bool(client.noop()[1])
        deadline = time.monotonic() + seconds
        while True:
            chunk = min(self.cfg.idle_renew, max(deadline - time.monotonic(), 0.0))
            client.idle()
            try:
                responses = client.idle_check(timeout=chunk)
            except imaplib.IMAP4.abort as exc:
                if "unterminated line" not in str(exc):
                    raise
                # imapclient reads IDLE responses in non-blocking mode and can see half a
                # line when a response arrives in two packets (mjs/imapclient#519). Mail did
                # arrive: reconnect (the reconcile pass reads it), without a warning.
                log.debug("IDLE response split across packets (imapclient#519); reconnecting")
                self.close()
                return True
            except BaseException:
                # Leave IDLE quietly and re-raise the original: a Ctrl-C that arrives while
                # the server is going down must not turn into a "reconnect" error.
                try:
                    client.idle_done()
                except Exception as exc:  # noqa: BLE001
                    log.debug("leaving IDLE: %s", exc)
                raise
            client.idle_done()
            if responses:
                return True
            if time.monotonic() >= deadline:
                client.noop()  # health check: raises if the connection died
                return False
