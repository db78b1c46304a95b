"""``command: help`` from an address without a seat key (issue 29): an observer, a
player who left out ``seat:`` and ``key:``, or a stranger gets the general part of the
player's guide — the sections tagged ``anyone`` (:mod:`pbem.service.commands.seat.help`)
— and what to write to play, join, observe or see their record. Nothing secret: no
hand, no game's state beyond what the guide says."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem import i18n
from pbem.mail.headers import fold_address
from pbem.mail.message import ParsedMail
from pbem.report import build
from pbem.service.base.context import Service
from pbem.service.base.settings import wrapped
from pbem.service.commands.anyone import common
from pbem.service.commands.registry import Guide, MailRequest, Who
from pbem.service.commands.seat import help as seat_help
from pbem.service.outgoing import answers, seat_preferences

TAG = "anyone"
"""The guide's help tag of the sections any address gets."""


def general_text(language: str = i18n.DEFAULT) -> list[str]:
    """The guide's sections tagged :data:`TAG`, as mail text, from the guide in
    ``language`` (:func:`pbem.service.commands.seat.help.guide_text`)."""
    return [f"{s.title.upper() if s.level == 2 else s.title}\n\n{seat_help.as_text(s.body)}"
            for s in seat_help.sections(seat_help.guide_text(language)) if TAG in s.tags]


def general_help(judge: Service, parsed: ParsedMail, doc: Mapping[str, Any], rec: answers.Recorder,
                 shown: Mapping[str, Any]) -> str:
    """Answer the general help to the sender, in the sender's language (try28: it was
    English to a Spanish or Russian seat's own address): a ``language:`` line, else the
    language of the address's seat in the ``game:`` named, its observer row there or
    its seat in any game (:func:`pbem.service.outgoing.seat_preferences.address_translations`),
    else English. Returns the inbox status."""
    iid = rec("answered", "help", result={"document": shown})
    game_id = doc.get("game") if isinstance(doc.get("game"), str) else None
    tr = seat_preferences.address_translations(judge.store, fold_address(parsed.sender or ""), game_id,
                                               doc.get("language"))
    language = i18n.language_of(tr)
    _ = tr.gettext
    guide = seat_help.guide_name(language)
    sections = general_text(language)
    if language == i18n.PSEUDO:  # the guide is translated as a whole document, not by catalogue
        sections = [f"{i18n.OPEN}{part}{i18n.CLOSE}" for part in sections]
    head = wrapped(_("Help from the judge. Your mail carried no seat and key, so this is the general part of the "
                     "player's guide; a player gets the help for their seat's situation and hand by adding "
                     "`seat:` and `key:` lines (%(guide)s, \"Commands by mail\").") % {"guide": f"docs/{guide}"})
    body = build.render_notice("\n\n".join([head, *sections,
                                            wrapped(_("The whole guide: %(guide)s.") % {"guide": f"docs/{guide}"})]),
                               None, tr)
    common.answer(judge, parsed, iid, None, _("help"), body, preformatted=True, tr=tr)
    return "answered"


HELP = MailRequest(
    name="help", who=Who.ANYONE, by_command=True, fields=(), limit=None, logs=(),
    help="The general part of the player's guide, for an address without a seat key (an observer, a stranger).",
    guide=Guide("player-guide.md", "Commands by mail"), process=general_help)
