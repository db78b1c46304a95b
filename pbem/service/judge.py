"""The judge: the adjudication service for every game of a config, as one object that
holds what every stage needs (the config, the store, the clock) and offers the
service's public operations. Each operation lives in its own module (one concern each):

- :mod:`pbem.service.games`: packs, live states, game setup;
- :mod:`pbem.service.intake`: one raw message to its outcome, under one guard
  (quarantine, retry later, too large);
- :mod:`pbem.service.envelope`, :mod:`pbem.service.authres`: envelope and identity
  (key, address, wrong-key lockout, standing-orders sequence, Authentication-Results);
- :mod:`pbem.service.adjudicate`: applying orders;
- :mod:`pbem.service.reports`, :mod:`pbem.service.answers`, :mod:`pbem.service.host`:
  the mail each outcome causes, and what the hosts are told;
- :mod:`pbem.service.outbox`, :mod:`pbem.service.ratelimit`: queueing and sending it;
- :mod:`pbem.service.deadlines`, :mod:`pbem.service.history`;
- :mod:`pbem.service.faults`: server fault episodes;
- :mod:`pbem.service.loop`, :mod:`pbem.service.runner`: the poll loop, ``pbem run``;
- :mod:`pbem.service.status`, :mod:`pbem.service.verify`: ``pbem status``, ``pbem verify``.
"""
from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from pbem import rules
from pbem.config import Config
from pbem.keys import KeyCache
from pbem.pack.model import Pack
from pbem.service import deadlines, games, intake, outbox, prefs, ratelimit
from pbem.service.issue import now_utc
from pbem.store import Store


@dataclass
class Judge:
    """The adjudication service for every game in ``config``, on ``store``.

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
        return games.game_pack(self.store, game_id)

    def state(self, game_id: str) -> rules.GameState:
        """The live state of a game (its latest snapshot). Raises KeyError if unknown."""
        return games.live_state(self.store, game_id)

    def ensure_games(self) -> list[str]:
        """Create the configured games not in the database yet; sync the seats of the
        others. Returns the ids created (:func:`pbem.service.games.ensure_games`)."""
        return games.ensure_games(self)

    def handle_message(self, raw: bytes, uidvalidity: int | None = None, uid: int | None = None,
                       folder: str = "INBOX", size: int | None = None) -> str:
        """Process one raw message; return its status. Raises RetryLater on a transient
        failure (:func:`pbem.service.intake.handle_message`)."""
        return intake.handle_message(self, raw, uidvalidity, uid, folder, size)

    def handle_unfetchable(self, uidvalidity: int, uid: int, folder: str, error: BaseException) -> str:
        """Quarantine a message the IMAP client cannot fetch (:func:`pbem.service.intake.unfetchable`)."""
        return intake.unfetchable(self, uidvalidity, uid, folder, error)

    def tick(self) -> int:
        """Reminders and deadline defaults that are due; returns how many decisions
        were decided by default (:func:`pbem.service.deadlines.tick`); then the daily
        digests that are due (:func:`pbem.service.prefs.send_digests`) and the answers
        digests the hour allows (:func:`pbem.service.ratelimit.send_digests`)."""
        done = deadlines.tick(self)
        prefs.send_digests(self)
        ratelimit.send_digests(self)
        return done

    def flush_outbox(self) -> tuple[int, int]:
        """Send due outbox rows over SMTP (within the pass's time budget); return (sent,
        failed attempts) (:func:`pbem.service.outbox.flush`)."""
        report = outbox.flush(self)
        return report.sent, report.failed
