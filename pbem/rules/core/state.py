"""The plain data of the rules core: game state, events, decisions (R-2 … R-16).

The state is a frozen dataclass whose fields hold JSON-like values (str, int, bool, None,
lists and dicts keyed by str). It is treated as immutable: the engine copies it into a
*working dict* (:meth:`GameState.to_dict`), changes that dict only through event reducers
(:mod:`pbem.rules.core.events`) and freezes it again (:meth:`GameState.from_dict`).
Because every change goes through an event, ``fold(initial, events)`` rebuilds the live
state. A state carries its data pack (:attr:`GameState.pack`, not part of the data and
not compared): the rules core reads the pack only from there, never from a registry.

Working-dict shape (keys of :class:`GameState`; the sub-states are typed below)::

    pack_name: str            step: int          turn: int (1..5)     round: int
    phase: "strategy" | "over"                   active: seat | None
    turn_order: [seat, ...]   usurpers: [seat]   champions: [seat]
    garrisons: {space_id: seat}                  independent: [space_id] (markers, R-3.3)
    cus: {space_id: {seat: {cu_type: count}}}    dispersed: {seat: {cu_type: count}}
    generals: {general_id: General}              minors: {seat: [space_id]} (R-5)
    royals: {royal_id: Royal}                    indep_armies: {army_id: IndepArmy}
    discards: [card_no]       removed: [card_no] primary: {seat: [card_no]}
    training_cards: {seat: int}  (cards used for training this turn, R-8.4)
    lp_adjust: {seat: int}       played: [seat] (seats done in the current round)
    claim: Claim | None (R-1.1)  result: {"winner": seat, "how": str, ...} | None
    commanders: {space_id: general_id}  (equal-rank choice of the owner, R-5)
    reinforce: Reinforce | None  (R-7 phase)
    order_choice: OrderChoice | None  (R-6.1: the seat naming the first player)
    options: {name: value}       rule options of the game (e.g. lp_bonus_tie, cassander)
    war: War                     (R-9 … R-15: sieges, fleets, special units, open window)
    inside: {space_id: InsideRecord}  units inside a major city, a subset of ``cus`` (R-5)
    court: Court                 legitimacy and the royal family (R-11, R-12): marriage
                                 offers, the tomb, card adjustments, Condemnation, heirs
    private: {seat: SeatPrivate} what only that seat may see: its hand, its training,
                                 its standing orders, its withheld orders (R-6.4, R-8.4,
                                 R-9.3); :func:`pbem.rules.view.view` strips the others'
    secret: Secret               what no seat may see: the deck order, the suspended
                                 rest of a move while a reaction window is open
    conceded: [seat]             seats that conceded by the table's vote (issue 29,
                                 ``SeatConceded``): out of the contest for victory
                                 (R-1.1–R-1.3 pass them over); only in the dict when
                                 some seat conceded, so other states are as before
"""
from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, NotRequired, TypedDict

from pbem.pack.model import Pack

State = dict[str, Any]
"""A working dict: the fields of :class:`GameState` as plain data."""

SEATS: tuple[str, ...] = ("north", "east", "south", "west")
"""The four seats in clockwise order (R-2)."""


# --- typed sub-states (the values a working dict holds) -----------------------------

class General(TypedDict):
    """``generals[id]``: ``where`` is map | track | deck | dispersed | dead | box (R-5)."""
    seat: str | None
    where: str
    space: str | None


class Royal(TypedDict):
    """``royals[id]`` (R-12): where the member is, whether active (women); ``seat``: the
    controller (R-12.1; changed only by events, see :mod:`pbem.rules.core.royals`;
    missing in snapshots older than the field: control is then read from the position);
    ``gone`` once removed from play (dead, come of age, lost, buried)."""
    space: str | None
    active: bool
    seat: NotRequired[str | None]
    gone: NotRequired[bool]


class Offer(TypedDict):
    """``court["offers"][royal]`` (R-12.2): a marriage offer standing until the end of
    the turn; the card lies before ``seat`` meanwhile; ``married`` once it took place."""
    seat: str
    card: int
    married: bool


class Court(TypedDict, total=False):
    """``court`` (R-11, R-12): ``offers`` {royal: Offer}; ``tomb`` {space, seat (who
    buried), pella: bool} once the body is buried (R-12.4); ``lp_cards`` [{seat, amount,
    card, turn}] LP from card events, ``turn`` None for the whole game (R-11.1);
    ``condemned`` {general, card, lp} (R-16.1); ``heirs`` {seat: royal}: the heir whose
    LP a seat counts (R-11.1, the player's choice); ``prestige`` [{general, seat, amount,
    card}]: prestige a surprise card gave a commander until the end of the segment
    (R-11.2, R-8.5: Orator's Gift)."""
    offers: dict[str, Offer]
    tomb: dict[str, Any]
    lp_cards: list[dict[str, Any]]
    condemned: dict[str, Any]
    heirs: dict[str, str]
    prestige: list[dict[str, Any]]


