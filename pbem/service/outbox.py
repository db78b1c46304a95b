"""Outgoing mail: composing a message into the outbox (once per stable Message-ID), and
sending the outbox over SMTP (:mod:`pbem.mail.smtp`) — in the loop's own thread so a
stalled SMTP server never holds up IMAP or the deadlines (issue 17, finding 9).

Rows that give up (a 5xx reply, an address that cannot be sent to) are reported to the
hosts, one notice per pass listing them (finding 6; never for a notice to a host
itself, which would loop); ``pbem outbox resend`` (:func:`resend`) sends them again.
"""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from pbem.mail.compose import Attachment, compose, stable_message_id
from pbem.mail.smtp import CYCLE_BUDGET, SendReport, send_due
from pbem.service import faults, host, prefs
from pbem.store import Store, is_transient_db_error

if TYPE_CHECKING:
    from pbem.service.judge import Judge

log = logging.getLogger(__name__)


def queue(judge: Judge, *, game_id: str | None, kind: str, to_addr: str, to_name: str | None, subject: str,
          text: str, html: str | None, id_parts: Sequence[object], attachments: Sequence[Attachment] = (),
          in_reply_to: str | None = None, references: Sequence[str] = (),
          auto: str = "auto-generated", answer_digest: str | None = None) -> None:
    """Compose one message (:func:`pbem.mail.compose.compose`) and add it to the outbox,
    unless a message with the same stable Message-ID (from ``id_parts``, RFC 5322 3.6.4)
    is queued already. ``auto`` is the RFC 3834 Auto-Submitted value; ``answer_digest``
    marks an answer (:func:`pbem.service.ratelimit.answer_digest`). Call inside the
    transaction of what caused the mail."""
    message_id = stable_message_id(judge.domain, *id_parts)
    if judge.store.has_mail(message_id):
        return
    plain = prefs.of_address(judge.store, game_id, to_addr)["format"] == "plain"  # the seat's choice (issue 16)
    out = compose(sender=judge.config.judge_address, sender_name=judge.config.judge_name, to_addr=to_addr,
                  to_name=to_name, subject=subject, text=text, html=html, attachments=attachments,
                  message_id=message_id, kind=kind, in_reply_to=in_reply_to, references=references,
                  auto=auto, game_id=game_id, date=judge.clock(), plain=plain)
    judge.store.queue_mail(message_id=out.message_id, game_id=game_id, kind=kind, to_addr=out.to_addr,
                           subject=subject, raw=out.raw, in_reply_to=in_reply_to, at=judge.clock().isoformat(),
                           bodies=out.bodies, answer_digest=answer_digest)


def flush(judge: Judge, budget: float = CYCLE_BUDGET) -> SendReport:
    """Send the due outbox rows over SMTP within ``budget`` seconds, then report the rows
    that gave up to the hosts. Raises what the store raises."""
    report = send_due(judge.store, judge.config.smtp, judge.config.judge_address, judge.clock(), budget=budget)
    if report.refused:  # 550 User unknown while sending: as a delivery report would say (issue 25, finding 12)
        with judge.store.transaction():
            for address, reply in report.refused.items():
                host.bounced(judge, address, f"the mail server refused the address ({reply})")
    if report.gave_up:
        _report_given_up(judge, report.gave_up)
    return report


def _recipient(judge: Judge, row: Mapping[str, Any]) -> str:
    """Who an outbox row was for, as the host reads it: ``seat east of g1
    (east@example.org)``, or the address alone."""
    seat = judge.store.seat_at(row["game_id"], row["to_addr"]) if row.get("game_id") else None
    return f"seat {seat} of {row['game_id']} ({row['to_addr']})" if seat else repr(row["to_addr"])


