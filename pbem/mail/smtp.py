"""Sending the outbox over SMTP with aiosmtplib (RFC 5321; TLS per RFC 8314 / 3207).

``tls: implicit`` connects with TLS from the start (usually port 465), ``tls: starttls``
upgrades a plain connection with STARTTLS (usually 587), ``tls: none`` is for loopback
servers only.

One pass (:func:`send_due_async`) sends the due rows over one connection, within a
total time budget (issue 17, finding 9): each command has ``timeout`` seconds, the pass
stops when ``budget`` seconds are used up, and when the server cannot be reached (or
stalls) the pass ends after that one row instead of waiting on every row. What happens
to a row (RFC 5321 4.2.1):

- accepted: ``sent``;
- the server cannot be reached (connect, TLS or login fails, or times out): no row is
  charged (break-it finding 8: a long outage used to spend every row's attempts, so all
  ended ``failed`` and nothing was resent); the error is noted on the row that was next
  and the pass ends, every row waits for the server;
- a transient failure of the row's own transaction (4xx, a timeout, a dropped
  connection while it is sent): counted and retried with
  exponential backoff; after :data:`MAX_ATTEMPTS` the row is ``failed``;
- a permanent failure (5xx), or a row that cannot be sent at all (a control character
  or NUL in an address makes aiosmtplib raise ``ValueError``; any other exception from
  one row, finding 2): ``failed`` at once with the error, and the pass goes on with the
  next row. ``pbem outbox resend`` puts failed rows back (finding 6).

8-bit bodies (a player's name in Greek in every report): sent with ``BODY=8BITMIME``
(RFC 6152) when the relay offers the extension, else re-encoded 7-bit clean
(:func:`prepare`; issue 25, finding 13: the parameter was never sent).

Internationalised mail (RFC 6531/6532; break-it finding 1): a row whose envelope
address is not ASCII, or whose header section holds raw UTF-8, is sent with the
``SMTPUTF8`` MAIL parameter (and ``BODY=8BITMIME`` when its bytes are 8-bit, RFC 6152;
RFC 6531 section 3.1 makes an SMTPUTF8 server support 8BITMIME). The flag is read from
the row itself (:func:`needs_smtputf8`), so rows queued before and rows put back by
``pbem outbox resend`` get it too. A relay that does not offer SMTPUTF8 fails that row
alone, at once, with a reason naming the extension (the hosts are told as for any row
that gives up). After any failure of one row the envelope is reset (``RSET``, RFC 5321
4.1.1.5) or, when that fails, the connection is closed and the next row gets a new one:
aiosmtplib resets only after an SMTP reply error, and a row that failed between MAIL and
DATA (an address it could not encode) left the server in a transaction, so the next row
got ``503 nested MAIL command`` and was failed for good.
"""
from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import aiosmtplib

from pbem.config import MailServer
from pbem.mail.compose import seven_bit
from pbem.store import Store

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 12
BASE_DELAY = 30.0
MAX_DELAY = 3600.0
#: seconds one SMTP command (connect, each of MAIL/RCPT/DATA) may take
SEND_TIMEOUT = 30.0
#: seconds one pass over the outbox may take in all
CYCLE_BUDGET = 120.0
#: seconds :func:`answers` waits for a greeting
PROBE_TIMEOUT = 5.0
_BAD_ADDRESS = re.compile(r"[\x00-\x20\x7f<>]")


def backoff_delay(attempts: int) -> float:
    """Seconds to wait after ``attempts`` failed attempts: 30 s doubling, capped at 1 h."""
    return min(BASE_DELAY * (2 ** max(attempts - 1, 0)), MAX_DELAY)


def is_permanent(exc: BaseException) -> bool:
    """True for a permanent SMTP failure (a 5xx reply, RFC 5321 4.2.1): retrying cannot
    help, so the outbox row is marked failed at once."""
    if isinstance(exc, aiosmtplib.SMTPRecipientsRefused):
        return all(getattr(r, "code", 0) >= 500 for r in exc.recipients)
    return isinstance(exc, aiosmtplib.SMTPResponseException) and exc.code >= 500


