"""The event catalogue: every event kind of the rules core, declared once with its
fields, its reducer and its report sentence (:class:`~pbem.rules.core.events.base.EventKind`).

Families: :mod:`.pieces` (the board), :mod:`.cards` (the Tyche deck), :mod:`.turn` (the
sequence of play, orders, victory), :mod:`.war` (movement and combat), :mod:`.royals`
(legitimacy and the royal family), :mod:`.judge` (the judge's own entries: the seed
commitment, the orders documents, seat changes), :mod:`.host` (the table: host and
player commands, issue 16). ``Ctx.emit``
accepts only declared kinds with their declared fields (:func:`kind_of`), and takes an
event's visibility from its kind; :func:`reduce` applies an event to a working dict;
:func:`sentence` tells it in words.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.pack.model import Pack
from pbem.rules.core.events import cards, host, judge, pieces, royals, turn, war
from pbem.rules.core.events.base import EventKind, EventShapeError, UndeclaredEvent
from pbem.rules.core.names import ENGLISH, Words
from pbem.rules.core.state import Event, State

CATALOGUE: dict[str, EventKind] = {}
for _family in (pieces, turn, cards, war, royals, judge, host):
    for _kind in _family.KINDS:
        if _kind.name in CATALOGUE:
            raise ValueError(f"event kind {_kind.name} is declared twice")
        CATALOGUE[_kind.name] = _kind


def kind_of(name: str) -> EventKind:
    """The declared kind ``name``. Raises :class:`UndeclaredEvent` otherwise."""
    try:
        return CATALOGUE[name]
    except KeyError:
        raise UndeclaredEvent(f"event kind {name!r} is not declared in pbem.rules.core.events"
                              ) from None


def reduce(s: State, event: Event) -> None:
    """Apply ``event`` to the working dict ``s`` in place (its kind's reducer; nothing for
    kinds that change no position). Raises :class:`UndeclaredEvent` for an unknown kind."""
    fn = kind_of(event.kind).reduce
    if fn is not None:
        fn(s, dict(event.data))


def sentence(pack: Pack, kind: str, data: Mapping[str, Any], t: Words = ENGLISH) -> str:
    """The report sentence of an event (empty for kinds reports do not tell), in the
    language of the translations object ``t`` (English when not given; issue 28: the
    event stays language-free, only its sentence is translated). Raises
    :class:`UndeclaredEvent` for an unknown kind; a sentence that fails raises too."""
    say = kind_of(kind).say
    return say(pack, data, t) if say is not None else ""


def judge_event(kind: str, data: Mapping[str, Any]) -> Event:
    """An event of a declared kind made outside a rules context (the judge's own entries,
    :mod:`.judge`), its visibility taken from the kind as ``Ctx.emit`` does. Raises
    :class:`UndeclaredEvent` or :class:`EventShapeError`."""
    k = kind_of(kind)
    k.check(data)
    return Event(kind, dict(data), k.seen_by == "all", data["seat"] if k.seen_by == "seat" else None)


def known_kinds() -> list[str]:
    """Every declared event kind, sorted."""
    return sorted(CATALOGUE)


__all__ = ["CATALOGUE", "EventKind", "EventShapeError", "UndeclaredEvent", "judge_event", "kind_of",
           "known_kinds", "reduce", "sentence"]
