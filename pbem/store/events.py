"""The ``events`` and ``snapshots`` tables: the append-only, hash-chained event log of
each game and the states after it.

Each events row carries ``prev_hash`` and its own ``hash`` = SHA-256 over the previous
hash and the row's canonical JSON, so any edit of the log is detectable
(:meth:`EventsTable.verify_chain`). The first snapshot of a game is the empty position
the log replays from.

Two versions of the row hash (``games.chain``):

- 1 (games created before issue 17): ``SHA-256(prev_hash + canonical_json({"game",
  "seq", "kind", "data", "seat", "public"}))``. The archive publishes every hash, so a
  private event's low-entropy data (a dealt hand, standing orders) could be found by
  trying candidates against its hash (finding 3);
- 2: ``SHA-256(prev_hash + canonical_json({"v": 2, "game", "seq", "kind", "seat",
  "public", "step", "inbox_id", "data", "secret"}))`` where a public event has its
  ``data`` and ``secret`` null, and a private event has ``data`` null and ``secret`` =
  HMAC-SHA256(K, canonical_json(data)) with the per-game key K = HMAC-SHA256(game seed,
  "pbem-event-secret/v1") (RFC 2104). The seed is secret until the game is over (then
  the archive publishes it), so nobody can test a guess against a private event during
  the game, and anyone can check every private event afterwards. ``step`` and
  ``inbox_id`` are hashed too, so editing them breaks the chain;
- 3 (break-it 9e): as 2, but the commitment carries a per-event nonce, the event's
  ``seq``: ``secret`` = HMAC-SHA256(K, "pbem-event/v3:" + seq + ":" + canonical_json(data)).
  Under 2 two equal private documents (the same standing orders set twice, the same
  hand) had equal published commitments, which told a seat that another's secret had
  not changed; the seq is unique within a game, so no two commitments are equal.
"""
from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pbem.store.base import GENESIS, Connection, canonical_json, utcnow

CHAIN_VERSION = 3
_SECRET_LABEL = b"pbem-event-secret/v1"


def event_hash(prev_hash: str, game_id: str, seq: int, kind: str, data: Mapping[str, Any],
               seat: str | None, public: bool) -> str:
    """SHA-256 hex of one event row chained to ``prev_hash`` (chain version 1)."""
    body = canonical_json({"game": game_id, "seq": seq, "kind": kind, "data": data,
                           "seat": seat, "public": public})
    return hashlib.sha256((prev_hash + body).encode()).hexdigest()


def event_key(seed: bytes) -> bytes:
    """The per-game key of private events' commitments: HMAC-SHA256(seed, label)."""
    return hmac.new(seed, _SECRET_LABEL, hashlib.sha256).digest()


def secret_commitment(key: bytes, data: Mapping[str, Any], seq: int | None = None) -> str:
    """HMAC-SHA256 hex of a private event's canonical data under the game's event key:
    chain version 2 without ``seq``, version 3 with the event's ``seq`` as its nonce."""
    text = canonical_json(data) if seq is None else f"pbem-event/v3:{seq}:{canonical_json(data)}"
    return hmac.new(key, text.encode(), hashlib.sha256).hexdigest()


def event_hash_v2(prev_hash: str, game_id: str, seq: int, kind: str, data: Mapping[str, Any],
                  seat: str | None, public: bool, step: int, inbox_id: int | None, key: bytes,
                  version: int = 2) -> str:
    """SHA-256 hex of one event row chained to ``prev_hash`` (chain version 2 or 3: private
    data only as its keyed commitment — with the seq as nonce from 3; step and inbox id
    included)."""
    body = canonical_json({"v": 2, "game": game_id, "seq": seq, "kind": kind, "seat": seat, "public": public,
                           "step": step, "inbox_id": inbox_id, "data": data if public else None,
                           "secret": None if public else secret_commitment(key, data, seq if version >= 3 else None)})
    return hashlib.sha256((prev_hash + body).encode()).hexdigest()


