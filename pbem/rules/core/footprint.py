"""Where the board may differ from the one a check sees (issue 24): the *footprint* of
a part of the orders whose outcome the check cannot know.

A check (``ctx.dry``) runs the player-turn on a copy of the board with every die
showing 1. After a die, a reaction window answered by another seat, or a part of the
orders that was refused (and so left out of the dry run), the board the later parts
start from is known only outside some spaces: those where the dice, the other seat's
answer or the refused part could have changed a piece. :class:`Unsure` holds those
spaces; a later check refuses only what it can prove from the spaces outside them
(docs/rules-core.md "Check once", docs/orders.md "Validation").

Four tiers: ``spaces``, where anything may differ (the pieces of any seat, CUs lost,
markers, control); ``units``, the part of them where any seat's units may differ (come,
go or be lost: all of ``spaces`` but where only markers may change, as after an unrest
roll, R-16.2, which places independent markers only where no CUs stand); ``moved``, the
part where the seat's own units may come or go (an army moving, units placed, going
inside or coming out, another commander); and ``markers``, the part where garrisons and
independent markers may change (unrest, a siege, a surrender, garrisons placed, an
independent army's victory). An army
move's units come and go along its start and path; next to them only other seats'
armies may differ (an interceptor leaves its space, an army avoiding battle steps into
a free one, R-9.3): its footprint is its start and path (``moved``) and the spaces
next to them (``spaces``). No army steps into a space where another seat's units
stand, so the seat's units next to a move stay where they are; an assault only takes
CUs away (R-10).

Pure functions of the pack and plain data.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from pbem.pack.model import Pack
from pbem.rules.core.board import adjacent_provinces, info


@dataclass
class Unsure:
    """The spaces whose pieces may differ from the checked board (``spaces``), or
    ``everywhere`` when the check cannot say where (a refused card event). Empty (falsy)
    while the check has seen every part exactly. ``moved``: the spaces among them where
    units may come or go, ``markers``: where garrisons and independent markers may
    change (module docstring). ``hand_known``:
    False once a die or another seat's choice may have changed the seat's hand (a card
    drawn after a reshuffle, a surprise card played by standing order). ``was_at``:
    where each general of the seat stood on the map before the first unknown part
    (general id -> space), so that one the checked board shows off the map can be told
    from one that may be on it. ``most_cus``: the seat's CUs (type -> count) in a
    space where they may only have been lost since (an assault's losses, R-10), as
    they stood before: the most it may have there. ``units``: the spaces among
    ``spaces`` where any seat's units may differ (None when built: all of ``spaces``
    and ``moved``; empty for a footprint of markers only, :func:`provinces_footprint`).
    ``sieges``: the spaces among ``markers`` where what there is to besiege (R-10: an
    independent marker, another player's garrison in a major city) may change (None
    when built: all of ``markers``; an army move with no assault and no siege card
    changes it nowhere, :func:`move_footprint`). ``arrive``: the spaces among ``moved``
    where the seat's units may also come (None when built: all of ``moved``; none
    after a sally, whose battle only takes units away, R-5, R-9.2)."""

    spaces: set[str] = field(default_factory=set)
    everywhere: bool = False
    hand_known: bool = True
    was_at: dict[str, str] = field(default_factory=dict)
    moved: set[str] = field(default_factory=set)
    markers: set[str] = field(default_factory=set)
    most_cus: dict[str, dict[str, int]] = field(default_factory=dict)
    units: set[str] | None = None
    sieges: set[str] | None = None
    arrive: set[str] | None = None

    def __post_init__(self) -> None:
        if self.units is None:
            self.units = set(self.spaces) | self.moved
        if self.sieges is None:
            self.sieges = set(self.markers)
        if self.arrive is None:
            self.arrive = set(self.moved)

    def __bool__(self) -> bool:
        return self.everywhere or bool(self.spaces)

    def add(self, other: Unsure | None) -> None:
        """Add the spaces (or the ``everywhere``) of ``other`` (None: nothing)."""
        if other is None:
            return
        self.everywhere = self.everywhere or other.everywhere
        self.spaces |= other.spaces | other.moved | other.markers
        self.moved |= other.moved
        self.markers |= other.markers
        self.units = (self.units or set()) | (other.units or set()) | other.moved
        self.sieges = (self.sieges or set()) | (other.sieges or set())
        self.arrive = (self.arrive or set()) | (other.arrive or set())
        for x, cus in other.most_cus.items():
            self.most_cus.setdefault(x, dict(cus))
        self.hand_known = self.hand_known and other.hand_known

    def touches(self, spaces: Iterable[str | None]) -> bool:
        """True when anything in one of ``spaces`` may differ (always when
        :attr:`everywhere`)."""
        return self.everywhere or not self.spaces.isdisjoint(spaces)

    def touches_units(self, spaces: Iterable[str | None]) -> bool:
        """True when any seat's units in one of ``spaces`` may differ (come, go or be
        lost): an enemy army there, its strength, the seat's own CUs."""
        return self.everywhere or not (self.units or set()).isdisjoint(spaces)

    def touches_moved(self, spaces: Iterable[str | None]) -> bool:
        """True when units may come to or go from one of ``spaces``."""
        return self.everywhere or not self.moved.isdisjoint(spaces)

    def touches_markers(self, spaces: Iterable[str | None]) -> bool:
        """True when a garrison or an independent marker in one of ``spaces`` may change."""
        return self.everywhere or not self.markers.isdisjoint(spaces)

    def touches_sieges(self, spaces: Iterable[str | None]) -> bool:
        """True when what there is to besiege in one of ``spaces`` may change (R-10)."""
        return self.everywhere or not (self.sieges or set()).isdisjoint(spaces)

    def touches_arrive(self, spaces: Iterable[str | None]) -> bool:
        """True when units of the seat may come to one of ``spaces``."""
        return self.everywhere or not (self.arrive or set()).isdisjoint(spaces)

    def may_stand(self, general: str) -> bool:
        """True when ``general`` (one of the seat's) may stand on the map although the
        checked board shows him elsewhere: he stood where units may come and go."""
        was = self.was_at.get(general)
        return was is not None and self.touches_moved([was])

    def copy(self) -> Unsure:
        """A copy that can grow without changing this one."""
        return Unsure(set(self.spaces), self.everywhere, self.hand_known, dict(self.was_at),
                      set(self.moved), set(self.markers),
                      {x: dict(c) for x, c in self.most_cus.items()}, set(self.units or ()),
                      set(self.sieges or ()), set(self.arrive or ()))


