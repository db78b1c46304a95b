"""Sending the outbox over SMTP (:mod:`pbem.mail.smtp`) — in the loop's own thread so
a stalled SMTP server never holds up IMAP or the deadlines (issue 17, finding 9).

Rows that give up (a 5xx reply, an address that cannot be sent to) are reported to the
hosts, one notice per pass listing them (finding 6; never for a notice to a host
itself, which would loop); ``pbem outbox resend`` (:func:`pbem.service.outgoing.outbox.resend`)
sends them again.
"""
from __future__ import annotations

import gettext
import logging
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pbem import i18n
from pbem.mail.smtp import CYCLE_BUDGET, PROBE_TIMEOUT, SendReport, answers, send_due
from pbem.service.base.context import Service
from pbem.service.outgoing import faults, host_notices, webhooks
from pbem.store import is_transient_db_error

log = logging.getLogger(__name__)


def flush(judge: Service, budget: float = CYCLE_BUDGET) -> SendReport:
    """Send the due outbox rows over SMTP within ``budget`` seconds, then report the rows
    that gave up to the hosts. Raises what the store raises."""
    report = send_due(judge.store, judge.config.smtp, judge.config.judge_address, judge.clock(), budget=budget)
    if report.refused:  # 550 User unknown while sending: as a delivery report would say (issue 25, finding 12)
        with judge.store.transaction():
            for address, reply in report.refused.items():
                host_notices.bounced(judge, address, lambda tr, reply=reply: tr.gettext(  # each reader's language
                    "the mail server refused the address (%(reply)s)") % {"reply": reply})
    if report.gave_up:
        _report_given_up(judge, report.gave_up)
    # webhooks after the mail, so they never hold it up (issue 29.5; pbem.service.outgoing.webhooks)
    posted, hooks_gave_up = webhooks.send_due(judge.store, judge.clock(),
                                                   budget=min(budget, webhooks.PASS_BUDGET))
    report.sent += posted
    if hooks_gave_up:
        _report_webhooks_given_up(judge, hooks_gave_up)
    return report


def _recipient(judge: Service, row: Mapping[str, Any], tr: gettext.NullTranslations | None = None) -> str:
    """Who an outbox row was for, as the host reads it, in the language of ``tr``
    (English by default; the host's in a notice, issue 28): ``seat east of g1
    (east@example.org)``, or the address alone (a webhook: :func:`webhooks.recipient`)."""
    if row["kind"] == webhooks.KIND:
        return webhooks.recipient(judge.store, row, tr)
    seat = judge.store.seat_at(row["game_id"], row["to_addr"]) if row.get("game_id") else None
    _ = (tr or i18n.translations()).gettext
    return (_("seat %(seat)s of %(game)s (%(address)s)") % {"seat": seat, "game": row["game_id"],
                                                             "address": row["to_addr"]}
            if seat else repr(row["to_addr"]))


def _report_given_up(judge: Service, ids: Sequence[int]) -> None:
    rows = [judge.store.outbox_row(i) for i in ids]
    rows = [r for r in rows if r["kind"] != "host"]
    if not rows:
        return

    def lines(tr: gettext.NullTranslations) -> str:
        """One line per row, in the host's language (the server's error as it came)."""
        return "\n".join("- " + tr.gettext("outbox %(id)s: %(kind)s to %(recipient)s (%(subject)s): %(error)s") % {
            "id": r["id"], "kind": r["kind"], "recipient": _recipient(judge, r, tr), "subject": repr(r["subject"]),
            "error": r["last_error"]} for r in rows)
    with judge.store.transaction():
        host_notices.report_fault(judge, "undeliverable", lambda tr: tr.gettext("mail could not be delivered"),
                                  lambda tr: tr.gettext("The mail server refused these messages for good (or they "
                                                        "cannot be sent):") + f"\n\n{lines(tr)}\n\n" + tr.gettext(
                                      "Fix the address or the relay, then `pbem outbox resend` sends them again "
                                      "with the same Message-IDs. You hear of this at most once a day; `pbem "
                                      "status` lists every failed message."))


def _report_webhooks_given_up(judge: Service, ids: Sequence[int]) -> None:
    """Tell the hosts of webhook rows that gave up (issue 29.5), as of undelivered mail."""
    rows = [judge.store.outbox_row(i) for i in ids]

    def lines(tr: gettext.NullTranslations) -> str:
        """One line per row, in the host's language (the error as it came)."""
        return "\n".join("- " + tr.gettext("outbox %(id)s: %(recipient)s (%(subject)s): %(error)s") % {
            "id": r["id"], "recipient": _recipient(judge, r, tr), "subject": repr(r["subject"]),
            "error": r["last_error"]} for r in rows)
    with judge.store.transaction():
        host_notices.report_fault(judge, "webhook", lambda tr: tr.gettext("a webhook could not be reached"),
                                  lambda tr: tr.gettext("These webhook notices gave up (the mail to the seats went "
                                                        "out as usual):") + f"\n\n{lines(tr)}\n\n" + tr.gettext(
                                      "The seat can set another URL or `webhook: off` by `command: preferences`; "
                                      "`pbem outbox resend` posts them again. You hear of this at most once a day; "
                                      "`pbem status` lists every failed row."))


