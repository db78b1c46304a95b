"""The tables of the table (issue 16): how a game is run around the rules.

- ``game_tables``: per game, where it comes from (``config`` or ``cli``/``signup``),
  its host's address and key hash, its settings (:mod:`pbem.gamesettings`) and the
  *table state* (planned: folded from its table events — NMR counts, absences,
  preferences — and compared by ``pbem verify``; not written yet);
- ``press``: every press message (sender, recipients, grey or not, text), never shown
  to other seats;
- ``address_changes``: address changes waiting for the new address's confirmation;
- ``signups`` and ``signup_seats``: open games that players join by mail;
- ``digests``: reports held for a seat's daily digest;
- ``deadlines`` gains ``set_at`` (when the seat was first waited on) and ``late_at``
  (when the late notice went);
- ``commands`` (migration ``009_commands``, issue 25.8): every command applied by mail,
  with the digest of its document and its ``seq:`` — the replay guard of commands.
"""
from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import sqlite_utils

from pbem.addresses import fold_address
from pbem.store.base import Connection, canonical_json, utcnow


def migrate(db: sqlite_utils.Database) -> None:
    """Migration ``005_table`` (see the module docstring)."""
    db["game_tables"].create({"game_id": str, "origin": str, "host_email": str, "host_key_hash": str,
                              "settings": str, "state": str, "updated_at": str}, pk="game_id")
    db["press"].create({"id": int, "game_id": str, "step": int, "sender": str, "recipients": str,
                        "grey": int, "text": str, "at": str, "inbox_id": int}, pk="id")
    db["press"].create_index(["game_id"])
    db["address_changes"].create({"id": int, "game_id": str, "seat": str, "new_email": str, "code_hash": str,
                                  "requested_at": str, "status": str, "closed_at": str}, pk="id")
    db["signups"].create({"game_id": str, "pack": str, "options": str, "settings": str, "host_email": str,
                          "host_key_hash": str, "status": str, "created_at": str}, pk="game_id")
    db["signup_seats"].create({"game_id": str, "seat": str, "player": str, "email": str, "key_hash": str,
                               "joined_at": str}, pk=("game_id", "seat"))
    db["digests"].create({"id": int, "game_id": str, "seat": str, "to_addr": str, "to_name": str,
                          "subject": str, "text": str, "created_at": str, "sent_at": str}, pk="id")
    db["deadlines"].add_column("set_at", str)
    db["deadlines"].add_column("late_at", str)


def migrate_playercmd(db: sqlite_utils.Database) -> None:
    """Migration ``006_playercmd`` (issue 16, the players' commands): an index on
    ``digests.sent_at`` so the loop's look for held reports (every cycle) reads no
    whole table."""
    db["digests"].create_index(["sent_at"], index_name="digests_unsent", if_not_exists=True)


def migrate_commands(db: sqlite_utils.Database) -> None:
    """Migration ``009_commands`` (issue 25.8): the ``commands`` table — per game and
    actor (a seat, or ``host``) each command applied by mail, the SHA-256 of its
    document (the key left out), its ``seq`` (None when the mail had none), the inbox
    row and the time — indexed for the lookup by digest."""
    db["commands"].create({"id": int, "game_id": str, "actor": str, "digest": str, "seq": int, "inbox_id": int,
                           "at": str}, pk="id", if_not_exists=True)
    db["commands"].create_index(["game_id", "actor", "digest"], index_name="commands_digest", if_not_exists=True)


def _decode(row: dict[str, Any] | None, *keys: str) -> dict[str, Any] | None:
    if row is None:
        return None
    for k in keys:
        row[k] = json.loads(row[k]) if row.get(k) else None
    return row