def row_hash(prev_hash: str, row: Mapping[str, Any], data: Mapping[str, Any], version: int, key: bytes) -> str:
    """The hash an events ``row`` (with decoded ``data``) must carry under ``version``."""
    if version >= 2:
        return event_hash_v2(prev_hash, row["game_id"], row["seq"], row["kind"], data, row["seat"],
                             bool(row["public"]), row["step"], row["inbox_id"], key, version)
    return event_hash(prev_hash, row["game_id"], row["seq"], row["kind"], data, row["seat"], bool(row["public"]))


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
        version, key = self._chain(game_id)
        now = utcnow()
        rows = []
        for ev in events:
            seq += 1
            row = {"game_id": game_id, "seq": seq, "kind": ev["kind"], "data": canonical_json(ev["data"]),
                   "seat": ev.get("seat"), "public": int(bool(ev.get("public", True))), "step": step,
                   "inbox_id": inbox_id, "created_at": now, "prev_hash": prev}
            row["hash"] = prev = row_hash(prev, row, ev["data"], version, key)
            rows.append(row)
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

    def _chain(self, game_id: str) -> tuple[int, bytes]:
        """(chain version, event key) of a game (version 1 for unknown games)."""
        row = self.db.execute("SELECT chain, seed FROM games WHERE id = ?", [game_id]).fetchone()
        if row is None or not row[0] or row[0] < 2:
            return 1, b""
        return row[0], event_key(bytes.fromhex(row[1]))

    def event_commitment(self, game_id: str, row: Mapping[str, Any]) -> str:
        """The keyed commitment of an events ``row``'s data (chain version 2 or 3)."""
        version, key = self._chain(game_id)
        return secret_commitment(key, row["data"], row["seq"] if version >= 3 else None)

    def chain_version(self, game_id: str) -> int:
        """The game's hash-chain version (see the module docstring)."""
        return self._chain(game_id)[0]

    def verify_chain(self, game_id: str) -> list[str]:
        """Recompute the hash chain; return a list of problems (empty when intact)."""
        problems = []
        prev = GENESIS
        expected_seq = 1
        version, key = self._chain(game_id)
        for r in self.db["events"].rows_where("game_id = ?", [game_id], order_by="seq"):
            if r["seq"] != expected_seq:
                problems.append(f"seq {expected_seq} missing (found {r['seq']})")
            if r["prev_hash"] != prev:
                problems.append(f"seq {r['seq']}: prev_hash does not match the previous row")
            if row_hash(prev, r, json.loads(r["data"]), version, key) != r["hash"]:
                covered = "kind, seat, public, data, step, inbox_id" if version >= 2 else "kind, seat, public, data"
                problems.append(f"seq {r['seq']} ({r['kind']}): hash mismatch: the stored hash does not match the "
                                f"row's fields ({covered}); one of them was changed after the judge wrote it")
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

    def first_snapshot_at_step(self, game_id: str, step: int) -> dict[str, Any] | None:
        """The state of the game's first snapshot at ``step`` (the position when the step
        was first waited on; a rollback restores it), or None."""
        rows = list(self.db["snapshots"].rows_where("game_id = ? AND step = ?", [game_id, step], order_by="seq",
                                                    limit=1))
        return json.loads(rows[0]["state"]) if rows else None

    def snapshot_steps(self, game_id: str) -> dict[int, int]:
        """seq -> step of every snapshot of the game (the state's step after that event)."""
        return {r[0]: r[1] for r in self.db.execute("SELECT seq, step FROM snapshots WHERE game_id = ?", [game_id])}

    def snapshot_seqs(self, game_id: str, after_seq: int = 0) -> list[int]:
        """The seqs of the game's snapshots after ``after_seq``, ascending (batch bounds)."""
        return [r["seq"] for r in self.db["snapshots"].rows_where(
            "game_id = ? AND seq > ?", [game_id, after_seq], order_by="seq", select="seq")]
