"""The ``seat_webhooks`` table (issue 29 item 5): the webhook URL a seat set by
``command: preferences``, kept out of the game's log. The URL is a chat's secret (whoever
has it may post to the channel), and the log is published whole once the game is over;
the log's ``PreferencesSet`` records only the URL's fingerprint
(:func:`fingerprint`), this table the URL itself. ``host_webhooks`` (issue 29's trial, finding 4) keeps the
webhook a host set by the host command ``webhook``, by the host's address: every host
notice to that address is posted there too."""
from __future__ import annotations

import hashlib
from typing import Any

from pbem.addresses import fold_address
from pbem.store.base import Connection, utcnow


def fingerprint(url: str) -> str:
    """``sha256:`` and the first 16 hex digits of the URL's SHA-256 (what the log keeps)."""
    return "sha256:" + hashlib.sha256(url.encode()).hexdigest()[:16]


class WebhooksTable(Connection):
    """A seat's webhook URL (mixed into :class:`pbem.store.Store`)."""

    def set_webhook(self, game_id: str, seat: str, url: str) -> str:
        """Keep ``url`` as the seat's webhook; returns its :func:`fingerprint`."""
        fp = fingerprint(url)
        self.db["seat_webhooks"].insert({"game_id": game_id, "seat": seat, "url": url, "fingerprint": fp,
                                         "set_at": utcnow()}, replace=True)
        return fp

    def webhook_url(self, game_id: str, seat: str, fp: str) -> str | None:
        """The URL kept for the seat whose fingerprint is ``fp`` (the one the log names),
        or None."""
        rows = list(self.db["seat_webhooks"].rows_where("game_id = ? AND seat = ? AND fingerprint = ?",
                                                        [game_id, seat, fp]))
        return rows[0]["url"] if rows else None

    def set_host_webhook(self, address: str, url: str | None) -> str | None:
        """Keep ``url`` as the webhook of the host at ``address`` (folded; issue 29's
        trial, finding 4), or drop it (None). Returns the URL's :func:`fingerprint`
        (None when dropped)."""
        folded = fold_address(address)
        if url is None:
            self.db.execute("DELETE FROM host_webhooks WHERE address = ?", [folded])
            return None
        fp = fingerprint(url)
        self.db["host_webhooks"].insert({"address": folded, "url": url, "fingerprint": fp, "set_at": utcnow()},
                                        replace=True)
        return fp

    def host_webhook(self, address: str | None) -> str | None:
        """The webhook URL the host at ``address`` set, or None."""
        if not address:
            return None
        rows = list(self.db["host_webhooks"].rows_where("address = ?", [fold_address(address)]))
        return rows[0]["url"] if rows else None


def migrate(db: Any) -> None:
    """Migration ``017_webhooks``: the ``seat_webhooks`` table."""
    db["seat_webhooks"].create({"game_id": str, "seat": str, "url": str, "fingerprint": str, "set_at": str},
                               pk=("game_id", "seat"))


def migrate_host(db: Any) -> None:
    """Migration ``018_host_webhooks``: the ``host_webhooks`` table, a host's webhook by
    the host's (folded) address, set by the host command ``webhook``."""
    db["host_webhooks"].create({"address": str, "url": str, "fingerprint": str, "set_at": str}, pk="address")
