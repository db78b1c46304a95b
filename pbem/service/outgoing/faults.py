"""Server faults of the running judge (issue 17, findings 5 and 11): the IMAP server,
the SMTP server or the database failing, or an error of the loop itself that is not
tied to one mail.

Each fault kind has an *episode*: it starts at the first failure and ends at the next
success. The hosts are told once per episode (and again after a day if it goes on),
when it has lasted :data:`GRACE` — a server restart of a minute is no news, a full disk
is. The notice goes through the outbox (:func:`pbem.service.outgoing.host_notices.report_fault`); when
the database itself is what fails, straight over SMTP (:func:`pbem.service.outgoing.host_notices.send_direct`).
"""
from __future__ import annotations

import gettext
import logging
import ssl
import threading
from dataclasses import dataclass
from datetime import datetime, timedelta

from pbem import i18n
from pbem.i18n import N_
from pbem.service.base.context import Service
from pbem.service.base.text import safe_text
from pbem.service.outgoing import host_notices

log = logging.getLogger(__name__)

#: how long a fault lasts before the hosts are told
GRACE = {"imap": timedelta(minutes=10), "smtp": timedelta(minutes=10), "database": timedelta(0),
         "database busy": timedelta(minutes=5), "internal": timedelta(0)}
#: what the hosts read about each fault kind (translated where it is mailed, issue 28)
WHAT = {
    "imap": N_("the judge cannot read its mailbox (IMAP); orders wait on the server and are read when it works "
               "again"),
    "smtp": N_("the judge cannot send mail (SMTP); answers, reports and prompts wait in the outbox"),
    "database": N_("the judge cannot write its database; mail stays in the INBOX and is retried"),
    "database busy": N_("the judge's database has been busy for a while; mail stays in the INBOX and is retried"),
    "internal": N_("the judge's loop hit an internal error (not tied to one mail); it goes on"),
}
#: the title of each fault kind's notice (``[pbem] judge notice: imap fault``)
TITLES = {"imap": N_("imap fault"), "smtp": N_("smtp fault"), "database": N_("database fault"),
          "database busy": N_("database busy fault"), "internal": N_("internal fault")}
RETRY_DIRECT = timedelta(minutes=30)


@dataclass
class Episode:
    """One ongoing fault: since when, the latest detail, whether the hosts were told."""

    since: datetime
    detail: str
    told: bool = False
    next_try: datetime | None = None


class ServerFaults:
    """The open fault episodes of one running judge, shared by its threads. Each episode
    is kept in the ``faults`` table from its first failure (break-it finding 7: they were
    in memory only, so after a restart the grace began again — a judge restarting more
    often than the grace never told anyone — and an episode that had ended during the
    restart stayed open in the table, muting the next one); memory is a cache of it, and
    the only record when the database itself is what fails. Each call takes the caller's
    own judge (its own store connection)."""

    def __init__(self) -> None:
        self.episodes: dict[str, Episode] = {}
        self._lock = threading.Lock()

    def failed(self, judge: Service, kind: str, exc: BaseException) -> None:
        """Record a failure of ``kind`` (a key of :data:`GRACE`); tell the hosts when
        the episode has lasted long enough. Never raises."""
        now = judge.clock()
        error = safe_text(f"{type(exc).__name__}: {exc}", 500)
        detail = error + certificate_hint(kind, exc)  # as the store and `pbem status` keep it (English)
        with self._lock:
            ep = self.episodes.get(kind)
            if ep is None:
                ep = self.episodes[kind] = _episode(judge, kind, now, detail)
            ep.detail = detail
            if ep.told or now - ep.since < GRACE.get(kind, timedelta(0)) or (ep.next_try and now < ep.next_try):
                return
            ep.told = True  # one thread tells; the others see it told
        since = ep.since.isoformat()

        def body(tr: gettext.NullTranslations, since: str = since, error: str = error) -> str:
            """The notice in the host's language (issue 28); the error itself as it came,
            the certificate hint (if any) in the host's language too."""
            what = tr.gettext(WHAT[kind]) if kind in WHAT else kind
            hint = certificate_hint(kind, exc, tr).removeprefix(" — ")
            return (tr.gettext("Since %(since)s %(what)s.") % {"since": since, "what": what} + "\n\n"
                    + tr.gettext("Latest error: %(detail)s") % {"detail": error} + "\n\n"
                    + (hint + "\n\n" if hint else "")
                    + tr.gettext("The judge keeps running and retries by itself; nothing is lost. You are told once "
                                 "per episode; `pbem status` shows open faults."))
        if not _tell(judge, kind, body):
            with self._lock:
                ep.told = False
                ep.next_try = now + RETRY_DIRECT

    def recovered(self, judge: Service, kind: str) -> None:
        """End the episode of ``kind`` after a success. Never raises."""
        with self._lock:
            ep = self.episodes.pop(kind, None)
        if ep is not None:
            log.info("%s works again (fault since %s)", kind, ep.since.isoformat())
        try:  # also an episode begun before a restart, which memory does not know
            row = judge.store.fault(kind)
            if row is not None and not row["cleared_at"]:
                with judge.store.transaction():
                    judge.store.fault_cleared(kind, judge.clock().isoformat())
        except Exception as exc:  # noqa: BLE001
            log.debug("could not record the end of the %s fault: %s", kind, exc)


