"""``command: resend``: the seat's latest prompt again, deadline unchanged (issue 16).
Logged as ``HostActed``-like ``PlayerActed`` so the chain shows the resend. At most
:data:`PER_HOUR` an hour per seat: a prompt is not an answer, so the answer rate limit
did not hold back a loop of resends (break16)."""
from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from pbem import rules
from pbem.problems import Problem
from pbem.service.base.context import Service
from pbem.service.commands.registry import Guide, Limit, SeatCommand
from pbem.service.commands.reply import CommandError, Reply
from pbem.service.log import trust
from pbem.service.outgoing import seat_preferences
from pbem.service.play import reports

PER_HOUR = 5
"""Resends a seat may ask for in any hour."""
NAME = "resend"
REASON = f"command.{NAME}"
"""The inbox reason of an answered resend (:func:`pbem.service.commands.seat_commands.handle_mail`
records ``command.NAME``; not a problem code)."""


def resend(judge: Service, game_id: str, seat: str, doc: Mapping[str, Any]) -> Reply:
    """Queue the seat's pending prompt again. Raises CommandError when the seat is
    not waited on (the reply says how to get a past report instead)."""
    state = judge.state(game_id)
    if not any(d.seat == seat for d in rules.pending(state)):
        raise CommandError([Problem(message=f"Seat {seat} has no pending decision in {game_id}: there is no prompt "
                                    "to send again.", where="command", code="command.not_now",
                                    hint="Ask for a past report with `history: N` or `history: all`.")])
    email = next(r["email"] for r in judge.store.seats(game_id) if r["seat"] == seat)
    since = (judge.clock() - timedelta(hours=1)).isoformat()
    asked = len(judge.store.auth_failure_times(game_id, seat, since, (REASON,), email))
    if asked >= PER_HOUR:
        raise CommandError([Problem(message=f"Seat {seat} asked for its prompt {asked} times within the hour; "
                                    f"the judge sends it at most {PER_HOUR} times an hour.", where="command",
                                    code="command.rate",
                                    hint="The prompt is in your mailbox already; ask again in an hour.")])
    head = trust.log_events(judge, game_id, [rules.judge_event("PlayerActed", {"command": "resend", "seat": seat})])
    reports.prompt_again(judge, game_id, seat, again=head)
    _ = seat_preferences.translations(judge.store, game_id, seat).gettext  # the seat's language (issue 28)
    return Reply(_("resend"), _("Your prompt for step %(step)s is sent again in its own mail; the deadline "
                                "is unchanged.") % {"step": state.step})


COMMAND = SeatCommand(
    name=NAME, fields=(), limit=Limit(PER_HOUR, timedelta(hours=1)), logs=("PlayerActed",),
    help="Your latest prompt again, in its own mail; the deadline is unchanged.",
    guide=Guide("player-guide.md", "Commands by mail"), process=resend)
