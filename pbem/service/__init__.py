"""The service: wires mail, store, rules and reports (ARCHITECTURE.md, "The flow of one
order email"), split by concern into the modules listed in :mod:`pbem.service.judge`.

One order mail is handled in one database transaction: the raw message and its
Message-ID are recorded together with the events it caused, the new snapshot and the
outgoing mail (outbox). The IMAP move/flag happens after the commit (pbem.mail.imap), and
SMTP sending reads the outbox afterwards (pbem.mail.smtp), so a crash at any point
neither loses a message nor applies it twice.
"""
from pbem.service.base.text import now_utc
from pbem.service.judge import Judge
from pbem.service.loop import NETWORK_ERRORS, make_judge, run_forever, run_once

__all__ = ["NETWORK_ERRORS", "Judge", "make_judge", "now_utc", "run_forever", "run_once"]
