"""``python tests/service/crashpoints.py run -c CONFIG``: the ``pbem`` command, with a
crash point armed by the environment variable ``PBEM_TEST_CRASH_AT`` — the process kills
itself with SIGKILL (no cleanup, no atexit, like a power cut) the first time it gets
there:

- ``after_fetch``: a message was downloaded over IMAP, nothing of it handled;
- ``in_transaction``: the events of a mail were written inside the open transaction,
  nothing committed;
- ``after_commit``: the transaction committed, the message not yet moved on IMAP;
- ``during_smtp``: the SMTP server accepted a message, the outbox row not yet marked
  sent.

Production code has no hooks: the crash points wrap library functions here, in the
child process only.
"""
from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from pbem.cli import main  # noqa: E402
from pbem.mail.imap import ImapPoller  # noqa: E402
from pbem.store import Store  # noqa: E402


def _die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def arm(point: str) -> None:
    """Wrap the library function where ``point`` is so that it SIGKILLs the process."""
    if point == "after_fetch":
        fetch = ImapPoller._fetch

        def fetched(self, batch, uidvalidity, known=None):  # noqa: ANN001, ANN202
            got = fetch(self, batch, uidvalidity, known)
            if got:
                _die()
            return got
        ImapPoller._fetch = fetched
    elif point == "in_transaction":
        append = Store.append_events

        def appended(self, game_id, events, step, inbox_id=None):  # noqa: ANN001, ANN202
            seq = append(self, game_id, events, step, inbox_id)
            if inbox_id is not None:
                _die()
            return seq  # the caller's snapshot is saved at it (a lost seq left the log)
        Store.append_events = appended
    elif point == "after_commit":
        ImapPoller._finish_all = lambda self, statuses, quiet=False: _die() if statuses else None
    elif point == "during_smtp":
        Store.mark_sent = lambda self, outbox_id: _die()
    elif point:
        raise SystemExit(f"unknown crash point {point!r}")


if __name__ == "__main__":
    arm(os.environ.get("PBEM_TEST_CRASH_AT", ""))
    main(sys.argv[1:], prog_name="pbem")
