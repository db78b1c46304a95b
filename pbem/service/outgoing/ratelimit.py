"""Limits on answers (docs/pipeline.md, "Machine mail and loops"), so that no mail loop
can run away, while every mail from a seat's registered address gets an answer (issue
24, finding 3: past ``seat_reply_rate_per_hour`` a seat's mails got no answer at all,
a genuine refusal among them).

- **A seat's or a host's address** (break16: the host's receipts were cut at 5 an
  hour) gets at most ``seat_reply_rate_per_hour`` answers an hour. The answers that
  bring it near that limit say so (:data:`NEAR`); an answer past it is not dropped: it
  is kept (``answer_digests``) and merged with the others kept for that address into
  one digest mail, sent by the deadline tick as soon as the hour allows, or past the
  limit once its oldest answer has waited 5 minutes and no urgent answer went to the
  address in the last 5 (:func:`send_digests`), so the address gets every answer
  within about ten minutes and, past the limit, at most one mail in five minutes. Except a **real refusal** (issue 24 B/N2: a refusal waited in the
  digest up to an hour, one past the game's end): the refusal of orders or of a
  command that a seat sent from its registered address (a wrong key included,
  ``urgent``) is sent at once past the count, as receipts always are, since a
  deadline may come before the hour allows; at most :data:`URGENT_EVERY` apart to one
  address (the rest join the digest), so a flood still gets few mails.
- **Any other address** gets at most ``reply_rate_per_hour`` answers an hour, and all
  of them together at most ``stranger_replies_per_hour`` (break-it finding 5: with a
  forged From: per mail, anyone could make the judge write to any number of third
  parties); past that the answer is dropped (logged, marked on the inbox row, listed by
  ``pbem status``).
- **Identical repeated mail** is answered once an hour: an answer with the same text
  to the same address as one sent (or kept for a digest) within the hour is not sent
  again (the inbox row says ``repeat``).

Machine mail is never answered at all (:mod:`pbem.mail.machine`), so two robots cannot
answer each other.
"""
from __future__ import annotations

import gettext
import hashlib
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from pbem import i18n
from pbem.mail.compose import Attachment
from pbem.mail.headers import fold_address
from pbem.mail.message import ParsedMail
from pbem.report import build
from pbem.service.base.context import Service
from pbem.service.outgoing import outbox, seat_preferences

log = logging.getLogger(__name__)

NEAR = 3
"""An answer that leaves this many or fewer before the hourly limit tells the seat so."""
URGENT_EVERY = timedelta(minutes=5)
"""The least time between two refusals sent past an address's hourly limit (``urgent``)."""
DIGEST_FULL = 20
"""The most answers a digest shows in full; later ones are listed by subject."""


@dataclass(frozen=True)
class Allowance:
    """What may happen to one answer: ``verdict`` ``send`` (with ``near`` when
    the address nears its limit), ``digest`` (keep it for the answers digest),
    ``repeat`` (the same answer went within the hour) or ``drop`` (a stranger past the
    limits)."""

    verdict: str
    near: tuple[int, int] | None = None
    """``(answer number, hourly limit)`` when the address nears its limit: the note
    the answer ends with, told in the reader's language (:func:`deliver`)."""
    urgent: bool = False
    """A refusal sent past the hourly limit (counted for :data:`URGENT_EVERY`)."""


def answer_digest(address: str, text: str) -> str:
    """SHA-256 of an answer's recipient (folded) and text: equal for the answers to
    identical repeated mail."""
    return hashlib.sha256(f"{fold_address(address)}\n{text}".encode()).hexdigest()


def is_seat_or_host(judge: Service, address: str) -> bool:
    """Whether ``address`` is registered for a seat or hosts a game (config or table), or
    was a seat's before a replacement or an address change (issue 24 N8: its mail was
    dropped silently by the strangers' limit)."""
    folded = fold_address(address)
    return judge.store.is_seat_address(address) or bool(judge.store.former_seats(address)) \
        or any(g.host_email and fold_address(g.host_email) == folded for g in judge.config.games) \
        or judge.store.is_host_address(address)


