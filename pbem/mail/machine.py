"""Recognise machine-generated mail that must never be answered or parsed for orders.

* Delivery status notifications (RFC 3464: ``multipart/report; report-type=delivery-status``
  with a ``message/delivery-status`` part; also non-standard bounces from MAILER-DAEMON or
  postmaster): the failed ``Final-Recipient`` addresses are reported as bouncing.
* Our own mail coming back (a loop): From is one of our addresses, the Message-ID is in one
  of our domains, or the ``X-Pbem-Loop`` header is present.
* Automatic replies: RFC 3834 ``Auto-Submitted`` other than ``no``, and the signals other
  software uses instead.

Every signal has a **strength** (issue 13: a person's mail must never be dropped):

- ``strong``: a signal only software sets: ``Auto-Submitted`` other than ``no`` (RFC 3834
  section 5), a delivery report (RFC 3464), an empty ``Return-Path: <>`` (the null
  reverse-path of RFC 5321 4.5.5, used for DSNs and, per RFC 3834 3.3, for automatic
  responses), the autoresponder headers ``X-Autoreply``, ``X-Autorespond`` and
  their kin, and our own loop markers;
- ``weak``: a signal people's ordinary mail carries too: ``Precedence: bulk/list/junk``
  (mailing lists, some web mailers; RFC 3834 section 2 recommends no behaviour for this
  non-standard field, RFC 2076 calls it controversial), ``X-MS-Exchange-Inbox-Rules-Loop``
  (any message an Exchange inbox rule forwarded), a MAILER-DAEMON/postmaster sender
  without a delivery report, and subjects such as "Out of Office:" that people type too.

``X-Auto-Response-Suppress`` is **not** a signal: it asks others not to auto-reply *to*
the message, and Outlook and Exchange add it to ordinary mail (distribution lists,
meeting requests); Discourse (PR 21367), osTicket (PR 5320), GLPI (issue 2170), Redmine
(19558) and Sisimai (issue 491) dropped it after real users' mail was taken for
auto-replies. The subject patterns match only the prefix forms responders write
("Automatic reply: ...", "Out of Office: ...", a trailing "- Out of the office").

What a verdict's strength means is the caller's (:func:`pbem.mail.message.parse_mail`:
a weak signal alone never hides orders in the author's own text).
"""
from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from email.message import Message
from email.parser import HeaderParser
from email.utils import getaddresses, parseaddr
from typing import Literal

from pbem.addresses import reaches_mailbox
from pbem.mail.extract import has_header, header_text
from pbem.mail.headers import msg_ids

__all__ = ["MachineVerdict", "classify_machine", "failed_recipients", "returned_message_ids"]

MachineReason = Literal["auto-reply", "bounce", "loop"]
Strength = Literal["strong", "weak"]


@dataclass(frozen=True)
class MachineVerdict:
    """Why a message is machine mail.

    Attributes:
        reason: ``"bounce"``, ``"loop"`` or ``"auto-reply"``.
        bouncing: lowercased addresses a delivery report says failed (bounces only).
        detail: the signal that decided it, for logs (e.g. ``"Auto-Submitted: auto-replied"``).
        strength: ``"strong"`` (only software sets the signal) or ``"weak"`` (people's
            ordinary mail carries it too); see the module docstring.
        returned_ids: the Message-IDs of the original message a bounce returns (its
            returned headers, RFC 3462/6522 ``text/rfc822-headers`` or ``message/rfc822``,
            and the DSN's ``Original-Envelope-Id``, RFC 3464 2.2.1): what the service
            checks against the mail it sent before believing the bounce.
    """

    reason: MachineReason
    bouncing: tuple[str, ...] = ()
    detail: str = ""
    strength: Strength = "strong"
    returned_ids: tuple[str, ...] = ()


_DAEMON_LOCALPARTS = {"mailer-daemon", "mailer_daemon", "mail-daemon", "mailerdaemon",
                      "postmaster", "mail.daemon", "mdaemon"}
_BOUNCE_SUBJECT_RE = re.compile(
    r"^\s*(?:undeliver(?:ed|able)|delivery (?:status notification|failure|has failed)|"
    r"mail delivery (?:failed|failure|subsystem)|returned mail|failure notice|"
    r"unzustellbar|non remis|nicht zustellbar|no se puede entregar|non recapitabile)",
    re.IGNORECASE,
)
# The prefix a responder puts before the original subject ("Out of Office: Re: ..."),
# optionally after a tag such as "[External]"; a weak signal (people type these too).
_AUTO_SUBJECT_RE = re.compile(
    r"^\s*(?:\[[^\]]*\]\s*)?(?:automatic reply|auto(?:matic)?[- ]?(?:reply|response|antwort)|autoreply|"
    r"out of (?:the )?office|abwesenheitsnotiz|automatische antwort|abwesend|"
    r"r[ée]ponse automatique|absence|respuesta autom[áa]tica|fuera de la oficina|"
    r"risposta automatica|fuori sede|automatisch antwoord|afwezig|autosvar|fr[åa]nvarande|"
    r"автоматический ответ|автоответ|odpowied[źz] automatyczna|automatick[áa] odpov[ěe][ďd]|"
    r"vacation|on vacation|away from (?:the )?office)\s*:",
    re.IGNORECASE,
)
# "... - Out of the office" / "(Out of office)" at the end of the subject
_OOO_SUFFIX_RE = re.compile(r"(?:[-–(]\s*)(?:out of (?:the )?office|abwesenheitsnotiz)\)?\s*$",
                            re.IGNORECASE)
