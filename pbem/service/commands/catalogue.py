"""The catalogue: every command a mail or the CLI can ask besides orders, one line
each (docs/pipeline.md, "Adding a command"). :class:`~pbem.service.commands.registry.Registry`
refuses two commands of one name for one sender; nothing registers itself on import."""
from __future__ import annotations

from pbem.service.commands import history, join, standby
from pbem.service.commands.anyone import guide, observe, record
from pbem.service.commands.host import (
    approve,
    end,
    extend,
    pause,
    replace,
    resume,
    rollback,
    status,
    webhook,
)
from pbem.service.commands.host import resend as host_resend
from pbem.service.commands.registry import Registry
from pbem.service.commands.seat import (
    absence,
    address,
    archive,
    help,
    preferences,
    press,
    resend,
    votes,
)

REGISTRY = Registry([
    # a seat's commands (docs/player-guide.md, "Commands by mail")
    help.COMMAND,
    resend.COMMAND,
    absence.COMMAND,
    address.COMMAND,
    preferences.COMMAND,
    press.COMMAND,
    archive.COMMAND,
    votes.STATUS,
    votes.PROPOSE,
    votes.VOTE,
    # the host's commands (docs/host-guide.md, "Host commands"), in the order the answers list them
    status.COMMAND,
    pause.COMMAND,
    resume.COMMAND,
    extend.COMMAND,
    replace.COMMAND,
    approve.COMMAND,
    host_resend.COMMAND,
    end.COMMAND,
    rollback.COMMAND,
    observe.HOST,
    webhook.COMMAND,
    # requests marked by their own key
    join.REQUEST,
    history.REQUEST,
    address.CONFIRM,
    standby.STANDBY,
    standby.TAKE,
    # `command: NAME` from any address, without a seat key (issue 29)
    observe.OBSERVE,
    observe.LEAVE,
    record.RECORD,
    guide.HELP,
])
"""Every command, found by who sends it and its name."""
