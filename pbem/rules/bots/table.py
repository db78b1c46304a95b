"""The bots that may play a seat at the judge's table (issue 27 Part A item 3;
docs/bots.md "At the table").

One entry per bot a game may name in its ``bot`` setting: its name, its version (part
of the label logged with every orders document it writes: ``search/1``; a change to a
bot that changes its orders takes a new version) and how it is called. Every entry is
given only :func:`pbem.rules.bots.seat_view.seat_view` of its seat, its own random
generator and its budget; it returns an orders document as a person would send it.

:func:`bot_seed` is the bot's own random seed for one decision: a SHA-256 of public
data only (the game, the seat, the step), never of the game's secret dice seed, so the
bot's orders cannot depend on (nor tell anything of) the seed, the deck or the other
hands (docs/trust.md).
"""
from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pbem.rules.bots.greedy import greedy_orders
from pbem.rules.bots.random import random_bot
from pbem.rules.bots.search import Budget, search_orders
from pbem.rules.bots.seat_view import seat_view
from pbem.rules.core.state import GameState

Play = Callable[[GameState, str, random.Random, Budget], dict[str, Any]]
"""``(view, seat, rng, budget) -> orders document``."""


@dataclass(frozen=True)
class TableBot:
    """A bot that may play a seat: ``name`` (the ``bot`` setting's value), ``version``
    (a whole number, raised when its play changes) and ``play``."""

    name: str
    version: int
    play: Play

    @property
    def label(self) -> str:
        """``NAME/VERSION``, as the log and the reports name the bot (``search/1``)."""
        return f"{self.name}/{self.version}"

    def orders(self, state: GameState, seat: str, rng: random.Random, budget: Budget) -> dict[str, Any]:
        """The bot's orders for ``seat``'s pending decision: ``play`` on the seat's
        view of ``state`` only (R-6.4: the others' hands, the deck and the suspended
        move are not in it). Raises ValueError for a ``seat`` that is not a seat."""
        return self.play(seat_view(state, seat), seat, rng, budget)


BOTS: dict[str, TableBot] = {
    "search": TableBot("search", 1, lambda view, seat, rng, budget: search_orders(view, seat, rng, budget)),
    "greedy": TableBot("greedy", 1, lambda view, seat, rng, budget: greedy_orders(view, seat, rng)),
    "random": TableBot("random", 1, lambda view, seat, rng, budget: random_bot(view, seat, rng)),
}
"""Every table bot by name (the ``bot`` setting, :data:`pbem.gamesettings.TABLE_BOTS`)."""


def bot_seed(game_id: str, seat: str, step: int) -> int:
    """The bot's own random seed for ``seat``'s decision at ``step`` of ``game_id``: the
    first 8 bytes of SHA-256(``pbem-bot/1``, game, seat, step) as an integer. Public
    data only (docs/trust.md): two games that look the same from the seat give the bot
    the same seed.

    >>> bot_seed("g1", "west", 3) == bot_seed("g1", "west", 3) != bot_seed("g1", "west", 4)
    True
    """
    digest = hashlib.sha256("\0".join(("pbem-bot/1", game_id, seat, str(step))).encode()).digest()
    return int.from_bytes(digest[:8], "big")
