"""The public engine API (see ``pbem.rules``): pending, check and execute (validate
and apply), fold, legal_options. The pack comes with the state (:func:`pack_of`): there
is no registry. An order is checked once (:func:`check`); :func:`execute` carries out
the checked plan and re-checks only what dice can change.

Dispatch goes by one table, :data:`AWAITED`: what a state can wait for, in the order
asked (the answer to an open reaction window, R-9.3; the turn-order decision, R-6.1; a
reinforcement decision, R-7.2; the active seat's player-turn, R-8), each with the
decision :func:`pending` shows, the phase that checks and carries out the orders
(:func:`check`, :func:`execute`) and what ends the decision once carried out.
:func:`awaited` picks the entry; standing orders alone (any seat, any time, R-9.3) are
the one case before the table.

Examples, on the mini pack of the rules tests (``tests/rules/rules_minipack.py``, a
small hand-built map; run by ``tests/rules/test_doctests.py``)::

    >>> from pbem.rules import Dice, new_game
    >>> from tests.rules.rules_minipack import mini_pack
    >>> state, _ = new_game(mini_pack(), b"doc")
    >>> awaited(state.peek()).kind
    'turn_order'
    >>> new, _ = apply(state, "north", {"first_player": "east"}, Dice(b"doc", state.step))
    >>> awaited(new.peek()).kind, new.active
    ('player_turn', 'east')
"""
from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pbem.pack.model import Pack
from pbem.problems import Problem
from pbem.rules.context import Ctx
from pbem.rules.core.events import reduce
from pbem.rules.core.problems import IllegalOrders, did_you_mean, reject
from pbem.rules.core.state import (
    SEATS,
    Decision,
    Event,
    GameState,
    State,
    _copy,
    deck,
    war_get,
)
from pbem.rules.dice import Dice
from pbem.rules.orders import reinforcements, turn_order
from pbem.rules.orders.reactions import reaction_decision
from pbem.rules.orders.standing import standing_only
from pbem.rules.phases.player_turn import (
    default_orders,
    legal_options_of,
    run_player_turn,
    run_reaction,
    run_standing,
    turn_seat,
)
from pbem.rules.phases.reinforcement import run_reinforcement
from pbem.rules.phases.sequence import (
    continue_turn,
    next_player_turn,
    run_turn_order,
    turn_order_chosen,
)
from pbem.rules.phases.victory import check_victory
from pbem.rules.resolve.surprises import end_segment


class NoPack(ValueError):
    """A state that carries no data pack (build it with ``GameState.from_dict(data, pack)``)."""


def pack_of(state: GameState) -> Pack:
    """The data pack ``state`` is played with (:attr:`GameState.pack`). Raises
    :class:`NoPack` when the state carries none."""
    if state.pack is None:
        raise NoPack(f"the state of pack {state.pack_name!r} carries no pack: build it with "
                     "GameState.from_dict(data, pack) or from new_game")
    return state.pack


@dataclass(frozen=True)
class Awaited:
    """One thing a state can wait for (a row of :data:`AWAITED`).

    ``kind``: its name (a reaction window's decisions are of the window's own kind,
    ``intercept``, ``avoid_battle``, ...); ``rule``: the rule ID; ``waits(s)``: whether
    the working dict ``s`` waits for it; ``decision(state)``: the :class:`Decision`
    :func:`pending` shows, or None when nobody is to act; ``run(ctx, seat, orders)``:
    checks and carries out the orders on ``ctx``, returning every problem;
    ``finish(ctx, seat, window)``: what ends the decision once its orders are carried
    out (``window``: the reaction window open before them, or None)."""

    kind: str
    rule: str
    waits: Callable[[State], bool]
    decision: Callable[[GameState], Decision | None]
    run: Callable[[Ctx, str, Any], list[Problem]]
    finish: Callable[[Ctx, str, dict | None], None]


