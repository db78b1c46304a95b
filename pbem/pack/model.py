"""Frozen objects for the Successors data pack (see ../shared/DATA-PACK.md).

Every number printed on a game component lives in the YAML files under
``pbem/data/successors/`` and reaches the code only through these objects. The loader
(:mod:`pbem.pack.loader`) builds them and validates the whole pack; the rules core
(:mod:`pbem.rules`) only reads them.

Each entry carries ``source``: ``rulebook`` (stated by a seed document), ``history`` (a
historical fact) or ``reconstructed`` (our choice, listed in docs/rules.md).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from pbem.pack import graph

Source = Literal["rulebook", "history", "reconstructed"]
Area = Literal["europe", "asia", "africa", "islands"]
SpaceKind = Literal["minor_city", "major_city", "stronghold", "transit"]
PathKind = Literal["land", "sea", "mountain_strait", "trans_med"]
CardType = Literal["event", "bonus", "surprise", "general", "unrest", "primary"]


@dataclass(frozen=True)
class Province:
    """A province (R-3.1): ``vp`` is its printed victory-point value (R-1.4)."""

    id: str
    name: str
    vp: int
    area: Area
    fleet: str | None = None
    source: Source = "reconstructed"
    label: tuple[float, float] | None = None
    """(lat, lon) where the map picture writes the name; None = middle of its spaces."""


@dataclass(frozen=True)
class Space:
    """A space of the map (R-3.1); ``lat``/``lon`` in degrees of the ancient place.

    ``forage_limit`` is the number of CUs a stack may hold here without forage loss
    (R-8.8). ``independent`` marks a green space that starts with an independent marker
    (R-2); strongholds always start independent (R-3.3).
    """

    id: str
    name: str
    province: str
    kind: SpaceKind
    lat: float
    lon: float
    port: bool = False
    independent: bool = False
    hostile_tribes: bool = False
    hellespont: bool = False
    treasure_city: bool = False
    forage_limit: int = 0
    source: Source = "reconstructed"


@dataclass(frozen=True)
class Path:
    """An undirected path between two spaces (R-3.1, R-9.1)."""

    a: str
    b: str
    kind: PathKind
    source: Source = "reconstructed"


@dataclass(frozen=True)
class StartForce:
    """One start location of a primary general card (R-2): the general's space, his CUs
    by CU type id (e.g. ``{"loyal": 3, "mercenary": 2}``) and the garrisons placed."""

    space: str
    cus: Mapping[str, int]
    garrisons: tuple[str, ...] = ()


@dataclass(frozen=True)
class General:
    """A major general (R-5). ``rank`` is stars; ``initiative`` is the movement allowance
    and interception/avoid rating (R-9.1, R-9.3); ``battle`` is the battle-rating floor
    (R-9.2); ``legitimacy`` is LP he carries (R-11.1); ``prestige`` his prestige (R-11.2).
    ``seniority``: 1 is the most senior (R-1.2 tie-break)."""

    id: str
    name: str
    rank: int
    initiative: int
    battle: int
    prestige: int = 0
    legitimacy: int = 0
    primary: bool = False
    start: StartForce | None = None
    optional_start: tuple[str, ...] = ()
    arrival_turn: int | None = None
    card: int | None = None
    seniority: int = 99
    optional: bool = False
    source: Source = "reconstructed"


@dataclass(frozen=True)
class RoyalMember:
    """A member of the royal family (R-12): ``kind`` is heir, woman or body."""

    id: str
    name: str
    kind: Literal["heir", "woman", "body"]
    lp: int
    start: str | None
    active: bool
    source: Source = "reconstructed"


@dataclass(frozen=True)
class IndependentArmy:
    """An independent army (R-14): printed strength (CUs) and battle rating."""

    id: str
    name: str
    strength: int
    battle: int
    start: str | None
    entry_area: tuple[str, ...] = ()
    active_at_start: bool = False
    returns_to_box: bool = False
    source: Source = "reconstructed"


@dataclass(frozen=True)
class Fleet:
    """A fleet (R-15) belonging to whoever controls ``home`` (a province id, or the
    space id ``athenai``); ``strength`` is its printed strength."""

    id: str
    name: str
    home: str
    strength: int
    source: Source = "reconstructed"


@dataclass(frozen=True)
class CuType:
    """A combat-unit type (R-4.1, R-4.4): ``strength`` per CU, None when rolled
    (elephants, R-9.2)."""

    id: str
    name: str
    strength: int | None
    macedonian: bool = False
    source: Source = "reconstructed"


@dataclass(frozen=True)
class SpecialUnit:
    """A special unit (R-4.1 [L]): Silver Shields, Helepolis, Indian Elephant Corps."""

    id: str
    name: str
    cu_type: str
    strength: int
    enters: str
    source: Source = "reconstructed"


@dataclass(frozen=True)
class Effect:
    """One effect primitive of a card event (R-16.3), e.g. ``Effect("gain_cus",
    {"type": "mercenary", "count": 2})``. Primitive names are listed in
    :data:`pbem.pack.vocabulary.EFFECT_PRIMITIVES`."""

    primitive: str
    params: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Card:
    """A Tyche card (R-8.2, R-16): ``ops`` is the operations number (None for cards
    without one)."""

    number: int
    name: str
    ops: int | None
    type: CardType
    must_play: bool = False
    remove_from_play: bool = False
    effects: tuple[Effect, ...] = ()
    general: str | None = None
    source: Source = "reconstructed"
    text: str = ""
    """Prose of the event for reports (``"none"`` for an OPs-only card)."""
    reason: str = ""
    """Why an OPs-only card (``text == "none"``) has no event (R-16.3 [D])."""
    optional: str = ""
    """The rule option that puts the card in the Tyche deck (``capitals`` for
    Foundation of the Capital, R-1.4); empty for the cards always in it."""


@dataclass(frozen=True)
class Chart:
    """A printed chart shaped like the table on the board: ``rows`` are die results (or
    ranges written ``"2-4"``), ``columns`` strength brackets, ``cells[row][column]`` the
    result. One-dimensional charts have a single column named ``"result"``."""

    id: str
    name: str
    dice: str
    rows: tuple[str, ...]
    columns: tuple[str, ...]
    cells: Mapping[str, Mapping[str, Any]]
    rule: str = ""
    source: Source = "reconstructed"
    note: str = ""
    """How to read the chart (what the row, the column and the cell mean)."""

    def lookup(self, row: int | str, column: int | str = "result") -> Any:
        """Return the cell for die result ``row`` and strength/bracket ``column``.

        Integers are matched against row/column labels written ``"n"``, ``"a-b"`` or
        ``"n+"``; a row below the first/above the last numeric row is clamped to it.
        Raises ``KeyError`` when no label matches.
        """
        r = _match_label(self.rows, row, clamp=True)
        c = _match_label(self.columns, column, clamp=False)
        return self.cells[r][c]


def _label_range(label: str) -> tuple[int, int] | None:
    """``"7"`` -> (7, 7); ``"2-4"`` -> (2, 4); ``"26+"`` -> (26, big); else None."""
    try:
        if label.endswith("+"):
            return int(label[:-1]), 10**9
        if "-" in label[1:]:
            lo, hi = label.split("-", 1)
            return int(lo), int(hi)
        return int(label), int(label)
    except ValueError:
        return None


def _match_label(labels: tuple[str, ...], value: int | str, clamp: bool) -> str:
    """Find the label of ``labels`` that covers ``value`` (see :meth:`Chart.lookup`)."""
    if isinstance(value, str) and value in labels:
        return value
    try:
        n = int(value)
    except (TypeError, ValueError):
        raise KeyError(value) from None
    ranges = [(lab, _label_range(lab)) for lab in labels]
    numeric = [(lab, rg) for lab, rg in ranges if rg is not None]
    for lab, rg in numeric:
        if rg[0] <= n <= rg[1]:
            return lab
    if clamp and numeric:
        lowest = min(numeric, key=lambda x: x[1][0])
        highest = max(numeric, key=lambda x: x[1][1])
        if n < lowest[1][0]:
            return lowest[0]
        if n > highest[1][1]:
            return highest[0]
    raise KeyError(value)


@dataclass(frozen=True)
class Turn:
    """One turn of the turn track (R-2, R-6): its number, year BC and special events."""

    number: int
    year_bc: int
    events: tuple[str, ...] = ()
    source: Source = "reconstructed"


@dataclass(frozen=True)
class Pack:
    """A loaded and validated data pack.

    ``constants`` holds the rulebook's numbers that are not on a map or a card (hand
    size, victory thresholds, reinforcement rates, garrison range, training costs, …),
    keyed by name; see ``constants.yaml`` for the list.
    """

    name: str
    provinces: Mapping[str, Province]
    spaces: Mapping[str, Space]
    paths: tuple[Path, ...]
    generals: Mapping[str, General]
    royals: Mapping[str, RoyalMember]
    independent_armies: Mapping[str, IndependentArmy]
    fleets: Mapping[str, Fleet]
    cu_types: Mapping[str, CuType]
    special_units: Mapping[str, SpecialUnit]
    cards: Mapping[int, Card]
    charts: Mapping[str, Chart]
    turns: tuple[Turn, ...]
    constants: Mapping[str, Any]
    constant_sources: Mapping[str, str] = field(default_factory=dict, compare=False)
    """``source`` of each constant (``rulebook`` / ``history`` / ``reconstructed``)."""
    adjacency: Mapping[str, tuple[tuple[str, str], ...]] = field(
        default_factory=dict, compare=False, repr=False
    )
    """Precomputed ``space id -> ((neighbour id, path kind), ...)``; built by the loader."""
    languages: tuple[str, ...] = field(default=("en",), compare=False)
    """The languages the pack declares (``languages.yaml``), English first (issue 28)."""
    names: Mapping[str, Mapping[str, Mapping[Any, str]]] = field(default_factory=dict, compare=False, repr=False)
    """``language -> section -> id -> name`` (``"card_texts"``: the cards' texts) of
    every declared language, English included (:mod:`pbem.pack.names`)."""
    language: str = field(default="en", compare=False)
    """The language this object's names are in: ``en`` for a loaded pack, another for
    the rendering copy :func:`pbem.pack.names.localized` makes."""
    canonical: Pack | None = field(default=None, compare=False, repr=False)
    """The loaded (English) pack a rendering copy was made from; None for that pack."""

    def neighbours(self, space: str) -> list[tuple[str, str]]:
        """``[(space_id, path_kind), ...]`` joined to ``space`` by a path (R-3.1).
        Raises ``KeyError`` for an unknown space."""
        return graph.neighbours(self, space)

    def mp_cost(self, kind: str) -> int | None:
        """MPs to follow one path of ``kind`` (R-9.1); None = the whole allowance
        (trans-Mediterranean)."""
        return graph.mp_cost(self, kind)

    def land_distance(self, a: str, b: str) -> int | None:
        """Fewest MPs from ``a`` to ``b`` over land and mountain/strait paths only
        (R-8.3, R-9.1); None if unreachable by land."""
        return graph.land_distance(self, a, b)

    def spaces_of(self, province: str) -> list[Space]:
        """The spaces of ``province`` in pack order."""
        return [s for s in self.spaces.values() if s.province == province]
