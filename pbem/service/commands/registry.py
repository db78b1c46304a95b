"""The command registry (issue 26; docs/pipeline.md, "Adding a command"): everything a
mail or the CLI can ask of the judge besides orders — a seat's commands, the host's
commands, a join and a history request — each declared once, in its own module, as a
:class:`Command`: who may send it, its fields, its rate limit, the events it logs, its
help and where the guide explains it, and what it does (``process``).

The shape is Mailman 3's (``src/mailman/interfaces/command.py``: one object per mail
command, found by name), without its registration by scanning: the catalogue
(:mod:`pbem.service.commands.catalogue`) lists every command in one tuple, and
:class:`Registry` refuses a second command of the same name for the same sender
(:class:`DuplicateCommand`) instead of overwriting the first.

Three kinds, by what ``process`` takes:

- :class:`SeatCommand` (``who`` is :attr:`Who.SEAT`): ``command: NAME`` from a seat's
  address with its key; ``process(service, game_id, seat, document) -> Reply``, or
  raises :class:`pbem.service.commands.reply.CommandError`.
- :class:`HostCommand` (:attr:`Who.HOST`): ``command: NAME`` with the host key, or
  ``pbem host NAME GAME``; ``process(service, HostRequest) -> Done``, or raises
  ValueError saying what to do instead.
- :class:`MailRequest`: a document marked by its own key (``join:``, ``history:``,
  ``confirm:``), or a ``command:`` any address may send without a seat key
  (``by_command``: ``observe``, ``leave``, ``record``, a stranger's ``help``);
  ``process(service, parsed, document, recorder, shown) -> str`` (the inbox status).
  Only by mail.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any, Protocol

from pbem import i18n
from pbem.mail.message import ParsedMail
from pbem.service.base.context import Service
from pbem.service.base.refusal import Refused, refusal_in  # noqa: F401 (re-exported: the commands raise it)
from pbem.service.commands.reply import Reply
from pbem.service.outgoing.answers import Recorder


class Who(StrEnum):
    """Who may send a command."""

    SEAT = "seat"
    """A seat's player: from the seat's address, with the seat key."""
    HOST = "host"
    """The game's host: from the host's address with the host key, or ``pbem host`` on
    the judge's machine."""
    ANYONE = "anyone"
    """Any address (a join to a game open for sign-up)."""


KINDS: Mapping[str, str] = {
    "text": "a text", "seat": "a seat's name, as text", "number": "a number", "whole": "a whole number",
    "flag": "true or false", "date": "a date, YYYY-MM-DD", "address": "Name <address>",
    "choice": "one of its choices", "seats": "a seat, a list of seats or `all`", "any": "a value",
}
"""The kinds of value a field takes, as the answers name them."""


@dataclass(frozen=True)
class Field:
    """One key a command's document (or ``pbem host`` option) takes besides the
    envelope's: its name, its kind (one of :data:`KINDS`) and what it is for."""

    name: str
    kind: str
    help: str

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"field {self.name}: no kind {self.kind!r} (kinds: {', '.join(KINDS)})")


@dataclass(frozen=True)
class Limit:
    """How often a sender may use a command: at most ``most`` within ``per``.
    ``counted_by``: ``"dispatch"`` — the seat commands' dispatcher counts the answered
    uses and refuses the next with ``command.rate``; ``"command"`` — the command counts
    what it does itself (press messages sent, address changes asked) and refuses with
    its own code."""

    most: int
    per: timedelta
    counted_by: str = "command"


@dataclass(frozen=True)
class Guide:
    """Where a command is explained: a guide under ``docs/`` and its section heading."""

    page: str
    section: str


class Command(Protocol):
    """What every command declares (Mailman 3's ``IEmailCommand``, typed)."""

    @property
    def name(self) -> str: ...
    @property
    def who(self) -> Who: ...
    @property
    def fields(self) -> tuple[Field, ...]: ...
    @property
    def limit(self) -> Limit | None: ...
    @property
    def logs(self) -> tuple[str, ...]: ...
    @property
    def help(self) -> str: ...
    @property
    def guide(self) -> Guide: ...


SeatProcess = Callable[[Service, str, str, Mapping[str, Any]], Reply]
"""``(service, game_id, seat, document) -> Reply``; raises CommandError."""


@dataclass(frozen=True)
class SeatCommand:
    """A seat's command by mail (``command: NAME``; docs/player-guide.md, "Commands by
    mail"). ``after_end``: still answered once the game is over; ``once``: a copy of a
    mail applied before is refused unless it carries a new ``seq:`` (issue 25.8)."""

    name: str
    fields: tuple[Field, ...]
    limit: Limit | None
    logs: tuple[str, ...]
    help: str
    guide: Guide
    process: SeatProcess
    after_end: bool = False
    once: bool = False
    who: Who = field(default=Who.SEAT, init=False)


