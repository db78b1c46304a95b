"""``command: help`` from an address without a seat key (issue 29): an observer, a
player who left out ``seat:`` and ``key:``, or a stranger gets the general part of the
player's guide — the sections tagged ``anyone`` (:mod:`pbem.service.commands.seat.help`)
— and what to write to play, join, observe or see their record. Nothing secret: no
hand, no game's state beyond what the guide says."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.mail.message import ParsedMail
from pbem.report import build
from pbem.service.base.context import Service
from pbem.service.base.settings import wrapped
from pbem.service.commands.anyone import common
from pbem.service.commands.registry import Guide, MailRequest, Who
from pbem.service.commands.seat import help as seat_help
from pbem.service.outgoing import answers

TAG = "anyone"
"""The guide's help tag of the sections any address gets."""


def general_text() -> list[str]:
    """The guide's sections tagged :data:`TAG`, as mail text."""
    return [f"{s.title.upper() if s.level == 2 else s.title}\n\n{seat_help.as_text(s.body)}"
            for s in seat_help.sections(seat_help.guide_text()) if TAG in s.tags]


def general_help(judge: Service, parsed: ParsedMail, doc: Mapping[str, Any], rec: answers.Recorder,
                 shown: Mapping[str, Any]) -> str:
    """Answer the general help to the sender. Returns the inbox status."""
    iid = rec("answered", "help", result={"document": shown})
    head = wrapped("Help from the judge. Your mail carried no seat and key, so this is the general part of the "
                   "player's guide; a player gets the help for their seat's situation and hand by adding "
                   "`seat:` and `key:` lines (docs/player-guide.md, \"Commands by mail\").")
    body = build.render_notice("\n\n".join([head, *general_text(),
                                            wrapped("The whole guide: docs/player-guide.md.")]), None)
    common.answer(judge, parsed, iid, None, "help", body, preformatted=True)
    return "answered"


HELP = MailRequest(
    name="help", who=Who.ANYONE, by_command=True, fields=(), limit=None, logs=(),
    help="The general part of the player's guide, for an address without a seat key (an observer, a stranger).",
    guide=Guide("player-guide.md", "Commands by mail"), process=general_help)
