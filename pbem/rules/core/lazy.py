"""Legal options computed only as far as somebody reads them (issue 27 item 5, fourth pass).

A player-turn's legal options (:func:`pbem.rules.phases.player_turn.player_turn_options`)
list every part of the seat's choices: the hand and each card's uses, the garrison
spaces, the event choices of every card, the armies and their pick-ups, the mercenary
spaces, surrenders, heirs... The prompt and the reports read them all, but a random
bot's candidate reads a few (one card's uses, the garrison spaces only for a garrison
use, one card's event choices), and :func:`pbem.rules.engine.pending` builds them for
every decision whether or not its caller reads them.

The design chosen: :class:`LazyOptions`, a read-only :class:`collections.abc.Mapping`
(not a ``dict`` subclass: C code such as ``json.dumps`` would read a dict's real entries,
which would be missing) whose keys are all known when it is made, in the prompt's
order, and whose values are computed on their first read and kept. It is memoised per
state and seat like the plain dict it replaces (:attr:`GameState.memo`, by
:func:`pbem.rules.engine.legal_options`), so every reader of the same state sees the
same values, computed once. Every reader that iterates it, compares it (``==``), or
copies it (``dict(...)``) sees exactly the plain dict of before, key for key and in
order; the values are those the eager code computed (the same functions of the same
immutable state: a state's working dict is never written after it is made, copy on
write). ``json.dumps`` refuses it loudly (a Mapping is not a dict): the readers that
serialise (the seat JSON, :func:`pbem.rules.view`, :meth:`Decision.to_dict`) take
``dict(...)`` first. The alternative weighed, ``Decision.options`` computed lazily and
a separate per-part API for the bot, would have changed every reader of a decision;
the Mapping keeps the readers as they are and lets the bot ask per part only where it
pays (:meth:`LazyOptions.part`: one hand card's entry and event choices)."""
from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any


class LazyOptions(Mapping[str, Any]):
    """A read-only mapping ``{key: value}`` whose values are computed on first read.

    ``thunks``: ``{key: zero-argument function giving the value}``, in the order of
    the keys (iteration, ``dict(...)``, ``==`` and ``repr`` follow it); each is called
    at most once and its value kept. ``parts``: named accessors for callers that want
    less than a whole key (:meth:`part`), computed from the same memos as the keys.
    A thunk's own ``KeyError`` is raised as :class:`RuntimeError` (so ``.get`` does not
    mistake a broken computation for a missing key). Never mutate a value read from
    it: it is shared by every reader of the state."""

    __slots__ = ("_thunks", "_values", "_parts")

    def __init__(self, thunks: dict[str, Callable[[], Any]],
                 parts: dict[str, Callable[..., Any]] | None = None) -> None:
        self._thunks = thunks
        self._values: dict[str, Any] = {}
        self._parts = parts or {}

    def __getitem__(self, key: str) -> Any:
        values = self._values
        if key in values:
            return values[key]
        thunk = self._thunks[key]  # KeyError: not a key of these options
        try:
            got = values[key] = thunk()
        except KeyError as e:
            raise RuntimeError(f"legal option {key!r} could not be computed: {e!r}") from e
        return got

    def __iter__(self) -> Iterator[str]:
        return iter(self._thunks)

    def __len__(self) -> int:
        return len(self._thunks)

    def __contains__(self, key: object) -> bool:
        return key in self._thunks

    def __repr__(self) -> str:
        return f"LazyOptions({dict(self)!r})"

    def part(self, name: str, *args: Any) -> Any:
        """The accessor ``name`` called with ``args`` (e.g. ``part("card", 54)``: one hand
        card's entry of ``hand``); ``KeyError`` when these options have no such part
        (then read the whole key)."""
        return self._parts[name](*args)

    def has_part(self, name: str) -> bool:
        """Whether :meth:`part` knows ``name``."""
        return name in self._parts
