"""The store's migrations, in order; each is applied once and recorded in ``migrations``.

- ``001_initial``: games, seats, inbox, events, snapshots, outbox, imap_state, deadlines.
"""
from __future__ import annotations

import sqlite_utils

from pbem.store.base import Migration


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


MIGRATIONS: list[Migration] = [
    ("001_initial", _m001),
]
