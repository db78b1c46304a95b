"""Players' commands by mail (issue 16): a document from a seat's own address with its
key and a ``command:`` line instead of orders::

    game: g2
    seat: east
    key: <the seat key>
    command: help           # one of COMMANDS (the registry's seat commands)
    ...                     # the command's own keys

Sender and key are checked exactly as for orders (``envelope.check_envelope``: the
same refusals, the same lockout, no oracle). A command that changes anything records
it as an event in the game's hash chain; every command is answered with a reply
wrapped like the other mails, and a refusal says what to write instead. A command
that changes the game or the seat is carried out once: a copy of one applied before
is refused unless it carries a new ``seq:`` (:mod:`pbem.service.commands.replay`, issue 25.8).

Each command is one module of :mod:`pbem.service.commands.seat` declaring a
:class:`~pbem.service.commands.registry.SeatCommand`, listed in the registry
(:mod:`pbem.service.commands.catalogue`); its ``process`` takes ``(service, game_id,
seat, doc)`` and returns a :class:`~pbem.service.commands.reply.Reply` or raises
:class:`~pbem.service.commands.reply.CommandError` with the problems. This module is
the one dispatch: the envelope, the seat's rate limit (:class:`~pbem.service.commands.registry.Limit`
``counted_by="dispatch"``), the ended game, the copy of a command applied before, then
``process`` and the answer.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import timedelta
from typing import Any

from pbem.mail.message import ParsedMail
from pbem.mail.suggest import suggest
from pbem.problems import Problem
from pbem.service.base.context import Service
from pbem.service.commands import replay
from pbem.service.commands.catalogue import REGISTRY
from pbem.service.commands.registry import SeatCommand, Who
from pbem.service.commands.reply import CommandError, send
from pbem.service.identity import envelope
from pbem.service.log import trust
from pbem.service.outgoing import answers

COMMAND_KEYS = ("game", "seat", "key", "command")
"""The keys every player command carries (a command's own keys come on top)."""


COMMANDS: tuple[str, ...] = REGISTRY.names(Who.SEAT)
"""The seat commands' names (:mod:`pbem.service.commands.catalogue`)."""
LOGGED_PER_HOUR: dict[str, int] = {c.name: c.limit.most for c in REGISTRY if isinstance(c, SeatCommand)
                                   and c.limit is not None and c.limit.counted_by == "dispatch"}
"""Commands that log an event each time, and how many a seat may send in any hour (so
a loop of them cannot fill the game's log; ``resend`` keeps its own lower limit): the
commands whose :class:`~pbem.service.commands.registry.Limit` is counted here."""


def _over_limit(judge: Service, game_id: str | None, seat: str | None, name: str) -> list[Problem]:
    """The refusal of ``name`` when ``seat`` used it :data:`LOGGED_PER_HOUR` times in the
    hour before now, else no problem."""
    if game_id is None or seat is None:
        return []
    email = next((r["email"] for r in judge.store.seats(game_id) if r["seat"] == seat), None)
    since = (judge.clock() - timedelta(hours=1)).isoformat()
    used = len(judge.store.auth_failure_times(game_id, seat, since, (f"command.{name}",), email))
    if used < LOGGED_PER_HOUR[name]:
        return []
    return [Problem(message=f"Seat {seat} sent `command: {name}` {used} times within the hour; the judge takes "
                    f"it at most {LOGGED_PER_HOUR[name]} times an hour.", where="command", code="command.rate",
                    hint="Wait an hour, then send the command once with everything you want in it.",
                    params={"command": name, "used": used, "most": LOGGED_PER_HOUR[name]})]


def handle_mail(judge: Service, parsed: ParsedMail, doc: Mapping[str, Any], rec: answers.Recorder,
                shown: Mapping[str, Any]) -> str:
    """A player's command by mail: envelope checked as for orders, then the handler (a
    ``confirm:`` document of an address change goes to
    :func:`pbem.service.commands.seat.address.confirm_mail` without the envelope check).
    Returns the inbox status (``answered``, ``rejected`` or ``held``)."""
    if "confirm" in doc and "command" not in doc:  # from an address that is not the seat's yet
        return REGISTRY.request("confirm").process(judge, parsed, doc, rec, shown)
    name = doc.get("command")
    command = REGISTRY.seat(name)
    own = tuple(f.name for f in command.fields) if command else ()
    # the command's own keys are allowed (and named when a key is unknown: `txt:` -> `text`), and so is a
    # `step:` line of a block copied from a prompt (break16: it was refused as an unknown key)
    checked = envelope.check_envelope(judge, parsed, doc, keys=COMMAND_KEYS)
    game_id, seat = checked.game_id, checked.seat
    issues = [_unknown(i, name, own) if i.code == "envelope.unknown_key" else i for i in checked.issues
              if not (i.code == "envelope.unknown_key" and (i.where in own or i.where == "step"))]
    if checked.held:
        return answers.reject(judge, parsed, rec, issues, game_id, seat, {"document": shown}, status="held",
                              reason=checked.reason)
    if not issues and command is None:
        issues = [Problem(message=f"There is no player command {name!r}.", where="command",
                          code="command.unknown",
                          hint=f"The commands are: {', '.join(sorted(COMMANDS))} (docs/player-guide.md).")]
    status = (judge.store.game(game_id) or {}).get("status") if game_id and not issues else None
    if status in trust.ENDED and not (command and command.after_end):  # an ended game's log takes no more events (break16)
        issues = [Problem(message=f"Game {game_id} is {status}: `command: {name}` no longer applies.",
                          where="command", code="game.over",
                          hint="`command: help` still answers, and `command: archive` mails the game's "
                               "archive: the seed and the whole log.")]
    if not issues and name in LOGGED_PER_HOUR:
        issues = _over_limit(judge, game_id, seat, name)
    if not issues and command and command.once and "seq" not in doc:  # a copy of one applied (issue 25.8)
        assert game_id is not None and seat is not None
        again = replay.repeated(judge, game_id, seat, doc, judge.store.standing_seq(game_id, seat) + 1)
        issues = [again] if again else []
    if issues:
        return answers.reject(judge, parsed, rec, issues, game_id, seat, {"document": shown},
                              reason=_reason(checked, issues))
    assert game_id is not None and seat is not None and command is not None and isinstance(name, str)
    try:
        reply = command.process(judge, game_id, seat, doc)
    except CommandError as exc:
        return answers.reject(judge, parsed, rec, list(exc.problems), game_id, seat, {"document": shown},
                              reason=exc.problems[0].code if exc.problems else "command")
    iid = rec("answered", f"command.{name}", game_id=game_id, seat=seat, result={"document": shown})
    if command.once:
        replay.record(judge, game_id, seat, doc, checked.seq, iid)
    if checked.seq:  # the seat's one counter: standing orders and commands (issue 25.8)
        judge.store.set_standing_seq(game_id, seat, checked.seq)
    send(judge, parsed, game_id, reply, iid)
    return "answered"


def _reason(checked: envelope.Checked, issues: Sequence[Problem]) -> str:
    """The inbox row's reason of a refused command: the envelope's, unless it names a
    problem left out here (a command's own key, which the envelope took for unknown):
    then the first problem the sender is told of. A command refused only for a stale
    ``seq:`` read ``envelope.unknown_key`` (issue 25, third break-it pass)."""
    dropped = {i.code for i in checked.issues} - {i.code for i in issues}
    if checked.reason and checked.reason not in dropped:
        return checked.reason
    return issues[0].code if issues else ""


def _unknown(issue: Problem, name: Any, own: Sequence[str]) -> Problem:
    """An unknown key of a command mail, named with the keys the command takes (the
    envelope's own message lists only game, seat, key and command; break16)."""
    allowed = [*COMMAND_KEYS, *own]
    near = suggest(str(issue.where), allowed)
    what = f"`command: {name}`" if isinstance(name, str) and name in COMMANDS else "a command mail"
    return Problem(message=f"Unknown key `{issue.where}` in {what}; it takes: {', '.join(allowed)}.",
                   where=issue.where, code=issue.code,
                   hint=f"Did you mean `{near}`?" if near else "Leave the line out (docs/player-guide.md, "
                                                               "\"Commands by mail\").")