def is_connection_failure(exc: BaseException) -> bool:
    """True when the failure is the server's, not the row's: it cannot be reached,
    refused our login or greeting, dropped the connection or stalled (then the rest of
    the pass waits for later, and the row is retried)."""
    return isinstance(exc, (aiosmtplib.SMTPConnectError, aiosmtplib.SMTPServerDisconnected,
                            aiosmtplib.SMTPTimeoutError, aiosmtplib.SMTPAuthenticationError,
                            aiosmtplib.SMTPHeloError, aiosmtplib.SMTPConnectResponseError, TimeoutError, OSError))


def needs_smtputf8(sender: str, to_addr: str, raw: bytes) -> bool:
    """True when a message must be sent with the SMTPUTF8 extension (RFC 6531 section
    3.2): an envelope address is not ASCII, or the header section carries raw UTF-8
    (RFC 6532, as :func:`pbem.mail.compose.compose` writes it for such addresses)."""
    head = raw.split(b"\r\n\r\n", 1)[0]
    return not (sender.isascii() and to_addr.isascii() and head.isascii())


def mail_options(sender: str, to_addr: str, raw: bytes, eight_bit_mime: bool = True) -> list[str]:
    """The MAIL FROM parameters for one message: ``SMTPUTF8`` (RFC 6531) for
    internationalised mail, and ``BODY=8BITMIME`` (RFC 6152) for 8-bit bytes when the
    relay offers the extension (``eight_bit_mime``; an SMTPUTF8 relay must, RFC 6531
    section 3.1). An 8-bit message for a relay without it is sent as
    :func:`pbem.mail.compose.seven_bit` makes it (:func:`prepare`), so it needs none."""
    utf8 = needs_smtputf8(sender, to_addr, raw)
    eight_bit = not raw.isascii() and (utf8 or eight_bit_mime)
    return (["SMTPUTF8"] if utf8 else []) + (["BODY=8BITMIME"] if eight_bit else [])


def prepare(sender: str, to_addr: str, raw: bytes, eight_bit_mime: bool) -> tuple[bytes, list[str]]:
    """The bytes to hand over and the MAIL FROM parameters (:func:`mail_options`) for a
    relay that offers 8BITMIME (``eight_bit_mime``) or not: a message with 8-bit
    bytes and no internationalised address goes to a relay without 8BITMIME re-encoded
    7-bit clean (RFC 6152 section 3: a client must not send 8-bit data to such a
    relay; issue 25, finding 13). The stored row keeps its bytes."""
    if not raw.isascii() and not eight_bit_mime and not needs_smtputf8(sender, to_addr, raw):
        raw = seven_bit(raw)
    return raw, mail_options(sender, to_addr, raw, eight_bit_mime)


def address_problem(address: str) -> str | None:
    """Why ``address`` cannot be an SMTP envelope address (RFC 5321 4.1.2: no
    control characters, spaces or angle brackets), or None."""
    if not address or "@" not in address:
        return f"not an address: {address!r}"
    if _BAD_ADDRESS.search(address):
        return f"control character, space or angle bracket in the address {address!r}"
    return None


@dataclass
class SendReport:
    """What one pass did: rows ``sent``, failed attempts, the ids of rows that gave up
    in this pass (status failed), and the server problem that ended the pass early."""

    sent: int = 0
    failed: int = 0
    gave_up: list[int] = field(default_factory=list)
    server_error: str | None = None
    out_of_time: bool = False
    refused: dict[str, str] = field(default_factory=dict)
    """Recipient addresses the relay refused for good (a 5xx reply to RCPT, RFC 5321
    4.2.1: ``550 5.1.1 User unknown``), each with the reply: the caller marks such a
    seat as bouncing (issue 25, finding 12). Other rows to the address are not offered
    in the same pass."""


def _client(server: MailServer, timeout: float) -> aiosmtplib.SMTP:
    return aiosmtplib.SMTP(hostname=server.host, port=server.port, username=server.user, password=server.password,
                           use_tls=server.tls == "implicit", start_tls=server.tls == "starttls",
                           validate_certs=server.verify_tls, cert_bundle=server.ca_file, timeout=timeout)