#: headers only autoresponders write (a strong signal)
_AUTO_HEADERS = ("X-Autoreply", "X-Autorespond", "X-Autoresponder", "X-AutoReply-From",
                 "X-Mail-Autoreply", "X-Autogenerated")
#: headers ordinary mail may carry too (a weak signal)
_WEAK_HEADERS = ("X-MS-Exchange-Inbox-Rules-Loop",)
_ADDR_RE = re.compile(r"[^\s<>;,\"']+@[^\s<>;,\"']+")


def _addr(value: str) -> str:
    try:
        return parseaddr(value)[1].strip().lower()
    except Exception:  # noqa: BLE001
        return ""


def _field_blocks(part: Message) -> list[Message]:
    """The per-message and per-recipient field blocks of a message/delivery-status part."""
    payload = part.get_payload()
    if isinstance(payload, list):
        return [block for block in payload if isinstance(block, Message)]
    raw = part.get_payload(decode=True)
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(payload or "")
    text = text.replace("\r\n", "\n")
    parser = HeaderParser()
    return [parser.parsestr(chunk.strip() + "\n") for chunk in re.split(r"\n\s*\n", text)
            if chunk.strip()]


def failed_recipients(msg: Message) -> tuple[tuple[str, ...], bool]:
    """Failed recipients reported by a delivery status notification (RFC 3464).

    Reads every ``message/delivery-status`` (or ``message/global-delivery-status``) part:
    a recipient block whose ``Action`` is ``failed`` (or, without Action, whose ``Status``
    is 5.x.x) yields its ``Final-Recipient`` (else ``Original-Recipient``) address. Exim's
    ``X-Failed-Recipients`` header is read too.

    Returns:
        ``(addresses lowercased and de-duplicated in order, whether a DSN part was found)``.
    """
    found: list[str] = []
    has_dsn = False
    for part in msg.walk():
        if part.get_content_type() not in ("message/delivery-status",
                                           "message/global-delivery-status"):
            continue
        has_dsn = True
        for block in _field_blocks(part):
            recipient = header_text(block, "Final-Recipient") or header_text(
                block, "Original-Recipient")
            if not recipient:
                continue
            action = header_text(block, "Action").lower()
            status = header_text(block, "Status")
            if action.startswith("failed") or (not action and status.startswith("5")):
                address = recipient.split(";", 1)[-1].strip().strip("<>").lower()
                if "@" in address:
                    found.append(address)
    for address in _ADDR_RE.findall(header_text(msg, "X-Failed-Recipients")):
        found.append(address.strip("<>").lower())
    return tuple(dict.fromkeys(found)), has_dsn


_RETURNED_TYPES = ("message/rfc822", "text/rfc822-headers", "message/global", "message/global-headers")


def returned_message_ids(msg: Message, limit: int = 10) -> tuple[str, ...]:
    """The Message-IDs of the message a delivery report returns (break-it 9h): the
    ``Message-ID`` of each returned-headers part (RFC 6522 section 3: ``text/rfc822-headers``
    or ``message/rfc822``; RFC 6533 for the ``global`` types) and each ``Original-Envelope-Id``
    of a delivery-status part that looks like a msg-id. At most ``limit``, in order;
    never raises."""
    found: list[str] = []
    try:
        for part in msg.walk():
            ctype = part.get_content_type()
            if ctype in _RETURNED_TYPES:
                payload = part.get_payload()
                inner = payload[0] if isinstance(payload, list) and payload and isinstance(payload[0], Message) \
                    else None
                if inner is None:
                    raw = part.get_payload(decode=True)
                    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(payload or "")
                    inner = HeaderParser().parsestr(text.replace("\r\n", "\n").split("\n\n", 1)[0] + "\n")
                found += msg_ids(inner, "Message-ID", 1)
            elif ctype in ("message/delivery-status", "message/global-delivery-status"):
                for block in _field_blocks(part)[:1]:
                    found += msg_ids(block, "Original-Envelope-Id", 1)
    except Exception:  # noqa: BLE001 - a broken report returns nothing we can trust
        return tuple(dict.fromkeys(found))[:limit]
    return tuple(dict.fromkeys(found))[:limit]


