"""The ``inbox`` table: every message fetched, its raw bytes kept forever, with the IMAP
UIDVALIDITY and UID it came under, what the judge made of it, and its answer."""
from __future__ import annotations

import hashlib
import json
from typing import Any

from pbem.store.base import Connection, canonical_json, utcnow


class InboxTable(Connection):
    """Incoming messages (mixed into :class:`pbem.store.Store`)."""

    def inbox_by_message_id(self, message_id: str) -> dict[str, Any] | None:
        """The (first) inbox row for a Message-ID, or None."""
        rows = list(self.db["inbox"].rows_where("message_id = ?", [message_id], order_by="id", limit=1))
        return rows[0] if rows else None

    def inbox_row(self, inbox_id: int) -> dict[str, Any]:
        """The inbox row ``inbox_id``. Raises sqlite_utils NotFoundError."""
        return self.db["inbox"].get(inbox_id)

    def record_inbox(self, *, message_id: str, raw: bytes, uidvalidity: int | None, uid: int | None,
                     folder: str, sender: str, subject: str, status: str, reason: str = "",
                     game_id: str | None = None, seat: str | None = None, step: int | None = None,
                     result: Any = None) -> int:
        """Insert the inbox row (raw bytes kept) and return its id. Raises
        sqlite3.IntegrityError if the Message-ID is already recorded."""
        now = utcnow()
        return self.db["inbox"].insert({
            "message_id": message_id, "uidvalidity": uidvalidity, "uid": uid, "folder": folder,
            "fetched_at": now, "sender": sender, "subject": subject, "raw": raw,
            "sha256": hashlib.sha256(raw).hexdigest(), "status": status, "reason": reason,
            "game_id": game_id, "seat": seat, "step": step,
            "result": canonical_json(result) if result is not None else None,
            "processed_at": now}).last_pk

    def latest_result(self, game_id: str, seat: str, step: int) -> Any:
        """The decoded ``result`` of the seat's latest inbox row for ``step`` that has one,
        or None (the receipt's "what changed" section)."""
        rows = list(self.db["inbox"].rows_where(
            "game_id = ? AND seat = ? AND step = ? AND result IS NOT NULL", [game_id, seat, step],
            order_by="id DESC", limit=1))
        return json.loads(rows[0]["result"]) if rows else None

    def note_suppressed(self, inbox_id: int) -> None:
        """Record that the answer to inbox row ``inbox_id`` was not sent (rate limit)."""
        row = self.db["inbox"].get(inbox_id)
        self.db["inbox"].update(inbox_id, {"reason": f"{row['reason']} (answer suppressed: rate limit)".strip()})

    def suppressed_answers(self) -> list[tuple[str, int, str]]:
        """(sender, mails, last fetched_at) for every sender whose answers the rate limit
        held back."""
        return [tuple(r) for r in self.db.execute(
            "SELECT sender, count(*), max(fetched_at) FROM inbox WHERE reason LIKE "
            "'%answer suppressed: rate limit%' GROUP BY sender ORDER BY sender").fetchall()]
