"""Intake: one raw message from the mailbox to its inbox row and its outcome, under one
guard (ARCHITECTURE.md, "Exactly once"; issue 17).

Every stage — reading the size, parsing (:func:`pbem.mail.message.parse_mail`), the
duplicate check, then the intake chain (:mod:`pbem.service.intake.chain`: machine mail is
stored and never answered; unreadable mail is answered with every problem; envelope and
identity, :mod:`pbem.service.identity.envelope`; the rules; commands through the
registry), applying (:mod:`pbem.service.play.adjudicate`) and composing every answer — runs in
one transaction, inside one guard:

- a failure of the database that may pass (disk full, busy, I/O; :func:`is_transient`)
  rolls everything back and raises :class:`RetryLater`: the poller leaves the mail in
  the INBOX and the loop retries it later; the player is told nothing, the host is told
  when the fault lasts (:mod:`pbem.service.outgoing.faults`);
- any other exception means the mail itself breaks a stage: it is *quarantined* — its
  raw bytes stored with the error (status ``quarantined``), the host told by mail (once
  per episode, :func:`pbem.service.outgoing.host_notices.report_fault`), the sender answered when that
  is possible — and the poller moves it to the quarantine folder; the loop goes on.

A message is the same mail as a stored one when both its Message-ID and its content
hash match (:mod:`pbem.store.content`; finding 7); the check runs inside the transaction
that records the mail (finding 8).
"""
from __future__ import annotations

import logging
import traceback
from dataclasses import replace

from pbem import i18n
from pbem.mail.message import MailLimits, ParsedMail, parse_mail
from pbem.problems import Problem
from pbem.service.base.context import RetryLater, Service, is_transient
from pbem.service.base.text import safe_text, synthetic_message_id
from pbem.service.intake import chain
from pbem.service.intake.rules import Mail
from pbem.service.outgoing import answers, host_notices
from pbem.store.content import content_hash

log = logging.getLogger(__name__)

#: statuses after which the poller moves the message to the quarantine folder
QUARANTINE_STATUSES = frozenset({"quarantined", "too_large"})


def handle_message(judge: Service, raw: bytes, uidvalidity: int | None = None, uid: int | None = None,
                   folder: str = "INBOX", size: int | None = None) -> str:
    """Process one raw message (RFC 5322 bytes; with ``size``, the message is
    ``size`` bytes long and ``raw`` may be only its head). Returns its status:
    ``applied``, ``rejected``, ``held``, ``answered``, ``ignored``, ``duplicate``,
    ``too_large`` or ``quarantined``. Commits before returning. Never raises for bad
    input; raises :class:`RetryLater` when a transient failure left nothing committed."""
    limit = judge.config.max_message_bytes
    total = len(raw) if size is None else size
    stage = "parse"
    try:
        if total > limit:
            stage = "too large"
            return _too_large(judge, raw[:limit], total, uidvalidity, uid, folder)
        content = content_hash(raw)
        parsed = replace(_parse(judge, raw), content=content)
        stage = "handle"
        with judge.store.transaction():
            known = judge.store.find_inbox(parsed.message_id, content)
            if known is not None:  # the same mail again; quarantined mail stays in quarantine
                return known["status"] if known["status"] in QUARANTINE_STATUSES else "duplicate"
            return chain.process(judge, Mail(parsed, raw, uidvalidity, uid, folder))
    except Exception as exc:
        if is_transient(exc):
            raise RetryLater(stage, exc) from exc
        return quarantine(judge, raw, exc, stage, uidvalidity, uid, folder)


def unfetchable(judge: Service, uidvalidity: int, uid: int, folder: str, exc: BaseException) -> str:
    """A message the IMAP client cannot fetch (the connection is fine): keep a
    placeholder row naming its UID, tell the host; the poller moves it to the
    quarantine folder, where it stays for a person to look at. Returns the status."""
    return quarantine(judge, b"", exc, "fetch", uidvalidity, uid, folder,
                      message_id=f"<unfetchable-{uidvalidity}-{uid}@pbem.invalid>")