#: seconds between the sender's looks at the database for mail another process queued
WATCH_EVERY = 0.5
#: seconds between the sender's looks for the relay's greeting while it is down
PROBE_EVERY = 2.0


class Sender(threading.Thread):
    """Sends the outbox in its own thread, with its own store connection, until
    ``stop``: a pass when :meth:`kick` is called, every ``every`` seconds, and within
    ``watch_every`` seconds of a commit by another connection (issue 24, finding 11: a
    host command from the CLI, another process, used to wait for the next timed pass,
    11–30 s; :meth:`pbem.store.Store.data_version` tells, a cheap PRAGMA, no query of
    the outbox). After a pass that found the relay down, commits no longer start a pass;
    instead the thread looks for the relay's greeting every ``probe_every`` seconds
    (:func:`pbem.mail.smtp.answers`: no login, no mail) and starts a pass as soon as it
    answers (issue 30, item 8: the outbox used to wait for its timer, up to 30 s after
    the relay was back); a kick or the timer still start one too. When a pass that a
    greeting started fails again (the relay greets but refuses our login, say), the next
    look waits twice as long, up to ``every``, so a relay that greets and refuses is
    not tried more often than the timer would. A pass that raises is logged and reported
    as a fault; the thread goes on."""

    def __init__(self, make_judge: Callable[[], Service], stop: threading.Event, every: float = 30.0,
                 budget: float = CYCLE_BUDGET, watch: faults.ServerFaults | None = None,
                 watch_every: float = WATCH_EVERY, probe_every: float = PROBE_EVERY):
        super().__init__(name="pbem-outbox", daemon=True)
        self._make = make_judge
        self.watch = watch or faults.ServerFaults()
        self.stop = stop
        self.every = every
        self.budget = budget
        self.watch_every = watch_every
        self.probe_every = probe_every
        self._kick = threading.Event()
        self.passes = 0

    def kick(self) -> None:
        """Ask for a pass now."""
        self._kick.set()

    def run(self) -> None:
        judge = None
        while judge is None and not self.stop.is_set():
            try:
                judge = self._make()
            except Exception:
                log.exception("the outbox sender cannot open the store; retrying")
                self.stop.wait(self.every)
        if judge is None:
            return
        watch = self.watch
        relay_down = False
        probe_delay = self.probe_every
        while not self.stop.is_set():
            greeted = self._wait(judge, relay_down, probe_delay)
            if self.stop.is_set():
                break
            try:
                report = flush(judge, self.budget)
                relay_down = bool(report.server_error)
                if report.server_error:
                    watch.failed(judge, "smtp", RuntimeError(report.server_error))
                    if greeted:  # it greets but the pass still fails: look less often
                        probe_delay = min(probe_delay * 2, self.every)
                else:
                    probe_delay = self.probe_every
                    if report.sent:
                        watch.recovered(judge, "smtp")
            except Exception as exc:
                log.exception("outbox pass failed")
                watch.failed(judge, "database" if is_transient_db_error(exc) else "internal", exc)
            self.passes += 1
        judge.store.close()

    def _wait(self, judge: Service, relay_down: bool, probe_delay: float) -> bool:
        """Until a kick, ``every`` seconds, a commit by another connection since the last
        pass (when the relay is up), or the relay's greeting (when ``relay_down``; looked
        for every ``probe_delay`` seconds). True when the greeting ended the wait."""
        end = time.monotonic() + self.every
        probe_at = time.monotonic() + probe_delay
        seen = _version(judge)
        greeted = False
        while not self.stop.is_set():
            left = end - time.monotonic()
            if left <= 0 or self._kick.wait(min(self.watch_every, left)):
                break
            if relay_down:
                if time.monotonic() >= probe_at:
                    if answers(judge.config.smtp, min(PROBE_TIMEOUT, probe_delay)):
                        greeted = True
                        break
                    probe_at = time.monotonic() + probe_delay
                continue
            now = _version(judge)
            if now != seen:
                break
            seen = now
        self._kick.clear()
        return greeted


def _version(judge: Service) -> int | None:
    """:meth:`pbem.store.Store.data_version`, or None when the database cannot be read
    now (the next pass reports that)."""
    try:
        return judge.store.data_version()
    except Exception as exc:  # noqa: BLE001 - a busy or broken database: the timer still runs
        log.debug("data_version: %s", exc)
        return None