async def answers_async(server: MailServer, timeout: float = PROBE_TIMEOUT) -> bool:
    """Whether the SMTP server greets a new connection with 220 (RFC 5321 4.3.1)
    within ``timeout`` seconds: a TCP connection (TLS first for ``tls: implicit``, the
    certificate checked as for sending), the greeting, QUIT. No STARTTLS, no login, no
    transaction, so asking often during an outage costs the server nothing and never
    counts as a failed login. Never raises."""
    smtp = aiosmtplib.SMTP(hostname=server.host, port=server.port, use_tls=server.tls == "implicit",
                           start_tls=False, validate_certs=server.verify_tls, cert_bundle=server.ca_file,
                           timeout=timeout)
    try:
        await asyncio.wait_for(smtp.connect(), timeout)
    except Exception as exc:  # noqa: BLE001 - any failure means: not yet
        log.debug("SMTP server does not answer yet (%s: %s)", type(exc).__name__, exc)
        return False
    try:
        await asyncio.wait_for(smtp.quit(), timeout)
    except Exception as exc:  # noqa: BLE001 - it greeted us: that is the answer
        log.debug("QUIT after the greeting failed (%s: %s)", type(exc).__name__, exc)
    finally:
        smtp.close()
    return True


def answers(server: MailServer, timeout: float = PROBE_TIMEOUT) -> bool:
    """Synchronous :func:`answers_async` (its own event loop)."""
    return asyncio.run(answers_async(server, timeout))


async def send_raw(server: MailServer, sender: str, to_addr: str, raw: bytes, timeout: float = SEND_TIMEOUT) -> None:
    """Hand one message to the SMTP server on its own connection. Raises
    aiosmtplib.SMTPException, OSError, TimeoutError, or ValueError for a bad address."""
    problem = address_problem(to_addr)
    if problem:
        raise ValueError(problem)
    smtp = _client(server, timeout)
    await asyncio.wait_for(smtp.connect(), timeout)
    try:
        await asyncio.wait_for(_sendmail(smtp, sender, to_addr, raw), timeout * 3)
    finally:
        smtp.close()


async def _sendmail(smtp: aiosmtplib.SMTP, sender: str, to_addr: str, raw: bytes) -> None:
    """One SMTP transaction (MAIL, RCPT, DATA) with the parameters :func:`mail_options`
    gives. Raises what aiosmtplib raises; a relay without SMTPUTF8 for a message that
    needs it raises SMTPNotSupported with a reason the host can act on."""
    if smtp.is_ehlo_or_helo_needed:  # the relay's extensions decide the body's encoding
        await smtp.ehlo()
    raw, options = prepare(sender, to_addr, raw, smtp.supports_extension("8BITMIME"))
    try:
        await smtp.sendmail(sender, [to_addr], raw, mail_options=options)
    except aiosmtplib.SMTPNotSupported as exc:
        if "SMTPUTF8" not in options:
            raise
        raise aiosmtplib.SMTPNotSupported(
            f"the relay does not offer SMTPUTF8 (RFC 6531), which the internationalised address "
            f"{to_addr if not to_addr.isascii() else sender} needs ({exc}); use a relay that offers it, "
            "or ask the player for an ASCII address") from exc


async def _reset(smtp: aiosmtplib.SMTP, timeout: float) -> bool:
    """After a row failed: end any half-open transaction with RSET (RFC 5321 4.1.1.5).
    False when that fails too: the caller drops the connection."""
    try:
        await asyncio.wait_for(smtp.rset(), timeout)
        return True
    except Exception as exc:  # noqa: BLE001 - any failure here means: start a new connection
        log.debug("RSET after a failed row failed (%s: %s); reconnecting", type(exc).__name__, exc)
        return False


