"""The ``events`` and ``snapshots`` tables: the append-only, hash-chained event log of
each game and the states after it.

Each events row carries ``prev_hash`` and its own ``hash`` = SHA-256 over the previous
hash and the row's canonical JSON, so any edit of the log is detectable
(:meth:`EventsTable.verify_chain`). The first snapshot of a game is the empty position
the log replays from.
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pbem.store.base import GENESIS, Connection, canonical_json, utcnow


def event_hash(prev_hash: str, game_id: str, seq: int, kind: str, data: Mapping[str, Any],
               seat: str | None, public: bool) -> str:
    """SHA-256 hex of one event row chained to ``prev_hash``."""
    body = canonical_json({"game": game_id, "seq": seq, "kind": kind, "data": data,
                           "seat": seat, "public": public})
    return hashlib.sha256((prev_hash + body).encode()).hexdigest()


@dataclass(frozen=True)
class StoredEvent:
    """One row of the event log."""

    game_id: str
    seq: int
    kind: str
    data: Mapping[str, Any]
    seat: str | None
    public: bool
    step: int
    hash: str
    inbox_id: int | None = None


class EventsTable(Connection):
    """The event log and the snapshots (mixed into :class:`pbem.store.Store`)."""

    def last_event(self, game_id: str) -> tuple[int, str]:
        """(seq, hash) of the game's last event, or (0, GENESIS)."""
        row = self.db.execute("SELECT seq, hash FROM events WHERE game_id = ? ORDER BY seq DESC LIMIT 1",
                              [game_id]).fetchone()
        return (row[0], row[1]) if row else (0, GENESIS)

    def append_events(self, game_id: str, events: Sequence[Mapping[str, Any]], step: int,
                      inbox_id: int | None = None) -> int:
        """Append events (each a mapping with kind, data, seat, public) to the game's log,
        chaining hashes; return the new last seq. Call inside a transaction."""
        seq, prev = self.last_event(game_id)
        now = utcnow()
        rows = []
        for ev in events:
            seq += 1
            seat = ev.get("seat")
            public = bool(ev.get("public", True))
            h = event_hash(prev, game_id, seq, ev["kind"], ev["data"], seat, public)
            rows.append({"game_id": game_id, "seq": seq, "kind": ev["kind"],
                         "data": canonical_json(ev["data"]), "seat": seat, "public": int(public),
                         "step": step, "inbox_id": inbox_id, "created_at": now,
                         "prev_hash": prev, "hash": h})
            prev = h
        if rows:
            self.db["events"].insert_all(rows)
        return seq

    def events(self, game_id: str, after_seq: int = 0) -> list[StoredEvent]:
        """The game's events with seq > ``after_seq``, in order."""
        return [StoredEvent(r["game_id"], r["seq"], r["kind"], json.loads(r["data"]), r["seat"],
                            bool(r["public"]), r["step"], r["hash"], r["inbox_id"])
                for r in self.db["events"].rows_where("game_id = ? AND seq > ?", [game_id, after_seq],
                                                      order_by="seq")]

    def chain_rows(self, game_id: str) -> list[dict[str, Any]]:
        """Every events row of the game as stored (``data`` decoded), in seq order: the
        archive's chain page and ``log.jsonl``."""
        rows = list(self.db["events"].rows_where("game_id = ?", [game_id], order_by="seq"))
        for r in rows:
            r["data"] = json.loads(r["data"])
            r["public"] = bool(r["public"])
        return rows

    def verify_chain(self, game_id: str) -> list[str]:
        """Recompute the hash chain; return a list of problems (empty when intact)."""
        problems = []
        prev = GENESIS
        expected_seq = 1
        for r in self.db["events"].rows_where("game_id = ?", [game_id], order_by="seq"):
            if r["seq"] != expected_seq:
                problems.append(f"seq {expected_seq} missing (found {r['seq']})")
            if r["prev_hash"] != prev:
                problems.append(f"seq {r['seq']}: prev_hash does not match the previous row")
            h = event_hash(prev, game_id, r["seq"], r["kind"], json.loads(r["data"]), r["seat"],
                           bool(r["public"]))
            if h != r["hash"]:
                problems.append(f"seq {r['seq']}: hash mismatch (row edited?)")
            prev = r["hash"]
            expected_seq = r["seq"] + 1
        return problems

    def save_snapshot(self, game_id: str, seq: int, step: int, state: Mapping[str, Any]) -> None:
        """Store the state after event ``seq`` (JSON)."""
        self.db["snapshots"].insert({"game_id": game_id, "seq": seq, "step": step,
                                     "state": canonical_json(state), "created_at": utcnow()},
                                    replace=True)

    def snapshot(self, game_id: str, seq: int | None = None) -> tuple[int, dict[str, Any]] | None:
        """(seq, state) of the latest snapshot (at or before ``seq`` when given)."""
        where, args = "game_id = ?", [game_id]
        if seq is not None:
            where += " AND seq <= ?"
            args.append(seq)
        rows = list(self.db["snapshots"].rows_where(where, args, order_by="seq DESC", limit=1))
        return (rows[0]["seq"], json.loads(rows[0]["state"])) if rows else None

    def first_snapshot(self, game_id: str) -> tuple[int, dict[str, Any]] | None:
        """(seq, state) of the game's first snapshot (the initial position)."""
        rows = list(self.db["snapshots"].rows_where("game_id = ?", [game_id], order_by="seq", limit=1))
        return (rows[0]["seq"], json.loads(rows[0]["state"])) if rows else None

    def snapshot_seqs(self, game_id: str, after_seq: int = 0) -> list[int]:
        """The seqs of the game's snapshots after ``after_seq``, ascending (batch bounds)."""
        return [r["seq"] for r in self.db["snapshots"].rows_where(
            "game_id = ? AND seq > ?", [game_id, after_seq], order_by="seq", select="seq")]
