"""The ``imap_state`` table: per IMAP folder, its UIDVALIDITY and the last UID handled
(RFC 3501 2.3.1.1)."""
from __future__ import annotations

from pbem.store.base import Connection, utcnow


class ImapStateTable(Connection):
    """The IMAP position (mixed into :class:`pbem.store.Store`)."""

    def imap_position(self, folder: str) -> tuple[int | None, int]:
        """(UIDVALIDITY, last UID seen) for ``folder``; (None, 0) if never polled."""
        rows = list(self.db["imap_state"].rows_where("folder = ?", [folder]))
        return (rows[0]["uidvalidity"], rows[0]["last_uid"]) if rows else (None, 0)

    def set_imap_position(self, folder: str, uidvalidity: int, last_uid: int) -> None:
        """Record the UIDVALIDITY and the highest UID handled in ``folder``."""
        self.db["imap_state"].insert({"folder": folder, "uidvalidity": uidvalidity,
                                      "last_uid": last_uid, "updated_at": utcnow()}, replace=True)
