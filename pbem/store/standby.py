"""The standby list and the seats offered to it (issue 29, item 2: substitutes;
migration ``014_standby``; docs/host-guide.md, "Substitutes").

- ``standby``: who stands by to take a seat — per ``scope`` (a game id, or ``*`` for
  every game of the installation) the address (folded: :func:`pbem.addresses.fold_address`), the
  name to show and since when. The order of the list is the order of ``since``.
- ``seat_offers``: per game and seat, the offer made to the standby list when the seat
  fell into civil disorder or was handed to the bot: ``status`` ``open`` (anyone on the
  list may take it), ``asked`` (a substitute accepted, the host must approve: the
  ``approve`` setting), ``taken`` (handed over) or ``closed`` (the seat is its player's
  again, or the host gave it to someone else).

Neither table is in a game's hash chain: the chain records the outcome (``SeatChanged``
with ``by: standby``), as the sign-up tables do (:mod:`pbem.store.table`).
"""
from __future__ import annotations

from typing import Any

import sqlite_utils

from pbem.addresses import fold_address
from pbem.store.base import Connection

ANY_GAME = "*"
"""The scope of a standby entry for every game of the installation (``game: any``)."""


def migrate(db: sqlite_utils.Database) -> None:
    """Migration ``014_standby`` (see the module docstring)."""
    db["standby"].create({"scope": str, "address": str, "name": str, "since": str}, pk=("scope", "address"))
    db["standby"].create_index(["address"], index_name="standby_address")
    db["seat_offers"].create({"game_id": str, "seat": str, "status": str, "why": str, "offered_at": str,
                              "asker_email": str, "asker_name": str, "asked_at": str, "closed_at": str},
                             pk=("game_id", "seat"))
    db["seat_offers"].create_index(["status"], index_name="seat_offers_status")


class StandbyTable(Connection):
    """The standby list and the seat offers (mixed into :class:`pbem.store.Store`)."""

    def stand_by(self, scope: str, address: str, name: str, at: str) -> bool:
        """Put ``address`` on the standby list of ``scope`` (a game id or :data:`ANY_GAME`)
        since ``at`` (ISO 8601); False (nothing changed, the place in the list kept) when
        it stands by there already."""
        key = (scope, fold_address(address))
        if self.db["standby"].count_where("scope = ? AND address = ?", list(key)):
            return False
        self.db["standby"].insert({"scope": scope, "address": key[1], "name": name, "since": at})
        return True

    def stand_down(self, scope: str, address: str) -> bool:
        """Take ``address`` off the standby list of ``scope``; False when it was not on it."""
        key = [scope, fold_address(address)]
        if not self.db["standby"].count_where("scope = ? AND address = ?", key):
            return False
        self.db.execute("DELETE FROM standby WHERE scope = ? AND address = ?", key)
        return True

    def standby_list(self, game_id: str) -> list[dict[str, Any]]:
        """Who stands by for ``game_id``: its own list and the installation's, each
        address once (its earliest entry), in the order they put themselves on it."""
        rows = self.db["standby"].rows_where("scope IN (?, ?)", [game_id, ANY_GAME], order_by="since, rowid")
        seen: dict[str, dict[str, Any]] = {}
        for row in rows:
            seen.setdefault(row["address"], dict(row))
        return list(seen.values())

    def standing_by(self, game_id: str, address: str) -> bool:
        """Whether ``address`` stands by for ``game_id`` (its list or the installation's)."""
        return bool(self.db["standby"].count_where("scope IN (?, ?) AND address = ?",
                                                   [game_id, ANY_GAME, fold_address(address)]))

    def offer_seat(self, game_id: str, seat: str, why: str, at: str) -> None:
        """Open the offer of ``seat`` (``why``: ``civil_disorder`` or ``bot``) at ``at``,
        replacing an earlier one of the same seat."""
        self.db["seat_offers"].insert({"game_id": game_id, "seat": seat, "status": "open", "why": why,
                                       "offered_at": at, "asker_email": None, "asker_name": None,
                                       "asked_at": None, "closed_at": None}, replace=True)

    def seat_offer(self, game_id: str, seat: str) -> dict[str, Any] | None:
        """The offer of ``seat`` (any status), or None when it was never offered."""
        rows = list(self.db["seat_offers"].rows_where("game_id = ? AND seat = ?", [game_id, seat]))
        return rows[0] if rows else None

    def seat_offers(self, game_id: str) -> list[dict[str, Any]]:
        """Every offer of ``game_id``'s seats, any status."""
        return list(self.db["seat_offers"].rows_where("game_id = ?", [game_id], order_by="seat"))

    def open_offers(self) -> list[dict[str, Any]]:
        """Every offer still ``open``, of any game, oldest first."""
        return list(self.db["seat_offers"].rows_where("status = 'open'", order_by="offered_at"))

    def ask_for_seat(self, game_id: str, seat: str, email: str, name: str, at: str) -> None:
        """A substitute accepted the open offer of ``seat``; the host must approve."""
        self.db["seat_offers"].update((game_id, seat), {"status": "asked", "asker_email": fold_address(email),
                                                        "asker_name": name, "asked_at": at})

    def close_offer(self, game_id: str, seat: str, status: str, at: str) -> None:
        """End the offer of ``seat`` (``status``: ``taken`` or ``closed``) at ``at``; no
        error when there is none."""
        if self.seat_offer(game_id, seat) is not None:
            self.db["seat_offers"].update((game_id, seat), {"status": status, "closed_at": at})