def _window_decision(state: GameState) -> Decision | None:
    return reaction_decision(pack_of(state), state.peek(), state.step)


def _turn_order_decision(state: GameState) -> Decision:
    pack, s = pack_of(state), state.peek()
    seat = s["order_choice"]["seat"]  # the seat with fewest VP names the first player
    return Decision(seat=seat, kind="turn_order", step=state.step, options=turn_order.options(pack, s, seat),
                    default=turn_order.default(pack, s, seat), rule="R-6.1")


class LateDefault(Decision):
    """A :class:`Decision` whose ``default`` is computed on its first read and kept
    (issue 27 item 5): the reinforcement phase's deadline placement
    (:func:`pbem.rules.core.placement.auto_placement`) is costly, and the bots and the
    playouts never read it. ``default_of()`` gives the plain dict ``default`` would hold;
    it is a function of the decision's state, which never changes, so the value is the
    one computed at once before. Every other field, ``==``, ``repr`` and ``to_dict``
    are those of the :class:`Decision` (a ``LateDefault`` equals only a ``LateDefault``,
    as a dataclass compares its own class)."""

    def __init__(self, seat: str, kind: str, step: int, options: Mapping[str, Any],
                 default_of: Callable[[], Mapping[str, Any]], rule: str) -> None:
        for name, value in (("seat", seat), ("kind", kind), ("step", step),
                            ("options", options), ("rule", rule), ("_default_of", default_of)):
            object.__setattr__(self, name, value)

    @property
    def default(self) -> Mapping[str, Any]:  # type: ignore[override]
        """The orders applied when the deadline passes, computed on the first read."""
        got = self.__dict__.get("_default")
        if got is None:
            got = self._default_of()  # type: ignore[attr-defined]
            object.__setattr__(self, "_default", got)
        return got


def _reinforcements_decision(state: GameState) -> Decision:
    pack, s = pack_of(state), state.peek()
    seat = s["reinforce"]["queue"][0]
    # the options of legal_options (memoised, the bot asks for them again); the default on read
    return LateDefault(seat=seat, kind="reinforcements", step=state.step,
                       options=legal_options(state, seat),
                       default_of=lambda: reinforcements.default(pack, s, seat), rule="R-7.2")


def _player_turn_decision(state: GameState) -> Decision | None:
    seat = state.active
    if seat is None:
        return None
    return Decision(seat=seat, kind="player_turn", step=state.step, options=legal_options(state, seat),
                    default=default_orders(pack_of(state), state.peek(), seat), rule="R-8")


def _end_player_turn(ctx: Ctx, seat: str, window: dict | None) -> None:
    """The player-turn of the mover ends, unless a reaction window is open now (R-9.3):
    the segment's gifts lapse (R-11.2), ``TurnPassed`` (R-6.5), victory is checked
    (R-1) and the next player-turn starts."""
    mover = turn_seat(window, ctx.s, seat)  # the mover after a reaction answer
    if mover is None:  # a reaction window opened: the player-turn goes on
        return
    end_segment(ctx)  # nothing given "until the end of the segment" outlives it
    ctx.emit("TurnPassed", {"seat": mover, "round": ctx.s["round"], "rule": "R-6.5"})
    check_victory(ctx, end_of_turn=False, finished=mover)
    next_player_turn(ctx)


def _end_reinforcement(ctx: Ctx, seat: str, window: dict | None) -> None:
    """The turn goes on once the last seat has placed its reinforcements (R-7.2)."""
    if turn_seat(window, ctx.s, seat) is not None and not ctx.s["reinforce"]:
        continue_turn(ctx)


def _end_turn_order(ctx: Ctx, seat: str, window: dict | None) -> None:
    turn_order_chosen(ctx)  # the turn goes on with the Usurpers and reinforcements


REACTION_WINDOW = Awaited("reaction_window", "R-9.3", lambda s: bool(war_get(s, "pause")),
                          _window_decision, run_reaction, _end_player_turn)
