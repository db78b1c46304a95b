"""Who holds CUs where, an index of ``s["cus"]`` kept up to date by the reducers (issue
27 item 5, fourth pass): "the spaces where another seat has CUs" was a scan of every
space's stacks, asked thousands of times per game (:func:`pbem.rules.core.pieces.
enemy_unit_spaces`, behind every reinforcement target, R-7.2).

:func:`holders` gives, for one ``cus`` part (the very dict object), ``{seat: set of the
spaces where its CUs sum to more than 0}``. It is made by one scan the first time a
part is asked about and then kept with the part:

- a reducer that writes ``cus`` and declares the spaces it writes (its kind's ``cells``,
  :class:`pbem.rules.core.events.base.EventKind`) has the index updated at exactly those
  spaces (:func:`cells_written`, called by :func:`pbem.rules.core.events.reduce`);
- a reducer that writes ``cus`` without declaring them, or code that changes a part by
  hand outside a reducer, drops the part's index (:func:`dropped`);
- copy on write's copy of a part takes a copy of the old part's index
  (:func:`copied`, called by :meth:`pbem.rules.context.Ctx._own`).

Why it is exact: a part is changed in place only by a reducer (which updates or drops
the index) or by the few hand-written simulations that drop it; a part of a frozen state
is never changed (copy on write copies it before the first write), and the kinds'
``cells`` are the entries their reducers write (tests/rules/test_event_writes.py). An
index holds its part, so no other object can take the part's ``id`` while it is kept;
forgetting an index is always safe (it is made again). The index lives here only: never
in a state, ``to_dict``, a hash, the log or a mail.

:func:`memo_of` keeps values derived from one part the same way, dropped (not updated)
when the part is written: province control (R-3.2) from ``s["garrisons"]``, the
generals by space and seat from ``s["generals"]``.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pbem.pack.model import Pack
from pbem.rules.core.state import State

_KEEP = 16  # parts whose index is kept at most (each holds its part)
_HOLDERS: dict[int, tuple[dict[str, Any], dict[str, set[str]]]] = {}  # id(cus) -> (cus, index)


def _scan(cus: dict[str, dict[str, dict[str, int]]]) -> dict[str, set[str]]:
    """The index of ``cus`` made from scratch (one pass over every space)."""
    out: dict[str, set[str]] = {}
    for x, by in cus.items():
        for o, c in by.items():
            if sum(c.values()):
                if o in out:
                    out[o].add(x)
                else:
                    out[o] = {x}
    return out


def holders(s: State) -> dict[str, set[str]]:
    """``{seat: {space, ...}}``: for each seat (or other owner key of ``s["cus"]``), the
    spaces where its CUs sum to more than 0 (``sum(s["cus"][space][seat].values())``);
    a seat with none may be missing or map to an empty set. Shared and kept up to date
    in place (see the module docstring): never change it, and copy it to keep it."""
    cus = s["cus"]
    hit = _HOLDERS.get(id(cus))
    if hit is not None:
        return hit[1]
    index = _scan(cus)
    if len(_HOLDERS) >= _KEEP:
        _HOLDERS.clear()
    _HOLDERS[id(cus)] = (cus, index)
    return index


def cells_written(s: State, spaces: Iterable[str]) -> None:
    """``s["cus"]`` was just changed at ``spaces`` only (a reducer, by its kind's
    ``cells``): bring its index, when one is kept, up to date there."""
    cus = s["cus"]
    hit = _HOLDERS.get(id(cus))
    if hit is None:
        return
    index = hit[1]
    for x in spaces:
        for xs in index.values():
            xs.discard(x)
        for o, c in cus.get(x, {}).items():
            if sum(c.values()):
                if o in index:
                    index[o].add(x)
                else:
                    index[o] = {x}


def dropped(cus: Any) -> None:
    """The part ``cus`` (a ``s["cus"]`` dict) was changed other than at declared cells:
    forget its index (it is made again when asked)."""
    _HOLDERS.pop(id(cus), None)


def copied(old: Any, new: Any) -> None:
    """``new`` is a copy of the ``cus`` part ``old`` with the same content (copy on
    write, before a reducer writes it): it takes a copy of ``old``'s index, if kept."""
    hit = _HOLDERS.get(id(old))
    if hit is not None:
        if len(_HOLDERS) >= _KEEP:
            _HOLDERS.clear()
        _HOLDERS[id(new)] = (new, {o: set(xs) for o, xs in hit[1].items()})


_KEEP_MEMOS = 16  # parts whose memo is kept at most
_MEMOS: dict[int, tuple[Any, Pack | None, dict[Any, Any]]] = {}  # id(part) -> (part, pack, memo)


def memo_of(s: State, part: str, pack: Pack | None = None) -> dict[Any, Any]:
    """A dict of values derived from the part ``s[part]`` (the very object) and ``pack``
    alone (each keyed by its query and arguments), kept with the part until a reducer
    writes it (:func:`part_written`, called by :func:`pbem.rules.core.events.reduce` for
    the parts a kind declares in ``writes``, or every memo's part when it declares none).
    Exact for the same reasons as the index of :func:`holders`; an empty dict for a part
    not seen before. Its values are shared: never change them."""
    v = s[part]
    hit = _MEMOS.get(id(v))
    if hit is not None and hit[1] is pack:
        return hit[2]
    memo: dict[Any, Any] = {}
    if len(_MEMOS) >= _KEEP_MEMOS:
        _MEMOS.clear()
    _MEMOS[id(v)] = (v, pack, memo)
    return memo


def part_written(v: Any) -> None:
    """The part ``v`` (a top-level value of a working dict) was or is about to be
    changed in place: forget the values :func:`memo_of` kept of it."""
    _MEMOS.pop(id(v), None)
