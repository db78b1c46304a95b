"""``command: resend`` (host): the pending prompt of a seat, or of every seat waited
on, again; the deadline unchanged."""
from __future__ import annotations

from pbem import rules
from pbem.service.base.context import Service
from pbem.service.commands.host import common
from pbem.service.commands.registry import Done, Field, Guide, HostCommand, HostRequest, Refused
from pbem.service.log.trust import log_events
from pbem.service.play.reports import prompt_again


def _resend(judge: Service, game_id: str, seat: str | None, via: str = "mail") -> Done:
    """The pending prompt of ``seat`` (every waited-on seat when None) again."""
    state = judge.state(game_id)
    waited = [d.seat for d in rules.pending(state) if seat is None or d.seat == seat]
    if not waited:
        raise Refused(lambda tr: tr.gettext("%(seat)s has no pending decision in %(game)s; %(status)s shows who is "
                                            "waited on") % {
            "seat": seat or tr.gettext("no seat"), "game": game_id,
            "status": common.say(via, "`command: status`", f"`pbem host status {game_id}`")})
    data = {"command": "resend", **({"seat": seat} if seat else {})}
    head = log_events(judge, game_id, [rules.judge_event("HostActed", data)])
    for s in waited:
        prompt_again(judge, game_id, s, again=head)
    return Done(lambda tr: tr.gettext("The prompt of %(seats)s is sent again.") % {"seats": ", ".join(waited)},
                head)  # the host's language (issue 28)


def process(judge: Service, request: HostRequest) -> Done:
    """:func:`_resend` with the request's ``seat``."""
    return _resend(judge, request.game_id, request.values.get("seat"), request.via)


COMMAND = HostCommand(
    name="resend", fields=(Field("seat", "seat", "only this seat's prompt"),), logs=("HostActed",),
    guide=Guide("host-guide.md", "Host commands"), process=process,
    help="The pending prompt of `seat:` (or of every seat waited on) again, its deadline unchanged.")