def quarantine(judge: Service, raw: bytes, exc: BaseException, stage: str, uidvalidity: int | None,
               uid: int | None, folder: str, message_id: str | None = None) -> str:
    """Keep a mail that broke ``stage`` with ``exc``: its raw bytes and the error in a
    ``quarantined`` inbox row, the host told (once per episode), the sender answered if
    that works. Returns ``"quarantined"``. Raises :class:`RetryLater` when even this
    cannot be written (a transient database failure)."""
    log.error("quarantined a mail (UID %s) that broke %s: %s", uid, stage, safe_text("".join(
        traceback.format_exception_only(type(exc), exc)).strip(), 500))
    error = f"{stage}: {type(exc).__name__}: {safe_text(str(exc), 400)}"
    parsed = _parsed_or_none(raw, judge) if raw else None
    message_id = message_id or (parsed.message_id if parsed else synthetic_message_id(raw))
    sender = safe_text(parsed.sender if parsed else "", 300)
    try:
        with judge.store.transaction():
            iid = judge.store.record_inbox(message_id=message_id, raw=raw, uidvalidity=uidvalidity, uid=uid,
                                           folder=folder, sender=sender,
                                           subject=safe_text(parsed.subject if parsed else "", 300),
                                           status="quarantined", reason="internal", error=error,
                                           content=content_hash(raw) if raw else message_id,
                                           at=judge.clock().isoformat())
    except Exception as again:
        if is_transient(again):
            raise RetryLater("quarantine", again) from again
        log.exception("could not record the quarantined mail (UID %s); it stays on the server", uid)
        return "quarantined"
    values = {"row": iid, "id": safe_text(message_id, 200), "sender": sender or "?", "error": error,
              "folder": judge.config.imap.quarantine_folder or "(none)"}
    _tell_host(judge, lambda tr: tr.gettext(
        "A mail (inbox row %(row)s, Message-ID %(id)s, from %(sender)s) made the judge fail while handling it "
        "(%(error)s). It is kept with its raw bytes and moved to the IMAP folder %(folder)s; nothing in any game "
        "changed. `pbem status` lists quarantined mail; the developers want the raw message to fix the bug.")
        % values)
    if parsed is not None:
        _answer_internal(judge, parsed)
    return "quarantined"


def _tell_host(judge: Service, body: i18n.Localizable) -> None:
    """Report a quarantined mail to the hosts (its own transaction: a failure to compose
    the notice must not undo the quarantine)."""
    try:
        with judge.store.transaction():
            host_notices.report_fault(judge, "quarantine", lambda tr: tr.gettext("a mail was quarantined"), body)
    except Exception as exc:  # noqa: BLE001 - the row is kept; the log has the rest
        log.error("could not tell the host about a quarantined mail: %s", safe_text(str(exc), 300))


def _parse(judge: Service, raw: bytes) -> ParsedMail:
    """:func:`pbem.mail.message.parse_mail` with the config's limits and authserv-id.
    Loops are recognised by our From address and our X-Pbem-Loop header; not by the
    Message-ID domain, which players on the same domain as the judge share."""
    return parse_mail(raw, own_addresses=[judge.config.judge_address],
                      limits=MailLimits(max_message_bytes=judge.config.max_message_bytes),
                      authserv_id=judge.config.authserv_id)


def _parsed_or_none(raw: bytes, judge: Service) -> ParsedMail | None:
    try:
        return _parse(judge, raw)
    except Exception:  # noqa: BLE001 - quarantine must work for any bytes
        return None


def _answer_internal(judge: Service, parsed: ParsedMail) -> None:
    """Tell the sender of a quarantined mail (a separate transaction: if composing the
    answer is what fails, the quarantine row stays)."""
    if parsed.action == "ignore" or not parsed.sender:
        return
    try:
        with judge.store.transaction():
            answers.reply(judge, parsed, [Problem(message="The judge hit an internal error reading this mail. It is kept "
                                                "and the host has been told; nothing in the game changed.",
                                                code="internal")], None)
    except Exception as exc:  # noqa: BLE001 - the mail is kept; the answer is a courtesy
        log.warning("no answer to a quarantined mail: %s: %s", type(exc).__name__, safe_text(str(exc), 200))


def _too_large(judge: Service, head: bytes, size: int, uidvalidity: int | None, uid: int | None,
               folder: str) -> str:
    """A mail above ``max_message_bytes``: keep its head and size, answer the
    sender (rate-limited), never parse the body (finding 10)."""
    parsed = _parse(judge, head.split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0] + b"\r\n\r\n")
    content = content_hash(head) + f":{size}"
    limit = judge.config.max_message_bytes
    with judge.store.transaction():
        if judge.store.find_inbox(parsed.message_id, content) is not None:
            return "too_large"
        iid = judge.store.record_inbox(message_id=parsed.message_id, raw=head, uidvalidity=uidvalidity, uid=uid,
                                       folder=folder, sender=parsed.sender, subject=parsed.subject,
                                       status="too_large", reason="mail.too_large", size=size, content=content,
                                       at=judge.clock().isoformat(), decided_by="size")
        if parsed.sender and parsed.ignore_reason in (None, "empty"):  # machine mail is never answered
            issue = Problem(message=f"Your mail is {size:,} bytes; the judge reads mails of at most {limit:,} bytes, so it "
                          "was not read.", code="mail.too_large",
                          hint="Send your orders again as plain text, without attachments or pictures.")
            answers.reply(judge, parsed, [issue], None, inbox_id=iid)
    return "too_large"