class IndepArmy(TypedDict):
    """``indep_armies[id]`` (R-14): its space (None in its box) and strength in CUs;
    ``gone`` once destroyed; ``no_markers_turn``: the turn in which it tied a battle as
    attacker and went back, a turn in which it removes no control markers (seed 004)."""
    space: str | None
    strength: int
    gone: NotRequired[bool]
    no_markers_turn: NotRequired[int]


class Claim(TypedDict):
    """An automatic-victory claim waiting for the other seats' player-turns (R-1.1)."""
    seat: str
    kind: str
    waiting: list[str]


class OrderChoice(TypedDict):
    """The turn-order decision (R-6.1): the seat with fewest VP that names the first
    player, and the VP that made it the chooser."""
    seat: str
    vp: dict[str, int]


class Reinforce(TypedDict):
    """The reinforcement phase (R-7): seats still to place, in turn order, and their
    new CUs."""
    queue: list[str]
    grant: dict[str, dict[str, int]]


class Siege(TypedDict):
    """``war["sieges"][space]`` (R-10): the besieger and its siege points."""
    seat: str
    points: int


class FleetState(TypedDict):
    """``war["fleets"][id]`` (R-8.2, R-15): the upgrade its owner made, and the turn it
    was dispersed."""
    upgrade: int
    owner: str | None
    dispersed_turn: NotRequired[int]


class Window(TypedDict):
    """``war["pause"]``: an open reaction window (R-9.3, R-9.2, R-15); ``moment`` for a
    ``surprise`` window (R-8.5: ``battle`` or ``naval_landing``)."""
    kind: str
    seat: str
    mover: str
    space: str
    options: list[Any]
    segment: str
    moment: NotRequired[str]


class War(TypedDict, total=False):
    """``war``: sieges (R-10), fleets (R-15), special units out of their box
    (``{unit: "in_play" | "destroyed"}``, R-4.1), the open reaction window or None; with
    the game option ``capitals`` (R-1.4): ``capitals`` {space: seat} the capitals
    standing, ``capitals_destroyed`` {seat: n} the enemy capitals each seat destroyed."""
    sieges: dict[str, Siege]
    fleets: dict[str, FleetState]
    specials: dict[str, str]
    pause: Window | None
    capitals: dict[str, str]
    capitals_destroyed: dict[str, int]


class InsideRecord(TypedDict):
    """``inside[space]``: the one faction's units inside a major city (R-5)."""
    seat: str
    cus: dict[str, int]
    generals: list[str]


class TrainingUnit(TypedDict):
    """A unit in training (R-8.4): kind, OPs paid, Tyche segments paid in, turn begun."""
    unit: str
    paid: int
    segments: int
    turn: NotRequired[int]


class Withheld(TypedDict):
    """A paused mover's full orders, kept until its player-turn has run (R-9.3)."""
    seat: str
    step: int
    orders: dict[str, Any]


class SeatPrivate(TypedDict):
    """``private[seat]``: what only that seat may see."""
    hand: list[int]
    training: list[TrainingUnit]
    standing: list[dict[str, Any]]
    withheld: NotRequired[Withheld]


class Secret(TypedDict, total=False):
    """``secret``: what no seat may see: the Tyche deck, top first (R-6.4), and the
    cursor of a move suspended by a reaction window (R-9.3)."""
    deck: list[int]
    suspended: dict[str, Any]


# --- the state ----------------------------------------------------------------------