EVERYWHERE = Unsure(everywhere=True)
"""A footprint the check cannot place (never change it: use :meth:`Unsure.copy`)."""


def near(pack: Pack, spaces: Iterable[str | None]) -> set[str]:
    """``spaces`` (unknown ids and None left out) and every space joined to one of them
    by any path (R-3.1)."""
    mi = info(pack)
    out = {x for x in spaces if x in pack.spaces}
    return out | {y for x in list(out) for y, _kind in mi.adjacent.get(x, ())}


def province_spaces(pack: Pack, space: str) -> set[str]:
    """Every space of the province of ``space`` (R-3.2, R-7.2: control and the
    reinforcement limit are counted per province)."""
    return set(info(pack).province_spaces.get(pack.spaces[space].province, ()))


def move_footprint(pack: Pack, start: str | None, path: Iterable[str | None],
                   besieges: bool = True) -> Unsure:
    """The footprint of an army move from ``start`` along ``path`` (R-9.1 … R-9.5,
    R-10, R-15: its own units along the way, battles, hostile tribes, assaults where it
    ends, a losing naval mover back in its port; other seats' armies intercepting from
    or avoiding battle into the next spaces): ``moved`` and ``markers`` its start and
    path, ``spaces`` also every space next to them; ``everywhere`` when the start is
    not known. What there is to besiege (``sieges``, R-10) changes only where a move
    that ``besieges`` (an assault or a siege surprise card, R-8.5) ends, which a die
    may make any of its steps: all of them, none when it does not (a battle removes
    no independent marker and takes no major city, R-9.2; an independent army's victory
    removes a garrison only outside a major city, R-14)."""
    if start is None or start not in pack.spaces:
        return EVERYWHERE.copy()
    steps = {start, *(x for x in path if x in pack.spaces)}
    return Unsure(near(pack, steps), moved=steps, markers=set(steps),
                  sieges=set(steps) if besieges else set())


def rest_footprint(pack: Pack, start: str | None, path: list[str], at: str,
                   besieges: bool = True, around: set[str] | None = None,
                   back: bool = True) -> Unsure:
    """The footprint of a land move from ``start`` along ``path`` (R-9.1) whose first
    die or other seat's answer came on entering ``at`` (issue 24.1): up to there the
    check's dry run is the real one, and after it the army may only come back to the
    space it came from (a tie, R-9.2), stay in ``at`` or go on along the rest of its
    path, where the other seats' armies next to those spaces intercept or avoid battle
    (R-9.3): :func:`move_footprint` of the space before ``at`` and the path from
    ``at`` on. The spaces it left before stay as the dry run shows them, but for other
    seats' armies next to the rest of the way. The whole move's footprint when ``at``
    is not on the path. ``besieges``: as for :func:`move_footprint`. ``around``: when
    given, the only spaces off the way where other seats' units may differ (those
    that may send an interceptor or take an army avoiding battle, worked out by the
    caller on the board) instead of every space next to the way. ``back``: False when
    no battle can be fought in ``at`` (no enemy army there, none may intercept into
    it), so no tie sends the army back to the space it came from."""
    if at not in path:
        return move_footprint(pack, start, path, besieges)
    i = path.index(at)
    out = move_footprint(pack, (path[i - 1] if i else start) if back else at, path[i:],
                         besieges)
    if around is None or out.everywhere:
        return out
    spaces = out.moved | {x for x in around if x in pack.spaces}
    return Unsure(spaces, moved=out.moved, markers=out.markers, sieges=out.sieges)


def places_footprint(pack: Pack, spaces: Iterable[str | None], units: bool = False,
                     markers: bool = True) -> Unsure:
    """The footprint of what is placed, removed or lost in ``spaces`` (garrisons and
    other markers unless not ``markers``, an assault's CUs); with ``units`` units may
    also come or go there (CUs placed or trained, units going inside or coming out, a
    sally's battle, R-5; another commander, R-5)."""
    named = {x for x in spaces if x in pack.spaces}
    return Unsure(set(named), moved=set(named) if units else set(),
                  markers=set(named) if markers else set())


def provinces_footprint(pack: Pack, provinces: Iterable[str]) -> Unsure:
    """The footprint of markers placed in ``provinces`` or in a province next to one
    (R-16.2: unrest spreads to an adjacent province): every space of those provinces;
    no unit comes, goes or is lost (markers go only where no CUs stand): ``units`` and
    ``moved`` are empty."""
    mi = info(pack)
    provs = set(provinces)
    provs |= {p for x in provs for p in adjacent_provinces(pack, x)}
    spaces = {x for p in provs for x in mi.province_spaces.get(p, ())}
    return Unsure(spaces, markers=set(spaces), units=set())