def allowance(judge: Service, address: str | None, digest: str | None = None, urgent: bool = False) -> Allowance:
    """What may happen to one more answer to ``address`` now (see the module docstring);
    ``digest``: the answer's :func:`answer_digest`, for the repeat check; ``urgent``: the
    answer is a real refusal to a seat's own address (sent even past the limit, at most
    one in :data:`URGENT_EVERY`, else kept for the digest; a repeat is still not sent
    again). The verdict ``send`` past the limit carries ``urgent``."""
    if not address:
        return Allowance("drop")
    since = (judge.clock() - timedelta(hours=1)).isoformat()
    if digest is not None and judge.store.answered_alike(address, digest, since):
        return Allowance("repeat")
    sent = judge.store.replies_to(address, since)
    if is_seat_or_host(judge, address):
        limit = judge.config.seat_reply_rate_per_hour
        if sent >= limit or any(fold_address(r["to_addr"]) == fold_address(address)
                                for r in judge.store.held_answers()):
            # the deadline an urgent answer concerns may come before the digest goes;
            # the others wait, also while a digest waits (answers keep their order)
            recent = (judge.clock() - URGENT_EVERY).isoformat()
            if urgent and not judge.store.urgent_answers_to(address, recent):
                return Allowance("send", urgent=True)
            return Allowance("digest")
        left = limit - sent - 1
        return Allowance("send", None if left > NEAR else (sent + 1, limit))
    if judge.store.replies_to_strangers(since) >= judge.config.stranger_replies_per_hour:
        return Allowance("drop")
    return Allowance("send") if sent < judge.config.reply_rate_per_hour else Allowance("drop")


def deliver(judge: Service, parsed: ParsedMail, inbox_id: int | None, *, game_id: str | None, subject: str,
            text: str, id_parts: Sequence[object], html_title: str | None = None, html: str | None = None,
            attachments: Sequence[Attachment] = (), urgent: bool = False, language: str | None = None) -> bool:
    """Queue the answer ``text`` to the sender of ``parsed`` (threaded under it) as the
    limits allow (:func:`allowance`): sent (with the near-the-limit note), kept for the
    sender's answers digest, not sent again (a repeat), or dropped. The HTML part is
    ``html`` or made from the text under ``html_title``; ``attachments`` go with an
    answer sent on its own (a digest keeps the text only, and says the file was left
    out). Marks the inbox row ``inbox_id`` when the answer is not sent on its own.
    ``urgent``: it is a real refusal to a seat's own address (:func:`allowance`). False
    when it was dropped. ``language``: the answer's language (its HTML part's ``lang``
    and the notes added here), else the address's (issue 28)."""
    digest = answer_digest(parsed.sender or "", text)
    allowed = allowance(judge, parsed.sender, digest, urgent)

    def tr() -> gettext.NullTranslations:  # the notes below in the reader's language (issue 28, try28e)
        return i18n.translations(language) if language else \
            seat_preferences.address_translations(judge.store, parsed.sender or "", game_id)

    if allowed.verdict == "drop":
        if inbox_id is not None:
            suppressed(judge, inbox_id, parsed.sender)
        return False
    if allowed.verdict == "repeat":
        log.info("answer to %s (inbox %s) not sent again: the same answer went within the hour",
                 parsed.sender, inbox_id)
        if inbox_id is not None:
            judge.store.note_answer(inbox_id, "repeat")
        return True
    if allowed.verdict == "digest":
        if attachments:
            names = ", ".join(a.filename for a in attachments)
            text = f"{text.rstrip()}\n\n" + tr().gettext(
                "(Not in this digest: the attached %(names)s. Ask again when the hour allows.)") % {
                "names": names} + "\n"
        judge.store.hold_answer(to_addr=parsed.sender or "", to_name=parsed.sender_name or None, game_id=game_id,
                                inbox_id=inbox_id, subject=subject, text=text, digest=digest,
                                at=judge.clock().isoformat())
        if inbox_id is not None:
            judge.store.note_answer(inbox_id, "digest")
        return True
    if allowed.near:
        note = tr().gettext(
            "Note: this is answer %(num)s of %(limit)s the judge sends to your address within an hour. Past that "
            "your mails are still read and answered, but the answers are collected into one digest mail, sent as "
            "soon as the hour allows. Nothing is lost.") % {"num": allowed.near[0], "limit": allowed.near[1]}
        text = f"{text.rstrip()}\n\n{note}\n"
    outbox.queue(judge, game_id=game_id, kind="reply", to_addr=parsed.sender or "",
                 to_name=parsed.sender_name or None, subject=subject, text=text,
                 html=html if html is not None else build.html_of_text(html_title or subject, text,
                                                                       i18n.language_of(tr())),
                 id_parts=id_parts, in_reply_to=parsed.message_id, references=parsed.references,
                 auto="auto-replied", answer_digest=digest, attachments=attachments, urgent=allowed.urgent)
    return True


