"""Rate limits on answers (docs/pipeline.md, "Machine mail and loops"): at most
``seat_reply_rate_per_hour`` answers an hour to an address registered for a seat (or
hosting a game: break16, the host's receipts were cut at 5 an hour) and
``reply_rate_per_hour`` to any other, so that no mail loop can run away; and at most
``stranger_replies_per_hour`` answers an hour to all addresses not registered for a seat
together (break-it finding 5: with a forged From: per mail, anyone could make the judge
write to any number of third parties)."""
from __future__ import annotations

import logging
from datetime import timedelta
from typing import TYPE_CHECKING

from pbem.mail.headers import fold_address

if TYPE_CHECKING:
    from pbem.service.judge import Judge

log = logging.getLogger(__name__)


def may_answer(judge: Judge, address: str | None) -> bool:
    """Whether one more answer may go to ``address`` this hour (False for no address)."""
    if not address:
        return False
    since = (judge.clock() - timedelta(hours=1)).isoformat()
    if judge.store.is_seat_address(address) or _is_host(judge, address):
        return judge.store.replies_to(address, since) < judge.config.seat_reply_rate_per_hour
    if judge.store.replies_to_strangers(since) >= judge.config.stranger_replies_per_hour:
        return False
    return judge.store.replies_to(address, since) < judge.config.reply_rate_per_hour


def _is_host(judge: Judge, address: str) -> bool:
    """Whether ``address`` hosts a game (config or table): a host sends several commands
    in a row and must get every answer, so it is limited like a seat's address."""
    folded = fold_address(address)
    return any(g.host_email and fold_address(g.host_email) == folded for g in judge.config.games) \
        or judge.store.is_host_address(address)


def suppressed(judge: Judge, inbox_id: int, address: str | None) -> None:
    """Record that the answer to inbox row ``inbox_id`` was not sent (rate limit): a
    warning in the log and a mark on the row, shown by ``pbem status``."""
    log.warning("answer to %s (inbox %s) not sent: reply rate limit reached", address, inbox_id)
    judge.store.note_suppressed(inbox_id)
