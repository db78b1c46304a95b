"""Observers and players' records (issue 29, items 3 and 4; migration ``015_observers``).

- ``observers``: per game and address, whether the address may follow the game
  (``allowed``: the host let it in, ``pbem game observers G add ADDR`` or the host's
  ``command: observers``), asked to follow it and was sent a confirmation code
  (``pending``: issue 29's trial, finding 6), follows it (``active``: it sent
  ``command: observe``, with the code unless the host allowed it) or stopped (``left``:
  ``command: leave``, the host took it off, or its mail bounced). An observer gets the
  game's public reports only (:mod:`pbem.service.play.reports`).
- ``former_seats``: the players a seat had before its present one — the address and
  the log's last event (``until_seq``) while they held it — written by
  :meth:`pbem.store.games.GamesTable.update_seat` when a seat gets a new player. A
  player's record (:meth:`ObserversTable.player_record`) counts each seat's missed
  decisions and civil disorders for the player who held it then; the log itself names
  no address (docs/trust.md).
- ``moved_records``: a finished game's part of each of its players' records, kept in the
  live database when the game moves to the archive database (:func:`keep_records`,
  called by :func:`pbem.store.retention.drop_game`); its column is ``from_game``, not
  ``game_id``, so the move leaves it here.
"""
from __future__ import annotations

import json
from datetime import datetime
from typing import Any

import sqlite_utils

from pbem.addresses import fold_address
from pbem.store.base import Connection

OBSERVER_STATUSES = ("allowed", "pending", "active", "left")
"""An observer row's statuses (module docstring)."""


def migrate_observers(db: sqlite_utils.Database) -> None:
    """Migration ``015_observers`` (module docstring): the ``observers`` and
    ``former_seats`` tables, with the indexes their look-ups use."""
    db["observers"].create({"game_id": str, "email": str, "status": str, "allowed_by": str, "language": str,
                            "since": str, "updated_at": str}, pk=("game_id", "email"), if_not_exists=True)
    db["observers"].create_index(["game_id", "status"], index_name="observers_status", if_not_exists=True)
    db["former_seats"].create({"id": int, "game_id": str, "seat": str, "player": str, "email": str,
                               "until_seq": int, "at": str}, pk="id", if_not_exists=True)
    db["former_seats"].create_index(["email"], index_name="former_seats_email", if_not_exists=True)
    db["former_seats"].create_index(["game_id", "seat"], index_name="former_seats_seat", if_not_exists=True)
    db["moved_records"].create({"email": str, "from_game": str, "finished": int, "decisions": int, "missed": int,
                                "civil_disorders": int, "answer_seconds": float}, pk=("email", "from_game"),
                               if_not_exists=True)


