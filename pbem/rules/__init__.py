"""The Successors rules core: pure functions over plain data (see docs/rules.md).

Public API (used by the service)::

    SEATS, GameState, Event, Decision, Problem, IllegalOrders
    new_game(pack, seed, options) -> (state, events)          R-2, R-6.1 … R-6.4
    pending(state) -> [Decision]                              R-6.5
    validate(state, seat, orders) -> [Problem]              R-8
    apply(state, seat, orders, dice) -> (state, events)       R-8
    fold(initial, events) -> state
    legal_options(state, seat) -> mapping                     R-8
    view(state, seat | None) -> dict                          R-3.2, R-1.4, R-11.1
    bot_orders(state, seat, rng) -> orders
"""
from pbem.problems import Problem
from pbem.rules.bots.random import bot_orders
from pbem.rules.core.problems import IllegalOrders
from pbem.rules.core.state import SEATS, Decision, Event, GameState
from pbem.rules.dice import Dice
from pbem.rules.engine import (
    apply,
    fold,
    get_pack,
    legal_options,
    pending,
    register_pack,
    validate,
)
from pbem.rules.phases.setup import empty_state
from pbem.rules.phases.setup import new_game as _new_game
from pbem.rules.view import view


def new_game(pack, seed: bytes, options=None):
    """Set up a new game (R-2) and run to the first player-turn decision; registers the
    pack so the state's ``pack_name`` finds it. See :func:`pbem.rules.phases.setup.new_game`.
    Returns ``(state, events)``; ``fold(empty_state(pack), events) == state``."""
    register_pack(pack)
    return _new_game(pack, seed, options)


__all__ = [
    "SEATS",
    "Decision",
    "Dice",
    "Event",
    "GameState",
    "IllegalOrders",
    "Problem",
    "apply",
    "bot_orders",
    "empty_state",
    "fold",
    "get_pack",
    "legal_options",
    "new_game",
    "pending",
    "register_pack",
    "validate",
    "view",
]
