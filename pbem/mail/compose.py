"""Building pbem's outgoing mail (RFC 5322 / MIME with the stdlib ``email`` package).

Every message we send:
- carries ``Auto-Submitted: auto-generated`` (reports, prompts) or ``auto-replied``
  (receipts and rejections answering a player's mail) — RFC 3834 — so that well-behaved
  autoresponders never answer us, plus ``X-Pbem-Loop`` so we recognise our own mail if it
  comes back;
- has a stable Message-ID computed from what it is (game, step, kind, recipient), so a
  message re-composed after a crash has the same Message-ID and the outbox stays unique;
- threads under the player's mail with In-Reply-To/References when it answers one;
- is text/plain wrapped to 72 columns, with an HTML alternative — the caller's, or one
  made from the text (:mod:`pbem.mail.body`, the one formatter of every body we send) —
  and attachments (the map PNG); the email package picks each part's
  Content-Transfer-Encoding.

Nothing that came from a mail or a config file reaches a header unchecked: addresses must
be plain addr-specs (:func:`pbem.mail.headers.normalise_address`), display names, the
subject and the game id lose their control characters (:func:`~pbem.mail.headers.
clean_text`), and only valid msg-ids (RFC 5322 section 3.6.4) that are not our synthetic
ones go into In-Reply-To and References. Non-ASCII display names and subjects are RFC 2047
encoded by the ``SMTP`` policy; a non-ASCII (internationalised) address needs raw UTF-8
headers (RFC 6532), so such a message is built with the ``SMTPUTF8`` policy and marked
:attr:`Outgoing.smtputf8` (it must be sent with the SMTPUTF8 extension, RFC 6531).
"""
from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email import message_from_bytes
from email.header import Header
from email.headerregistry import Address
from email.message import EmailMessage
from email.policy import SMTP, SMTPUTF8, EmailPolicy
from email.utils import format_datetime
from functools import lru_cache

from pbem.mail.body import text_to_html, wrap_text
from pbem.mail.headers import SYNTHETIC_DOMAIN, clean_header_text, clean_text, is_msg_id, normalise_address

LOOP_HEADER = "X-Pbem-Loop"
#: At most this many ids in References: the first and the latest (RFC 5537 3.4.4 trimming).
MAX_REFERENCES = 20
#: Characters of a subject kept (RFC 5322 2.1.1 asks lines under 78; it is folded).
MAX_SUBJECT_CHARS = 300
# C0 controls other than tab, LF, CR and form feed have no place in a text body (RFC 2045
# section 2.8: no NUL in 8bit data).
_BODY_CONTROLS = dict.fromkeys([*range(0x09), 0x0B, *range(0x0E, 0x20)])


def encoded_subject(subject: str, linesep: str = "\r\n", width: int = 78) -> str:
    """``subject`` (no control characters) as a folded RFC 2047 header value: its
    leading ASCII words (``[g1] step 6:``, the prefix filters rely on) as they are,
    the rest as UTF-8 encoded words, each space inside a word, lines at most ``width``
    columns. The stdlib's own folding (Python 3.11) drops the space at a fold between
    a plain word and an encoded one, so about one Spanish or Russian subject in ten
    lost a space (``"eastсделал ход"``; issue 28, try28d)."""
    words = subject.split(" ")
    n = 0
    while n < len(words) and words[n] and words[n].isascii():
        n += 1
    header = Header(header_name="Subject", maxlinelen=width)
    if n:
        header.append(" ".join(words[:n]), "us-ascii")
    if n < len(words):
        header.append(" ".join(words[n:]), "utf-8")
    return header.encode(linesep=linesep)


class _SubjectPolicy(EmailPolicy):
    """The ``SMTP`` policy with a non-ASCII Subject, or one longer than a line, folded by
    :func:`encoded_subject` (every other header as ``SMTP`` folds it): the stdlib folded
    a long ASCII subject whose words open parentheses ("[g1] … (east (east …") after
    ``Subject:``, so it read back with a leading space (found by the subject's property
    test, tests/mail/test_compose.py)."""

    def fold_binary(self, name: str, value: str) -> bytes:
        """The header ``name: value`` as bytes, CRLF-ended; see the class."""
        if name.lower() == "subject" and not self.utf8 and (
                not str(value).isascii() or len(name) + 2 + len(str(value)) > self.max_line_length):
            return f"{name}: {encoded_subject(str(value), self.linesep, self.max_line_length)}{self.linesep}" \
                .encode("ascii")
        return super().fold_binary(name, value)


SMTP_SUBJECTS = _SubjectPolicy(linesep="\r\n")
"""``email.policy.SMTP`` but for the subject's folding (:func:`encoded_subject`)."""


