"""The strong bot (issue 27 Part A; docs/bots.md): candidates from the greedy policy,
each scored by playouts over positions re-sampled from the seat's own view.

For the seat's decision:

1. the greedy bot's candidate orders documents (:func:`pbem.rules.bots.greedy.candidates`;
   for the turn-order choice, every seat it may name) are ranked one ply deep on one
   sample of the view, and the best ``keep`` go on;
2. in rounds, until the time ``budget`` (seconds) is spent or ``playouts`` rounds are
   done (at least one round): a new sample of the view (:func:`redeal`: the unseen cards
   re-dealt to the other hands and the deck, with the bot's own ``rng``) and a new dice
   seed of the bot's own, the same for every candidate in the round (common random
   numbers); each candidate is carried out on it, the game played on for ``horizon``
   decisions by the playout policy (random legal orders for every seat), and the
   position scored by :func:`pbem.rules.bots.greedy.evaluate`;
3. the candidate with the best mean score is kept (ties: the greedy's order).

Reaction windows are answered as the greedy bot does: the rest of the mover's move is
hidden from the seat (R-9.3), so there is nothing to play out. With a ``budget`` the
number of rounds depends on the machine's speed; with ``budget=None`` the bot is
deterministic for its ``rng``.
"""
from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from pbem.rules.bots.greedy import (
    best_of,
    bot_dice,
    candidates,
    evaluate,
    reaction_answer,
)
from pbem.rules.bots.random import random_orders
from pbem.rules.bots.seat_view import redeal, seat_view
from pbem.rules.core.problems import IllegalOrders
from pbem.rules.core.state import GameState, war_get
from pbem.rules.engine import apply, legal_options, pending, validate


@dataclass(frozen=True)
class Budget:
    """How hard the strong bot thinks about one decision: ``seconds`` of wall time per
    decision (None: no clock, only ``playouts``), at most ``playouts`` rounds, ``width``
    candidates built, ``keep`` of them played out, ``horizon`` decisions per playout."""

    seconds: float | None = 1.0
    playouts: int = 64
    width: int = 16
    keep: int = 5
    horizon: int = 8


DEFAULT_BUDGET = Budget()


def playout(sample: GameState, seat: str, orders: Mapping[str, Any], seed: int,
            horizon: int, score: Callable[[GameState, str], float] = evaluate
            ) -> float | None:
    """``orders`` of ``seat`` carried out on ``sample``, then ``horizon`` more decisions
    of random legal orders (:func:`random_orders`, every seat, the bot's own dice from
    ``seed``), scored for ``seat``; None when the engine refuses ``orders``."""
    if validate(sample, seat, orders):
        return None
    rng = random.Random(seed)
    try:
        state, _ = apply(sample, seat, orders, bot_dice(rng, sample.step))
        for _ in range(horizon):
            d = pending(state)
            if not d:
                break
            doc = random_orders(state, d[0].seat, rng)
            state, _ = apply(state, d[0].seat, doc, bot_dice(rng, state.step))
    except IllegalOrders:
        return None
    return score(state, seat)


def search_orders(state: GameState, seat: str, rng: random.Random,
                  budget: Budget = DEFAULT_BUDGET,
                  clock: Callable[[], float] = time.perf_counter) -> dict[str, Any]:
    """The strong bot's orders for ``seat``'s pending decision in ``state`` (R-6.1,
    R-7.2, R-8; reaction windows R-9.3 as :func:`reaction_answer`), by the search of the
    module docstring within ``budget``. Reads only :func:`seat_view` of ``state``; draws
    only from ``rng`` (and reads ``clock``, seconds, when ``budget.seconds`` is set).
    Returns an orders document as a player would send it."""
    start = clock()
    view = seat_view(state, seat)
    if war_get(view.peek(), "pause"):
        return reaction_answer(view, seat)
    if view.order_choice:  # every seat the chooser may name
        docs = [{"first_player": x} for x in legal_options(view, seat)["first_player"]
                or [seat]]
    else:
        ranked = best_of(redeal(view, seat, rng), seat,
                         candidates(view, seat, rng, budget.width), rng.getrandbits(64))
        docs = [d for _, _, d in ranked[:budget.keep]]
        if not docs:
            return candidates(view, seat, rng, 1)[0]
    if len(docs) == 1:
        return docs[0]
    totals = [0.0] * len(docs)
    counts = [0] * len(docs)
    for done in range(budget.playouts):
        if done and budget.seconds is not None and clock() - start >= budget.seconds:
            break
        sample = redeal(view, seat, rng)
        seed = rng.getrandbits(64)
        for i, d in enumerate(docs):
            v = playout(sample, seat, d, seed, budget.horizon)
            if v is not None:
                totals[i] += v
                counts[i] += 1
    means = [t / c if c else float("-inf") for t, c in zip(totals, counts, strict=True)]
    best = max(range(len(docs)), key=lambda i: (means[i], -i))
    return docs[best]
