"""The bots that may play a seat at the judge's table (issue 27 Part A item 3;
docs/bots.md "At the table").

One entry per bot a game may name in its ``bot`` setting: its name, its version (part
of the label logged with every orders document it writes: ``search/1``; a change to a
bot that changes its orders takes a new version) and how it is called. Every entry is
given only :func:`pbem.rules.bots.seat_view.seat_view` of its seat, its own random
generator and its budget; it returns an orders document as a person would send it.

:func:`bot_seed` is the bot's own random seed for one decision: a SHA-256 of the
game's secret bot key (:func:`bot_key`), the game, the seat and the step. The key is an
HMAC of the game's dice seed — committed in the log's first event, private until the
game ends, revealed with the seed — so during the game no rival can re-run the bot
with guessed hands to see which hand gives the orders it played, and after it anyone
can (issue 25, attempt 5, item 3; docs/trust.md). The key is a one-way function of
the seed with its own label: the bot's orders tell nothing of the dice, the deck or the
other hands, and the bot never reads them (it sees only its seat's view).
"""
from __future__ import annotations

import hashlib
import hmac
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
    "search": TableBot("search", 2, lambda view, seat, rng, budget: search_orders(view, seat, rng, budget)),
    "greedy": TableBot("greedy", 1, lambda view, seat, rng, budget: greedy_orders(view, seat, rng)),
    "random": TableBot("random", 1, lambda view, seat, rng, budget: random_bot(view, seat, rng)),
}
"""Every table bot by name (the ``bot`` setting, :data:`pbem.gamesettings.TABLE_BOTS`)."""


def bot_key(seed: bytes, game_id: str) -> bytes:
    """The game's secret bot key: HMAC-SHA256 of ``game_id`` under the game's 32-byte
    dice ``seed`` with the label ``pbem-bot-key/1`` (32 bytes). Secret while the seed is
    (the log commits to the seed at the start and reveals it at the end: docs/trust.md);
    a one-way function of it, so the bot's play tells nothing of the dice."""
    return hmac.new(seed, "\0".join(("pbem-bot-key/1", game_id)).encode(), hashlib.sha256).digest()


def bot_seed(game_id: str, seat: str, step: int, key: bytes | None = None) -> int:
    """The bot's own random seed for ``seat``'s decision at ``step`` of ``game_id``: the
    first 8 bytes of SHA-256(``pbem-bot/2``, the game's bot ``key`` in hex, game, seat,
    step) as an integer. Without ``key``: the first scheme, SHA-256(``pbem-bot/1``,
    game, seat, step) of public data only — which let a rival re-run the bot with
    guessed hands until its orders came out (issue 25, attempt 5, item 3); kept for
    reading what a bot of an older version played.

    >>> k = bot_key(bytes(32), "g1")
    >>> bot_seed("g1", "west", 3, k) == bot_seed("g1", "west", 3, k) != bot_seed("g1", "west", 4, k)
    True
    >>> bot_seed("g1", "west", 3, k) != bot_seed("g1", "west", 3, bot_key(bytes([1] * 32), "g1"))
    True
    """
    parts = ("pbem-bot/1", game_id, seat, str(step)) if key is None else \
        ("pbem-bot/2", key.hex(), game_id, seat, str(step))
    digest = hashlib.sha256("\0".join(parts).encode()).digest()
    return int.from_bytes(digest[:8], "big")
