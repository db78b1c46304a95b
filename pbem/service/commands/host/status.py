"""``command: status`` / ``pbem host status``: the game, who is waited on with the deadlines, and each seat's NMR counts."""
from __future__ import annotations

from pbem import rules
from pbem.service.base.context import Service
from pbem.service.commands.host import common
from pbem.service.commands.registry import Done, Guide, HostCommand, HostRequest
from pbem.service.log import trust
from pbem.service.log.trust import log_events

GUIDE = Guide("host-guide.md", "Host commands")


def process(judge: Service, request: HostRequest) -> Done:
    """The status text; logged as ``HostActed`` (nothing once the game is over: an
    ended game's log takes no more events, break16)."""
    store = judge.store
    head = (trust.witness(store, request.game_id) if request.game["status"] in trust.ENDED else
            log_events(judge, request.game_id, [rules.judge_event("HostActed", {"command": "status"})]))
    return Done(lambda tr: common.status_text(judge, request.game_id, tr), head)  # the host's language


COMMAND = HostCommand(
    name="status", fields=(), logs=("HostActed",), after_end=True, guide=GUIDE, process=process,
    help="The game's status and step, every seat waited on with its deadline, and each seat's NMR counts.")
