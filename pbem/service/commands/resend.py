"""``command: resend``: the seat's latest prompt again, deadline unchanged (issue 16).
Logged as ``HostActed``-like ``PlayerActed`` so the chain shows the resend."""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pbem import rules
from pbem.problems import Problem
from pbem.service import hostcmd
from pbem.service.playercmd import CommandError, Reply, command

if TYPE_CHECKING:
    from pbem.service.judge import Judge


@command("resend")
def resend(judge: Judge, game_id: str, seat: str, doc: Mapping[str, Any]) -> Reply:
    """Queue the seat's pending prompt again. Raises CommandError when the seat is
    not waited on (the reply says how to get a past report instead)."""
    state = judge.state(game_id)
    if not any(d.seat == seat for d in rules.pending(state)):
        raise CommandError([Problem(message=f"Seat {seat} has no pending decision in {game_id}: there is no prompt "
                                    "to send again.", where="command", code="command.not_now",
                                    hint="Ask for a past report with `history: N` or `history: all`.")])
    head = hostcmd.log_events(judge, game_id, [rules.judge_event("PlayerActed", {"command": "resend", "seat": seat})])
    hostcmd.prompt_again(judge, game_id, seat, again=head)
    return Reply("resend", f"Your prompt for step {state.step} is sent again in its own mail; the deadline "
                 "is unchanged.")
