"""The plain data of the rules core: game state, events, decisions (R-2 … R-16).

The state is a frozen dataclass whose fields hold JSON-like values (str, int, bool, None,
lists and dicts keyed by str). It is treated as immutable: the engine copies it into a
*working dict* (:meth:`GameState.to_dict`), changes that dict only through event reducers
(:mod:`pbem.rules.core.events`) and freezes it again (:meth:`GameState.from_dict`).
Because every change goes through an event, ``fold(initial, events)`` rebuilds the live
state.
"""
from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

State = dict[str, Any]
"""A working dict: the fields of :class:`GameState` as plain data."""

SEATS: tuple[str, ...] = ("north", "east", "south", "west")
"""The four seats in clockwise order (R-2)."""


@dataclass(frozen=True)
class GameState:
    """The whole position of one game (R-2 … R-16). Plain data; see the module docstring
    for the shape of each field. Never mutate a GameState: use the engine."""

    pack_name: str
    step: int = 0
    turn: int = 1
    round: int = 1
    phase: str = "strategy"
    active: str | None = None
    turn_order: list = field(default_factory=list)
    usurpers: list = field(default_factory=list)
    champions: list = field(default_factory=list)
    garrisons: dict = field(default_factory=dict)
    independent: list = field(default_factory=list)
    cus: dict = field(default_factory=dict)
    dispersed: dict = field(default_factory=dict)
    generals: dict = field(default_factory=dict)
    minors: dict = field(default_factory=dict)
    royals: dict = field(default_factory=dict)
    indep_armies: dict = field(default_factory=dict)
    deck: list = field(default_factory=list)
    hands: dict = field(default_factory=dict)
    discards: list = field(default_factory=list)
    removed: list = field(default_factory=list)
    primary: dict = field(default_factory=dict)
    training: dict = field(default_factory=dict)
    training_cards: dict = field(default_factory=dict)
    lp_adjust: dict = field(default_factory=dict)
    played: list = field(default_factory=list)
    claim: dict | None = None
    result: dict | None = None
    commanders: dict = field(default_factory=dict)
    reinforce: dict | None = None
    options: dict = field(default_factory=dict)
    war: dict = field(default_factory=dict)
    inside: dict = field(default_factory=dict)

    __hash__ = None  # type: ignore[assignment]  # holds dicts: equality only

    def to_dict(self) -> dict[str, Any]:
        """Return a deep, JSON-safe copy of the state (a working dict)."""
        return {f.name: _copy(getattr(self, f.name)) for f in fields(self)}

    def peek(self) -> dict[str, Any]:
        """The fields as a dict *without copying*: for read-only code (options, views).
        Never mutate the result."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameState:
        """Build a state from :meth:`to_dict` output (deep-copied; unknown keys are an
        error: ``TypeError``)."""
        return cls(**{k: _copy(v) for k, v in data.items()})


def _copy(v: Any) -> Any:
    """Deep copy of JSON-like data (dicts, lists, tuples as lists, scalars)."""
    if isinstance(v, dict):
        return {k: _copy(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_copy(x) for x in v]
    if isinstance(v, Mapping):
        return {k: _copy(x) for k, x in v.items()}
    return v


@dataclass(frozen=True)
class Event:
    """Something that happened, in past tense (``GarrisonPlaced``, ``DiceRolled`` …).

    ``data`` is JSON-safe. ``public=False`` events are secret: with ``seat`` set they
    belong to that seat (cards dealt to it); with ``seat=None`` they are for the game
    master only (the deck order)."""

    kind: str
    data: Mapping[str, Any]
    public: bool = True
    seat: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dict ``{"kind", "data", "public", "seat"}``."""
        return {"kind": self.kind, "data": copy.deepcopy(dict(self.data)),
                "public": self.public, "seat": self.seat}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Event:
        """Inverse of :meth:`to_dict`."""
        return cls(kind=data["kind"], data=copy.deepcopy(dict(data["data"])),
                   public=bool(data.get("public", True)), seat=data.get("seat"))


@dataclass(frozen=True)
class Decision:
    """A choice a seat must make now (see ``pending``): ``kind`` is ``"player_turn"``;
    ``step`` is the state's step the answer must quote; ``options`` the legal choices
    (see :func:`pbem.rules.orders.legal_options`); ``default`` the orders applied when
    the deadline passes; ``rule`` the rule ID."""

    seat: str
    kind: str
    step: int
    options: Mapping[str, Any]
    default: Mapping[str, Any]
    rule: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dict of all fields."""
        return {"seat": self.seat, "kind": self.kind, "step": self.step,
                "options": copy.deepcopy(dict(self.options)),
                "default": copy.deepcopy(dict(self.default)), "rule": self.rule}


def public_orders(orders: Any) -> Any:
    """The orders as everyone may see them once applied: standing orders (R-9.3) stay
    private to their seat (they are recorded by a private ``StandingOrdersSet``)."""
    return {k: v for k, v in orders.items() if k != "standing"} if isinstance(orders, dict) else orders


def war_get(s: State, key: str, default: Any = None) -> Any:
    """Read ``s["war"][key]`` without creating anything (read-only paths)."""
    return (s.get("war") or {}).get(key, default)


def is_paused(s: State) -> bool:
    """True while a reaction window is open."""
    return bool((s.get("war") or {}).get("pause"))