def may_answer(judge: Service, address: str | None) -> bool:
    """Whether one more answer may go to ``address`` now on its own (an answer that
    would be kept for a digest or dropped may not)."""
    return allowance(judge, address).verdict == "send"


def send_digests(judge: Service) -> int:
    """Send each address's kept answers as one digest mail once the hour allows (fewer
    than ``seat_reply_rate_per_hour`` answers in the last hour), or before that, as an
    ``urgent`` mail, once its oldest answer has waited :data:`URGENT_EVERY` and no
    urgent answer went to the address within :data:`URGENT_EVERY` (issue 24, fourth
    hand-played game, N2: a refusal of the orders a game waited for sat in the digest
    for up to an hour; now at most about ten minutes, and a flood still gets at most
    one mail in five minutes past the limit). Returns how many digests were queued.
    Call from the loop (``Judge.tick``)."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for row in judge.store.held_answers():
        groups.setdefault(row["to_addr"], []).append(row)
    now = judge.clock()
    since = (now - timedelta(hours=1)).isoformat()
    recent = (now - URGENT_EVERY).isoformat()
    done = 0
    for address, rows in groups.items():
        urgent = judge.store.replies_to(address, since) >= judge.config.seat_reply_rate_per_hour
        if urgent and (rows[0]["created_at"] > recent or judge.store.urgent_answers_to(address, recent)):
            continue
        with judge.store.transaction():
            _digest(judge, address, rows, urgent)
        done += 1
    return done


def _digest(judge: Service, address: str, rows: list[dict[str, Any]], urgent: bool = False) -> None:
    """Queue one digest of the kept answers ``rows`` to ``address`` (``urgent``: past the
    hourly limit, :func:`send_digests`) and mark them sent."""
    full, rest = rows[:DIGEST_FULL], rows[DIGEST_FULL:]
    games = sorted({r["game_id"] for r in rows if r["game_id"]})
    # the address's language: its seat's in the game, else of a seat it holds (issue 28)
    tr = seat_preferences.address_translations(judge.store, address, games[0] if len(games) == 1 else None)
    parts = [f"{r['subject']}\n{'=' * min(72, len(r['subject']))}\n\n{r['text'].rstrip()}" for r in full]
    if rest:
        parts.append(tr.gettext("… and %(num)s more answers, by subject: %(subjects)s") % {
            "num": len(rest), "subjects": "; ".join(r["subject"] for r in rest)})
    intro = tr.gettext("The judge answered %(num)s of your mails in one digest: your address had reached its limit "
                       "of %(most)s answers an hour. Every mail was read and handled as usual; the answers follow, "
                       "oldest first.") % {"num": len(rows), "most": judge.config.seat_reply_rate_per_hour}
    text = build.render_notice(intro, games[0] if len(games) == 1 else None, tr) + "\n\n" + "\n\n".join(parts)
    answers = tr.gettext("%(num)s answers to your mails") % {"num": len(rows)}
    subject = f"[{games[0]}] {answers}" if len(games) == 1 else answers
    outbox.queue(judge, game_id=games[0] if len(games) == 1 else None, kind="reply", to_addr=address,
                 to_name=rows[0]["to_name"], subject=subject, text=text,
                 html=build.html_of_text(subject, text, i18n.language_of(tr)),
                 id_parts=("judge", "answers-digest", address, rows[0]["id"]), auto="auto-replied", urgent=urgent)
    judge.store.mark_answers_sent([r["id"] for r in rows], judge.clock().isoformat())


def suppressed(judge: Service, inbox_id: int, address: str | None) -> None:
    """Record that the answer to inbox row ``inbox_id`` was not sent (rate limit): a
    warning in the log and a mark on the row, shown by ``pbem status``."""
    log.warning("answer to %s (inbox %s) not sent: reply rate limit reached", address, inbox_id)
    judge.store.note_suppressed(inbox_id)
