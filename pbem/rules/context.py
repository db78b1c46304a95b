"""The resolution context: a working dict, the pack, the dice and the events emitted.

Every change goes through :meth:`Ctx.emit` (reduce + record), every roll through
:meth:`Ctx.roll` (which records a ``DiceRolled`` event), so a log replays exactly.

A context without dice is a *check* (``ctx.dry``): the one way the rules core says "this
is a dry run". Every die shows 1 and the events are thrown away; each segment's checked
plan is recorded (:meth:`Ctx.planned`). Carrying the orders out, a context with real dice
takes those plans as they are until the first die is used; after it, what the dice may
have changed is checked again, leniently (:attr:`Ctx.soft`: cancel, never refuse).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, TypeVar

from pbem.pack.model import Pack
from pbem.rules.core.control import fleet_owner
from pbem.rules.core.events import kind_of, reduce
from pbem.rules.core.events.base import EventKind
from pbem.rules.core.footprint import Unsure
from pbem.rules.core.royals import champions_regained, royal_settlement, vp_watch
from pbem.rules.core.state import _SCALARS, SEATS, Event, _copy, deck
from pbem.rules.dice import Dice

T = TypeVar("T")

BOARD: frozenset[str] = frozenset({"cus", "garrisons", "generals", "minors", "royals", "court",
                                   "indep_armies", "inside", "war", "champions"})
"""The parts of a working dict that the royal family's control, the Champions' return
(:func:`settle_royals`) and the fleets' owners (:func:`drop_lost_upgrades`) read: an
event whose kind declares it writes none of them
(:attr:`pbem.rules.core.events.base.EventKind.writes`) cannot call for a settlement."""


_CARDS_GONE: frozenset[str] = frozenset({"CardPlayed"})
"""The events a Tyche activation's move may follow in its check and still adopt the
dry run made before them (:meth:`Ctx.replay_rehearsal`): the card played. Not a
surprise discard: its replacement is drawn (``CardDrawn``), and a card drawn may be
played on the way (R-8.5)."""


class _Facts(NamedTuple):
    """What :meth:`Ctx.emit` needs of an event kind (:func:`_facts`): the ``kind``, its
    ``required`` and ``allowed`` fields, whether it is ``public`` or seen ``by_seat``,
    whether it may change the ``board`` (:data:`BOARD`) and the ``holdings`` the
    fleets' owners and the capitals read (the garrisons, ``war``)."""

    kind: EventKind
    required: frozenset[str]
    allowed: frozenset[str]
    public: bool
    by_seat: bool
    board: bool
    holdings: bool


_FACTS: dict[str, _Facts] = {}
"""``{kind name: _Facts}``, filled on first use (the catalogue is declared once, at
import, and never changes)."""


def _facts(name: str) -> _Facts:
    """The :class:`_Facts` of the declared kind ``name``, kept in :data:`_FACTS`. Raises
    ``UndeclaredEvent`` for a kind the catalogue does not declare."""
    k = kind_of(name)
    board = k.reduce is not None and (k.writes is None or not BOARD.isdisjoint(k.writes))
    holdings = board and (k.writes is None or "garrisons" in k.writes or "war" in k.writes)
    f = _FACTS[name] = _Facts(k, frozenset(k.fields), frozenset(k.fields) | frozenset(k.optional),
                              k.seen_by == "all", k.seen_by == "seat", board, holdings)
    return f


def _event(kind: str, data: dict[str, Any], public: bool, seat: str | None) -> Event:
    """``Event(kind, data, public, seat)`` without the frozen dataclass's ``__init__``
    (one ``object.__setattr__`` per field): the same fields set in the instance's
    dict, the instance as frozen as any other."""
    ev = _new_event(Event)
    ev.__dict__.update(kind=kind, data=data, public=public, seat=seat)
    return ev


_new_event = object.__new__