TURN_ORDER = Awaited("turn_order", "R-6.1", lambda s: bool(s.get("order_choice")),
                     _turn_order_decision, run_turn_order, _end_turn_order)
REINFORCEMENTS = Awaited("reinforcements", "R-7.2", lambda s: bool(s["reinforce"]),
                         _reinforcements_decision, run_reinforcement, _end_reinforcement)
PLAYER_TURN = Awaited("player_turn", "R-8", lambda s: True,
                      _player_turn_decision, run_player_turn, _end_player_turn)

AWAITED: tuple[Awaited, ...] = (REACTION_WINDOW, TURN_ORDER, REINFORCEMENTS, PLAYER_TURN)
"""What a state can wait for, in the order :func:`awaited` asks (R-6.5): a reaction
window interrupts a player-turn, the turn order and the reinforcements come before the
turn's first player-turn."""


def awaited(s: State) -> Awaited:
    """The row of :data:`AWAITED` the working dict ``s`` waits for: the first whose
    ``waits`` holds; :data:`PLAYER_TURN` once the game is over (its check refuses every
    order, ``game.over``)."""
    if not s["result"]:
        for row in AWAITED:
            if row.waits(s):
                return row
    return PLAYER_TURN


def pending(state: GameState) -> list[Decision]:
    """Who must act now (R-6.5): a Decision with its legal options and deadline default
    (``player_turn`` for the active seat; ``turn_order``, R-6.1; ``reinforcements``,
    R-7.2; a reaction window, R-9.3), or ``[]`` when the game is over.

    >>> from pbem.rules import new_game
    >>> from tests.rules.rules_minipack import mini_pack
    >>> state, _ = new_game(mini_pack(), b"doc")
    >>> [(d.seat, d.kind, d.rule, d.default) for d in pending(state)]
    [('north', 'turn_order', 'R-6.1', {'first_player': 'north'})]
    """
    if state.result:
        return []
    decision = awaited(state.peek()).decision(state)
    return [] if decision is None else [decision]


@dataclass
class Checked:
    """Orders checked against a state (:func:`check`): the ``seat``, the ``step`` they
    answer, the ``orders`` as plain data, every ``problems`` found, the ``plans`` each
    segment's check made (for :func:`execute`), and ``outcome``: the check's own working
    dict and events when it used no dice and opened no reaction window (they are then
    exactly what carrying the orders out gives). ``partly``: one plain line per part of
    legal orders whose check the dice (or answers) before it left partly to the real run
    (issue 24.1: "movement: checked up to what the Unrest roll decides: …"), for the
    receipt; empty when everything was checked exactly."""

    seat: str
    step: int
    orders: Any
    problems: list[Problem]
    plans: list[tuple[str, Any]] = field(default_factory=list)
    outcome: tuple[dict[str, Any], list[Event]] | None = None
    partly: list[str] = field(default_factory=list)
    owned: frozenset[str] | None = field(default=None, repr=False, compare=False)
    """The parts of ``outcome``'s working dict that are its own copies; the others are
    shared with the checked state (copy on write, :attr:`pbem.rules.context.Ctx.owned`);
    None: all its own."""


def check(state: GameState, seat: str, orders: Mapping[str, Any]) -> Checked:
    """Check ``orders`` of ``seat`` against ``state`` once (R-8): the same code as
    carrying them out, on a copy with dry dice (every die 1). A ``seat`` that is not one
    of the four seats is refused (``orders.unknown_seat``, R-2). Never raises for bad
    orders: every problem is in ``problems``.

    >>> from pbem.rules import Dice, new_game
    >>> from tests.rules.rules_minipack import mini_pack
    >>> state, _ = new_game(mini_pack(), b"doc")
    >>> check(state, "north", {"first_player": "east"}).problems
    []
    >>> [(p.code, p.message) for p in check(state, "north", {"first_player": "sparta"}).problems]
    [('turn.first_player_unknown', "'sparta' is not a seat of this game (R-6.1)")]
    >>> [p.code for p in check(state, "east", {"first_player": "east"}).problems]
    ['turn.not_your_turn']
    >>> [p.code for p in check(state, "macedon", {}).problems]
    ['orders.unknown_seat']
    """
    return _check(state, seat, orders, quick=False)