class TableStore(Connection):
    """The table's tables (mixed into :class:`pbem.store.Store`)."""

    # --- game_tables ----------------------------------------------------------------
    def table_row(self, game_id: str) -> dict[str, Any] | None:
        """The ``game_tables`` row of a game (``settings`` and ``state`` decoded), or None."""
        rows = list(self.db["game_tables"].rows_where("game_id = ?", [game_id]))
        return _decode(rows[0] if rows else None, "settings", "state")

    def table_rows(self) -> list[dict[str, Any]]:
        """Every ``game_tables`` row (decoded), by game id."""
        return [_decode(r, "settings", "state") for r in self.db["game_tables"].rows_where(order_by="game_id")]

    def is_host_address(self, address: str) -> bool:
        """True when ``address`` is the host of a game made by ``pbem game new`` or open
        for sign-up (compared folded, :func:`pbem.addresses.fold_address`)."""
        folded = fold_address(address)
        rows = self.db.execute("SELECT host_email FROM game_tables UNION SELECT host_email FROM signups").fetchall()
        return any(fold_address(r[0] or "") == folded for r in rows)

    def save_table(self, game_id: str, **values: Any) -> None:
        """Create or update a game's ``game_tables`` row with ``values`` (``origin``,
        ``host_email``, ``host_key_hash``, ``settings`` and ``state`` as mappings)."""
        row = {k: (canonical_json(v) if k in ("settings", "state") and v is not None else v)
               for k, v in values.items()}
        row["updated_at"] = utcnow()
        if self.db.execute("SELECT 1 FROM game_tables WHERE game_id = ?", [game_id]).fetchone():
            self.db["game_tables"].update(game_id, row)
        else:
            self.db["game_tables"].insert({"game_id": game_id, **row})

    def set_game_status(self, game_id: str, status: str) -> None:
        """Set a game's status (active, paused, over, abandoned)."""
        self.db["games"].update(game_id, {"status": status, "updated_at": utcnow()})

    def games_hosted_by(self, address: str) -> list[str]:
        """The ids of the games whose host is ``address``."""
        return [r[0] for r in self.db.execute("SELECT game_id FROM game_tables WHERE host_email = ? "
                                              "ORDER BY game_id", [address.lower()])]

    def host_failures(self, game_id: str, since: str, codes: Sequence[str]) -> int:
        """Host mails refused with one of ``codes`` for ``game_id`` since ``since``."""
        marks = ",".join("?" * len(codes))
        return self.db.execute(f"SELECT count(*) FROM inbox WHERE game_id = ? AND seat IS NULL AND fetched_at >= ? "
                               f"AND reason IN ({marks})", [game_id, since, *codes]).fetchone()[0]

    # --- commands (the replay guard, issue 25.8) ----------------------------------------
    def applied_command(self, game_id: str, actor: str, digest: str) -> dict[str, Any] | None:
        """The first ``commands`` row of ``actor`` (a seat or ``host``) in ``game_id``
        with this document ``digest``, or None."""
        rows = list(self.db["commands"].rows_where("game_id = ? AND actor = ? AND digest = ?",
                                                   [game_id, actor, digest], order_by="id", limit=1))
        return rows[0] if rows else None

    def record_command(self, game_id: str, actor: str, digest: str, seq: int | None, inbox_id: int | None,
                       at: str) -> None:
        """Record a command applied by mail (its document ``digest`` and ``seq``)."""
        self.db["commands"].insert({"game_id": game_id, "actor": actor, "digest": digest, "seq": seq,
                                    "inbox_id": inbox_id, "at": at})

    def command_seq(self, game_id: str, actor: str) -> int:
        """The largest ``seq`` of ``actor``'s commands applied in ``game_id`` (0: none)."""
        row = self.db.execute("SELECT max(seq) FROM commands WHERE game_id = ? AND actor = ?",
                              [game_id, actor]).fetchone()
        return int(row[0] or 0)

    # --- deadlines --------------------------------------------------------------------
    def deadline_set_at(self, game_id: str, step: int, seat: str, at: str) -> None:
        """Record when the seat was first waited on for ``step``."""
        self.db["deadlines"].update((game_id, step, seat), {"set_at": at})

    def move_deadline(self, game_id: str, step: int, seat: str, due_at: str) -> None:
        """Give an open deadline a new due time; its reminder and late notice go again."""
        self.db["deadlines"].update((game_id, step, seat), {"due_at": due_at, "reminded_at": None, "late_at": None,
                                                             "wake_at": ""})

    def mark_late(self, game_id: str, step: int, seat: str, at: str) -> None:
        """Record that the late notice of a deadline was queued."""
        self.db["deadlines"].update((game_id, step, seat), {"late_at": at})

    # --- press ------------------------------------------------------------------------
    def add_press(self, *, game_id: str, step: int, sender: str, recipients: Sequence[str], grey: bool, text: str,
                  at: str, inbox_id: int | None) -> int:
        """Store one press message; return its id."""
        return self.db["press"].insert({"game_id": game_id, "step": step, "sender": sender,
                                        "recipients": canonical_json(list(recipients)), "grey": int(grey),
                                        "text": text, "at": at, "inbox_id": inbox_id}).last_pk

    def press_of(self, game_id: str) -> list[dict[str, Any]]:
        """Every press message of a game, by id (``recipients`` decoded)."""
        return [_decode(r, "recipients") for r in self.db["press"].rows_where("game_id = ?", [game_id],
                                                                               order_by="id")]

    # --- address changes ----------------------------------------------------------------
    def add_address_change(self, game_id: str, seat: str, new_email: str, code_hash: str, at: str) -> int:
        """Open an address change (closing any earlier open one of the seat); its id."""
        self.db.execute("UPDATE address_changes SET status = 'replaced', closed_at = ? WHERE game_id = ? AND "
                        "seat = ? AND status = 'open'", [at, game_id, seat])
        return self.db["address_changes"].insert({"game_id": game_id, "seat": seat, "new_email": new_email.lower(),
                                                  "code_hash": code_hash, "requested_at": at, "status": "open",
                                                  "closed_at": None}).last_pk

    def open_address_changes(self, game_id: str, new_email: str) -> list[dict[str, Any]]:
        """Open address changes of a game towards ``new_email``."""
        return list(self.db["address_changes"].rows_where("game_id = ? AND new_email = ? AND status = 'open'",
                                                          [game_id, new_email.lower()], order_by="id"))

    def open_address_changes_to(self, new_email: str) -> list[dict[str, Any]]:
        """Open address changes of every game towards ``new_email``, by id."""
        return list(self.db["address_changes"].rows_where("new_email = ? AND status = 'open'", [new_email.lower()],
                                                          order_by="id"))

    def address_changes_since(self, game_id: str, seat: str, since: str) -> int:
        """How many address changes the seat asked for since ``since``."""
        return self.db.execute("SELECT count(*) FROM address_changes WHERE game_id = ? AND seat = ? AND "
                               "requested_at >= ?", [game_id, seat, since]).fetchone()[0]

    def close_address_changes(self, game_id: str, seat: str, status: str, at: str) -> None:
        """Close every open address change of a seat (its player was replaced)."""
        self.db.execute("UPDATE address_changes SET status = ?, closed_at = ? WHERE game_id = ? AND seat = ? AND "
                        "status = 'open'", [status, at, game_id, seat])

    def close_address_change(self, change_id: int, status: str, at: str) -> None:
        """Close an address change (``done``, ``expired``, ``failed``, ``taken``,
        ``undeliverable``)."""
        self.db["address_changes"].update(change_id, {"status": status, "closed_at": at})

    # --- sign-up ------------------------------------------------------------------------
    def create_signup(self, game_id: str, *, pack: str, options: Mapping[str, Any], settings: Mapping[str, Any],
                      host_email: str, host_key_hash: str | None, at: str) -> None:
        """Open a game for sign-up by mail."""
        self.db["signups"].insert({"game_id": game_id, "pack": pack, "options": canonical_json(dict(options)),
                                   "settings": canonical_json(dict(settings)), "host_email": host_email.lower(),
                                   "host_key_hash": host_key_hash, "status": "open", "created_at": at})

    def signup(self, game_id: str) -> dict[str, Any] | None:
        """The sign-up of ``game_id`` (``options``, ``settings`` decoded), or None."""
        rows = list(self.db["signups"].rows_where("game_id = ?", [game_id]))
        return _decode(rows[0] if rows else None, "options", "settings")

    def open_signups(self) -> list[dict[str, Any]]:
        """The rows of the sign-ups still open (``status`` ``open``), in the order they
        were opened (``pbem status``, issue 25)."""
        return list(self.db["signups"].rows_where("status = ?", ["open"], order_by="rowid"))

    def signup_seats(self, game_id: str) -> list[dict[str, Any]]:
        """The seats taken in a sign-up, in the order they were taken."""
        return list(self.db["signup_seats"].rows_where("game_id = ?", [game_id], order_by="rowid"))

    def take_signup_seat(self, game_id: str, seat: str, player: str, email: str, key_hash: str, at: str,
                         language: str = "en") -> None:
        """A player takes a seat of an open game, its mail in ``language`` (issue 28)."""
        self.db["signup_seats"].insert({"game_id": game_id, "seat": seat, "player": player, "email": email.lower(),
                                        "key_hash": key_hash, "joined_at": at, "language": language})

    def close_signup(self, game_id: str, status: str = "started") -> None:
        """The sign-up ends: ``started`` (its four seats are taken) or ``closed`` (the
        host closed it)."""
        self.db["signups"].update(game_id, {"status": status})

    def free_signup_seat(self, game_id: str, seat: str) -> dict[str, Any] | None:
        """Take back ``seat`` of an open sign-up (the host removes a player); the row
        that held it, or None."""
        rows = list(self.db["signup_seats"].rows_where("game_id = ? AND seat = ?", [game_id, seat]))
        if rows:
            self.db.execute("DELETE FROM signup_seats WHERE game_id = ? AND seat = ?", [game_id, seat])
        return rows[0] if rows else None

    # --- digests ------------------------------------------------------------------------
    def hold_for_digest(self, *, game_id: str, seat: str, to_addr: str, to_name: str | None, subject: str,
                        text: str, at: str) -> int:
        """Keep a report for the seat's daily digest; its id."""
        return self.db["digests"].insert({"game_id": game_id, "seat": seat, "to_addr": to_addr,
                                          "to_name": to_name, "subject": subject, "text": text,
                                          "created_at": at, "sent_at": None}).last_pk

    def held_digests(self) -> list[dict[str, Any]]:
        """Every report held for a digest and not sent, by id."""
        return list(self.db["digests"].rows_where("sent_at IS NULL", order_by="id"))

    def mark_digest_sent(self, ids: Sequence[int], at: str) -> None:
        """Record that held reports went out in a digest."""
        for i in ids:
            self.db["digests"].update(i, {"sent_at": at})

    # --- players' preferences (pbem.service.outgoing.seat_preferences) ------------------------------------
    def latest_seat_event(self, game_id: str, kind: str, seat: str) -> dict[str, Any] | None:
        """The data of the seat's latest event of ``kind`` in the game, or None."""
        row = self.db.execute("SELECT data FROM events WHERE game_id = ? AND kind = ? AND seat = ? "
                              "ORDER BY seq DESC LIMIT 1", [game_id, kind, seat]).fetchone()
        return json.loads(row[0]) if row else None

    def seat_at(self, game_id: str, address: str) -> str | None:
        """The seat of ``game_id`` registered at ``address`` (lowercased), or None."""
        row = self.db.execute("SELECT seat FROM seats WHERE game_id = ? AND email = ?",
                              [game_id, address.lower()]).fetchone()
        return row[0] if row else None
