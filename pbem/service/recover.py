"""Nothing accepted is lost with the disk (issue 30, item 3): applying again the mail that
a restored log lacks.

A restored database — from a Litestream replica that lags by its last seconds, or from
last night's backup — misses what the judge did after it. The mailbox does not: every
handled mail was moved to the processed folder after its transaction committed
(ARCHITECTURE.md, "Exactly once": the processed folder is the second copy of every
applied mail), and mail that broke the judge to the quarantine folder. So at every start,
on its first connection and before its first deadline pass, the judge looks at the mail
those folders received since two days before its log's last mail
(:meth:`pbem.mail.imap.ImapPoller.kept_since`), finds the ones its inbox has no row for
(Message-ID and size, then Message-ID and content hash, as the inbox's own key:
:mod:`pbem.store.content`) and applies them again through the same intake, in the order
they arrived (a mail of the quarantine folder, which changed nothing the first time, is
only recorded again as quarantined, never fetched: it may break the server). Each one is judged at the time it arrived (its IMAP INTERNALDATE): the
judge's clock reads that time while it is handled, and the deadline pass runs first at
that time less one poll interval (the first judge, which cycles at least once a poll
interval, had passed those deadlines before it read the mail). Deadlines that passed
while the judge was down are passed after the replay, by the loop's first cycle, as
after any outage.

The dice of version 2 derive from the orders documents and the step (docs/trust.md),
and the chain hashes each event's inbox row id: applied again in the same order, the
same mails give the same rows, the same events, the same dice and the same hashes, so
every receipt a player holds — and its witness — matches the log again. The mail they
cause goes out again with the same Message-IDs.

When nothing is missing (every start but the first after a restore) this costs one
SEARCH and one FETCH of the headers of two days of handled mail. Without a processed
folder (``imap.processed_folder`` empty: handled mail is only flagged and stays in the
INBOX) there is no second copy to read: nothing is done here, and the INBOX's flagged
mail is read again as new mail by the first cycle.
"""
from __future__ import annotations

import gettext
import logging
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from pbem.mail.headers import SYNTHETIC_DOMAIN
from pbem.mail.imap import ImapPoller, KeptMail
from pbem.service.base.text import synthetic_message_id
from pbem.service.judge import Judge
from pbem.service.outgoing.host_notices import report_fault
from pbem.store.content import content_hash

log = logging.getLogger(__name__)

#: how far before the log's last mail the kept folders are searched
WINDOW = timedelta(days=2)

#: at most this many cycles of bot decisions are played before one mail applied again
#: (a game of bots only plays on without mail; the loop plays the rest after the replay)
MAX_BOT_CYCLES = 1000


def status_word(status: str, tr: gettext.NullTranslations) -> str:
    """What the intake did with a mail applied again after a restore (its inbox
    ``status``: applied, rejected, held, ignored, answered, quarantined, too_large,
    duplicate, error), in the language of ``tr`` (the context "mail status": a mail's
    word, not a proposal's); another status as it is."""
    words = {"applied": tr.pgettext("mail status", "applied"), "rejected": tr.pgettext("mail status", "rejected"),
             "held": tr.pgettext("mail status", "held"), "ignored": tr.pgettext("mail status", "ignored"),
             "answered": tr.pgettext("mail status", "answered"),
             "quarantined": tr.pgettext("mail status", "quarantined"),
             "too_large": tr.pgettext("mail status", "too large"),
             "duplicate": tr.pgettext("mail status", "duplicate"), "error": tr.pgettext("mail status", "error")}
    return words.get(status, status)


@dataclass(frozen=True)
class Recovered:
    """What :func:`recover_kept_mail` did: how many kept mails the log lacked, and
    each one it applied again with its status, in order."""

    missing: int = 0
    applied: list[tuple[KeptMail, str]] = field(default_factory=list)


def missing_mail(judge: Judge, poller: ImapPoller) -> list[tuple[KeptMail, bytes | None]]:
    """The kept mails (processed and quarantine folders, since :data:`WINDOW` before
    the inbox's last row; all of them when the inbox is empty) that the inbox has no
    row for, in the order they arrived, with the raw bytes of each one of the processed
    folder. A mail of the quarantine folder is never fetched (it may be one that breaks
    the IMAP server: break-it finding 6), and counts only when it arrived after the
    inbox's last row. The poller must be connected. Raises network errors."""
    store = judge.store
    last = store.last_fetched_at()
    since = (datetime.fromisoformat(last) - WINDOW).date() if last else None
    after = datetime.fromisoformat(last) if last else None
    processed = judge.config.imap.processed_folder
    out: list[tuple[KeptMail, bytes | None]] = []
    wanted = []
    for m in poller.kept_since(since):
        if m.message_id is not None and store.has_inbox_mail(m.message_id, m.size):
            continue
        if m.folder == processed:
            wanted.append(m)
        elif after is None or m.arrived > after:
            out.append((m, None))
    raws = poller.fetch_kept(processed, [m.uid for m in wanted]) if wanted else {}
    for m in wanted:
        raw = raws.get(m.uid)
        if raw is not None and store.find_inbox(m.message_id or synthetic_message_id(raw), content_hash(raw)) is None:
            out.append((m, raw))
    return sorted(out, key=lambda item: (item[0].arrived, item[0].folder != processed, item[0].uid))


