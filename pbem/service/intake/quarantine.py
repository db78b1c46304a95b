"""Quarantined mail for the host (``pbem quarantine list`` / ``retry``; break-it 9d): a
mail that made a stage of the pipeline raise is kept with its raw bytes (RFC 5322) and
its error in an inbox row ``quarantined`` (:func:`pbem.service.intake.intake.quarantine`).
Once the bug is fixed (or the database is back), the host retries it: the row becomes
``retried`` and the stored bytes go through :func:`pbem.service.intake.intake.handle_message`
again, as a new inbox row with the new outcome (applied, rejected, … or quarantined
again). Nothing is re-fetched from IMAP: the copy in the quarantine folder stays there.
"""
from __future__ import annotations

from typing import Any

from pbem.service.base.context import RetryLater, Service
from pbem.service.intake import intake
from pbem.store import Store

RETRYABLE = ("quarantined",)


class CannotRetry(ValueError):
    """The row is not a quarantined mail whose bytes are kept (e.g. too large: only its
    head is kept; an unfetchable placeholder: no bytes at all)."""


def quarantined(store: Store) -> list[dict[str, Any]]:
    """The quarantined, too-large and error rows, by id: dicts with ``id``,
    ``message_id``, ``sender``, ``status``, ``reason``, ``error``, ``fetched_at``."""
    return store.quarantined()


def retry(judge: Service, inbox_id: int) -> str:
    """Handle the stored bytes of quarantined inbox row ``inbox_id`` again; returns the
    new status (``applied``, ``rejected``, ``quarantined``, …). Raises
    :class:`CannotRetry` for a row that is not retryable (unknown id included), and
    :class:`pbem.service.base.context.RetryLater` when the database is still failing (the row
    then stays quarantined)."""
    try:
        row = judge.store.inbox_row(inbox_id)
    except Exception as exc:  # sqlite_utils NotFoundError
        raise CannotRetry(f"there is no inbox row {inbox_id}") from exc
    if row["status"] not in RETRYABLE:
        raise CannotRetry(f"inbox row {inbox_id} is {row['status']}, not quarantined")
    if not row["raw"]:
        raise CannotRetry(f"inbox row {inbox_id} keeps no message bytes (it could not be fetched); "
                          "move the message back to the INBOX on the IMAP server instead")
    with judge.store.transaction():
        before = judge.store.set_retried(inbox_id)
    try:
        return intake.handle_message(judge, bytes(row["raw"]), folder=row["folder"] or "INBOX")
    except RetryLater:
        with judge.store.transaction():
            judge.store.undo_retried(before)
        raise


__all__ = ["CannotRetry", "quarantined", "retry"]