@dataclass(frozen=True)
class GameState:
    """The whole position of one game (R-2 … R-16). Plain data; see the module docstring
    for the shape of each field. Never mutate a GameState: use the engine. ``pack`` is
    the data pack the game is played with (not part of the data, not compared)."""

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
    discards: list = field(default_factory=list)
    removed: list = field(default_factory=list)
    primary: dict = field(default_factory=dict)
    training_cards: dict = field(default_factory=dict)
    lp_adjust: dict = field(default_factory=dict)
    played: list = field(default_factory=list)
    claim: dict | None = None
    result: dict | None = None
    commanders: dict = field(default_factory=dict)
    reinforce: dict | None = None
    order_choice: dict | None = None
    options: dict = field(default_factory=dict)
    war: dict = field(default_factory=dict)
    inside: dict = field(default_factory=dict)
    court: dict = field(default_factory=dict)
    private: dict = field(default_factory=dict)
    secret: dict = field(default_factory=dict)
    conceded: list = field(default_factory=list)
    pack: Pack | None = field(default=None, compare=False, repr=False)
    memo: dict = field(default_factory=dict, init=False, compare=False, repr=False)
    """Answers computed from this (never mutated) state, kept for the next caller: e.g.
    the legal options of a seat, shared by the prompt and the bots
    (:func:`pbem.rules.engine.legal_options`). Not part of the data."""

    __hash__ = None  # type: ignore[assignment]  # holds dicts: equality only

    def to_dict(self) -> dict[str, Any]:
        """Return a deep, JSON-safe copy of the state (a working dict; no pack)."""
        out = {k: _copy(getattr(self, k)) for k in _DATA_FIELDS}
        if not out["conceded"]:  # a game without a concession keeps the dicts (and snapshots) it had
            del out["conceded"]
        return out

    def peek(self) -> dict[str, Any]:
        """The fields as a dict *without copying*: for read-only code (options, views).
        Never mutate the result: it is made once per state and kept in :attr:`memo`
        (``conceded`` only when a seat conceded, issue 29)."""
        got = self.memo.get(_PEEK)
        if got is None:
            got = {k: getattr(self, k) for k in _DATA_FIELDS}
            if not got["conceded"]:
                del got["conceded"]
            self.memo[_PEEK] = got
        return got

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], pack: Pack | None = None) -> GameState:
        """Build a state from :meth:`to_dict` output (deep-copied) played with ``pack``.
        A snapshot of the earlier layout (``hands``, ``training`` and ``deck`` at the top,
        standing orders under ``war``) is read too (:func:`upgrade_layout`). Unknown keys
        are an error: ``TypeError``."""
        return cls(**{k: _copy(v) for k, v in upgrade_layout(data).items()}, pack=pack)

    @classmethod
    def adopt(cls, data: dict[str, Any], pack: Pack | None = None) -> GameState:
        """Freeze a working dict the caller owns and drops, *without copying* it (the
        engine's working dict at the end of a decision): same result as
        :meth:`from_dict` of a current-layout dict, one deep copy fewer. The caller must
        not touch ``data`` afterwards. A dict of exactly the state's fields (``conceded``
        may be left out: none) is set on the new object directly, without the frozen
        dataclass's ``__init__`` (one ``object.__setattr__`` per field; issue 27 item 5):
        the same object; any other dict goes through ``__init__`` (unknown keys:
        ``TypeError``)."""
        keys = data.keys()
        if cls is not GameState or not (keys == _FIELD_SET or (
                "conceded" not in keys and len(keys) == len(_FIELD_SET) - 1
                and keys < _FIELD_SET)):
            return cls(**data, pack=pack)
        obj = object.__new__(cls)
        attrs = obj.__dict__
        attrs.update(data)
        if "conceded" not in keys:
            attrs["conceded"] = []
        attrs["pack"] = pack
        attrs["memo"] = {}
        return obj

    def with_pack(self, pack: Pack) -> GameState:
        """This state played with ``pack``."""
        return GameState.from_dict(self.peek(), pack)


_PEEK = ("peek",)
"""The key of :meth:`GameState.peek`'s dict in :attr:`GameState.memo`."""

_DATA_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(GameState)
                                     if f.name not in ("pack", "memo"))
_FIELD_SET: frozenset[str] = frozenset(_DATA_FIELDS)


def upgrade_layout(data: Mapping[str, Any]) -> Mapping[str, Any]:
    """A working dict of the layout before the private part (pbem ≤ 2026-11): the hands,
    training and standing orders move under ``private[seat]``, the deck order and a
    suspended move under ``secret``. Current dicts are returned as they are."""
    if "hands" not in data and "deck" not in data:
        return data
    d = {k: v for k, v in data.items() if k not in ("hands", "training", "deck")}
    war = dict(d.get("war") or {})
    standing = war.pop("standing", {}) or {}
    withheld = war.pop("withheld", None)
    pause = dict(war["pause"]) if war.get("pause") else None
    secret: dict[str, Any] = {"deck": list(data.get("deck", []))}
    if pause is not None:
        if "cursor" in pause:
            secret["suspended"] = pause.pop("cursor")
        war["pause"] = pause
    seats = set(data.get("hands", {})) | set(data.get("training", {})) | set(standing)
    private = {seat: {"hand": list(data.get("hands", {}).get(seat, [])),
                      "training": list(data.get("training", {}).get(seat, [])),
                      "standing": list(standing.get(seat, []))} for seat in sorted(seats)}
    if withheld:
        private.setdefault(withheld["seat"], {"hand": [], "training": [], "standing": []})[
            "withheld"] = withheld
    d.update(war=war, private=private, secret=secret)
    return d


