"""``command: rollback``: the position of an earlier step comes back as new events (:mod:`pbem.service.play.endgame`)."""
from __future__ import annotations

from pbem.service.base.context import Service
from pbem.service.commands.registry import Done, Field, Guide, HostCommand, HostRequest
from pbem.service.play import endgame

GUIDE = Guide("host-guide.md", "Host commands")


def process(judge: Service, request: HostRequest) -> Done:
    """Roll back to step ``to_step`` (:func:`pbem.service.play.endgame.rollback`).
    Raises ValueError for a step that is not before the live one, one the game never
    waited at, or a paused game."""
    text, head = endgame.rollback(judge, request.game_id, request.values.get("to_step"),
                                  request.values.get("reason", ""))
    return Done(text, head)


COMMAND = HostCommand(
    name="rollback", fields=(Field("to_step", "whole", "the earlier step whose position comes back"),
                             Field("reason", "text", "why, for the players")),
    logs=("StateRestored", "RollbackAnnounced", "StandingRestored"), once=True, guide=GUIDE, process=process,
    help="The position of step `to_step:` comes back as new events; the seats get reports and prompts again.")
