"""The ``inbox`` table: every message fetched, its raw bytes kept forever, with the IMAP
UIDVALIDITY and UID it came under, what the judge made of it, and its answer.

A row is unique by (Message-ID, content hash) (:mod:`pbem.store.content`): the same mail
fetched again is a duplicate, a different mail reusing a known Message-ID is a new row.
Statuses: ``applied``, ``rejected``, ``held``, ``answered``, ``ignored``, ``too_large``
(only the head is kept; the message stays in the quarantine folder), ``quarantined``
(handling it raised: ``error`` says what), ``error`` (before issue 17).
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

from pbem.store.base import Connection, canonical_json, utcnow
from pbem.store.content import content_hash

#: appended to an inbox row's reason when its answer was held back (for people reading
#: the row; programs read ``answer``)
SUPPRESSED_NOTE = " (answer suppressed: rate limit)"


class InboxTable(Connection):
    """Incoming messages (mixed into :class:`pbem.store.Store`)."""

    def inbox_by_message_id(self, message_id: str) -> dict[str, Any] | None:
        """The first inbox row with this Message-ID, or None."""
        rows = list(self.db["inbox"].rows_where("message_id = ?", [message_id], order_by="id", limit=1))
        return rows[0] if rows else None

    def find_inbox(self, message_id: str, content: str) -> dict[str, Any] | None:
        """The inbox row of this Message-ID and content hash (the same mail), or None."""
        rows = list(self.db["inbox"].rows_where("message_id = ? AND content_hash = ?", [message_id, content],
                                                limit=1))
        return rows[0] if rows else None

    def has_inbox_mail(self, message_id: str, size: int) -> bool:
        """True when an inbox row has this Message-ID and a message of ``size`` bytes
        (the cheap test of "the same mail" for a copy whose bytes are not fetched yet)."""
        return self.db.execute("SELECT 1 FROM inbox WHERE message_id = ? AND size = ? LIMIT 1",
                               [message_id, size]).fetchone() is not None

    def last_fetched_at(self) -> str | None:
        """The ``fetched_at`` (ISO 8601 UTC) of the last inbox row, None when it is empty."""
        row = self.db.execute("SELECT fetched_at FROM inbox ORDER BY id DESC LIMIT 1").fetchone()
        return row[0] if row else None

    def inbox_row(self, inbox_id: int) -> dict[str, Any]:
        """The inbox row ``inbox_id``. Raises sqlite_utils NotFoundError."""
        return self.db["inbox"].get(inbox_id)

    def handled_uids(self, folder: str, uidvalidity: int, uids: Sequence[int]) -> dict[int, str]:
        """For the ``uids`` of ``folder`` under ``uidvalidity``: the status of those
        already recorded (a crash between commit and IMAP move, or a server that forgot
        our flag), by UID."""
        out: dict[int, str] = {}
        wanted = list(uids)
        for i in range(0, len(wanted), 500):
            chunk = wanted[i:i + 500]
            marks = ",".join("?" * len(chunk))
            for uid, status in self.db.execute(
                    f"SELECT uid, status FROM inbox WHERE folder = ? AND uidvalidity = ? AND uid IN ({marks})",
                    [folder, uidvalidity, *chunk]):
                out[uid] = status
        return out

    def record_inbox(self, *, message_id: str, raw: bytes, uidvalidity: int | None, uid: int | None,
                     folder: str, sender: str, subject: str, status: str, reason: str = "",
                     game_id: str | None = None, seat: str | None = None, step: int | None = None,
                     result: Any = None, error: str | None = None, size: int | None = None,
                     content: str | None = None, at: str | None = None, decided_by: str | None = None) -> int:
        """Insert the inbox row (raw bytes kept) and return its id. ``size`` is the
        message's size in bytes when ``raw`` is only its head (too large); ``content``
        its content hash (computed from ``raw`` when None); ``at`` the time (ISO 8601
        UTC, default now) the rate limits and lockouts count from; ``decided_by`` the
        intake rule that decided the mail (:mod:`pbem.service.intake.chain`). Raises
        sqlite3.IntegrityError if the same mail (Message-ID and content hash) is
        recorded already."""
        now = at or utcnow()
        return self.db["inbox"].insert({
            "message_id": message_id, "uidvalidity": uidvalidity, "uid": uid, "folder": folder,
            "fetched_at": now, "sender": sender, "subject": subject, "raw": raw,
            "sha256": hashlib.sha256(raw).hexdigest(), "content_hash": content or content_hash(raw),
            "size": len(raw) if size is None else size, "status": status, "reason": reason,
            "game_id": game_id, "seat": seat, "step": step,
            "result": canonical_json(result) if result is not None else None, "error": error,
            "answer": None, "processed_at": now, "decided_by": decided_by}).last_pk

    def applied_mail(self, game_id: str) -> list[dict[str, Any]]:
        """The applied inbox rows of a game (id, seat, step), by id."""
        return list(self.db["inbox"].rows_where("game_id = ? AND status = 'applied'", [game_id], order_by="id",
                                                select="id, seat, step"))

    def latest_result(self, game_id: str, seat: str, step: int) -> Any:
        """The decoded ``result`` of the seat's latest *applied* inbox row for ``step``,
        or None (the receipt's "what changed" section compares with accepted orders
        only, issue 24 E)."""
        rows = list(self.db["inbox"].rows_where(
            "game_id = ? AND seat = ? AND step = ? AND status = 'applied' AND result IS NOT NULL",
            [game_id, seat, step],
            order_by="id DESC", limit=1))
        return json.loads(rows[0]["result"]) if rows else None

    def note_suppressed(self, inbox_id: int) -> None:
        """Record that the answer to inbox row ``inbox_id`` was not sent (rate limit):
        ``answer`` = ``suppressed``, and a note after the reason."""
        row = self.db["inbox"].get(inbox_id)
        self.db["inbox"].update(inbox_id, {"answer": "suppressed", "reason": f"{row['reason']}{SUPPRESSED_NOTE}".strip()})

    def note_answer(self, inbox_id: int, answer: str) -> None:
        """Record how the row's answer went when it was not sent on its own: ``digest``
        (merged into the sender's answers digest) or ``repeat`` (the same answer went
        within the hour)."""
        self.db["inbox"].update(inbox_id, {"answer": answer})

    def suppressed_answers(self) -> list[tuple[str, int, str]]:
        """(sender, mails, last fetched_at) for every sender whose answers the rate limit
        held back."""
        return [tuple(r) for r in self.db.execute(
            "SELECT sender, count(*), max(fetched_at) FROM inbox WHERE answer = 'suppressed' "
            "GROUP BY sender ORDER BY sender").fetchall()]

    def auth_failures(self, game_id: str, seat: str, since: str, codes: Sequence[str]) -> int:
        """How many mails claiming ``seat`` of ``game_id`` since ``since`` were refused
        with one of ``codes`` (wrong key, foreign address): the wrong-key lockout."""
        reasons = [*codes, *(c + SUPPRESSED_NOTE for c in codes)]
        marks = ",".join("?" * len(reasons))
        return self.db.execute(
            f"SELECT count(*) FROM inbox WHERE game_id = ? AND seat = ? AND fetched_at >= ? AND reason IN ({marks})",
            [game_id, seat, since, *reasons]).fetchone()[0]

    def auth_failure_times(self, game_id: str, seat: str, since: str, codes: Sequence[str],
                           sender: str) -> list[str]:
        """When (``fetched_at``, ISO 8601 UTC, oldest first) mails from ``sender`` claiming
        ``seat`` of ``game_id`` since ``since`` were refused with one of ``codes``: the
        wrong-key lockout's sliding window (break-it finding 9g)."""
        reasons = [*codes, *(c + SUPPRESSED_NOTE for c in codes)]
        marks = ",".join("?" * len(reasons))
        return [r[0] for r in self.db.execute(
            f"SELECT fetched_at FROM inbox WHERE game_id = ? AND seat = ? AND sender = ? AND fetched_at >= ? "
            f"AND reason IN ({marks}) ORDER BY fetched_at", [game_id, seat, sender, since, *reasons])]

    def host_failure_times(self, game_id: str, since: str, codes: Sequence[str],
                           sender: str | None = None) -> list[str]:
        """When (``fetched_at``, ISO 8601 UTC, oldest first) host mails of ``game_id``
        (from ``sender``; from anyone when None) since ``since`` were refused with one
        of ``codes``: the host key's lockout (issue 25.5)."""
        reasons = [*codes, *(c + SUPPRESSED_NOTE for c in codes)]
        marks = ",".join("?" * len(reasons))
        who = "AND sender = ? " if sender is not None else ""
        return [r[0] for r in self.db.execute(
            f"SELECT fetched_at FROM inbox WHERE game_id = ? AND seat IS NULL {who}AND fetched_at >= ? "
            f"AND reason IN ({marks}) ORDER BY fetched_at",
            [game_id, *([sender] if sender is not None else []), since, *reasons])]

    def all_inbox(self) -> list[dict[str, Any]]:
        """Every inbox row, by id (raw bytes included: for tests and tools)."""
        return list(self.db["inbox"].rows_where(order_by="id"))

    def set_retried(self, inbox_id: int) -> dict[str, Any]:
        """Mark the quarantined row ``inbox_id`` ``retried`` (its content hash suffixed
        with the row id, so the same bytes can be recorded again as a new row); returns
        the row as it was. Raises sqlite_utils NotFoundError."""
        row = self.db["inbox"].get(inbox_id)
        self.db["inbox"].update(inbox_id, {"status": "retried", "content_hash": f"{row['content_hash']}:retried:{inbox_id}"})
        return row

    def undo_retried(self, row: dict[str, Any]) -> None:
        """Put back the status and content hash :meth:`set_retried` changed."""
        self.db["inbox"].update(row["id"], {"status": row["status"], "content_hash": row["content_hash"]})

    def quarantined(self) -> list[dict[str, Any]]:
        """Inbox rows quarantined or too large (id, Message-ID, sender, status, error), by id."""
        return list(self.db["inbox"].rows_where("status IN ('quarantined', 'too_large', 'error')", order_by="id",
                                                select="id, message_id, sender, status, reason, error, fetched_at"))

    def held_mail(self) -> list[dict[str, Any]]:
        """Inbox rows held (the seat's right key from another address): id, game, seat,
        sender, subject, fetched_at, by id."""
        return list(self.db["inbox"].rows_where("status = 'held'", order_by="id",
                                                select="id, game_id, seat, sender, subject, fetched_at"))
