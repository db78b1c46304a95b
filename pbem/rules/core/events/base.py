"""What an event kind is (:class:`EventKind`), and the helpers reducers share.

An event kind is declared once, in one family module of :mod:`pbem.rules.core.events`,
with the fields its data carries, its reducer (how it changes a working dict; none for
events that only record what happened) and its report sentence (none for bookkeeping
that is not told). Reducers read only the event's data (never the pack or dice), so
``fold(initial, events)`` rebuilds any state exactly.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from pbem.pack.model import Pack
from pbem.rules.core.names import Words, cus_text, space_name
from pbem.rules.core.state import State

Reducer = Callable[[State, dict[str, Any]], None]
"""Changes a working dict in place from one event's data."""
Sentence = Callable[[Pack, Mapping[str, Any], Words], str]
"""One sentence for the reports from the pack (printed names), an event's data and the
reader's translations object (:class:`~pbem.rules.core.names.Words`; issue 28)."""
SEEN_BY = ("all", "seat", "judge")


def said(message: str, **fields: Callable[[Pack, Mapping[str, Any], Words], Any]) -> Sentence:
    """A sentence of one message whose ``%(name)s`` placeholders are filled by
    ``fields[name](pack, data, t)``: ``said(N_("%(seat)s ..."), seat=seat_of)``."""
    def say(p: Pack, d: Mapping[str, Any], t: Words) -> str:
        return t.gettext(message) % {k: f(p, d, t) for k, f in fields.items()}
    return say


def cus_count(cus: Any) -> int:
    """How many CUs a ``{type: count}`` mapping holds (0 for anything else): the count a
    verb whose subject is those CUs agrees with (issue 24 N10)."""
    if not isinstance(cus, Mapping):
        return 0
    return sum(n for n in cus.values() if isinstance(n, int) and not isinstance(n, bool))


def seat_of(p: Pack, d: Mapping[str, Any], t: Words) -> Any:
    """An event's seat (a name: not translated), for :func:`said`."""
    return d.get("seat")


def space_of(p: Pack, d: Mapping[str, Any], t: Words) -> str:
    """An event's space by its printed name, for :func:`said`."""
    return space_name(p, d.get("space"), t)


def cus_of(p: Pack, d: Mapping[str, Any], t: Words) -> str:
    """An event's CUs in words (``"2 loyal, 1 mercenary"``), for :func:`said`."""
    return cus_text(d.get("cus"), p, t)


@dataclass(frozen=True)
class EventKind:
    """One kind of event, in the past tense (``GarrisonPlaced``).

    ``fields``: the data keys every event of the kind carries; ``optional``: keys it may
    carry; ``reduce``: its :data:`Reducer`, None when it changes nothing in the position
    (a roll, a note); ``say``: its report :data:`Sentence`, None for bookkeeping that
    reports do not tell (a window closing); ``seen_by``: ``"all"`` (public),
    ``"seat"`` (only the seat in ``data["seat"]``: a dealt hand, standing orders) or
    ``"judge"`` (nobody: the deck order, a suspended move). ``writes``: the top-level
    parts of the working dict its reducer may change (``("private", "discards")``), or
    None when not declared (it may change anything); a declaration lets
    :meth:`pbem.rules.context.Ctx.emit` skip the royal family's and the Champions'
    settlement after events that cannot change the board (tests/rules/test_event_writes.py
    checks every declaration against the reducers in played games). ``where``: the
    spaces whose pieces its reducer changes, read from an event's data (None: not
    declared); the royal family's settlement then looks only at the members there.
    ``cells``: for some parts of ``writes`` (dicts), the only entries (keys) its reducer
    writes, read from an event's data (``{"cus": (space,)}``), so copy on write copies
    only those entries (:meth:`pbem.rules.context.Ctx._own`; None: not declared)."""

    name: str
    fields: tuple[str, ...]
    optional: tuple[str, ...] = ()
    reduce: Reducer | None = None
    say: Sentence | None = None
    seen_by: str = "all"
    writes: tuple[str, ...] | None = None
    where: Callable[[Mapping[str, Any]], tuple[str, ...]] | None = None
    cells: Callable[[Mapping[str, Any]], dict[str, tuple[str, ...]]] | None = None

    def __post_init__(self) -> None:
        if self.seen_by not in SEEN_BY:
            raise ValueError(f"{self.name}: seen_by must be one of {SEEN_BY}")

    @cached_property
    def _keys(self) -> tuple[frozenset[str], frozenset[str]]:
        return frozenset(self.fields), frozenset(self.fields) | frozenset(self.optional)

    def check(self, data: Mapping[str, Any]) -> None:
        """Raise :class:`EventShapeError` when ``data`` lacks a field of the kind or
        carries one the kind does not declare."""
        required, allowed = self._keys
        if required <= data.keys() <= allowed:
            return
        missing = [f for f in self.fields if f not in data]
        extra = [k for k in data if k not in self.fields and k not in self.optional]
        if missing or extra:
            raise EventShapeError(f"{self.name}: missing fields {missing}, undeclared "
                                  f"fields {extra} (declare them in pbem.rules.core.events)")