_SCALARS: frozenset[type] = frozenset({str, int, float, bool, type(None)})


def _copy(v: Any) -> Any:
    """Deep copy of JSON-like data (dicts, lists, tuples as lists, scalars).

    The exact JSON types take a fast path (scalars are not recursed into: a third of a
    random game was this copy, issue 14); anything else (subclasses, other mappings)
    goes through :func:`_copy_any`, with the same result."""
    t = type(v)
    if t is dict:  # a shallow copy in C, then only the containers copied again
        out = v.copy()
        for k, x in v.items():
            if type(x) not in _SCALARS:
                out[k] = _copy(x)
        return out
    if t is list:
        new = v.copy()
        for i, x in enumerate(v):
            if type(x) not in _SCALARS:
                new[i] = _copy(x)
        return new
    if t is tuple:
        return [x if type(x) in _SCALARS else _copy(x) for x in v]
    if t in _SCALARS:
        return v
    return _copy_any(v)


def _copy_any(v: Any) -> Any:
    """:func:`_copy` of a value that is not exactly a dict, list, tuple or scalar."""
    if isinstance(v, dict):
        return {k: _copy(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_copy(x) for x in v]
    if isinstance(v, Mapping):
        return {k: _copy(x) for k, x in v.items()}
    return v


# --- the private and secret parts ------------------------------------------------------

def seat_private(s: State, seat: str) -> dict[str, Any]:
    """``private[seat]`` of a working dict, created on first use (for reducers)."""
    return s.setdefault("private", {}).setdefault(
        seat, {"hand": [], "training": [], "standing": []})


def hand_of(s: State, seat: str) -> list[int]:
    """The cards in ``seat``'s hand (R-6.4); read-only, empty before the deal."""
    return ((s.get("private") or {}).get(seat) or {}).get("hand", [])


def all_hands(s: State) -> dict[str, list[int]]:
    """Every seat's hand (read-only): for the engine's own bookkeeping, never shown."""
    return {seat: p.get("hand", []) for seat, p in (s.get("private") or {}).items()}


def training_units(s: State, seat: str) -> list[dict[str, Any]]:
    """``seat``'s units in training (R-8.4); read-only."""
    return ((s.get("private") or {}).get(seat) or {}).get("training", [])


def standing_orders(s: State, seat: str) -> list[dict[str, Any]]:
    """``seat``'s standing orders (R-9.3); read-only."""
    return ((s.get("private") or {}).get(seat) or {}).get("standing", [])


def withheld_orders(s: State) -> dict[str, Any] | None:
    """The orders withheld from a mover paused by a reaction window (R-9.3), or None."""
    for p in (s.get("private") or {}).values():
        if p.get("withheld"):
            return p["withheld"]
    return None


def deck(s: State) -> list[int]:
    """The Tyche deck, top first (R-6.4); read-only."""
    return (s.get("secret") or {}).get("deck", [])


def suspended_move(s: State) -> dict[str, Any] | None:
    """The cursor of the move a reaction window suspended (R-9.3), or None."""
    return (s.get("secret") or {}).get("suspended")


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


SECRET_ORDER_KEYS = ("surprise", "play")
"""Fields of orders that name surprise cards a seat holds and means to play at a later
moment (R-8.5): a move's ``surprise``, ``surrender.surprise``, a window answer's
``play`` and the ``surprise`` window's answer. They stay secret: a card becomes public
only when it is played (``SurprisePlayed``)."""


def _without_secrets(v: Any) -> Any:
    if isinstance(v, dict):
        return {k: _without_secrets(x) for k, x in v.items() if k not in SECRET_ORDER_KEYS}
    if isinstance(v, list):
        return [_without_secrets(x) for x in v]
    return v


def public_orders(orders: Any) -> Any:
    """The orders as everyone may see them once applied: standing orders (R-9.3) stay
    private to their seat (they are recorded by a private ``StandingOrdersSet``), and so
    do the surprise cards a seat means to play later (:data:`SECRET_ORDER_KEYS`, R-8.5)."""
    if not isinstance(orders, dict):
        return orders
    return _without_secrets({k: v for k, v in orders.items() if k != "standing"})


def war_get(s: State, key: str, default: Any = None) -> Any:
    """Read ``s["war"][key]`` without creating anything (read-only paths)."""
    return (s.get("war") or {}).get(key, default)


def is_paused(s: State) -> bool:
    """True while a reaction window is open."""
    return bool((s.get("war") or {}).get("pause"))
