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
from pbem.rules.core.derived import cells_written, dropped, part_written
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


_CUS_WRITERS: dict[str, EventKind] = {
    name: k for name, k in CATALOGUE.items()
    if k.reduce is not None and (k.writes is None or "cus" in k.writes)}
"""The kinds whose reducer may write ``s["cus"]`` (declared, or no ``writes``)."""


MEMO_PARTS: tuple[str, ...] = ("garrisons", "generals")
"""The parts whose derived values :func:`pbem.rules.core.derived.memo_of` may keep."""
_MEMO_WRITERS: dict[str, tuple[str, ...]] = {
    name: parts for name, k in CATALOGUE.items() if k.reduce is not None
    for parts in [tuple(p for p in MEMO_PARTS if k.writes is None or p in k.writes)] if parts}
"""Per kind whose reducer may write a part of :data:`MEMO_PARTS`, those parts."""


def reduce(s: State, event: Event) -> None:
    """Apply ``event`` to the working dict ``s`` in place (its kind's reducer; nothing for
    kinds that change no position). Raises :class:`UndeclaredEvent` for an unknown kind.
    After a kind that may write ``s["cus"]``, the index of who holds CUs where
    (:mod:`pbem.rules.core.derived`) is updated at the spaces the kind's ``cells``
    declare, or dropped when it declares none; the values kept of the parts in
    :data:`MEMO_PARTS` it may write are dropped (:func:`pbem.rules.core.derived.memo_of`)."""
    fn = kind_of(event.kind).reduce
    if fn is None:
        return
    memos = _MEMO_WRITERS.get(event.kind)
    if memos is not None:
        for p in memos:
            part_written(s.get(p))
    k = _CUS_WRITERS.get(event.kind)
    if k is None:
        fn(s, dict(event.data))
        if memos is not None:  # a part replaced by the reducer: its new object too
            for p in memos:
                part_written(s.get(p))
        return
    before = s.get("cus")
    fn(s, dict(event.data))
    cells = k.cells(event.data) if k.cells is not None else None
    if cells is not None and "cus" in cells and s.get("cus") is before:
        cells_written(s, cells["cus"])
    else:
        dropped(before)
        dropped(s.get("cus"))
    if memos is not None:  # a part replaced by the reducer: its new object too
        for p in memos:
            part_written(s.get(p))


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