class Ctx:
    """Holds ``pack``, the working dict ``s``, ``dice`` (None: a check, :attr:`dry`) and
    the ``events`` so far. ``plans``: the plans a check recorded, for carrying the same
    orders out (:meth:`planned`). ``chance_at``: where in ``events`` each die was used
    or another seat's choice met; ``unsure``: in a check, where the board may differ
    from this dry run's (:class:`pbem.rules.core.footprint.Unsure`, issue 24).
    ``owned``: copy on write (issue 27 item 5): the top-level parts of ``s`` that are this
    context's own, the others being shared with a frozen state (or the context a dry run
    started from) and deep-copied just before an event's reducer first writes them (by
    its kind's ``writes``; every part for a kind that declares none); None (the
    default): ``s`` is all the context's own. Every change of ``s`` goes through
    :meth:`emit`, so nothing shared is ever written."""

    def __init__(self, pack: Pack, s: dict[str, Any], dice: Dice | None,
                 plans: list[tuple[str, Any]] | None = None,
                 owned: frozenset[str] | set[str] | None = None):
        self.pack = pack
        self.s = s
        # copy on write (issue 27 item 5): None when every part of ``s`` is this
        # context's own (a deep copy); else the top-level parts it owns, the others being
        # shared with a frozen state or another context and copied before their first
        # write (:meth:`emit`, by the kind's ``writes``)
        self.owned: set[str] | None = None if owned is None else set(owned)
        # second level (issue 27 item 5, third pass): parts not in ``owned`` whose dict is
        # this context's own shallow copy, with the entries (keys) named here its own deep
        # copies and the others still shared (by the kinds' ``cells``)
        self.cells: dict[str, set[str]] = {}
        self.dice = dice
        self.dry = dice is None
        self.events: list[Event] = []
        self.rolled = False  # a die was rolled: later checks cannot be known in advance
        self.used_dice = False  # rolled or shuffled: the board may differ from the check's
        # where in ``events`` each die was used or another seat's choice met (a check
        # cannot know what follows them exactly; see :mod:`pbem.rules.core.footprint`)
        self.chance_at: list[int] = []
        self.unsure = Unsure()  # in a check: where the board may differ from this one
        self.refused = Unsure()  # the part of it a refused part of the orders accounts for
        self.recorded: list[tuple[str, Any]] = []
        self.partly: list[str] = []  # in a check: what of the parts the dice before them decide
        self._plans = list(plans) if plans is not None else None
        self.version = 0  # bumped by every change of ``s`` (:meth:`emit`, :meth:`restore`)
        # a yes/no check (:func:`pbem.rules.engine.acceptable`): a player-turn's check
        # may stop at its first refused part instead of listing every mistake
        self.quick = False
        self._rehearsal: tuple[int, str, str, list, Ctx, int] | None = None

    def restore(self, saved: dict[str, Any], events: int) -> None:
        """Put back the working dict ``saved`` (a deep copy taken earlier) and forget the
        events after the first ``events`` (undoing a trial run)."""
        self.s.clear()
        self.s.update(saved)
        self.owned = None  # ``saved`` is a deep copy: every part is this context's own
        self.cells = {}
        del self.events[events:]
        self.chance_at = [i for i in self.chance_at if i < events]
        self.version += 1

    def keep_rehearsal(self, seat: str, segment: str, moves: list, run: Ctx) -> None:
        """In a check: ``run`` is a dry run of ``moves`` of ``seat`` in ``segment`` on a
        copy of :attr:`s` as it is now, carried to its end (no reaction window opened).
        When the same moves are carried out next on this context with :attr:`s`
        unchanged (:meth:`replay_rehearsal`), that run is adopted instead of made again:
        the code, the position and the dice (all 1 in a check) are the same, so the
        events and the position are too. Issue 14: a check ran every move twice. A
        Tyche activation's move (R-8.2) is dry-run before its card is played: its run
        is adopted after that one ``CardPlayed`` too (:meth:`replay_rehearsal`)."""
        self._rehearsal = (self.version, seat, segment, moves, run, len(self.events))

    def replay_rehearsal(self, seat: str, segment: str, moves: list) -> bool:
        """Adopt the kept dry run of exactly these ``moves`` (the same list object) when
        :attr:`s` has not changed since it was kept; True when adopted (the moves are
        then carried out: position, events, dice flags), else False (and nothing kept)."""
        r, self._rehearsal = self._rehearsal, None
        if r is None or not self.dry or r[1] != seat or r[2] != segment or r[3] is not moves:
            return False
        run = r[4]
        if r[0] != self.version:
            return self._replay_after_card(r[0], r[5], run)
        self.s.clear()
        self.s.update(run.s)
        # the run's parts are its own copies or, unwritten, the very parts of ``s`` it
        # started from (``s`` has not changed since): owned by this context as before
        if run.owned is None:
            self.owned = None
            self.cells = {}
        elif self.owned is not None:
            # a part the run owns in part: its dict is the run's copy, the entries either
            # side copied are own, the others as shared as before
            self.owned |= run.owned
            for p, keys in run.cells.items():
                if p not in self.owned:
                    self.cells[p] = self.cells.get(p, set()) | keys
            for p in run.owned:
                self.cells.pop(p, None)
        return self._adopt(run)

    def _adopt(self, run: Ctx) -> bool:
        """Take a kept run's events, records, dice flags and chance points as this
        context's own (its position already reduced onto :attr:`s`); always True."""
        self.chance_at += [len(self.events) + i for i in run.chance_at]
        self.events.extend(run.events)
        self.recorded.extend(run.recorded)
        self.rolled = self.rolled or run.rolled
        self.used_dice = self.used_dice or run.used_dice
        self.version += 1
        return True

    def _replay_after_card(self, version: int, events: int, run: Ctx) -> bool:
        """:meth:`replay_rehearsal` of a run kept before the events since, the card's
        ``CardPlayed`` (:data:`_CARDS_GONE`; R-8.2: a Tyche activation is checked, then
        its card played, then the army moves). The run is adopted, its events reduced
        onto :attr:`s`, when that event and the run's write disjoint parts of the
        position (the declared ``writes``: the hand, the discards, cards removed and
        training on one side; no kind of the run that writes them or declares
        nothing): the card played (never a surprise card) changes nothing the move
        reads, and the move nothing it wrote. Else False (the move is run again)."""
        since = self.events[events:]
        if not since or self.version != version + len(since) \
                or any(ev.kind not in _CARDS_GONE for ev in since):
            return False
        written = {p for ev in since for p in (kind_of(ev.kind).writes or ())}
        kinds = [kind_of(ev.kind) for ev in run.events]
        if any(k.reduce is not None and (k.writes is None or not written.isdisjoint(k.writes))
               for k in kinds):
            return False
        for k, ev in zip(kinds, run.events, strict=True):
            if k.reduce is not None:
                self._own(k.writes, k.cells(ev.data) if k.cells is not None else None)
                reduce(self.s, ev)
        return self._adopt(run)

    @property
    def soft(self) -> bool:
        """True while carrying out checked orders after dice were rolled: a check made now
        cancels what the dice made impossible instead of refusing the orders."""
        return not self.dry and self.rolled

    def planned(self, name: str, check: Callable[[], T]) -> T:
        """The plan of segment ``name``: in a check, ``check()`` (recorded); carrying the
        orders out, the recorded plan while no die has been used, else ``check()`` again
        (made :attr:`soft` by the caller). Raises RuntimeError when the recorded plans do
        not follow the same segments (a bug: a check and its execution diverged)."""
        if self.dry:
            plan = check()
            self.recorded.append((name, _copy(plan)))
            return plan
        if self._plans is not None and not self.used_dice:
            if not self._plans or self._plans[0][0] != name:
                raise RuntimeError(f"checked plans do not match segment {name!r}")
            return _copy(self._plans.pop(0)[1])
        return check()

    def _dice(self, count: int, purpose: str, rule: str, sides: int) -> tuple[tuple[int, ...], int]:
        """(values, index of the first die); a check's dice are all 1, index 0."""
        self.used_dice = True
        self.chance_at.append(len(self.events))
        if self.dice is None:
            return (1,) * count, 0
        roll = self.dice.roll(count, purpose, rule, sides)
        return roll.values, roll.index

    def hidden_choice(self) -> None:
        """Another seat's choice the orders cannot know was met (a surprise card it
        plays, R-8.5): in a check, what follows counts as coming after a die."""
        self.rolled = self.used_dice = True
        self.chance_at.append(len(self.events))

    def other_seat_asked(self) -> None:
        """A reaction window opens (R-9.3): in a check, its answer is another seat's
        choice the orders cannot know (:attr:`chance_at`)."""
        self.chance_at.append(len(self.events))

    @property
    def chances(self) -> int:
        """How many dice and other seats' choices this context met so far."""
        return len(self.chance_at)

    def dice_mark(self) -> int:
        """The index the next die will have (0 in a check): pass it to
        :meth:`rewind_dice` to undo a trial run."""
        return self.dice.next_index if self.dice is not None else 0

    def rewind_dice(self, mark: int) -> None:
        """Forget the dice rolled since :meth:`dice_mark` gave ``mark`` (their events are
        undone by the caller), so the log's dice stay numbered without a gap."""
        if self.dice is not None:
            self.dice.rewind(mark)

    def emit(self, kind: str, data: dict[str, Any]) -> Event:
        """Reduce an event into ``s`` and record it; then, when the event changed the
        board: ``FleetUpgradeLost`` for each upgraded fleet that has changed hands
        (R-15), the Champions whose VP fell to 0 and the royal family's control
        (:func:`settle_royals`, R-11.4, R-12).

        ``kind`` must be declared in the event catalogue with exactly the fields of
        ``data`` (:mod:`pbem.rules.core.events`; raises ``UndeclaredEvent`` or
        ``EventShapeError``); who may see the event comes from its kind: everyone, only
        the seat in ``data["seat"]``, or nobody but the judge. The settlements are
        skipped after a kind that declares it writes no part of :data:`BOARD`, the
        fleets' and the capitals' (R-15, R-1.4) after one that writes neither the
        garrisons nor ``war`` (what they read). What the kind says of all this is read
        once per kind (:func:`_facts`)."""
        f = _FACTS.get(kind) or _facts(kind)
        k = f.kind
        if not f.required <= data.keys() <= f.allowed:
            k.check(data)  # raises EventShapeError, naming the fields
        ev = _event(kind, data, f.public, data["seat"] if f.by_seat else None)
        board = f.board
        watch = vp_watch(self.s) if board else None
        if self.owned is not None and k.reduce is not None:
            self._own(k.writes, k.cells(data) if k.cells is not None else None)
        reduce(self.s, ev)
        self.version += 1
        self.events.append(ev)
        if board:
            if f.holdings:
                # a fleet's owner and upgrade record are read from the garrisons and
                # ``war``: only a kind that may write them can change hands
                w = self.s.get("war") or {}
                fleets = w.get("fleets") or {}
                if kind != "FleetUpgradeLost" and any(x.get("upgrade") for x in fleets.values()):
                    drop_lost_upgrades(self)
                    w = self.s.get("war") or {}
                if kind != "CapitalDestroyed" and w.get("capitals"):
                    settle_capitals(self, kind, data)
            settle_royals(self, watch, k.where(data) if k.where is not None else None)
        return ev

    def _own(self, parts: tuple[str, ...] | None,
              cells: dict[str, tuple[str, ...]] | None = None) -> None:
        """Copy on write: make the top-level ``parts`` of :attr:`s` (every part when None)
        this context's own (a deep copy) before a reducer writes them. ``cells``: for
        some of ``parts`` (a dict), the only entries the reducer writes (the kind's
        ``cells``, issue 27 item 5): the part's dict is copied shallowly (once) and only
        those entries deeply (:attr:`cells`)."""
        owned, s = self.owned, self.s
        if owned is None:
            return
        for p in (s if parts is None else parts):
            if p in owned:
                continue
            v = s.get(p)
            keys = cells.get(p) if cells is not None else None
            if keys is not None and type(v) is dict:
                mine = self.cells.get(p)
                if mine is None:
                    s[p] = v = v.copy()
                    mine = self.cells[p] = set()
                for key in keys:
                    if key not in mine:
                        mine.add(key)
                        x = v.get(key)
                        if x is not None and type(x) not in _SCALARS:
                            v[key] = _copy(x)
                continue
            owned.add(p)
            self.cells.pop(p, None)
            if v is not None and type(v) not in _SCALARS:
                s[p] = _copy(v)
        if parts is None:
            self.owned = None
            self.cells = {}

    def roll(self, count: int, purpose: str, rule: str, sides: int = 6) -> tuple[int, ...]:
        """Roll dice, record ``DiceRolled`` {purpose, rule, values, sides, index} (``index``:
        the first die's number within the decision, docs/trust.md); return values."""
        values, index = self._dice(count, purpose, rule, sides)
        self.rolled = True
        self.emit("DiceRolled", {"purpose": purpose, "rule": rule,
                                 "values": list(values), "sides": sides, "index": index})
        return values

    def shuffle(self, items: list[Any], purpose: str, rule: str) -> list[Any]:
        """Fisher–Yates shuffle: for i from n-1 down to 1, a die of i+1 sides picks the
        place j = die - 1 swapped with i; returns the new list. The dice are recorded as one
        ``Shuffled`` event seen by nobody until the game is over {purpose, rule, index of
        the first die, items, order}, so a verifier can redo the shuffle; the caller
        records what the order means (a deck, a deal)."""
        out = list(items)
        first = None
        for i in range(len(out) - 1, 0, -1):
            values, index = self._dice(1, purpose, rule, i + 1)
            first = index if first is None else first
            j = values[0] - 1
            out[i], out[j] = out[j], out[i]
        if first is not None:
            self.emit("Shuffled", {"purpose": purpose, "rule": rule, "index": first,
                                   "items": list(items), "order": list(out)})
        return out

    def draw(self, seat: str, count: int, rule: str, kind: str = "CardDrawn") -> list[int]:
        """Deal ``count`` cards from the deck to ``seat`` (private event); when the deck
        runs out, the discards are shuffled into a new deck first [D] (R-6.4)."""
        got: list[int] = []
        while len(got) < count:
            if not deck(self.s):
                if not self.s["discards"]:
                    break
                pile = list(self.s["discards"])
                order = self.shuffle(pile, "reshuffle the discards", "R-6.4")
                self.emit("DeckShuffled", {"deck": order, "from_discards": pile,
                                           "rule": "R-6.4"})
                self.emit("Note", {"text": "the Tyche deck ran out: discards reshuffled",
                                   "rule": "R-6.4"})
            take = list(deck(self.s)[:count - len(got)])
            got += take
            self.emit(kind, {"seat": seat, "cards": take, "rule": rule})
        return got