@dataclass(frozen=True)
class Attachment:
    """A file attached to a message: ``data`` bytes, MIME ``maintype/subtype``. With
    ``cid`` (a Content-ID without angle brackets) and an HTML body, the file is an
    inline part of the HTML (multipart/related, RFC 2387), shown by ``<img
    src="cid:...">``."""

    filename: str
    data: bytes
    maintype: str = "image"
    subtype: str = "png"
    cid: str | None = None


@dataclass(frozen=True)
class Outgoing:
    """A composed message ready for the outbox.

    ``in_reply_to`` is the msg-id actually written (``None`` when the one given was not
    valid); ``smtputf8`` is True when an address is internationalised, so the message
    carries raw UTF-8 headers and must be sent with SMTPUTF8 (RFC 6531)."""

    message_id: str
    to_addr: str
    subject: str
    raw: bytes
    kind: str
    in_reply_to: str | None = None
    attachments: tuple[str, ...] = field(default_factory=tuple)
    smtputf8: bool = False
    bodies: tuple[bytes, ...] = ()
    """The encoded (base64) body of each attachment as it appears in ``raw``, for the
    outbox to store once (:mod:`pbem.store.blobs`)."""


def stable_message_id(domain: str, *parts: object) -> str:
    """``<pbem.{label}.{digest}@{domain}>`` from the parts that identify the message (game,
    step, kind, recipient…): the same parts give the same Message-ID, always a valid
    msg-id (RFC 5322 3.6.4: the label is ASCII letters, digits, ``-`` and single dots)."""
    digest = hashlib.sha256("\x1f".join(str(p) for p in parts).encode()).hexdigest()[:24]
    label = "-".join(str(p) for p in parts[:3] if p is not None)
    label = "".join(ch if ch.isascii() and (ch.isalnum() or ch in ".-") else "-"
                    for ch in label)[:48]
    label = re.sub(r"\.{2,}", ".", label).strip(".")  # a dot-atom has no empty atoms
    return f"<pbem.{label}.{digest}@{domain}>" if label else f"<pbem.{digest}@{domain}>"


def _address(value: str, what: str) -> str:
    address = normalise_address(value)
    if address is None:
        raise ValueError(f"{what} is not a plain address: {clean_text(value, 80)!r}")
    return address


def _mailbox(name: str | None, address: str) -> Address:
    """A header mailbox; the display name is cleaned (no CR/LF can reach the header)."""
    display_name = clean_header_text(name or "", 100)
    if address.isascii():
        return Address(display_name=display_name, addr_spec=address)
    username, domain = address.rsplit("@", 1)  # RFC 6532: the parser flags UTF-8 local parts
    return Address(display_name=display_name, username=username, domain=domain)


def thread_ids(in_reply_to: str | None, references: Sequence[str]
               ) -> tuple[str | None, tuple[str, ...]]:
    """The In-Reply-To and References we may write (RFC 5322 section 3.6.4): only valid
    msg-ids that are not synthetic (``@pbem.invalid``), References ending with the parent,
    at most :data:`MAX_REFERENCES` (the first and the latest). Never raises."""
    def usable(value: object) -> bool:
        return (isinstance(value, str) and is_msg_id(value)
                and not value.lower().endswith(f"@{SYNTHETIC_DOMAIN}>"))

    parent = in_reply_to if usable(in_reply_to) else None
    refs = [r for r in references if usable(r)] + ([parent] if parent else [])
    ids = tuple(dict.fromkeys(refs))
    if len(ids) > MAX_REFERENCES:
        ids = (ids[0], *ids[-(MAX_REFERENCES - 1):])
    return parent, ids if parent else ()


