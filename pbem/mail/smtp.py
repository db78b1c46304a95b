"""Sending the outbox over SMTP with aiosmtplib (RFC 5321; TLS per RFC 8314 / 3207).

``tls: implicit`` connects with TLS from the start (usually port 465), ``tls: starttls``
upgrades a plain connection with STARTTLS (usually 587), ``tls: none`` is for loopback
servers only. A failed attempt is counted and retried with exponential backoff; after
:data:`MAX_ATTEMPTS` the row is marked failed and left in the outbox for the host.
"""
from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime, timedelta

import aiosmtplib

from pbem.config import MailServer
from pbem.store import Store

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 12
BASE_DELAY = 30.0
MAX_DELAY = 3600.0


def backoff_delay(attempts: int) -> float:
    """Seconds to wait after ``attempts`` failed attempts: 30 s doubling, capped at 1 h."""
    return min(BASE_DELAY * (2 ** max(attempts - 1, 0)), MAX_DELAY)


def is_permanent(exc: BaseException) -> bool:
    """True for a permanent SMTP failure (a 5xx reply, RFC 5321 4.2.1): retrying cannot
    help, so the outbox row is marked failed at once."""
    if isinstance(exc, aiosmtplib.SMTPRecipientsRefused):
        return all(getattr(r, "code", 0) >= 500 for r in exc.recipients)
    return isinstance(exc, aiosmtplib.SMTPResponseException) and exc.code >= 500


async def send_raw(server: MailServer, sender: str, to_addr: str, raw: bytes, timeout: float = 30.0) -> None:
    """Hand one message to the SMTP server. Raises aiosmtplib.SMTPException or OSError."""
    await aiosmtplib.send(
        raw, sender=sender, recipients=[to_addr], hostname=server.host, port=server.port,
        username=server.user, password=server.password,
        use_tls=server.tls == "implicit", start_tls=server.tls == "starttls",
        validate_certs=server.verify_tls, timeout=timeout)


async def send_due_async(store: Store, server: MailServer, sender: str,
                         now: datetime | None = None) -> tuple[int, int]:
    """Send every due outbox row; return (sent, failed attempts). Never raises for a
    delivery problem: it is recorded on the row (attempts, last_error, next attempt)."""
    now = now or datetime.now(UTC)
    sent = failed = 0
    for row in store.due_mail(now.replace(microsecond=0).isoformat()):
        try:
            await send_raw(server, sender, row["to_addr"], row["raw"])
        except (TimeoutError, aiosmtplib.SMTPException, OSError) as exc:
            failed += 1
            attempts = row["attempts"] + 1
            nxt = None if attempts >= MAX_ATTEMPTS or is_permanent(exc) else (
                now + timedelta(seconds=backoff_delay(attempts))).replace(microsecond=0).isoformat()
            store.mark_attempt_failed(row["id"], f"{type(exc).__name__}: {exc}", nxt)
            log.warning("SMTP to %s failed (attempt %d): %s", row["to_addr"], attempts, exc)
        else:
            store.mark_sent(row["id"])
            sent += 1
    return sent, failed


def send_due(store: Store, server: MailServer, sender: str, now: datetime | None = None) -> tuple[int, int]:
    """Synchronous wrapper of :func:`send_due_async` for the poller loop."""
    return asyncio.run(send_due_async(store, server, sender, now))
