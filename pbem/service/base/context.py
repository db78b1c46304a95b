"""The service's context (bottom layer of :mod:`pbem.service`, docs/pipeline.md,
"The service's layers"): what every stage needs — the config, the store, the clock, the
new-seed source, the key cache and the lookup of a game's data pack and live state —
as one :class:`Service` object every stage takes. It imports no stage; the operations
facade on top, :class:`pbem.service.judge.Judge`, is a :class:`Service`.

Also here: :class:`RetryLater`, the one signal every stage raises for a transient
failure (the database locked or down), so the mail is left to retry.
"""
from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache

from pbem import rules
from pbem.config import Config
from pbem.keys import KeyCache
from pbem.pack.loader import load_pack
from pbem.pack.model import Pack
from pbem.service.base.text import now_utc
from pbem.store import Store, is_transient_db_error


@lru_cache(maxsize=8)
def pack_from(source: str) -> Pack:
    """The data pack ``source`` names ("builtin" or an exported directory), loaded once.
    Raises pbem.pack.loader.PackError for a broken pack."""
    return load_pack(None if source in (None, "builtin") else source)


def game_pack(store: Store, game_id: str) -> Pack:
    """The data pack a stored game uses (built-in when the game is unknown)."""
    row = store.game(game_id)
    return pack_from(row["pack"] if row else "builtin")


def live_state(store: Store, game_id: str) -> rules.GameState:
    """The live state of a game (its latest snapshot). Raises KeyError if unknown."""
    snap = store.snapshot(game_id)
    if snap is None:
        raise KeyError(game_id)
    return rules.GameState.from_dict(snap[1], game_pack(store, game_id))


class RetryLater(RuntimeError):
    """A transient failure (database, network) while handling a mail: nothing was
    committed; leave the mail where it is and try again later. ``stage`` names where."""

    def __init__(self, stage: str, cause: BaseException):
        super().__init__(f"{stage}: {type(cause).__name__}: {cause}")
        self.stage = stage
        self.cause = cause


def is_transient(exc: BaseException) -> bool:
    """True for a failure that says nothing about the mail: a database error that may
    pass (:func:`pbem.store.is_transient_db_error`) or an OS-level error (disk, file
    system). Everything else is taken as the mail breaking a stage."""
    return is_transient_db_error(exc) or isinstance(exc, OSError)


@dataclass
class Service:
    """What every stage of the service works with, for every game in ``config``, on
    ``store``.

    ``clock`` returns the current UTC time and ``new_seed`` a new game's 32-byte seed
    (tests fix both)."""

    config: Config
    store: Store
    clock: Callable[[], datetime] = now_utc
    new_seed: Callable[[], bytes] = lambda: secrets.token_bytes(32)
    domain: str = field(init=False)
    #: keys verified against slow (PBKDF2) hashes, in memory only (docs/pipeline.md)
    keys: KeyCache = field(init=False, default_factory=KeyCache)

    def __post_init__(self) -> None:
        self.domain = self.config.judge_address.rsplit("@", 1)[1]

    def pack_for(self, game_id: str) -> Pack:
        """The data pack a game uses (built-in or an exported directory)."""
        return game_pack(self.store, game_id)

    def state(self, game_id: str) -> rules.GameState:
        """The live state of a game (its latest snapshot). Raises KeyError if unknown."""
        return live_state(self.store, game_id)
