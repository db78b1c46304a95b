"""Outgoing mail: composing a message into the outbox (once per stable Message-ID), and
sending the outbox over SMTP (:mod:`pbem.mail.smtp`)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from pbem.mail.compose import Attachment, compose, stable_message_id
from pbem.mail.smtp import send_due

if TYPE_CHECKING:
    from pbem.service.judge import Judge


def queue(judge: Judge, *, game_id: str | None, kind: str, to_addr: str, to_name: str | None, subject: str,
          text: str, html: str | None, id_parts: Sequence[object], attachments: Sequence[Attachment] = (),
          in_reply_to: str | None = None, references: Sequence[str] = (),
          auto: str = "auto-generated") -> None:
    """Compose one message (:func:`pbem.mail.compose.compose`) and add it to the outbox,
    unless a message with the same stable Message-ID (from ``id_parts``, RFC 5322 3.6.4)
    is queued already. ``auto`` is the RFC 3834 Auto-Submitted value. Call inside the
    transaction of what caused the mail."""
    message_id = stable_message_id(judge.domain, *id_parts)
    if judge.store.has_mail(message_id):
        return
    out = compose(sender=judge.config.judge_address, sender_name=judge.config.judge_name, to_addr=to_addr,
                  to_name=to_name, subject=subject, text=text, html=html, attachments=attachments,
                  message_id=message_id, kind=kind, in_reply_to=in_reply_to, references=references,
                  auto=auto, game_id=game_id, date=judge.clock())
    judge.store.queue_mail(message_id=out.message_id, game_id=game_id, kind=kind, to_addr=out.to_addr,
                           subject=subject, raw=out.raw, in_reply_to=in_reply_to)


def flush(judge: Judge) -> tuple[int, int]:
    """Send due outbox rows over SMTP; return (sent, failed attempts)."""
    return send_due(judge.store, judge.config.smtp, judge.config.judge_address, judge.clock())