def _report_given_up(judge: Judge, ids: Sequence[int]) -> None:
    rows = [judge.store.outbox_row(i) for i in ids]
    rows = [r for r in rows if r["kind"] != "host"]
    if not rows:
        return
    lines = "\n".join(f"- outbox {r['id']}: {r['kind']} to {_recipient(judge, r)} ({r['subject']!r}): "
                      f"{r['last_error']}" for r in rows)
    with judge.store.transaction():
        host.report_fault(judge, "undeliverable", "mail could not be delivered",
                          f"The mail server refused these messages for good (or they cannot be sent):\n\n{lines}\n\n"
                          "Fix the address or the relay, then `pbem outbox resend` sends them again with the "
                          "same Message-IDs. You hear of this at most once a day; `pbem status` lists every "
                          "failed message.")


def resend(store: Store, ids: Sequence[int] | None = None) -> list[int]:
    """Put failed outbox rows (all, or ``ids``) back in the queue, due now with their
    attempts reset; the next pass sends them with their original Message-IDs. Returns
    the ids put back."""
    with store.transaction():
        return store.resend_failed(ids)


#: seconds between the sender's looks at the database for mail another process queued
WATCH_EVERY = 0.5


class Sender(threading.Thread):
    """Sends the outbox in its own thread, with its own store connection, until
    ``stop``: a pass when :meth:`kick` is called, every ``every`` seconds, and within
    ``watch_every`` seconds of a commit by another connection (issue 24, finding 11: a
    host command from the CLI, another process, used to wait for the next timed pass,
    11–30 s; :meth:`pbem.store.Store.data_version` tells, a cheap PRAGMA, no query of
    the outbox). After a pass that found the relay down, only a kick or the timer starts
    the next. A pass that raises is logged and reported as a fault; the thread goes on."""

    def __init__(self, make_judge: Callable[[], Judge], stop: threading.Event, every: float = 30.0,
                 budget: float = CYCLE_BUDGET, watch: faults.ServerFaults | None = None,
                 watch_every: float = WATCH_EVERY):
        super().__init__(name="pbem-outbox", daemon=True)
        self._make = make_judge
        self.watch = watch or faults.ServerFaults()
        self.stop = stop
        self.every = every
        self.budget = budget
        self.watch_every = watch_every
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
            except Exception:  # noqa: BLE001 - e.g. the database cannot be opened yet: try again
                log.exception("the outbox sender cannot open the store; retrying")
                self.stop.wait(self.every)
        if judge is None:
            return
        watch = self.watch
        relay_down = False
        while not self.stop.is_set():
            self._wait(judge, relay_down)
            if self.stop.is_set():
                break
            try:
                report = flush(judge, self.budget)
                relay_down = bool(report.server_error)
                if report.server_error:
                    watch.failed(judge, "smtp", RuntimeError(report.server_error))
                elif report.sent:
                    watch.recovered(judge, "smtp")
            except Exception as exc:  # noqa: BLE001 - the sender never dies
                log.exception("outbox pass failed")
                watch.failed(judge, "database" if is_transient_db_error(exc) else "internal", exc)
            self.passes += 1
        judge.store.close()

    def _wait(self, judge: Judge, relay_down: bool) -> None:
        """Until a kick, ``every`` seconds, or (unless ``relay_down``) a commit by
        another connection since the last pass."""
        end = time.monotonic() + self.every
        seen = _version(judge)
        while not self.stop.is_set():
            left = end - time.monotonic()
            if left <= 0 or self._kick.wait(min(self.watch_every, left)):
                break
            now = _version(judge)
            if now != seen and not relay_down:
                break
            seen = now
        self._kick.clear()


def _version(judge: Judge) -> int | None:
    """:meth:`pbem.store.Store.data_version`, or None when the database cannot be read
    now (the next pass reports that)."""
    try:
        return judge.store.data_version()
    except Exception as exc:  # noqa: BLE001 - a busy or broken database: the timer still runs
        log.debug("data_version: %s", exc)
        return None


__all__ = ["Sender", "flush", "queue", "resend", "stable_message_id"]
