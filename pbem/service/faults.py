"""Server faults of the running judge (issue 17, findings 5 and 11): the IMAP server,
the SMTP server or the database failing, or an error of the loop itself that is not
tied to one mail.

Each fault kind has an *episode*: it starts at the first failure and ends at the next
success. The hosts are told once per episode (and again after a day if it goes on),
when it has lasted :data:`GRACE` — a server restart of a minute is no news, a full disk
is. The notice goes through the outbox (:func:`pbem.service.host.report_fault`); when
the database itself is what fails, straight over SMTP (:func:`pbem.service.host.send_direct`).
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from pbem.service import host
from pbem.service.issue import safe_text

if TYPE_CHECKING:
    from pbem.service.judge import Judge

log = logging.getLogger(__name__)

#: how long a fault lasts before the hosts are told
GRACE = {"imap": timedelta(minutes=10), "smtp": timedelta(minutes=10), "database": timedelta(0),
         "database busy": timedelta(minutes=5), "internal": timedelta(0)}
#: what the hosts read about each fault kind
WHAT = {
    "imap": "the judge cannot read its mailbox (IMAP); orders wait on the server and are read when it works again",
    "smtp": "the judge cannot send mail (SMTP); answers, reports and prompts wait in the outbox",
    "database": "the judge cannot write its database; mail stays in the INBOX and is retried",
    "database busy": "the judge's database has been busy for a while; mail stays in the INBOX and is retried",
    "internal": "the judge's loop hit an internal error (not tied to one mail); it goes on",
}
RETRY_DIRECT = timedelta(minutes=30)


@dataclass
class Episode:
    """One ongoing fault: since when, the latest detail, whether the hosts were told."""

    since: datetime
    detail: str
    told: bool = False
    next_try: datetime | None = None


class ServerFaults:
    """The open fault episodes of one running judge (in memory; the ``faults`` table
    keeps what the hosts were told across restarts)."""

    def __init__(self, judge: Judge):
        self.judge = judge
        self.episodes: dict[str, Episode] = {}

    def failed(self, kind: str, exc: BaseException) -> None:
        """Record a failure of ``kind`` (a key of :data:`GRACE`); tell the hosts when
        the episode has lasted long enough. Never raises."""
        now = self.judge.clock()
        detail = safe_text(f"{type(exc).__name__}: {exc}", 500)
        ep = self.episodes.setdefault(kind, Episode(now, detail))
        ep.detail = detail
        if ep.told or now - ep.since < GRACE.get(kind, timedelta(0)) or (ep.next_try and now < ep.next_try):
            return
        body = (f"Since {ep.since.isoformat()} {WHAT.get(kind, kind)}.\n\nLatest error: {detail}\n\n"
                "The judge keeps running and retries by itself; nothing is lost. You are told once per "
                "episode; `pbem status` shows open faults.")
        ep.told = self._tell(kind, body)
        if not ep.told:
            ep.next_try = now + RETRY_DIRECT

    def _tell(self, kind: str, body: str) -> bool:
        try:
            with self.judge.store.transaction():
                host.report_fault(self.judge, kind, kind + " fault", body)
            return True
        except Exception as exc:  # noqa: BLE001 - the database may be what fails
            log.warning("cannot queue the host notice about %s (%s); sending it directly", kind,
                        safe_text(str(exc), 200))
            return host.send_direct(self.judge, kind, kind + " fault", body) > 0

    def recovered(self, kind: str) -> None:
        """End the episode of ``kind`` after a success. Never raises."""
        ep = self.episodes.pop(kind, None)
        if ep is None:
            return
        log.info("%s works again (fault since %s)", kind, ep.since.isoformat())
        try:
            with self.judge.store.transaction():
                self.judge.store.fault_cleared(kind, self.judge.clock().isoformat())
        except Exception as exc:  # noqa: BLE001
            log.debug("could not record the end of the %s fault: %s", kind, exc)