@dataclass(frozen=True)
class HostRequest:
    """A host command's values as :class:`HostCommand` ``process`` takes them: the
    game (its stored row), the checked fields (``seat``/``winner`` lower-cased,
    ``reason`` cleaned), ``via`` (``mail`` or ``cli``: answers name what to do next in
    the host's own terms) and the time."""

    game_id: str
    game: Mapping[str, Any]
    values: Mapping[str, Any]
    via: str
    now: datetime

    def say(self, mail: str, cli: str) -> str:
        """``mail`` for a command given by mail, ``cli`` for one given by ``pbem host``
        (issue 24, finding 14: the CLI answered with mail commands)."""
        return cli if self.via == "cli" else mail


@dataclass(frozen=True)
class Done:
    """What a host command did: the receipt's text (a text, or a function of the host's
    translations object: :data:`pbem.i18n.Localizable`, issue 28) and the log witness
    after it."""

    text: i18n.Localizable
    witness: str | None


HostProcess = Callable[[Service, HostRequest], Done]
"""``(service, request) -> Done``, inside the command's transaction; raises ValueError
saying what to do instead (OverflowError for a deadline moved past the year 9999)."""


@dataclass(frozen=True)
class HostCommand:
    """A host command (docs/host-guide.md, "Host commands"). ``after_end``: still
    works once the game is over; ``once``: a copy of a mail applied before is refused
    unless it carries a new ``seq:`` (issue 25.8)."""

    name: str
    fields: tuple[Field, ...]
    logs: tuple[str, ...]
    help: str
    guide: Guide
    process: HostProcess
    after_end: bool = False
    once: bool = False
    limit: Limit | None = None
    who: Who = field(default=Who.HOST, init=False)


MailProcess = Callable[[Service, ParsedMail, Mapping[str, Any], Recorder, Mapping[str, Any]], str]
"""``(service, parsed, document, recorder, shown) -> inbox status``, inside the intake's
transaction."""


@dataclass(frozen=True)
class MailRequest:
    """A request by mail marked by its own key (``join:``, ``history:``, ``confirm:``),
    not by ``command:``."""

    name: str
    who: Who
    fields: tuple[Field, ...]
    limit: Limit | None
    logs: tuple[str, ...]
    help: str
    guide: Guide
    process: MailProcess
    by_command: bool = False
    """Sent as ``command: NAME`` from any address, without a seat or a key (issue 29:
    ``observe``, ``leave``, ``record``, and ``help`` from an address that is no seat)."""


AnyCommand = SeatCommand | HostCommand | MailRequest


class DuplicateCommand(ValueError):
    """Two commands of the same name for the same sender (a registry never overwrites)."""


class Registry:
    """Every command, found by who sends it and its name. Raises DuplicateCommand when
    two share both."""

    def __init__(self, commands: Iterable[AnyCommand]) -> None:
        self._by: dict[tuple[str, Who], AnyCommand] = {}
        for command in commands:
            self.add(command)

    def add(self, command: AnyCommand) -> None:
        """Register ``command``; raises DuplicateCommand if its name is taken for its
        sender (a seat's ``resend`` and the host's ``resend`` are two commands)."""
        key = (command.name, command.who)
        if key in self._by:
            raise DuplicateCommand(f"two {command.who} commands are named {command.name!r}")
        self._by[key] = command

    def seat(self, name: object) -> SeatCommand | None:
        """The seat command ``name`` (None when there is none, or ``name`` is no text)."""
        found = self._by.get((name, Who.SEAT)) if isinstance(name, str) else None
        return found if isinstance(found, SeatCommand) else None

    def host(self, name: object) -> HostCommand | None:
        """The host command ``name`` (None when there is none, or ``name`` is no text)."""
        found = self._by.get((name, Who.HOST)) if isinstance(name, str) else None
        return found if isinstance(found, HostCommand) else None

    def request(self, name: str) -> MailRequest:
        """The mail request marked by ``name`` (``join``, ``history``, ``confirm``).
        Raises KeyError when there is none."""
        found = next((c for (n, _w), c in self._by.items() if n == name and isinstance(c, MailRequest)), None)
        if found is None:
            raise KeyError(name)
        return found

    def open_command(self, name: object) -> MailRequest | None:
        """The ``command: NAME`` any address may send without a seat key
        (:attr:`MailRequest.by_command`), or None."""
        found = next((c for c in self._by.values() if isinstance(c, MailRequest) and c.by_command
                      and c.name == name), None) if isinstance(name, str) else None
        return found

    def names(self, who: Who) -> tuple[str, ...]:
        """The names of the ``command:`` commands ``who`` may send, in catalogue order."""
        return tuple(c.name for c in self._by.values() if c.who == who and not isinstance(c, MailRequest))

    def __iter__(self) -> Iterator[AnyCommand]:
        return iter(self._by.values())