def keep_quarantined(judge: Judge, mail: KeptMail) -> str:
    """Record a mail of the quarantine folder the log lacks as it was first: a
    ``quarantined`` inbox row (nothing in any game changed for it), without its bytes
    (they stay in the folder), at the time it arrived, so the rows after it keep their
    ids. Returns ``"quarantined"``."""
    with judge.store.transaction():
        judge.store.record_inbox(
            message_id=mail.message_id or f"<kept-{mail.uidvalidity}-{mail.uid}@{SYNTHETIC_DOMAIN}>", raw=b"",
            uidvalidity=mail.uidvalidity, uid=mail.uid, folder=mail.folder, sender="", subject="",
            status="quarantined", reason="internal", size=mail.size,
            error=f"restore: kept in the folder {mail.folder} (UID {mail.uid}); not handled again after a restore",
            content=f"kept:{mail.folder}:{mail.uidvalidity}:{mail.uid}", at=mail.arrived.isoformat())
    return "quarantined"


def apply_again(judge: Judge, mail: KeptMail, raw: bytes) -> str:
    """Apply one kept ``mail`` as the judge would have when it arrived: the deadline
    pass at its arrival less one poll interval and every bot decision due then (the
    first judge's loop played them one cycle after another, without waiting for mail:
    at most :data:`MAX_BOT_CYCLES`), then the mail, with the clock reading its arrival. Returns the intake's status. Raises RetryLater (nothing committed for
    the mail) as :meth:`Judge.handle_message` does."""
    saved = judge.clock
    before = mail.arrived - timedelta(seconds=judge.config.imap.poll_interval)
    try:
        judge.clock = lambda: before
        judge.tick()
        # the first judge played every bot decision that came due one after the other,
        # a cycle each without waiting for mail (pbem.service.loop.run_forever): the
        # bot decisions a mail (or a bot decision) made due were all played before the
        # next mail arrived, not one per mail (issue 25, attempt 5, item 1)
        for _ in range(MAX_BOT_CYCLES):
            if not judge.bot_waiting():
                break
            judge.tick()
        judge.clock = lambda: mail.arrived
        return judge.handle_message(raw, mail.uidvalidity, mail.uid, mail.folder)
    finally:
        judge.clock = saved


def recover_kept_mail(judge: Judge, poller: ImapPoller) -> Recovered:
    """Apply again, in order, every kept mail the log lacks (:func:`missing_mail`,
    :func:`apply_again`) and tell the hosts when there was any. Call with the poller
    connected, before the first deadline pass. Does nothing without a processed folder.
    Raises network errors and RetryLater: the caller retries it before anything else
    (mail already applied again is then found in the inbox and not applied twice)."""
    if not judge.config.imap.processed_folder:
        return Recovered()
    missing = missing_mail(judge, poller)
    applied = []
    for mail, raw in missing:
        status = apply_again(judge, mail, raw) if raw is not None else keep_quarantined(judge, mail)
        applied.append((mail, status))
        log.warning("applied again a mail the restored log lacked: %s (%s, arrived %s): %s", mail.message_id,
                    mail.folder, mail.arrived.isoformat(), status)
    if applied:
        def lines(tr: gettext.NullTranslations) -> list[str]:
            return ["  " + tr.gettext("%(when)s %(message_id)s from %(folder)s: %(status)s") % {
                "when": m.arrived.isoformat(), "message_id": m.message_id or tr.gettext("(no Message-ID)"),
                "folder": m.folder, "status": status_word(s, tr)} for m, s in applied]
        with judge.store.transaction():
            values = {"num": len(applied), "folder": judge.config.imap.processed_folder}
            report_fault(judge, f"recovered {applied[0][0].arrived.isoformat()}",
                         lambda tr: tr.gettext("mail applied again after a restore"),
                         lambda tr: tr.ngettext(
                             "The database lacked %(num)d mail that the mailbox's %(folder)s and quarantine folders "
                             "hold (it was restored from a copy that lagged). It was applied again at the time it "
                             "arrived, before any deadline pass; its answers and reports go out again with the same "
                             "Message-IDs:",
                             "The database lacked %(num)d mails that the mailbox's %(folder)s and quarantine folders "
                             "hold (it was restored from a copy that lagged). They were applied again in the order "
                             "they arrived, each at the time it arrived, before any deadline pass; their answers and "
                             "reports go out again with the same Message-IDs:", values["num"]) % values
                         + "\n" + "\n".join(lines(tr)))
    return Recovered(len(missing), applied)