class ObserversTable(Connection):
    """Observers of games and the seats' former players (mixed into :class:`pbem.store.Store`)."""

    # --- observers --------------------------------------------------------------------
    def observer(self, game_id: str, email: str) -> dict[str, Any] | None:
        """The observer row of ``email`` (folded) in ``game_id``, or None."""
        rows = list(self.db["observers"].rows_where("game_id = ? AND email = ?", [game_id, fold_address(email)]))
        return rows[0] if rows else None

    def observers(self, game_id: str, status: str | None = "active") -> list[dict[str, Any]]:
        """The observer rows of a game with ``status`` (None: every row), by address."""
        if status is None:
            return list(self.db["observers"].rows_where("game_id = ?", [game_id], order_by="email"))
        return list(self.db["observers"].rows_where("game_id = ? AND status = ?", [game_id, status],
                                                    order_by="email"))

    def observed_by(self, email: str) -> list[dict[str, Any]]:
        """Every observer row of ``email`` (folded) that is ``pending`` or ``active``,
        in any game."""
        return list(self.db["observers"].rows_where("email = ? AND status IN ('pending', 'active')",
                                                    [fold_address(email)], order_by="game_id"))

    def set_observer(self, game_id: str, email: str, status: str, at: str, *, allowed_by: str | None = None,
                     language: str | None = None) -> None:
        """Create or update the observer row of ``email`` (folded): ``status`` one of
        :data:`OBSERVER_STATUSES`; ``allowed_by`` (``host`` or ``anyone``) and
        ``language`` kept when None. Raises ValueError for another status."""
        if status not in OBSERVER_STATUSES:
            raise ValueError(f"no observer status {status!r}")
        folded = fold_address(email)
        old = self.observer(game_id, folded)
        row = {"game_id": game_id, "email": folded, "status": status, "updated_at": at,
               "allowed_by": allowed_by if allowed_by is not None else (old or {}).get("allowed_by"),
               "language": language if language is not None else (old or {}).get("language"),
               "since": at if old is None or (status == "active" and old["status"] != "active") else old["since"]}
        self.db["observers"].insert(row, replace=True)

    # --- players' records ----------------------------------------------------------------
    def _spans(self, email: str) -> list[tuple[str, str, int, int | None]]:
        """``(game_id, seat, after_seq, until_seq)`` of every seat ``email`` holds or
        held: the events with ``after_seq < seq <= until_seq`` happened while it did
        (``until_seq`` None: it holds the seat now)."""
        folded = fold_address(email)
        spans: list[tuple[str, str, int, int | None]] = []
        rows = self.db.execute("SELECT game_id, seat FROM seats WHERE email = ? UNION SELECT game_id, seat FROM "
                               "former_seats WHERE email = ?", [folded, folded]).fetchall()
        for game_id, seat in rows:
            held = self.db.execute("SELECT email, until_seq FROM former_seats WHERE game_id = ? AND seat = ? "
                                   "ORDER BY id", [game_id, seat]).fetchall()
            after = 0
            for who, until in held:
                if who == folded:
                    spans.append((game_id, seat, after, until))
                after = until
            now = self.db.execute("SELECT email FROM seats WHERE game_id = ? AND seat = ?", [game_id, seat]).fetchone()
            if now is not None and now[0] == folded:
                spans.append((game_id, seat, after, None))
        return spans

    def _tally(self, email: str, only: str | None = None) -> dict[str, dict[str, Any]]:
        """Per game (``only``: that game alone) the part of ``email``'s record it makes:
        ``{game_id: {finished, running, decisions, missed, civil_disorders,
        answer_seconds}}`` (``answer_seconds``: the sum over the decisions answered)."""
        folded = fold_address(email)
        out: dict[str, dict[str, Any]] = {}
        for game_id, seat, after, until in self._spans(folded):
            if only is not None and game_id != only:
                continue
            part = out.setdefault(game_id, {"finished": 0, "running": 0, "decisions": 0, "missed": 0,
                                            "civil_disorders": 0, "answer_seconds": 0.0})
            status = (self.db.execute("SELECT status FROM games WHERE id = ?", [game_id]).fetchone() or [""])[0]
            if until is None and status == "over":
                part["finished"] = 1
            elif until is None and status in ("active", "paused"):
                part["running"] = 1
            bound = "" if until is None else " AND seq <= ?"
            args: list[Any] = [game_id, after, *([] if until is None else [until])]
            for kind, data in self.db.execute("SELECT kind, data FROM events WHERE game_id = ? AND seq > ?" + bound
                                              + " AND kind IN ('DecisionMissed', 'CivilDisorderDeclared')",
                                              args).fetchall():
                if json.loads(data).get("seat") == seat:
                    part["missed"] += kind == "DecisionMissed"
                    part["civil_disorders"] += kind == "CivilDisorderDeclared"
            for _step, first, set_at in self.db.execute(
                    "SELECT i.step, MIN(i.fetched_at), d.set_at FROM inbox i JOIN deadlines d ON d.game_id = i.game_id "
                    "AND d.step = i.step AND d.seat = i.seat WHERE i.game_id = ? AND i.seat = ? "
                    "AND i.status = 'applied' "
                    "AND lower(i.sender) = ? GROUP BY i.step", [game_id, seat, folded]).fetchall():
                if first and set_at:
                    part["decisions"] += 1
                    part["answer_seconds"] += max(0.0, (datetime.fromisoformat(first)
                                                        - datetime.fromisoformat(set_at)).total_seconds())
        return out

    def player_record(self, email: str) -> dict[str, Any]:
        """The record of the player at ``email`` across this installation's games
        (issue 29.4): ``games`` (games in which the address holds or held a seat),
        ``finished`` (games it held a seat in to the end of a game played out, status
        ``over``), ``running`` (games going on in which it holds a seat), ``decisions``
        (decisions answered by its own orders), ``missed`` (``DecisionMissed``),
        ``civil_disorders`` (``CivilDisorderDeclared``), ``missed_share`` (missed over
        answered plus missed, 0.0 to 1.0; None without a decision) and
        ``answer_seconds`` (the mean time from the prompt to the first orders accepted
        for a decision, seconds; None without one). Games moved to the archive database
        count through ``moved_records``. Reads only."""
        parts = list(self._tally(email).values())
        parts += [dict(r, running=0) for r in self.db["moved_records"].rows_where(
            "email = ?", [fold_address(email)], select="finished, decisions, missed, civil_disorders, answer_seconds")]
        total = {k: sum(p[k] for p in parts) for k in ("finished", "running", "decisions", "missed",
                                                       "civil_disorders", "answer_seconds")}
        asked = total["decisions"] + total["missed"]
        return {"games": len(parts), "finished": total["finished"], "running": total["running"],
                "decisions": total["decisions"], "missed": total["missed"],
                "civil_disorders": total["civil_disorders"],
                "missed_share": (total["missed"] / asked) if asked else None,
                "answer_seconds": (total["answer_seconds"] / total["decisions"]) if total["decisions"] else None}


def keep_records(conn: Connection, game_id: str) -> None:
    """Keep ``game_id``'s part of each of its players' records in ``moved_records``
    (before the game's rows leave the live database; inside the caller's transaction)."""
    store: Any = conn
    emails = {r[0] for r in conn.db.execute("SELECT email FROM seats WHERE game_id = ? AND email != '' UNION "
                                            "SELECT email FROM former_seats WHERE game_id = ? AND email != ''",
                                            [game_id, game_id])}
    for email in sorted(emails):
        for part in ObserversTable._tally(store, email, game_id).values():
            conn.db["moved_records"].insert({"email": email, "from_game": game_id,
                                             **{k: v for k, v in part.items() if k != "running"}}, replace=True)
