"""The judge: the adjudication service for every game of a config, as one object —
a :class:`pbem.service.base.context.Service` (the config, the store, the clock, pack
and state lookup: what every stage takes) — offering the service's public operations.
Each operation lives in its own module; the layers, bottom to top
(docs/pipeline.md, "The service's layers"):

- :mod:`pbem.service.base`: the context, text and settings helpers, the calendar;
- :mod:`pbem.service.outgoing`: the outbox and sending it, notices to hosts, server
  faults, the answers' rate limit, the seats' preferences and digests, the answers;
- :mod:`pbem.service.log`: the service's own entries in a game's log (trust);
- :mod:`pbem.service.identity`: envelope and identity (key, address, wrong-key
  lockout, standing-orders sequence, Authentication-Results, the host key);
- :mod:`pbem.service.play`: game setup, applying orders, reports, deadlines, the end;
- :mod:`pbem.service.commands`: the command registry (player and host commands,
  sign-up, history requests);
- :mod:`pbem.service.intake`: one raw message to its outcome — the intake rules, the chain,
  under one guard;
- this module, :mod:`pbem.service.loop`, :mod:`pbem.service.runner`: the facade, the
  poll loop, ``pbem run``; :mod:`pbem.service.status`, :mod:`pbem.service.verify`:
  ``pbem status``, ``pbem verify``.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime

from pbem import i18n
from pbem.service.base.context import Service
from pbem.service.commands.seat import votes
from pbem.service.intake import intake
from pbem.service.outgoing import digests, host_notices, ratelimit, sending
from pbem.service.play import bots, overdue, setup
from pbem.service.retention import EVERY as RETENTION_EVERY
from pbem.service.retention import run as run_retention

log = logging.getLogger(__name__)


@dataclass
class Judge(Service):
    """The adjudication service for every game in ``config``, on ``store``: the
    :class:`Service` every stage takes, with the operations the loop, the CLI and the
    tests call.

    ``clock`` returns the current UTC time and ``new_seed`` a new game's 32-byte seed
    (tests fix both)."""

    #: when the next retention pass is due (None: at the first tick; issue 30 item 7)
    retention_at: datetime | None = field(default=None, init=False, repr=False)

    def ensure_games(self) -> list[str]:
        """Create the configured games not in the database yet; sync the seats of the
        others. Returns the ids created (:func:`pbem.service.play.setup.ensure_games`)."""
        return setup.ensure_games(self)

    def handle_message(self, raw: bytes, uidvalidity: int | None = None, uid: int | None = None,
                       folder: str = "INBOX", size: int | None = None) -> str:
        """Process one raw message; return its status. Raises RetryLater on a transient
        failure (:func:`pbem.service.intake.intake.handle_message`)."""
        return intake.handle_message(self, raw, uidvalidity, uid, folder, size)

    def handle_unfetchable(self, uidvalidity: int, uid: int, folder: str, error: BaseException) -> str:
        """Quarantine a message the IMAP client cannot fetch
        (:func:`pbem.service.intake.intake.unfetchable`)."""
        return intake.unfetchable(self, uidvalidity, uid, folder, error)

    def tick(self) -> int:
        """Reminders and deadline defaults that are due; returns how many decisions
        were decided by default (:func:`pbem.service.play.overdue.tick`); then the daily
        digests that are due (:func:`pbem.service.outgoing.digests.send_digests`) and the
        answers digests the hour allows (:func:`pbem.service.outgoing.ratelimit.send_digests`).
        Then one bot decision that is due, the oldest (:func:`pbem.service.play.bots.play_due`:
        one per call, so a cycle of the loop thinks for one bot decision at most). First
        the seats' proposals whose time ran out expire and an agreed pause that is over
        ends (:func:`pbem.service.commands.seat.votes.tick`)."""
        votes.tick(self)
        done = overdue.tick(self)
        bots.play_due(self, most=1)
        digests.send_digests(self)
        ratelimit.send_digests(self)
        self.retention_tick()
        return done

    def retention_tick(self) -> None:
        """The retention pass when it is due (:mod:`pbem.service.retention`): at the first
        tick, then every :data:`pbem.service.retention.EVERY`, at once again while games
        wait to move (one per call). A game that cannot move is told to its host once."""
        now = self.clock()
        if self.retention_at is not None and now < self.retention_at:
            return
        if str(self.config.database) == ":memory:":
            self.retention_at = now + RETENTION_EVERY
            return
        done = run_retention(self.store, self.config, now, most=1)
        for line in done.lines():
            log.info("retention: %s", line)
        for game_id, why in done.held.items():
            said = done.said.get(game_id, why)  # in the host's language (issue 28)
            with self.store.transaction():
                host_notices.notify_host(self, game_id, lambda tr, game_id=game_id, said=said: tr.gettext(
                    "Game %(game)s ended long enough ago to leave the live database for the archive database, but "
                    "it stays: %(why)s. Run `pbem verify` on it.") % {"game": game_id,
                                                                       "why": i18n.localize(said, tr)},
                    kind="not archived", once="retention")
        self.retention_at = now if done.more else now + RETENTION_EVERY

    def bot_waiting(self) -> bool:
        """Whether a bot decision is due now (:func:`pbem.service.play.bots.waiting`): the
        loop then starts its next cycle without waiting for mail."""
        return bots.waiting(self)

    def flush_outbox(self) -> tuple[int, int]:
        """Send due outbox rows over SMTP (within the pass's time budget); return (sent,
        failed attempts) (:func:`pbem.service.outgoing.sending.flush`)."""
        report = sending.flush(self)
        return report.sent, report.failed
