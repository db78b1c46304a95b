"""The public engine API (see ``pbem.rules``): pending, validate, apply, fold,
legal_options. The pack comes with the state (:func:`pack_of`): there is no registry.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.pack.model import Pack
from pbem.problems import Problem
from pbem.rules.context import Ctx, DryDice
from pbem.rules.core.events import reduce
from pbem.rules.core.problems import IllegalOrders, reject
from pbem.rules.core.state import SEATS, Decision, Event, GameState, war_get
from pbem.rules.dice import Dice
from pbem.rules.orders.reactions import reaction_decision
from pbem.rules.orders.reinforcements import (
    default_reinforcements,
    reinforcement_options,
    run_reinforcement,
)
from pbem.rules.orders.standing import standing_only
from pbem.rules.phases.player_turn import (
    default_orders,
    legal_options_of,
    run_player_turn,
    run_reaction,
    run_standing,
    turn_seat,
)
from pbem.rules.phases.sequence import continue_turn, next_player_turn
from pbem.rules.phases.victory import check_victory
from pbem.rules.resolve.moves import has_war_orders, soft_if_valid


class NoPack(ValueError):
    """A state that carries no data pack (build it with ``GameState.from_dict(data, pack)``)."""


def pack_of(state: GameState) -> Pack:
    """The data pack ``state`` is played with (:attr:`GameState.pack`). Raises
    :class:`NoPack` when the state carries none."""
    if state.pack is None:
        raise NoPack(f"the state of pack {state.pack_name!r} carries no pack: build it with "
                     "GameState.from_dict(data, pack) or from new_game")
    return state.pack


def pending(state: GameState) -> list[Decision]:
    """Who must act now (R-6.5): a ``player_turn`` Decision for the active seat with its
    legal options and deadline default, or ``[]`` when the game is over."""
    if state.result:
        return []
    pack = pack_of(state)
    s = state.peek()
    window = reaction_decision(pack, s, state.step)  # reaction window
    if window is not None:
        return [window]
    if state.reinforce:
        seat = state.reinforce["queue"][0]
        return [Decision(seat=seat, kind="reinforcements", step=state.step,
                         options=reinforcement_options(pack, s, seat),
                         default=default_reinforcements(pack, s, seat), rule="R-7.2")]
    if state.active is None:
        return []
    seat = state.active
    return [Decision(seat=seat, kind="player_turn", step=state.step,
                     options=legal_options_of(pack, s, seat),
                     default=default_orders(pack, s, seat), rule="R-8")]


def validate(state: GameState, seat: str, orders: Mapping[str, Any]) -> list[Problem]:
    """Every reason ``orders`` of ``seat`` cannot be carried out now (empty when legal).
    Runs the same code as :func:`apply` on a copy with dry dice (R-8). A ``seat`` that
    is not one of the four seats is refused (``orders.unknown_seat``, R-2)."""
    pack = pack_of(state)
    ctx = Ctx(pack, state.to_dict(), DryDice())
    return _run(ctx, seat, _plain(orders))


def _run(ctx: Ctx, seat: str, orders: Any) -> list[Problem]:
    if seat not in SEATS:  # orders come from one of the four seats only
        rej: list[Problem] = []
        reject(rej, "orders.unknown_seat", f"{seat!r} is not a seat of this game", "seat",
               "seats: " + ", ".join(SEATS))
        return rej
    if standing_only(ctx.s, seat, orders):  # standing orders from any seat
        return run_standing(ctx, seat, orders)
    if war_get(ctx.s, "pause") and not ctx.s["result"]:
        return run_reaction(ctx, seat, orders)
    if ctx.s["reinforce"] and not ctx.s["result"]:
        return run_reinforcement(ctx, seat, orders)
    return run_player_turn(ctx, seat, orders)


def apply(state: GameState, seat: str, orders: Mapping[str, Any], dice: Dice
          ) -> tuple[GameState, list[Event]]:
    """Carry out ``orders`` of ``seat`` with ``dice`` (``Dice(seed, state.step)``).

    Returns the new state (``step`` + 1) and the events, which end with the next
    player's ``PlayerTurnStarted`` (or the turn's later phases, or ``GameWon``).
    Raises :class:`IllegalOrders` with every rejection when the orders are not legal.
    """
    pack = pack_of(state)
    ctx = Ctx(pack, state.to_dict(), dice)
    reinforcing = bool(ctx.s["reinforce"])
    window = war_get(ctx.s, "pause")
    only_standing = standing_only(ctx.s, seat, _plain(orders))
    pre = validate(state, seat, orders) if has_war_orders(_plain(orders)) else []
    if pre:  # refused up front, also what follows a paused Tyche move
        raise IllegalOrders(pre)
    soft = has_war_orders(_plain(orders))
    with soft_if_valid(soft):  # dice-made impossibilities are cancelled, not refused
        rej = _run(ctx, seat, _plain(orders))
    if rej:
        raise IllegalOrders(rej)
    if only_standing and ctx.s["step"] == state.step:  # no decision was taken
        return GameState.from_dict(ctx.s, pack), ctx.events
    seat = turn_seat(window, ctx.s, seat)  # the mover after a reaction answer
    if seat is None:  # a reaction window opened: the player-turn goes on
        return GameState.from_dict(ctx.s, pack), ctx.events
    if reinforcing:
        if not ctx.s["reinforce"]:
            continue_turn(ctx)
        return GameState.from_dict(ctx.s, pack), ctx.events
    ctx.emit("TurnPassed", {"seat": seat, "round": ctx.s["round"], "rule": "R-6.5"})
    check_victory(ctx, end_of_turn=False, finished=seat)
    next_player_turn(ctx)
    return GameState.from_dict(ctx.s, pack), ctx.events


def fold(initial: GameState, events: Sequence[Event]) -> GameState:
    """Rebuild a state from ``initial`` and ``events`` only (no dice, no pack)."""
    s = initial.to_dict()
    for ev in events:
        reduce(s, ev)
    return GameState.from_dict(s, initial.pack)


def legal_options(state: GameState, seat: str) -> Mapping[str, Any]:
    """Legal choices of ``seat`` now (see :func:`pbem.rules.phases.player_turn.legal_options_of`)."""
    return legal_options_of(pack_of(state), state.peek(), seat)


def _plain(orders: Any) -> Any:
    """Copy mappings/sequences from a YAML loader into plain dicts and lists."""
    if isinstance(orders, Mapping):
        return {k: _plain(v) for k, v in orders.items()}
    if isinstance(orders, (list, tuple)):
        return [_plain(v) for v in orders]
    return orders