def compose(*, sender: str, sender_name: str, to_addr: str, to_name: str | None, subject: str,
            text: str, html: str | None = None, attachments: Sequence[Attachment] = (),
            message_id: str, kind: str, in_reply_to: str | None = None,
            references: Sequence[str] = (), auto: str = "auto-generated",
            game_id: str | None = None, date: datetime | None = None, plain: bool = False) -> Outgoing:
    """Compose one message and return it as :class:`Outgoing` (raw bytes, CRLF line ends).

    ``text`` is wrapped to 72 columns (:func:`pbem.mail.body.wrap_text`); without
    ``html`` the HTML alternative is made from it (:func:`pbem.mail.body.text_to_html`),
    so every message has both parts — unless ``plain`` (a seat that asked for text-only
    mail, issue 16): then there is no HTML part and an inline attachment becomes an
    ordinary one. ``auto`` is the RFC 3834 Auto-Submitted value:
    ``auto-generated`` for reports and prompts, ``auto-replied`` for answers to a
    player's mail. ``in_reply_to`` and
    ``references`` are filtered by :func:`thread_ids`; names, subject and game id are
    cleaned of control characters.

    Raises:
        ValueError: ``sender`` or ``to_addr`` is not a plain addr-spec, or
            ``message_id`` is not a valid msg-id (both are ours to get right; an address
            from :func:`pbem.mail.message.parse_mail` always passes).
    """
    sender = _address(sender, "sender")
    to_addr = _address(to_addr, "to_addr")
    if not is_msg_id(message_id):
        raise ValueError(f"not a valid Message-ID: {clean_text(message_id, 80)!r}")
    smtputf8 = not (sender.isascii() and to_addr.isascii())
    msg = EmailMessage(policy=SMTPUTF8 if smtputf8 else SMTP_SUBJECTS)
    msg["From"] = _mailbox(sender_name, sender)
    msg["To"] = _mailbox(to_name, to_addr)
    subject = clean_header_text(subject, MAX_SUBJECT_CHARS)
    msg["Subject"] = subject
    msg["Date"] = format_datetime(date or datetime.now(UTC))
    msg["Message-ID"] = message_id
    msg["Auto-Submitted"] = auto
    msg["X-Auto-Response-Suppress"] = "All"  # Exchange: no out-of-office answers to us
    msg[LOOP_HEADER] = sender
    if game_id:
        msg["X-Pbem-Game"] = clean_header_text(game_id, 64)
    parent, refs = thread_ids(in_reply_to, references)
    if parent:
        msg["In-Reply-To"] = parent
        msg["References"] = " ".join(refs)
    text = wrap_text(text.translate(_BODY_CONTROLS))
    msg.set_content(text)
    if not plain:
        msg.add_alternative((html if html is not None else text_to_html(subject, text)).translate(_BODY_CONTROLS),
                            subtype="html")
    linesep = msg.policy.linesep
    bodies: dict[str, bytes] = {}
    for att in attachments:
        if att.cid and not plain:  # inline in the HTML part (RFC 2387)
            holder = msg.get_payload()[1]
            holder.add_related(b"", maintype=att.maintype, subtype=att.subtype,
                               cid=f"<{att.cid}>", filename=att.filename, disposition="inline")
        else:
            holder = msg
            msg.add_attachment(b"", maintype=att.maintype, subtype=att.subtype, filename=att.filename)
        placeholder = f"PBEM-ATTACHMENT-{len(bodies)}-{hashlib.sha256(att.data).hexdigest()}"
        holder.get_payload()[-1].set_payload(placeholder)
        bodies[placeholder] = encoded_body(att.data, att.maintype, att.subtype, linesep)
    raw = msg.as_bytes()
    for placeholder, body in bodies.items():
        raw = raw.replace(placeholder.encode("ascii"), body + linesep.encode("ascii"), 1)
    return Outgoing(message_id=message_id, to_addr=to_addr, subject=subject,
                    raw=raw, kind=kind, in_reply_to=parent,
                    attachments=tuple(a.filename for a in attachments), smtputf8=smtputf8,
                    bodies=tuple(bodies.values()))


def seven_bit(raw: bytes) -> bytes:
    """``raw`` (a message of ours, CRLF line ends, ASCII headers) with every 8-bit body
    part re-encoded 7-bit clean — text as base64 or quoted-printable, whichever is
    shorter, as the email package chooses (RFC 2045 section 6; RFC 6152 section 3: what
    a client sends a relay that does not offer 8BITMIME). Headers, Message-ID and the
    parts already 7-bit stay as they are. Raises what the email package raises for
    bytes it cannot read."""
    msg = message_from_bytes(raw, policy=SMTP)
    return msg.as_bytes(policy=SMTP.clone(cte_type="7bit"))


@lru_cache(maxsize=4)
def encoded_body(data: bytes, maintype: str, subtype: str, linesep: str) -> bytes:
    """The base64 body (RFC 2045 6.8, lines of 76 characters ending in ``linesep``, no
    final line end) the email package writes for an attachment of ``data``
    (``maintype``/``subtype`` are the part's type: bytes content is always base64 there,
    email.contentmanager.set_bytes_content).

    Computed once per picture: the four reports of a decision share it, and the email
    package's generator wrote the 4,000 lines of a map one by one for each of them (8 ms
    a report). :func:`compose` puts a placeholder in the part and this text in its place,
    so the message is byte for byte what the email package would have written (a test
    compares them). The lines are the standard library's ``base64.encodebytes`` (57 bytes
    a line, as the email package cuts them), half the time of building a part for it."""
    return base64.encodebytes(data).replace(b"\n", linesep.encode("ascii")).rstrip(b"\r\n")
