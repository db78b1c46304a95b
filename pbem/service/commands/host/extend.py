"""``command: extend``: the open deadlines (of one seat) move on by some hours."""
from __future__ import annotations

from datetime import timedelta

from pbem.service.base.context import Service
from pbem.service.commands.host import common
from pbem.service.commands.registry import Done, Field, Guide, HostCommand, HostRequest, Refused
from pbem.service.log.trust import log_events

GUIDE = Guide("host-guide.md", "Host commands")

MAX_EXTEND_HOURS = 24 * 366
"""The longest ``extend``, in hours (a year: more would leave the calendar; break16)."""


def process(judge: Service, request: HostRequest) -> Done:
    """Move the open deadlines (of ``seat`` when given) on by ``hours`` (``DeadlineMoved``
    each) and tell each seat whose deadline moved. Raises ValueError for hours out of
    range or no open deadline."""
    game_id, hours, seat = request.game_id, request.values.get("hours"), request.values.get("seat")
    if isinstance(hours, bool) or not isinstance(hours, (int, float)) or not 0 < hours <= MAX_EXTEND_HOURS:
        raise Refused(lambda tr: tr.gettext("extend needs how long, in hours from 1 to %(most)s: %(how)s; got "
                                            "%(got)s") % {
            "most": MAX_EXTEND_HOURS, "got": repr(hours), "how": request.say(
                tr.gettext("`hours: 24` (and optionally `seat: east`)"),
                tr.gettext("--hours 24 (and optionally --seat east)"))})
    moved: list[common.Moved] = []
    try:
        moves = common.moves(judge, game_id, timedelta(hours=hours), "extend", seat, moved=moved)
    except OverflowError:
        raise Refused(lambda tr: tr.gettext("extending by %(hours)s hours would put a deadline past the year 9999; "
                                            "extend by fewer hours") % {"hours": hours}) from None
    if not moves:
        raise Refused(lambda tr: (tr.gettext("no open deadline of %(seat)s in %(game)s to extend") if seat
                                  else tr.gettext("no open deadline in %(game)s to extend")) % {
            "seat": seat, "game": game_id})
    head = log_events(judge, game_id, moves)
    by = timedelta(hours=hours)
    common.tell_moved(judge, game_id, moved, lambda tr: tr.gettext(
        "The host extended your deadline in %(game)s by %(span)s") % {"game": game_id, "span": common.span(by, tr)},
        head)
    return Done(lambda tr: tr.gettext("Extended by %(span)s; the seats whose deadline moved are told the new "
                                      "time.") % {"span": common.span(by, tr)}
                + f"{common.moved_lines(judge, game_id, moved, tr)}\n\n{common.status_text(judge, game_id, tr)}", head)


COMMAND = HostCommand(
    name="extend", fields=(Field("hours", "number", "by how many hours (more than 0, at most 8784)"),
                           Field("seat", "seat", "only this seat's deadline")),
    logs=("DeadlineMoved",), once=True, guide=GUIDE, process=process,
    help="Move the open deadlines (of one seat with `seat:`) on by `hours:`; each seat whose deadline moved is told.")