async def send_due_async(store: Store, server: MailServer, sender: str, now: datetime | None = None,
                         budget: float = CYCLE_BUDGET, timeout: float = SEND_TIMEOUT) -> SendReport:
    """Send the due outbox rows (oldest first) within ``budget`` seconds; see the module
    docstring for what happens to each row. Never raises for a delivery problem (it is
    recorded on the row); raises what the store raises."""
    now = now or datetime.now(UTC)
    loop = asyncio.get_running_loop()
    end = loop.time() + budget
    report = SendReport()
    smtp: aiosmtplib.SMTP | None = None
    try:
        for row in _due_rows(store, now.replace(microsecond=0).isoformat()):
            if row["to_addr"] in report.refused:
                continue  # refused for good a moment ago: the caller decides what waits
            left = end - loop.time()
            if left <= 0:
                report.out_of_time = True
                break
            try:
                problem = address_problem(row["to_addr"])
                if problem:
                    raise ValueError(problem)
                if smtp is None:
                    try:
                        smtp = _client(server, min(timeout, left))
                        await asyncio.wait_for(smtp.connect(), min(timeout, left))
                    except Exception as exc:  # noqa: BLE001 - the server, not the row (break-it 8)
                        smtp = None
                        store.note_delivery_error(row["id"], f"{type(exc).__name__}: {exc}"[:500])
                        report.server_error = f"{type(exc).__name__}: {exc}"
                        log.warning("SMTP server unreachable (%s: %s); the rows wait, no attempt counted",
                                    type(exc).__name__, exc)
                        break
                await asyncio.wait_for(_sendmail(smtp, sender, row["to_addr"], row["raw"]),
                                       max(min(timeout * 3, left), 1))
            except Exception as exc:  # noqa: BLE001 - one row never stops the others (finding 2)
                _failed(store, row, exc, now, report)
                if isinstance(exc, aiosmtplib.SMTPRecipientsRefused) and is_permanent(exc):
                    report.refused[row["to_addr"]] = "; ".join(f"{r.code} {r.message}" for r in exc.recipients)
                if is_connection_failure(exc):
                    report.server_error = f"{type(exc).__name__}: {exc}"
                    break  # the server is down or stalled: the other rows wait for the next pass
                if smtp is not None and not await _reset(smtp, min(timeout, max(end - loop.time(), 1))):
                    smtp.close()
                    smtp = None  # the next row starts on a new connection
            else:
                store.mark_sent(row["id"])
                report.sent += 1
    finally:
        if smtp is not None:
            smtp.close()
    return report


def _due_rows(store: Store, now: str, page: int = 100) -> Iterator[dict[str, Any]]:
    """Every due row, a page at a time, until none is left (the pass used to stop after
    100 rows and wait for the next one, 30 s later: issue 14). A row that comes back
    (its attempt was not recorded) ends the pass, so it cannot loop."""
    seen: set[int] = set()
    while True:
        rows = [r for r in store.due_mail(now, limit=page) if r["id"] not in seen]
        if not rows:
            return
        for row in rows:
            seen.add(row["id"])
            yield row


def _failed(store: Store, row: dict[str, Any], exc: BaseException, now: datetime, report: SendReport) -> None:
    """Record a failed attempt on ``row``: permanent (5xx, a row that cannot be sent) or
    retried with backoff."""
    report.failed += 1
    attempts = row["attempts"] + 1
    transient = is_connection_failure(exc) or (isinstance(exc, aiosmtplib.SMTPException) and not is_permanent(exc)
                                               and not isinstance(exc, aiosmtplib.SMTPNotSupported))
    nxt = None if attempts >= MAX_ATTEMPTS or not transient else (
        now + timedelta(seconds=backoff_delay(attempts))).replace(microsecond=0).isoformat()
    store.mark_attempt_failed(row["id"], f"{type(exc).__name__}: {exc}"[:500], nxt)
    if nxt is None:
        report.gave_up.append(row["id"])
    log.warning("SMTP to %r failed (attempt %d%s): %s: %s", row["to_addr"], attempts,
                ", giving up" if nxt is None else "", type(exc).__name__, exc)


def send_due(store: Store, server: MailServer, sender: str, now: datetime | None = None,
             budget: float = CYCLE_BUDGET, timeout: float = SEND_TIMEOUT) -> SendReport:
    """Synchronous wrapper of :func:`send_due_async` (its own event loop)."""
    return asyncio.run(send_due_async(store, server, sender, now, budget, timeout))
