"""The ``games`` and ``seats`` tables: a game's seed, commitment, step, status and dice
version with its orders context (docs/trust.md); each seat's player, address, key hash
and bounce mark."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.addresses import fold_address
from pbem.store.base import Connection, canonical_json, utcnow
from pbem.store.events import CHAIN_VERSION

#: the dice version of new games (pbem.rules.dice.DICE_VERSION; the store does not import the rules)
DICE_VERSION = 2
START_CONTEXT = "0" * 64
#: the statuses of a game that takes no more orders
ENDED_STATUSES = ("over", "abandoned")


class GamesTable(Connection):
    """Games and their seats (mixed into :class:`pbem.store.Store`)."""

    def game(self, game_id: str) -> dict[str, Any] | None:
        """The games row for ``game_id`` or None."""
        rows = list(self.db["games"].rows_where("id = ?", [game_id]))
        return rows[0] if rows else None

    def games(self) -> list[dict[str, Any]]:
        """Every games row, in creation order."""
        return list(self.db["games"].rows_where(order_by="rowid"))

    def games_in(self, *statuses: str) -> list[dict[str, Any]]:
        """The games rows whose status is one of ``statuses``, by id (the loop's per-cycle
        passes read only these, through the ``games_status`` index: no table scan)."""
        marks = ",".join("?" * len(statuses))
        return list(self.db["games"].rows_where(f"status IN ({marks})", list(statuses), order_by="id"))

    def seats(self, game_id: str) -> list[dict[str, Any]]:
        """The seats rows of a game, in the stored order."""
        return list(self.db["seats"].rows_where("game_id = ?", [game_id], order_by="rowid"))

    def seats_at(self, address: str) -> list[dict[str, Any]]:
        """Every seats row registered at ``address`` (lowercased), by game then seat."""
        return list(self.db["seats"].rows_where("email = ?", [fold_address(address)], order_by="game_id, seat"))

    def is_seat_address(self, address: str) -> bool:
        """True when ``address`` is registered for a seat of any game."""
        return self.db.execute("SELECT 1 FROM seats WHERE email = ? LIMIT 1", [fold_address(address)]).fetchone() is not None

    def former_seats(self, address: str) -> list[dict[str, Any]]:
        """The seats ``address`` was registered for before a replacement or an address
        change and is not now (``{"game_id", "seat", "until"}``, latest first; issue 24 N8)."""
        return [dict(r) for r in self.db.query(
            "SELECT f.game_id AS game_id, f.seat AS seat, max(f.until) AS until FROM former_addresses f "
            "JOIN seats s ON s.game_id = f.game_id AND s.seat = f.seat WHERE f.email = ? AND s.email != f.email "
            "GROUP BY f.game_id, f.seat ORDER BY until DESC", [fold_address(address)])]

    def create_game(self, game_id: str, pack: str, seed: bytes, seed_commitment: str,
                    options: Mapping[str, Any], seats: Sequence[Mapping[str, Any]]) -> None:
        """Insert a game and its seats (inside the caller's transaction)."""
        now = utcnow()
        self.db["games"].insert({"id": game_id, "pack": pack, "seed": seed.hex(),
                                 "seed_commitment": seed_commitment, "status": "active",
                                 "step": 0, "options": canonical_json(dict(options)),
                                 "created_at": now, "updated_at": now, "chain": CHAIN_VERSION,
                                 "dice": DICE_VERSION, "dice_context": START_CONTEXT})
        for s in seats:
            self.db["seats"].insert({"game_id": game_id, "seat": s["seat"], "player": s["player"],
                                     "email": fold_address(s["email"]), "key_hash": s["key_hash"],
                                     "bouncing": 0, "bounced_at": None, "standing_seq": 0})

    def dice_state(self, game_id: str) -> tuple[int, str]:
        """(dice version, orders context of the next decision) of a game; version 1 and
        the empty context for games created before issue 15. Raises KeyError when the
        game is unknown."""
        row = self.db.execute("SELECT dice, dice_context FROM games WHERE id = ?", [game_id]).fetchone()
        if row is None:
            raise KeyError(game_id)
        return int(row[0] or 1), row[1] or START_CONTEXT

    def set_dice_context(self, game_id: str, context: str) -> None:
        """Record the orders context after an accepted orders document (docs/trust.md)."""
        self.db["games"].update(game_id, {"dice_context": context})

    def update_seat(self, game_id: str, seat: str, *, player: str, email: str, key_hash: str) -> None:
        """Set a seat's player name, address (lowercased) and key hash (config sync); a
        new address clears the seat's bounce mark (the old address bounced, not this one)
        and gives up the mail that waited for the old one (:meth:`drop_held_mail`). A new
        player (another name, or both another address and key) leaves the one before in
        ``former_seats`` (:mod:`pbem.store.observers`: their record keeps the seat's past)."""
        values: dict[str, Any] = {"player": player, "email": email.lower(), "key_hash": key_hash}
        row = self.db["seats"].get((game_id, seat))
        if row["player"] != player or (row["email"] != email.lower() and row["key_hash"] != key_hash):
            # a new player (issue 29.4): the one before keeps the seat's past in their record
            self.db["former_seats"].insert({"game_id": game_id, "seat": seat, "player": row["player"],
                                            "email": row["email"], "until_seq": self.db.execute(
                                                "SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = ?",
                                                [game_id]).fetchone()[0], "at": utcnow()})
        if row["email"] != email.lower():
            values.update({"bouncing": 0, "bounced_at": None})
            if row["email"]:  # issue 24 N8: its mail is answered, not dropped as a stranger's
                self.db["former_addresses"].insert({"game_id": game_id, "seat": seat, "email": row["email"],
                                                    "until": utcnow()})
            if row["bouncing"]:  # what waited for the dead address is not sent there
                self.drop_held_mail(game_id, row["email"], f"not sent: {row['email']} bounced and the seat "
                                    f"{seat} moved to another address")
        self.db["seats"].update((game_id, seat), values)

    def clear_bouncing(self, game_id: str, seat: str) -> bool:
        """Clear the seat's bounce mark (its player wrote from the address with the
        seat's key, so mail there is read again); True when it was marked."""
        row = self.db["seats"].get((game_id, seat))
        if not row["bouncing"]:
            return False
        self.db["seats"].update((game_id, seat), {"bouncing": 0, "bounced_at": None})
        return True

    def set_game_step(self, game_id: str, step: int, status: str | None = None) -> None:
        """Record the game's current prompt number (and optionally its status), and close
        the deadlines it leaves behind: every open deadline of another step, and all of
        them when the game is over or abandoned. (The deadline pass used to close them at
        its next look; since it looks at a row only when the row's time comes —
        ``deadlines.wake_at``, issue 30.6 — a played step's deadline stayed open for
        `status`, `extend`, absences and the prompts' due time until its reminder time:
        the third hand-played game, N1.)"""
        now = utcnow()
        values: dict[str, Any] = {"step": step, "updated_at": now}
        if status:
            values["status"] = status
        self.db["games"].update(game_id, values)
        if status in ENDED_STATUSES:
            self.db.execute("UPDATE deadlines SET expired_at = ? WHERE game_id = ? AND expired_at IS NULL",
                            [now, game_id])
        else:
            self.db.execute("UPDATE deadlines SET expired_at = ? WHERE game_id = ? AND expired_at IS NULL "
                            "AND step != ?", [now, game_id, step])

    def mark_bouncing(self, address: str) -> list[tuple[str, str]]:
        """Mark every seat registered at ``address`` as bouncing; return (game, seat) pairs."""
        hits = list(self.db["seats"].rows_where("email = ?", [fold_address(address)]))
        for r in hits:
            self.db["seats"].update((r["game_id"], r["seat"]), {"bouncing": 1, "bounced_at": utcnow()})
        return [(r["game_id"], r["seat"]) for r in hits]

    def standing_seq(self, game_id: str, seat: str) -> int:
        """The sequence number of the seat's last accepted standing-orders mail (0: none)."""
        row = self.db.execute("SELECT standing_seq FROM seats WHERE game_id = ? AND seat = ?",
                              [game_id, seat]).fetchone()
        return int(row[0] or 0) if row else 0

    def set_standing_seq(self, game_id: str, seat: str, seq: int) -> None:
        """Record the sequence number of the seat's accepted standing-orders mail."""
        self.db["seats"].update((game_id, seat), {"standing_seq": seq})

    def bouncing_seats(self) -> list[dict[str, Any]]:
        """Seats rows marked bouncing."""
        return list(self.db["seats"].rows_where("bouncing = 1", order_by="game_id, seat"))