def _check(state: GameState, seat: str, orders: Mapping[str, Any], quick: bool) -> Checked:
    """:func:`check`; ``quick``: a player-turn's check may stop at the first refused
    part (:func:`acceptable`), so the problems of refused orders may be fewer; legal
    orders are checked whole, with the same result."""
    pack = pack_of(state)
    plain = _plain(orders)
    # copy on write: the parts of the state are copied on their first write only
    ctx = Ctx(pack, dict(state.peek()), None, owned=())
    ctx.quick = quick
    problems = _run(ctx, seat, plain)
    same = not problems and not ctx.used_dice and not any(
        e.kind == "ReactionWindowOpened" for e in ctx.events)
    return Checked(seat, state.step, plain, problems, ctx.recorded,
                   (ctx.s, list(ctx.events)) if same else None, [] if problems else list(ctx.partly),
                   None if ctx.owned is None else frozenset(ctx.owned))


class _LastCheck(threading.local):
    """The latest :func:`validate` of this thread whose orders were legal, kept for an
    :func:`apply` of the same state, seat and orders that follows it (the service and
    the bots validate, then apply): that apply carries the check out instead of
    running it again. Pure memoisation, one entry: ``check`` depends only on the state,
    the seat and the orders, and the state object is compared by identity."""

    entry: tuple[GameState, str, Any, Checked] | None = None


_last = _LastCheck()


def validate(state: GameState, seat: str, orders: Mapping[str, Any]) -> list[Problem]:
    """Every reason ``orders`` of ``seat`` cannot be carried out now (empty when legal):
    the problems of :func:`check` (R-8).

    >>> from pbem.rules import Dice, new_game
    >>> from tests.rules.rules_minipack import mini_pack
    >>> state, _ = new_game(mini_pack(), b"doc")
    >>> validate(state, "north", {"first_player": "west"})
    []
    >>> [p.code for p in validate(state, "north", {"first_player": "sparta"})]
    ['turn.first_player_unknown']
    """
    return validate_partly(state, seat, orders)[0]


def validate_partly(state: GameState, seat: str, orders: Mapping[str, Any]
                    ) -> tuple[list[Problem], list[str]]:
    """:func:`validate`, and the lines of what its check left to the dice before a part
    (:attr:`Checked.partly`; issue 24.1, for the receipt): ``(problems, lines)``.

    >>> from pbem.rules import new_game
    >>> from tests.rules.rules_minipack import mini_pack
    >>> state, _ = new_game(mini_pack(), b"doc")
    >>> validate_partly(state, "north", {"first_player": "west"})
    ([], [])
    """
    checked = check(state, seat, orders)
    _last.entry = None if checked.problems else (state, seat, checked.orders, checked)
    return checked.problems, checked.partly


def acceptable(state: GameState, seat: str, orders: Mapping[str, Any]) -> bool:
    """Whether :func:`validate` finds no problem in ``orders`` of ``seat`` (R-8), for
    callers that need only the yes or no (the random bot trying its candidates, issue 27
    item 5): the check stops at the first refused part of a player-turn instead of
    looking for every mistake. Legal orders are checked whole and kept for an
    :func:`apply` that follows, as by :func:`validate`.

    >>> from pbem.rules import new_game
    >>> from tests.rules.rules_minipack import mini_pack
    >>> state, _ = new_game(mini_pack(), b"doc")
    >>> acceptable(state, "north", {"first_player": "west"})
    True
    >>> acceptable(state, "north", {"first_player": "sparta"})
    False
    """
    checked = _check(state, seat, orders, quick=True)
    _last.entry = None if checked.problems else (state, seat, checked.orders, checked)
    return not checked.problems


