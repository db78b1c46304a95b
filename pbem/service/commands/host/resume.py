"""``command: resume``: the game goes on; every open deadline moves on by the pause."""
from __future__ import annotations

import gettext

from datetime import timedelta

from pbem import rules
from pbem.service.base import calendar
from pbem.service.base.context import Service
from pbem.service.base.settings import settings_of
from pbem.service.commands.host import common
from pbem.service.commands.registry import Done, Field, Guide, HostCommand, HostRequest, Refused
from pbem.service.log.trust import log_events

GUIDE = Guide("host-guide.md", "Host commands")


def process(judge: Service, request: HostRequest) -> Done:
    """Resume a paused game (``GameResumed``, a ``DeadlineMoved`` per open deadline: each
    moves on by the pause as the game's local clock reads it, so it keeps its local time
    across a daylight-saving change) and tell every seat. Raises ValueError when it is
    not paused. ``request.via`` ``vote``: the judge resumes a game at the end of the
    pause its seats agreed (:func:`pbem.service.commands.seat.votes.tick`)."""
    game_id, now, reason = request.game_id, request.now, request.values.get("reason", "")
    if request.game["status"] != "paused":
        raise Refused(lambda tr: tr.gettext("game %(game)s is not paused; nothing to resume") % {"game": game_id})
    since = common.paused_at(judge, game_id)
    pause = timedelta(seconds=max(0, int((now - since).total_seconds())))  # as logged
    by_vote = request.via == "vote"  # the pause the seats agreed is over (issue 29, commands/seat/votes.py)
    events = [rules.judge_event("GameResumed", {"at": now.isoformat(), "reason": reason,
                                                "paused_seconds": int(pause.total_seconds()),
                                                **({"by": "vote"} if by_vote else {})})]
    moved: list[common.Moved] = []
    # the pause as the local clock reads it, so that a deadline keeps its local time when a daylight-saving
    # change falls in the pause (Saturday 11:00 CET to Monday 11:00 CEST: two days; issue 25)
    on_clock = timedelta(seconds=int(calendar.wall_span(since, now, settings_of(judge, game_id).zone).total_seconds()))
    events += common.moves(judge, game_id, on_clock, "pause", None, paused_at=since, moved=moved)
    head = log_events(judge, game_id, events)
    judge.store.set_game_status(game_id, "active")

    def said(tr: gettext.NullTranslations) -> dict[str, str]:
        return {"game": game_id, "reason": reason, "pause": common.span(pause, tr)}

    def resumed(tr: gettext.NullTranslations) -> str:
        values = said(tr)
        if by_vote:
            return common.one_stop((tr.gettext("The judge resumed %(game)s: %(reason)s after a pause of %(pause)s.")
                                    if reason else tr.gettext("The judge resumed %(game)s after a pause of "
                                                              "%(pause)s.")) % values)
        return common.one_stop((tr.gettext("The host resumed %(game)s: %(reason)s after a pause of %(pause)s.")
                                if reason else tr.gettext("The host resumed %(game)s after a pause of %(pause)s."))
                               % values)

    common.tell_seats(judge, game_id, lambda tr: tr.gettext("the game resumes"),
                      lambda tr: resumed(tr) + " " + tr.gettext(
                          "Every open deadline moved on by the pause (one that started during it by the part it "
                          "was open), and past any day the game does not allow or any absence of its seat.")
                      + f"{common.moved_lines(judge, game_id, moved, tr)}\n\n{common.status_text(judge, game_id, tr)}",
                      f"resume-{now.isoformat()}")
    return Done(lambda tr: tr.gettext("Game %(game)s resumes after a pause of %(pause)s; open deadlines moved on "
                                      "by it.") % said(tr)
                + f"{common.moved_lines(judge, game_id, moved, tr)}\n\n{common.status_text(judge, game_id, tr)}", head)


COMMAND = HostCommand(
    name="resume", fields=(Field("reason", "text", "why, for the players"),), logs=("GameResumed", "DeadlineMoved"),
    once=True, guide=GUIDE, process=process,
    help="Resume a paused game: every open deadline moves on by the length of the pause; every seat is told.")