def drop_lost_upgrades(ctx: Ctx) -> None:
    """R-15: a fleet drops to its printed strength when it changes hands: every upgraded
    fleet whose owner is no longer the seat that upgraded it loses its upgrade (called
    after each event by :meth:`pbem.rules.context.Ctx.emit`). Event: FleetUpgradeLost."""
    pack, s = ctx.pack, ctx.s
    for fid, f in sorted(((s.get("war") or {}).get("fleets") or {}).items()):
        if not f.get("upgrade") or fid not in pack.fleets:
            continue
        owner = fleet_owner(pack, s, fid)
        if owner != f.get("owner"):
            ctx.emit("FleetUpgradeLost", {"fleet": fid, "seat": f.get("owner"),
                                          "owner": owner,
                                          "strength": pack.fleets[fid].strength,
                                          "rule": "R-15"})


def settle_capitals(ctx: Ctx, kind: str, data: dict[str, Any]) -> None:
    """R-1.4 (game option ``capitals``): a capital stands while its owner's garrison is
    in its space. After the board event ``kind`` (``data``) took it away, the capital is
    destroyed (``CapitalDestroyed``): ``by`` the other seat whose act it was, the one
    that removed the garrison (``GarrisonRemoved.by``), completed a siege of the city
    (``SiegeCompleted.seat``) or put its own garrison there, gaining
    ``destroy_capital_vp``; ``by`` None (no VP to anyone) when an independent army,
    unrest or isolation took it [D]. Called after each board event by
    :meth:`Ctx.emit`."""
    s = ctx.s
    for space, owner in sorted(((s.get("war") or {}).get("capitals") or {}).items()):
        if s["garrisons"].get(space) == owner:
            continue
        by = data.get("by") if kind == "GarrisonRemoved" else \
            data.get("seat") if kind in ("SiegeCompleted", "GarrisonPlaced") else None
        by = s["garrisons"].get(space) or by
        ctx.emit("CapitalDestroyed", {"seat": owner, "space": space, "rule": "R-1.4",
                                      "by": by if by in SEATS and by != owner else None})


def settle_royals(ctx: Ctx, watch: tuple[dict, dict, dict] | None,
                  spaces: tuple[str, ...] | None = None) -> None:
    """After an event that changed the board (``watch``: what
    :func:`pbem.rules.core.royals.vp_watch` saw before it): ``ChampionRegained`` for each
    seat whose VP fell to 0 (R-11.4), then the next change of the royal family's control
    the position calls for (:func:`pbem.rules.core.royals.royal_settlement`; emitting it
    settles the rest in turn, R-12.1 … R-12.3). ``spaces``: the only spaces the event
    changed (its kind's ``where``): the position was settled before it, and a member's
    control depends only on its own space, so only the members there are looked at."""
    for seat in champions_regained(ctx.pack, ctx.s, watch):
        ctx.emit("ChampionRegained", {"seat": seat, "rule": "R-11.4"})
    change = royal_settlement(ctx.pack, ctx.s, spaces)
    if change is None:
        return
    kind, data = change
    if kind == "RoyalControlLost":
        ctx.emit("RoyalControlLost", data)
    elif kind == "RoyalTaken":
        ctx.emit("RoyalTaken", data)
    else:
        ctx.emit("MarriageConcluded", data)
