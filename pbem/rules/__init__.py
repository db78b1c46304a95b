"""The Successors rules core: pure functions over plain data (see docs/rules.md).

Public API (used by the service)::

    SEATS, GameState, Event, Decision, Problem, IllegalOrders
    new_game(pack, seed, options) -> (state, events)          R-2, R-6.1 … R-6.4
    GameState.from_dict(data, pack) -> state                  (a stored snapshot)
    pending(state) -> [Decision]                              R-6.5
    check(state, seat, orders) -> Checked (.problems)          R-8
    execute(state, checked, dice) -> (state, events)          R-8
    validate(state, seat, orders) -> [Problem]                (check(...).problems)
    validate_partly(state, seat, orders) -> ([Problem], [str])  (and what dice left, 24.1)
    validate_told(state, seat, orders) -> ([Problem], [str])   the same, as the seat may be told (others' standing orders secret)
    apply(state, seat, orders, dice) -> (state, events)       (check, then execute)
    fold(initial, events) -> state
    reshuffle_deck(state, dice) -> (state, events)          R-6.4 (the unseen deck, after a host's rollback)
    legal_options(state, seat) -> mapping                     R-8
    view(state, seat | None) -> dict                          R-3.2, R-1.4, R-11.1
    bot_orders(state, seat, rng) -> orders                    (random; the test driver)
    greedy_orders(state, seat, rng) -> orders                 (docs/bots.md; seat's view)
    search_orders(state, seat, rng, budget) -> orders         (docs/bots.md; seat's view)
    seat_view(state, seat) -> state                           what a seat may know (R-6.4)
    judge_event(kind, data) -> Event                          (the judge's own log entries)
    option_problems(pack, options) -> [str]                   R-2 (the rule options a game may set)

A state carries the data pack it is played with (``state.pack``); the functions read the
pack from there (:func:`pack_of`).
"""
from pbem.problems import Problem
from pbem.rules.bots.greedy import greedy_orders
from pbem.rules.bots.random import bot_orders
from pbem.rules.bots.search import Budget, search_orders
from pbem.rules.bots.seat_view import seat_view
from pbem.rules.core.events import judge_event
from pbem.rules.core.options import RULE_OPTIONS, option_problems
from pbem.rules.core.problems import IllegalOrders
from pbem.rules.core.state import SEATS, Decision, Event, GameState
from pbem.rules.dice import Dice
from pbem.rules.engine import (
    Checked,
    apply,
    check,
    execute,
    fold,
    legal_options,
    pack_of,
    pending,
    reshuffle_deck,
    validate,
    validate_partly,
    validate_told,
)
from pbem.rules.phases.setup import empty_state, new_game
from pbem.rules.view import view

__all__ = [
    "RULE_OPTIONS",
    "SEATS",
    "Budget",
    "Checked",
    "Decision",
    "Dice",
    "Event",
    "GameState",
    "IllegalOrders",
    "Problem",
    "apply",
    "bot_orders",
    "check",
    "empty_state",
    "execute",
    "fold",
    "greedy_orders",
    "judge_event",
    "legal_options",
    "new_game",
    "option_problems",
    "pack_of",
    "pending",
    "reshuffle_deck",
    "search_orders",
    "seat_view",
    "validate",
    "validate_partly",
    "validate_told",
    "view",
]
