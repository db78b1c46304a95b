"""The ``deadlines`` table: for every open decision (game, step, seat) its kind, when it
is due, and when the reminder went and the deadline expired (docs/pipeline.md,
"Deadlines").

``wake_at`` (issue 30, item 6) is the earliest time the deadline pass must look at a row
again (ISO 8601 UTC; ``""``: at once): the pass reads only the rows whose time has come
(:meth:`DeadlinesTable.due_deadlines`, an index on it), so its cost follows the deadlines
that need something, not the number of running games. A row is woken at once whenever
it is set or moved, and every row when the judge starts (:meth:`wake_all`: the config's
reminder lengths may have changed)."""
from __future__ import annotations

import json
from typing import Any

from pbem.store.base import Connection


class DeadlinesTable(Connection):
    """Deadlines of open decisions (mixed into :class:`pbem.store.Store`)."""

    def set_deadline(self, game_id: str, step: int, seat: str, kind: str, due_at: str) -> None:
        """Start (or restart) the deadline of ``seat``'s decision ``kind`` at ``step``,
        due at ``due_at`` (ISO 8601 UTC)."""
        self.db["deadlines"].insert({"game_id": game_id, "step": step, "seat": seat, "kind": kind,
                                     "due_at": due_at, "reminded_at": None, "expired_at": None, "wake_at": ""},
                                    replace=True)

    def due_deadlines(self, now: str) -> list[dict[str, Any]]:
        """Open deadlines whose ``wake_at`` has come by ``now`` (ISO 8601 UTC), soonest
        due first: the rows the deadline pass must look at. Read through the partial index
        ``deadlines_wake`` (named: left to itself SQLite walks every open deadline by
        ``due_at``, 11 ms a pass with 10,000 running games, issue 30 item 6)."""
        return list(self.db.query("SELECT * FROM deadlines INDEXED BY deadlines_wake "
                                  "WHERE expired_at IS NULL AND wake_at <= ? ORDER BY due_at", [now]))

    def sleep_deadline(self, game_id: str, step: int, seat: str, until: str) -> None:
        """Nothing is due on this deadline before ``until`` (ISO 8601 UTC)."""
        self.db["deadlines"].update((game_id, step, seat), {"wake_at": until})

    def wake_all(self) -> int:
        """Look at every open deadline on the next pass (at start); returns how many."""
        return self.db.execute("UPDATE deadlines SET wake_at = '' WHERE expired_at IS NULL AND wake_at != ''").rowcount

    def open_deadlines(self, game_id: str | None = None) -> list[dict[str, Any]]:
        """Deadlines not expired yet, soonest first (of one game when given)."""
        where, args = "expired_at IS NULL", []
        if game_id is not None:
            where, args = where + " AND game_id = ?", [game_id]
        return list(self.db["deadlines"].rows_where(where, args, order_by="due_at"))

    def deadline(self, game_id: str, step: int, seat: str) -> dict[str, Any] | None:
        """One deadline row, or None."""
        rows = list(self.db["deadlines"].rows_where("game_id = ? AND step = ? AND seat = ?", [game_id, step, seat]))
        return rows[0] if rows else None

    def expire_deadline(self, game_id: str, step: int, seat: str, at: str) -> None:
        """Close a deadline (decided, by default or because the game moved on)."""
        self.db["deadlines"].update((game_id, step, seat), {"expired_at": at})

    def mark_reminded(self, game_id: str, step: int, seat: str, at: str) -> None:
        """Record that the reminder for a deadline was queued."""
        self.db["deadlines"].update((game_id, step, seat), {"reminded_at": at})

    def games_with_proposals(self) -> set[str]:
        """The games that ever had a seats' proposal (a ``VoteProposed`` event; the
        partial index ``events_proposals``, migration ``019_proposal_index``)."""
        return {r[0] for r in self.db.execute(
            "SELECT DISTINCT game_id FROM events WHERE kind = 'VoteProposed'")}

    def events_of_kinds(self, game_id: str, kinds: tuple[str, ...]) -> list[tuple[str, dict[str, Any]]]:
        """``(kind, data)`` of the game's events of ``kinds``, in log order (the table
        events the deadlines fold: missed decisions, civil disorder, absences)."""
        marks = ",".join("?" * len(kinds))
        return [(r[0], json.loads(r[1])) for r in self.db.execute(
            f"SELECT kind, data FROM events WHERE game_id = ? AND kind IN ({marks}) ORDER BY seq",
            [game_id, *kinds])]
