"""Building pbem's outgoing mail (RFC 5322 / MIME with the stdlib ``email`` package).

Every message we send:
- carries ``Auto-Submitted: auto-generated`` (reports, prompts) or ``auto-replied``
  (receipts and rejections answering a player's mail) — RFC 3834 — so that well-behaved
  autoresponders never answer us, plus ``X-Pbem-Loop`` so we recognise our own mail if it
  comes back;
- has a stable Message-ID computed from what it is (game, step, kind, recipient), so a
  message re-composed after a crash has the same Message-ID and the outbox stays unique;
- threads under the player's mail with In-Reply-To/References when it answers one;
- is text/plain, with an HTML alternative when given, and attachments (the map PNG);
  the email package picks each part's Content-Transfer-Encoding.
"""
from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import format_datetime, formataddr

LOOP_HEADER = "X-Pbem-Loop"


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
    """A composed message ready for the outbox."""

    message_id: str
    to_addr: str
    subject: str
    raw: bytes
    kind: str
    in_reply_to: str | None = None
    attachments: tuple[str, ...] = field(default_factory=tuple)


def stable_message_id(domain: str, *parts: object) -> str:
    """``<pbem.{digest}@{domain}>`` from the parts that identify the message (game, step,
    kind, recipient…): the same parts give the same Message-ID (RFC 5322 3.6.4)."""
    digest = hashlib.sha256("\x1f".join(str(p) for p in parts).encode()).hexdigest()[:24]
    label = "-".join(str(p) for p in parts[:3] if p is not None)
    label = "".join(ch if ch.isalnum() or ch in ".-" else "-" for ch in label)[:48]
    return f"<pbem.{label}.{digest}@{domain}>"


def compose(*, sender: str, sender_name: str, to_addr: str, to_name: str | None, subject: str,
            text: str, html: str | None = None, attachments: Sequence[Attachment] = (),
            message_id: str, kind: str, in_reply_to: str | None = None,
            references: Sequence[str] = (), auto: str = "auto-generated",
            game_id: str | None = None, date: datetime | None = None) -> Outgoing:
    """Compose one message and return it as :class:`Outgoing` (raw bytes, CRLF line ends).

    ``auto`` is the RFC 3834 Auto-Submitted value: ``auto-generated`` for reports and
    prompts, ``auto-replied`` for answers to a player's mail.
    """
    msg = EmailMessage(policy=SMTP)
    msg["From"] = formataddr((sender_name, sender))
    msg["To"] = formataddr((to_name or "", to_addr)) if to_name else to_addr
    msg["Subject"] = subject
    msg["Date"] = format_datetime(date or datetime.now(UTC))
    msg["Message-ID"] = message_id
    msg["Auto-Submitted"] = auto
    msg["X-Auto-Response-Suppress"] = "All"  # Exchange: no out-of-office answers to us
    msg[LOOP_HEADER] = sender
    if game_id:
        msg["X-Pbem-Game"] = game_id
    if in_reply_to:
        msg["In-Reply-To"] = in_reply_to
        refs = [r for r in references if r] + [in_reply_to]
        msg["References"] = " ".join(dict.fromkeys(refs))
    msg.set_content(text)
    if html is not None:
        msg.add_alternative(html, subtype="html")
    for att in attachments:
        if att.cid and html is not None:  # inline in the HTML part (RFC 2387)
            html_part = msg.get_payload()[1]
            html_part.add_related(att.data, maintype=att.maintype, subtype=att.subtype,
                                  cid=f"<{att.cid}>", filename=att.filename, disposition="inline")
        else:
            msg.add_attachment(att.data, maintype=att.maintype, subtype=att.subtype,
                               filename=att.filename)
    return Outgoing(message_id=message_id, to_addr=to_addr.lower(), subject=subject,
                    raw=msg.as_bytes(), kind=kind, in_reply_to=in_reply_to,
                    attachments=tuple(a.filename for a in attachments))