def certificate_hint(kind: str, exc: BaseException, tr: gettext.NullTranslations | None = None) -> str:
    """For a TLS certificate the judge does not trust (``CERTIFICATE_VERIFY_FAILED``,
    RFC 8314 / :class:`ssl.SSLCertVerificationError`) on the ``imap`` or ``smtp`` server:
    `` — `` and one sentence saying how to trust it (issue 30), in the language of
    ``tr`` (English by default: the log and the stored fault; the host's language in
    the notice, issue 28); else "". The config keys it names stay as written."""
    text = f"{exc!r} {exc.__cause__!r} {exc.__context__!r}"
    if kind not in ("imap", "smtp") or not (isinstance(exc, ssl.SSLCertVerificationError)
                                           or "CERTIFICATE_VERIFY_FAILED" in text):
        return ""
    _ = (tr or i18n.translations()).gettext
    return " — " + _("the %(server)s server's certificate is not trusted by this machine. If it is self-signed or "
                     "from a private CA, set `%(ca_file)s` in the config to that CA's certificate (PEM); "
                     "`%(verify_tls)s` turns the check off (then anyone on the path can read the password).") % {
        "server": kind.upper(), "ca_file": f"{kind}.ca_file", "verify_tls": f"{kind}.verify_tls: false"}


def _episode(judge: Service, kind: str, now: datetime, detail: str) -> Episode:
    """The episode of ``kind`` as the store keeps it (begun before a restart, maybe told
    already), or a new one stored from ``now``; in memory only when the store fails."""
    try:
        with judge.store.transaction():
            row = judge.store.fault_started(kind, detail, now.isoformat())
        return Episode(datetime.fromisoformat(row["first_seen"]), detail, told=row["notified_at"] is not None)
    except Exception as exc:  # noqa: BLE001 - e.g. the database is what fails
        log.debug("fault %s kept in memory only: %s", kind, safe_text(str(exc), 200))
        return Episode(now, detail)


def _title(kind: str) -> i18n.Localizable:
    """The title of ``kind``'s notice, in the host's language where it is mailed."""
    return (lambda tr: tr.gettext(TITLES[kind])) if kind in TITLES else kind + " fault"


def _tell(judge: Service, kind: str, body: i18n.Localizable) -> bool:
    """Queue the notice; when the database is what fails, send it straight over SMTP."""
    try:
        with judge.store.transaction():
            host_notices.report_fault(judge, kind, _title(kind), body)
        return True
    except Exception as exc:  # noqa: BLE001 - the database may be what fails
        log.warning("cannot queue the host notice about %s (%s); sending it directly", kind, safe_text(str(exc), 200))
        return host_notices.send_direct(judge, kind, _title(kind), body) > 0