def validate_told(state: GameState, seat: str, orders: Mapping[str, Any]
                  ) -> tuple[list[Problem], list[str]]:
    """:func:`validate_partly` as the seat may be told it: ``(problems, lines)`` (R-9.3:
    another seat's standing orders are secret until they fire).

    The check runs first on the position as ``seat`` may know it — every other seat's
    standing orders left out — and its problems, when it finds any, are the answer: they
    read the same whatever standing orders the others hold. A standing order that could
    fire on the way (an interception) made what follows a matter of chance on the whole
    position, checked leniently and worded otherwise, so a refusal told a seat whether
    another had a standing order there (issue 25, third break-it pass). When that check
    finds nothing, the problems are those of :func:`validate_partly` on the whole position,
    which the orders are carried out on (only what both accept is accepted), and the
    lines of what the dice still decide are the first check's when both accept. Orders that only another
    seat's secret reaction could make possible are therefore refused, as the seat could
    not have known of it (docs/orders.md, "Validation").

    >>> from pbem.rules import new_game
    >>> from tests.rules.rules_minipack import mini_pack
    >>> state, _ = new_game(mini_pack(), b"doc")
    >>> validate_told(state, "north", {"first_player": "west"})
    ([], [])
    >>> [p.code for p in validate_told(state, "north", {"first_player": "sparta"})[0]]
    ['turn.first_player_unknown']
    """
    known: Checked | None = None
    if seat in SEATS:
        s = state.peek()
        private = {x: (part if x == seat or not part.get("standing") else {**part, "standing": []})
                   for x, part in (s.get("private") or {}).items()}
        if private != s.get("private"):
            known = check(GameState.from_dict({**s, "private": private}, state.pack), seat, orders)
            if known.problems:
                _last.entry = None
                return known.problems, known.partly
    problems, partly = validate_partly(state, seat, orders)
    return problems, (known.partly if known is not None and not problems else partly)


def _run(ctx: Ctx, seat: str, orders: Any) -> list[Problem]:
    if seat not in SEATS:  # orders come from one of the four seats only
        rej: list[Problem] = []
        reject(rej, "orders.unknown_seat", f"{seat!r} is not a seat of this game", "seat",
               did_you_mean(seat, SEATS, "seats: " + ", ".join(SEATS)))
        return rej
    if standing_only(ctx.s, seat, orders):  # standing orders from any seat
        return run_standing(ctx, seat, orders)
    return awaited(ctx.s).run(ctx, seat, orders)


def execute(state: GameState, checked: Checked, dice: Dice
            ) -> tuple[GameState, list[Event]]:
    """Carry out orders :func:`check` accepted, with ``dice`` (``Dice(seed, state.step)``).

    Each segment's checked plan is carried out as it is until the first die; after it,
    what the dice may have changed is checked again and what they made impossible is
    cancelled, not refused (docs/rules.md "Validation"). Returns the new state
    (``step`` + 1) and the events, which end with the next player's
    ``PlayerTurnStarted`` (or the turn's later phases, or ``GameWon``). Raises
    :class:`IllegalOrders` with the problems when the orders were refused, ValueError
    when ``checked`` was made for another step.

    >>> from pbem.rules import Dice, new_game
    >>> from tests.rules.rules_minipack import mini_pack
    >>> state, _ = new_game(mini_pack(), b"doc")
    >>> new, events = execute(state, check(state, "north", {"first_player": "east"}),
    ...                       Dice(b"doc", state.step))
    >>> new.step, events[0].kind, events[1].kind, events[-1].kind, new.active
    (1, 'OrdersApplied', 'TurnOrderSet', 'PlayerTurnStarted', 'east')
    >>> execute(state, check(state, "north", {"first_player": "sparta"}), Dice(b"doc", 0))
    Traceback (most recent call last):
    ...
    pbem.rules.core.problems.IllegalOrders: 'sparta' is not a seat of this game (R-6.1)
    """
    return _execute(state, checked, dice, owned=False)


