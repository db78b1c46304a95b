"""Outgoing mail: composing a message into the outbox (once per stable Message-ID), and
sending the outbox over SMTP (:mod:`pbem.mail.smtp`) — in the loop's own thread so a
stalled SMTP server never holds up IMAP or the deadlines (issue 17, finding 9).

Rows that give up (a 5xx reply, an address that cannot be sent to) are reported to the
hosts, one notice per pass listing them (finding 6; never for a notice to a host
itself, which would loop); ``pbem outbox resend`` (:func:`resend`) sends them again.
"""
from __future__ import annotations

import logging
from collections.abc import Sequence

from pbem.mail.compose import Attachment, compose, stable_message_id
from pbem.service.base.context import Service
from pbem.service.outgoing import seat_preferences
from pbem.store import Store

log = logging.getLogger(__name__)


def queue(judge: Service, *, game_id: str | None, kind: str, to_addr: str, to_name: str | None, subject: str,
          text: str, html: str | None, id_parts: Sequence[object], attachments: Sequence[Attachment] = (),
          in_reply_to: str | None = None, references: Sequence[str] = (),
          auto: str = "auto-generated", answer_digest: str | None = None, urgent: bool = False) -> None:
    """Compose one message (:func:`pbem.mail.compose.compose`) and add it to the outbox,
    unless a message with the same stable Message-ID (from ``id_parts``, RFC 5322 3.6.4)
    is queued already. ``auto`` is the RFC 3834 Auto-Submitted value; ``answer_digest``
    marks an answer (:func:`pbem.service.outgoing.ratelimit.answer_digest`), ``urgent`` a
    refusal sent past the hourly limit (:func:`pbem.service.outgoing.ratelimit.allowance`). An empty
    ``to_addr`` (a seat the bot plays from the start or by the host's hand has no
    address) queues nothing. Call inside the transaction of what caused the mail."""
    if not to_addr:  # a seat a bot plays has no address (pbem.service.play.bots): nothing to mail
        return
    message_id = stable_message_id(judge.domain, *id_parts)
    if judge.store.has_mail(message_id):
        return
    plain = seat_preferences.of_address(judge.store, game_id, to_addr)["format"] == "plain"  # the seat's choice (issue 16)
    out = compose(sender=judge.config.judge_address, sender_name=judge.config.judge_name, to_addr=to_addr,
                  to_name=to_name, subject=subject, text=text, html=html, attachments=attachments,
                  message_id=message_id, kind=kind, in_reply_to=in_reply_to, references=references,
                  auto=auto, game_id=game_id, date=judge.clock(), plain=plain)
    judge.store.queue_mail(message_id=out.message_id, game_id=game_id, kind=kind, to_addr=out.to_addr,
                           subject=subject, raw=out.raw, in_reply_to=in_reply_to, at=judge.clock().isoformat(),
                           bodies=out.bodies, answer_digest=answer_digest, urgent=urgent)


def resend(store: Store, ids: Sequence[int] | None = None) -> list[int]:
    """Put failed outbox rows (all, or ``ids``) back in the queue, due now with their
    attempts reset; the next pass sends them with their original Message-IDs. Returns
    the ids put back."""
    with store.transaction():
        return store.resend_failed(ids)


__all__ = ["queue", "resend", "stable_message_id"]