def _is_bounce(msg: Message) -> MachineVerdict | None:
    bouncing, has_dsn = failed_recipients(msg)
    report = (msg.get_content_type() == "multipart/report"
              and (msg.get_param("report-type") or "").lower() in
              ("delivery-status", "global-delivery-status"))
    sender = _addr(header_text(msg, "From"))
    daemon = sender.split("@", 1)[0] in _DAEMON_LOCALPARTS
    null_path = header_text(msg, "Return-Path").strip() in ("<>", "")
    bounce_subject = bool(_BOUNCE_SUBJECT_RE.match(header_text(msg, "Subject")))
    if report or has_dsn or bouncing:
        return MachineVerdict("bounce", bouncing, "multipart/report delivery-status" if report or has_dsn
                              else "X-Failed-Recipients", returned_ids=returned_message_ids(msg))
    if bounce_subject and null_path and has_header(msg, "Return-Path"):
        return MachineVerdict("bounce", (), "bounce subject, empty Return-Path", returned_ids=returned_message_ids(msg))
    if daemon:  # a person may write from postmaster@ too: weak without a report
        return MachineVerdict("bounce", (), f"sender {sender}", returned_ids=returned_message_ids(msg), strength="weak")
    return None


def _is_loop(msg: Message, own_addresses: Collection[str],
             own_domains: Collection[str]) -> MachineVerdict | None:
    if has_header(msg, "X-Pbem-Loop"):
        return MachineVerdict("loop", detail="X-Pbem-Loop header")
    own = {a.strip().lower() for a in own_addresses if a}
    senders = {addr.lower() for _, addr in getaddresses([header_text(msg, "From")]) if addr}
    # judge+tag@ reaches our mailbox too (RFC 5233): mail from it is ours or a forgery of it (issue 25,
    # attempt 5: a sign-up from judge+x@ took a seat whose welcome and key went to the judge itself)
    if own and any(reaches_mailbox(s, o) for s in senders for o in own):
        return MachineVerdict("loop", detail="From is one of our addresses")
    domains = {d.strip().lower().lstrip("@") for d in own_domains if d}
    message_id = header_text(msg, "Message-ID")
    match = re.search(r"@([^>\s]+)", message_id)
    if domains and match:
        # Exact match only: a player's client may use a subdomain (mail.gmail.com) of a
        # shared provider domain; the caller should pass a domain only its own Message-IDs use.
        if match.group(1).lower() in domains:
            return MachineVerdict("loop", detail="Message-ID in our domain")
    return None


def _is_auto_reply(msg: Message) -> MachineVerdict | None:
    auto_submitted = header_text(msg, "Auto-Submitted")
    if auto_submitted:
        token = auto_submitted.split(";", 1)[0].strip().lower()
        if token != "no":
            return MachineVerdict("auto-reply", detail=f"Auto-Submitted: {token}")
        # RFC 3834 5.2: "no" means a human sent it; still honour the other signals below.
    for name in _AUTO_HEADERS:
        if has_header(msg, name):
            return MachineVerdict("auto-reply", detail=f"{name} header")
    if has_header(msg, "Return-Path") and header_text(msg, "Return-Path").strip() in ("<>", ""):
        return MachineVerdict("auto-reply", detail="empty Return-Path")
    for name in _WEAK_HEADERS:
        if has_header(msg, name):
            return MachineVerdict("auto-reply", detail=f"{name} header", strength="weak")
    precedence = header_text(msg, "Precedence").strip().lower()
    if precedence in ("auto_reply", "bulk", "junk", "list"):
        return MachineVerdict("auto-reply", detail=f"Precedence: {precedence}", strength="weak")
    subject = header_text(msg, "Subject")
    if _AUTO_SUBJECT_RE.match(subject) or _OOO_SUFFIX_RE.search(subject):
        return MachineVerdict("auto-reply", detail="auto-reply subject", strength="weak")
    return None


def classify_machine(msg: Message, *, own_addresses: Collection[str] = (),
                     own_domains: Collection[str] = ()) -> MachineVerdict | None:
    """Decide whether ``msg`` is machine mail that must be ignored (never answered).

    Checked in this order: bounce (RFC 3464 DSN, bounce subject with a null
    Return-Path; weak: a MAILER-DAEMON/postmaster sender alone), loop (our own mail),
    auto-reply (RFC 3834 and vendor signals, strong and weak: see the module docstring).
    A strong verdict wins over a weak one found earlier.

    Args:
        msg: the parsed message.
        own_addresses: our sending addresses (compared case-insensitively with From; a
            ``+tag`` of one counts as it: RFC 5233).
        own_domains: the domains of our own Message-IDs (compared exactly, case-insensitively,
            with the domain of the incoming Message-ID). Pass a domain only our Message-IDs
            use: a player whose client writes Message-IDs in the same domain would be ignored.

    Returns:
        A :class:`MachineVerdict`, or ``None`` for mail from a person.
    """
    found = [v for v in (_is_bounce(msg), _is_loop(msg, own_addresses, own_domains), _is_auto_reply(msg))
             if v is not None]
    return next((v for v in found if v.strength == "strong"), found[0] if found else None)
