"""The SQLite store (sqlite-utils, WAL): games, seats, inbox, events, snapshots, outbox.

Conventions (ARCHITECTURE.md, "Store"):
- migrations are recorded in the ``migrations`` table and applied in order at open;
- ``inbox`` keeps the raw bytes of every message forever, unique by Message-ID, with the
  IMAP UIDVALIDITY and UID it was fetched under;
- ``events`` is append-only with a per-game ``seq``; each row carries ``prev_hash`` and
  its own ``hash`` = SHA-256 over the previous hash and the row's canonical JSON, so any
  edit of the log is detectable (:meth:`Store.verify_chain`);
- applying a message and recording its Message-ID happen in one transaction
  (:meth:`Store.transaction`).
"""
from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlite_utils

GENESIS = "0" * 64


def utcnow() -> str:
    """Current UTC time as ISO 8601 text (seconds)."""
    return datetime.now(UTC).replace(microsecond=0).isoformat()


def canonical_json(value: Any) -> str:
    """JSON with sorted keys and no spaces: the form hashed in the event chain."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def event_hash(prev_hash: str, game_id: str, seq: int, kind: str, data: Mapping[str, Any],
               seat: str | None, public: bool) -> str:
    """SHA-256 hex of one event row chained to ``prev_hash``."""
    body = canonical_json({"game": game_id, "seq": seq, "kind": kind, "data": data,
                           "seat": seat, "public": public})
    return hashlib.sha256((prev_hash + body).encode()).hexdigest()


def _m001(db: sqlite_utils.Database) -> None:
    db["games"].create({"id": str, "pack": str, "seed": str, "seed_commitment": str,
                        "status": str, "step": int, "options": str, "created_at": str,
                        "updated_at": str}, pk="id")
    db["seats"].create({"game_id": str, "seat": str, "player": str, "email": str,
                        "key_hash": str, "bouncing": int, "bounced_at": str},
                       pk=("game_id", "seat"), foreign_keys=[("game_id", "games", "id")])
    db["inbox"].create({"id": int, "message_id": str, "uidvalidity": int, "uid": int,
                        "folder": str, "fetched_at": str, "sender": str, "subject": str,
                        "raw": bytes, "sha256": str, "status": str, "reason": str,
                        "game_id": str, "seat": str, "step": int, "result": str,
                        "processed_at": str}, pk="id")
    db["inbox"].create_index(["message_id"], unique=True)
    db["inbox"].create_index(["uidvalidity", "uid", "folder"])
    db["events"].create({"game_id": str, "seq": int, "kind": str, "data": str, "seat": str,
                         "public": int, "step": int, "inbox_id": int, "created_at": str,
                         "prev_hash": str, "hash": str},
                        pk=("game_id", "seq"), foreign_keys=[("game_id", "games", "id")])
    db["snapshots"].create({"game_id": str, "seq": int, "step": int, "state": str,
                            "created_at": str}, pk=("game_id", "seq"))
    db["outbox"].create({"id": int, "message_id": str, "game_id": str, "kind": str,
                         "to_addr": str, "subject": str, "raw": bytes, "in_reply_to": str,
                         "status": str, "attempts": int, "last_error": str,
                         "next_attempt_at": str, "created_at": str, "sent_at": str}, pk="id")
    db["outbox"].create_index(["message_id"], unique=True)
    db["outbox"].create_index(["status", "next_attempt_at"])
    db["imap_state"].create({"folder": str, "uidvalidity": int, "last_uid": int,
                             "updated_at": str}, pk="folder")
    db["deadlines"].create({"game_id": str, "step": int, "seat": str, "kind": str,
                            "due_at": str, "reminded_at": str, "expired_at": str},
                           pk=("game_id", "step", "seat"))


MIGRATIONS: list[tuple[str, Callable[[sqlite_utils.Database], None]]] = [
    ("001_initial", _m001),
]


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


class Store:
    """The pbem database. ``Store(path)`` opens (creating folders and the file), sets WAL
    and applies pending migrations. Not thread-safe: one Store per thread."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(str(path), isolation_level=None, timeout=30)
        self.db = sqlite_utils.Database(conn)
        if str(path) != ":memory:":
            self.db.enable_wal()
        self.db.execute("PRAGMA foreign_keys = ON")
        self.db.execute("PRAGMA busy_timeout = 30000")
        self._depth = 0
        self.migrate()

    # -- transactions -------------------------------------------------------------------
    @contextmanager
    def transaction(self) -> Iterator[Store]:
        """``with store.transaction():`` — everything inside commits together or not at
        all (BEGIN IMMEDIATE … COMMIT / ROLLBACK). Nested use joins the outer one."""
        if self._depth:
            self._depth += 1
            try:
                yield self
            finally:
                self._depth -= 1
            return
        self.db.execute("BEGIN IMMEDIATE")
        self._depth = 1
        try:
            yield self
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        else:
            self.db.execute("COMMIT")
        finally:
            self._depth = 0

    def migrate(self) -> list[str]:
        """Apply migrations not yet recorded; return the names applied."""
        if "migrations" not in self.db.table_names():
            self.db["migrations"].create({"name": str, "applied_at": str}, pk="name")
        done = {r["name"] for r in self.db["migrations"].rows}
        applied = []
        for name, fn in MIGRATIONS:
            if name in done:
                continue
            with self.transaction():
                fn(self.db)
                self.db["migrations"].insert({"name": name, "applied_at": utcnow()})
            applied.append(name)
        return applied

    # -- games and seats ----------------------------------------------------------------
    def game(self, game_id: str) -> dict[str, Any] | None:
        """The games row for ``game_id`` or None."""
        rows = list(self.db["games"].rows_where("id = ?", [game_id]))
        return rows[0] if rows else None

    def seats(self, game_id: str) -> list[dict[str, Any]]:
        """The seats rows of a game, in the stored order."""
        return list(self.db["seats"].rows_where("game_id = ?", [game_id], order_by="rowid"))

    def create_game(self, game_id: str, pack: str, seed: bytes, seed_commitment: str,
                    options: Mapping[str, Any], seats: Sequence[Mapping[str, Any]]) -> None:
        """Insert a game and its seats (inside the caller's transaction)."""
        now = utcnow()
        self.db["games"].insert({"id": game_id, "pack": pack, "seed": seed.hex(),
                                 "seed_commitment": seed_commitment, "status": "active",
                                 "step": 0, "options": canonical_json(dict(options)),
                                 "created_at": now, "updated_at": now})
        for s in seats:
            self.db["seats"].insert({"game_id": game_id, "seat": s["seat"], "player": s["player"],
                                     "email": s["email"].lower(), "key_hash": s["key_hash"],
                                     "bouncing": 0, "bounced_at": None})

    def set_game_step(self, game_id: str, step: int, status: str | None = None) -> None:
        """Record the game's current prompt number (and optionally its status)."""
        values: dict[str, Any] = {"step": step, "updated_at": utcnow()}
        if status:
            values["status"] = status
        self.db["games"].update(game_id, values)

    def mark_bouncing(self, address: str) -> list[tuple[str, str]]:
        """Mark every seat registered at ``address`` as bouncing; return (game, seat) pairs."""
        hits = list(self.db["seats"].rows_where("email = ?", [address.lower()]))
        for r in hits:
            self.db["seats"].update((r["game_id"], r["seat"]), {"bouncing": 1, "bounced_at": utcnow()})
        return [(r["game_id"], r["seat"]) for r in hits]

    # -- inbox ----------------------------------------------------------------------------
    def inbox_by_message_id(self, message_id: str) -> dict[str, Any] | None:
        """The inbox row for a Message-ID, or None."""
        rows = list(self.db["inbox"].rows_where("message_id = ?", [message_id]))
        return rows[0] if rows else None

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

    # -- events and snapshots -----------------------------------------------------------------
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
                            bool(r["public"]), r["step"], r["hash"])
                for r in self.db["events"].rows_where("game_id = ? AND seq > ?", [game_id, after_seq],
                                                      order_by="seq")]

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

    # -- outbox ---------------------------------------------------------------------------
    def queue_mail(self, *, message_id: str, game_id: str | None, kind: str, to_addr: str,
                   subject: str, raw: bytes, in_reply_to: str | None = None) -> int:
        """Add a composed message to the outbox (status pending); return its id."""
        now = utcnow()
        return self.db["outbox"].insert({
            "message_id": message_id, "game_id": game_id, "kind": kind, "to_addr": to_addr,
            "subject": subject, "raw": raw, "in_reply_to": in_reply_to, "status": "pending",
            "attempts": 0, "last_error": None, "next_attempt_at": now, "created_at": now,
            "sent_at": None}).last_pk

    def due_mail(self, now: str | None = None, limit: int = 100) -> list[dict[str, Any]]:
        """Pending outbox rows whose next attempt is due."""
        return list(self.db["outbox"].rows_where("status = 'pending' AND next_attempt_at <= ?",
                                                 [now or utcnow()], order_by="id", limit=limit))

    def mark_sent(self, outbox_id: int) -> None:
        """Record a successful SMTP hand-over."""
        self.db["outbox"].update(outbox_id, {"status": "sent", "sent_at": utcnow(), "last_error": None})

    def mark_attempt_failed(self, outbox_id: int, error: str, next_attempt_at: str | None) -> None:
        """Count a failed attempt; ``next_attempt_at`` None gives up (status failed)."""
        row = self.db["outbox"].get(outbox_id)
        values: dict[str, Any] = {"attempts": row["attempts"] + 1, "last_error": error[:500]}
        if next_attempt_at is None:
            values["status"] = "failed"
        else:
            values["next_attempt_at"] = next_attempt_at
        self.db["outbox"].update(outbox_id, values)

    def replies_to(self, address: str, since: str, kinds: Sequence[str] = ("reply",)) -> int:
        """How many messages of ``kinds`` were queued to ``address`` since ``since``
        (rate limiting answers to a sender)."""
        marks = ",".join("?" * len(kinds))
        return self.db.execute(
            f"SELECT count(*) FROM outbox WHERE to_addr = ? AND created_at >= ? AND kind IN ({marks})",
            [address.lower(), since, *kinds]).fetchone()[0]

    # -- IMAP position ----------------------------------------------------------------------
    def imap_position(self, folder: str) -> tuple[int | None, int]:
        """(UIDVALIDITY, last UID seen) for ``folder``; (None, 0) if never polled."""
        rows = list(self.db["imap_state"].rows_where("folder = ?", [folder]))
        return (rows[0]["uidvalidity"], rows[0]["last_uid"]) if rows else (None, 0)

    def set_imap_position(self, folder: str, uidvalidity: int, last_uid: int) -> None:
        """Record the UIDVALIDITY and the highest UID handled in ``folder``."""
        self.db["imap_state"].insert({"folder": folder, "uidvalidity": uidvalidity,
                                      "last_uid": last_uid, "updated_at": utcnow()}, replace=True)