def _execute(state: GameState, checked: Checked, dice: Dice, owned: bool
             ) -> tuple[GameState, list[Event]]:
    """:func:`execute`; ``owned``: ``checked`` is used once and dropped (:func:`apply`),
    so its outcome's working dict is carried on without a copy."""
    if checked.step != state.step:
        raise ValueError(f"orders checked at step {checked.step}, the game is at {state.step}")
    if checked.problems:
        raise IllegalOrders(checked.problems)
    pack = pack_of(state)
    row = awaited(state.peek())
    window = war_get(state.peek(), "pause")
    if checked.outcome is not None:
        if owned:  # its parts not written by the check are still the state's: shared
            ctx = Ctx(pack, checked.outcome[0], dice, owned=checked.owned)
        else:
            ctx = Ctx(pack, _copy(checked.outcome[0]), dice)
        ctx.events = list(checked.outcome[1])
    else:
        ctx = Ctx(pack, dict(state.peek()), dice, plans=checked.plans, owned=())
        rej = _run(ctx, checked.seat, checked.orders)
        if rej:  # what dice changed is refused after all (a check that is not lenient)
            raise IllegalOrders(rej)
    seat = checked.seat
    if standing_only(state.peek(), seat, checked.orders) and ctx.s["step"] == state.step:
        return GameState.adopt(ctx.s, pack), ctx.events  # no decision taken
    row.finish(ctx, seat, window)
    return GameState.adopt(ctx.s, pack), ctx.events


def apply(state: GameState, seat: str, orders: Mapping[str, Any], dice: Dice
          ) -> tuple[GameState, list[Event]]:
    """Check ``orders`` of ``seat`` and carry them out with ``dice``: :func:`check`, then
    :func:`execute`. Raises :class:`IllegalOrders` with every problem when the orders
    are not legal.

    >>> from pbem.rules import Dice, new_game
    >>> from tests.rules.rules_minipack import mini_pack
    >>> state, _ = new_game(mini_pack(), b"doc")
    >>> new, events = apply(state, "north", {"first_player": "east"}, Dice(b"doc", state.step))
    >>> [(d.seat, d.kind) for d in pending(new)]
    [('east', 'player_turn')]
    """
    last, _last.entry = _last.entry, None
    # orders already plain and the same need no plain copy to compare (a True of the
    # first _same is a True of the second; a False falls back to it)
    if last is not None and last[0] is state and last[1] == seat and (
            _same(last[2], orders) or _same(last[2], _plain(orders))):
        return _execute(state, last[3], dice, owned=True)  # checked just now by validate
    return _execute(state, check(state, seat, orders), dice, owned=True)


def fold(initial: GameState, events: Sequence[Event]) -> GameState:
    """Rebuild a state from ``initial`` and ``events`` only (no dice, no pack).

    >>> from pbem.rules import Dice, empty_state, new_game
    >>> from tests.rules.rules_minipack import mini_pack
    >>> pack = mini_pack()
    >>> state, setup = new_game(pack, b"doc")
    >>> fold(empty_state(pack), setup).to_dict() == state.to_dict()
    True
    >>> new, events = apply(state, "north", {"first_player": "east"}, Dice(b"doc", state.step))
    >>> fold(state, events).to_dict() == new.to_dict()
    True
    """
    s = initial.to_dict()
    for ev in events:
        reduce(s, ev)
    return GameState.adopt(s, initial.pack)


