"""What a player command answers (:class:`Reply`) or raises (:class:`CommandError`),
and how an answer is sent (:func:`send`)."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from pbem import i18n
from pbem.mail.compose import Attachment
from pbem.mail.message import ParsedMail
from pbem.problems import Problem
from pbem.report import build
from pbem.service.base.context import Service
from pbem.service.base.settings import wrapped
from pbem.service.base.text import re_subject
from pbem.service.outgoing import answers, ratelimit, seat_preferences


@dataclass(frozen=True)
class Reply:
    """What a player command answers: the subject's tail, the text (wrapped to 72
    columns here), an optional HTML part (made from the text when None), and extra
    mails already queued by the handler are not counted here."""

    subject: str
    text: str
    html: str | None = None
    preformatted: bool = False
    """True when ``text`` is already laid out (a rendered guide): not re-wrapped."""
    attachments: tuple[Attachment, ...] = ()
    """Files the answer carries (``command: archive``: the game's log archive)."""


@dataclass
class CommandError(Exception):
    """A command that does not apply: ``problems`` name each thing wrong with what to
    write instead."""

    problems: Sequence[Problem] = field(default_factory=list)


def send(judge: Service, parsed: ParsedMail, game_id: str, reply: Reply, inbox_id: int) -> None:
    """Queue ``reply`` to the sender of ``parsed`` (rate-limited like every answer)."""
    tr = seat_preferences.translations_at(judge.store, game_id, parsed.sender or "")  # the seat's language (issue 28)
    text = reply.text if reply.preformatted else build.render_notice(wrapped(reply.text), game_id, tr)
    ratelimit.deliver(judge, parsed, inbox_id, game_id=game_id, language=i18n.language_of(tr),
                      subject=re_subject(parsed.subject) if parsed.subject else f"[{game_id}] {reply.subject}",
                      text=text, html=reply.html, html_title=reply.subject,
                      id_parts=(game_id, "command", *answers.answer_key(parsed)), attachments=reply.attachments)