class UndeclaredEvent(KeyError):
    """An event kind that the catalogue does not declare."""


class EventShapeError(ValueError):
    """An event whose data does not have the fields its kind declares."""


# --- helpers shared by reducers -----------------------------------------------------

def of_seat(d: Mapping[str, Any]) -> dict[str, tuple[str, ...]]:
    """:attr:`EventKind.cells` of the kinds that change only the private part of the
    seat in their data (``private[seat]``: its hand, training, standing orders)."""
    return {"private": (d["seat"],)}


def war(s: State) -> dict[str, Any]:
    """The ``war`` part of a working dict, created on first use."""
    w = s.get("war")
    if w is None:
        w = s["war"] = {}
    for k, v in (("sieges", {}), ("fleets", {}), ("pause", None)):
        w.setdefault(k, v)
    return w


def add_cus(s: State, seat: str, space: str, cus: dict[str, int]) -> None:
    """Add ``cus`` ({type: n}, n may be negative) to ``seat``'s stack in ``space``,
    dropping empty entries. Raises ValueError when a count would go below zero."""
    at = s["cus"].setdefault(space, {}).setdefault(seat, {})
    for t, n in cus.items():
        at[t] = at.get(t, 0) + n
        if at[t] == 0:
            del at[t]
        elif at[t] < 0:
            raise ValueError(f"negative CUs of {t} for {seat} in {space}")
    if not at:
        del s["cus"][space][seat]
    if not s["cus"][space]:
        del s["cus"][space]
    clip_inside(s, space)


def add_dispersed(s: State, seat: str, cus: dict[str, int]) -> None:
    """Put ``cus`` ({type: n}) into ``seat``'s dispersed box (R-4.2, R-9.2)."""
    box = s["dispersed"].setdefault(seat, {})
    for t, n in cus.items():
        box[t] = box.get(t, 0) + n


def clip_inside(s: State, space: str) -> None:
    """Keep the inside record of ``space`` (R-5, :mod:`pbem.rules.core.pieces`) a subset
    of what is there: CUs that left or died come from outside first, then from inside;
    generals no longer in the space are no longer inside; an empty record goes."""
    rec = (s.get("inside") or {}).get(space)
    if not rec:
        return
    have = s["cus"].get(space, {}).get(rec["seat"], {})
    rec["cus"] = {t: min(n, have.get(t, 0)) for t, n in rec["cus"].items()
                  if have.get(t, 0) > 0}
    rec["generals"] = [g for g in rec["generals"]
                       if s["generals"].get(g, {}).get("where") == "map"
                       and s["generals"][g].get("space") == space]
    if not rec["cus"] and not rec["generals"]:
        del s["inside"][space]


def lift_sieges(s: State, seat: str, space: str) -> None:
    """R-10: ``seat``'s siege of ``space`` ends when none of its CUs are left there."""
    w = war(s)
    sg = w["sieges"].get(space)
    if sg and sg["seat"] == seat and not sum(s["cus"].get(space, {}).get(seat, {}).values()):
        del w["sieges"][space]
