"""``command: pause``: no deadline passes until the game resumes; every seat is told."""
from __future__ import annotations

from pbem import rules
from pbem.service.base.context import Service
from pbem.service.commands.host import common
from pbem.service.commands.registry import Done, Field, Guide, HostCommand, HostRequest, Refused
from pbem.service.log.trust import log_events

GUIDE = Guide("host-guide.md", "Host commands")


def process(judge: Service, request: HostRequest) -> Done:
    """Pause the game (``GamePaused``) and tell every seat. Raises ValueError when it is
    paused already."""
    game_id, now, reason = request.game_id, request.now, request.values.get("reason", "")
    if request.game["status"] == "paused":
        raise Refused(lambda tr: tr.gettext("game %(game)s is paused already; %(next)s") % {
            "game": game_id, "next": request.say(tr.gettext("send `command: resume` to go on"), tr.gettext(
                "`%(command)s` goes on") % {"command": f"pbem host resume {game_id}"})})
    head = log_events(judge, game_id, [rules.judge_event("GamePaused", {"at": now.isoformat(), "reason": reason})])
    judge.store.set_game_status(game_id, "paused")
    common.tell_seats(judge, game_id, lambda tr: tr.gettext("the game is paused"),
                      lambda tr: tr.gettext("The host paused %(game)s: %(reason)s. No deadline passes until the game "
                                            "resumes; every deadline then moves on by the length of the pause. Orders "
                                            "are still taken meanwhile: a seat may send its orders for the step it is "
                                            "asked now.")
                      % {"game": game_id, "reason": reason or tr.gettext("no reason given")},
                      f"pause-{now.isoformat()}")
    return Done(lambda tr: tr.gettext("Game %(game)s is paused.") % {"game": game_id} + " " + request.say(
        tr.gettext("Send `command: resume` to go on."),
        tr.gettext("`%(command)s` goes on") % {"command": f"pbem host resume {game_id}"} + "."), head)


COMMAND = HostCommand(
    name="pause", fields=(Field("reason", "text", "why, for the players"),), logs=("GamePaused",), once=True,
    guide=GUIDE, process=process,
    help="Pause the game: no deadline passes until it resumes (orders are still taken); every seat is told.")