def legal_options(state: GameState, seat: str) -> Mapping[str, Any]:
    """Legal choices of ``seat`` now (see :func:`pbem.rules.phases.player_turn.legal_options_of`).

    Computed once per state and seat and kept in :attr:`GameState.memo` (the prompt of
    :func:`pending` and the bots ask for the same options of the same state): the result
    is shared, so never mutate it. Raises :class:`NoPack` for a state without a pack.

    >>> from pbem.rules import Dice, new_game
    >>> from tests.rules.rules_minipack import mini_pack
    >>> state, _ = new_game(mini_pack(), b"doc")
    >>> options = legal_options(state, "north")
    >>> options["first_player"], options["vp"]
    (['north', 'east', 'south', 'west'], {'north': 0, 'east': 5, 'south': 0, 'west': 3})
    >>> legal_options(state, "north") is options
    True
    """
    key = ("legal_options", seat)
    got = state.memo.get(key)
    if got is None:
        got = state.memo[key] = legal_options_of(pack_of(state), state.peek(), seat)
    return got


def reshuffle_deck(state: GameState, dice: Dice) -> tuple[GameState, list[Event]]:
    """Shuffle the unseen Tyche deck again, as the judge does after a host's rollback
    (docs/trust.md "Rollback and the dice"): the restored deck's order is the one the
    abandoned branch drew from, so a seat that drew there would know what another draws
    next. Only the deck moves: the hands, the discards and the board stay. Events: the
    dice of the shuffle (``Shuffled``, R-6.4, with ``dice`` — for the judge the dice that
    follow the last decision's, :meth:`pbem.rules.dice.Dice.resumed`), ``DeckShuffled``
    (the new order, judge-only) and a public ``Note``; none when the deck holds fewer
    than two cards. Returns (the new state, the events).

    >>> from pbem.rules import Dice, new_game
    >>> from tests.rules.rules_minipack import mini_pack
    >>> state, _ = new_game(mini_pack(), b"doc")
    >>> ctx = Ctx(state.pack, state.to_dict(), None)
    >>> ctx.emit("DeckShuffled", {"deck": [7, 3, 5], "from_discards": [], "rule": "R-6.4"}).kind
    'DeckShuffled'
    >>> stacked = GameState.adopt(ctx.s, state.pack)
    >>> new, events = reshuffle_deck(stacked, Dice(b"doc", state.step, context="1" * 64))
    >>> [e.kind for e in events], sorted(deck(new.peek())), new.private == stacked.private
    (['Shuffled', 'DeckShuffled', 'Note'], [3, 5, 7], True)
    """
    pack = pack_of(state)
    ctx = Ctx(pack, state.to_dict(), dice)
    cards = list(deck(ctx.s))
    if len(cards) < 2:
        return state, []
    order = ctx.shuffle(cards, "reshuffle the unseen Tyche deck after a rollback", "R-6.4")
    ctx.emit("DeckShuffled", {"deck": order, "from_discards": [], "rule": "R-6.4"})
    ctx.emit("Note", {"text": "after the rollback the unseen Tyche deck was shuffled again (the hands and "
                              "the discards stay as they were)", "rule": "R-6.4"})
    return GameState.adopt(ctx.s, pack), ctx.events


def _same(a: Any, b: Any) -> bool:
    """``a == b`` with the keys of every mapping in the same order too: the order a
    player wrote (reinforcements placed, segments) can matter to the rules, and the
    logged orders document is what a replay carries out, so a check is reused only for
    orders equal key for key in order."""
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b


def _plain(orders: Any) -> Any:
    """Copy mappings/sequences from a YAML loader into plain dicts and lists."""
    t = type(orders)  # the exact types first (no ABC checks): the same copy, faster
    if t is dict:
        return {k: _plain(v) for k, v in orders.items()}
    if t is list or t is tuple:
        return [_plain(v) for v in orders]
    if t is str or t is int or t is bool or t is float or orders is None:
        return orders
    if isinstance(orders, Mapping):
        return {k: _plain(v) for k, v in orders.items()}
    if isinstance(orders, (list, tuple)):
        return [_plain(v) for v in orders]
    return orders
