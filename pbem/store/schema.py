"""The store's migrations, in order; each is applied once and recorded in ``migrations``.

- ``001_initial``: games, seats, inbox, events, snapshots, outbox, imap_state, deadlines.
- ``002_pipeline`` (issue 17): the inbox is unique by (Message-ID, content hash), not by
  Message-ID alone (a different mail reusing a known Message-ID is a new message); inbox
  rows keep their size, the error that quarantined them, and whether their answer was
  held back (``answer``: ``suppressed``; ``pbem status`` reads it, not the free
  text); games record their hash-chain version (``chain``: 1 = SHA-256 of the event
  data, 2 = private data keyed with a per-game secret, step and inbox id hashed too); seats keep the last standing-orders sequence number; ``faults`` remembers
  which server faults the host was told about.
- ``003_trust`` (issue 15): games record their dice version (``dice``: 1 = the seed
  and step alone, 2 = the seed and every accepted orders document, docs/trust.md) and
  the orders context the next decision's dice derive from (``dice_context``).
- ``004_scale`` (issue 14): attachment bodies stored once in ``blobs`` and linked to
  their outbox rows in ``outbox_blobs`` (existing rows are split too;
  :mod:`pbem.store.blobs`), and an index for every query on the mail path (reply rate,
  previous orders, wrong-key count, seat by address, open deadlines), so none scans a
  table (``tests/store/test_query_plans.py``).
- ``005_table`` (issue 16): the table around the rules (:mod:`pbem.store.table`).
- ``006_playercmd`` (issue 16): an index on the digests not sent yet.
- ``007_bouncing`` (issue 25, finding 12): an index on the seats marked bouncing, whose
  mail the outbox pass holds back.
- ``008_answer_digests`` (issue 24, finding 3): ``outbox.answer_digest`` (SHA-256 of an
  answer's recipient and text: identical repeated mail is answered once an hour) and
  ``answer_digests``, the answers to a seat past its hourly limit, merged into one
  digest mail when the hour allows (:mod:`pbem.service.outgoing.ratelimit`).
- ``009_commands`` (issue 25.8): the ``commands`` table, the replay guard of commands
  by mail (:mod:`pbem.store.table`).
- ``010_intake_rule`` (issue 26.3): ``inbox.decided_by``, the intake rule whose verdict
  decided the mail (:mod:`pbem.service.intake.chain`; NULL for rows before it and for
  quarantined mail, which no rule decided).
- ``011_deadline_wake`` (issue 30.6): ``deadlines.wake_at``, when the deadline pass must look
  at a row again, with a partial index on the open rows (:mod:`pbem.store.deadlines`).
- ``012_signup_language`` (issue 28): ``signup_seats.language``, the language a player chose
  in the join mail, kept until the game starts (:mod:`pbem.service.commands.join`).
- ``013_urgent_answers`` (issue 24 B/N2): ``outbox.urgent``, 1 on a refusal sent at once
  past a seat's hourly limit on answers, so that at most one goes to an address in 5
  minutes (:mod:`pbem.service.outgoing.ratelimit`); ``former_addresses`` (issue 24 N8), the
  addresses a seat had before a replacement or an address change, so mail from them is
  answered ("no longer plays the seat") under the seats' limits, never dropped as a
  stranger's.
- ``014_standby`` (issue 29, item 2): the standby list and the seats offered to it
  (:mod:`pbem.store.standby`).
- ``015_observers`` (issue 29.3, 29.4): ``observers`` (who follows a game's public reports)
  and ``former_seats`` (a seat's earlier players, for their records;
  :mod:`pbem.store.observers`).
- ``016_retention`` (issue 30 item 7): ``moved_games``, the finished games moved to the
  archive database (:mod:`pbem.store.retention`).
- ``017_webhooks`` (issue 29 item 5): ``seat_webhooks``, a seat's webhook URL, kept out of
  the log, which names only its fingerprint (:mod:`pbem.store.webhooks`).
- ``018_host_webhooks`` (issue 29's trial, finding 4): ``host_webhooks``, the webhook a
  host set (host command ``webhook``), by the host's address (:mod:`pbem.store.webhooks`).
- ``019_proposal_index`` (issue 30 item 6): a partial index of the games that ever had a
  seats' proposal (``VoteProposed``), so each loop cycle looks at those games only for
  proposals to expire, not at every running game (with 10,000 games the cycle took
  1.7 s, 710 times its cost with 10).
"""
from __future__ import annotations

import sqlite_utils

from pbem.store.base import Migration
from pbem.store.blobs import pack, split
from pbem.store.content import content_hash
from pbem.store.observers import migrate_observers as _m015_observers
from pbem.store.retention import migrate as _m016_retention
from pbem.store.webhooks import migrate as _m017_webhooks
from pbem.store.webhooks import migrate_host as _m018_host_webhooks
from pbem.store.standby import migrate as _m014_standby
from pbem.store.table import migrate as _m005
from pbem.store.table import migrate_commands as _m009_commands
from pbem.store.table import migrate_playercmd as _m006_playercmd


def _m019_proposal_index(db: sqlite_utils.Database) -> None:
    db.execute("CREATE INDEX IF NOT EXISTS events_proposals ON events (game_id) WHERE kind = 'VoteProposed'")


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


def _m002(db: sqlite_utils.Database) -> None:
    db["inbox"].add_column("content_hash", str)
    db["inbox"].add_column("size", int)
    db["inbox"].add_column("answer", str)
    db["inbox"].add_column("error", str)
    db.execute("UPDATE inbox SET answer = 'suppressed' WHERE reason LIKE '%(answer suppressed: rate limit)%'")
    for row_id, raw in db.execute("SELECT id, raw FROM inbox").fetchall():
        db["inbox"].update(row_id, {"content_hash": content_hash(raw or b""), "size": len(raw or b"")})
    db.execute("DROP INDEX IF EXISTS idx_inbox_message_id")
    db["inbox"].create_index(["message_id", "content_hash"], unique=True)
    db["inbox"].create_index(["game_id", "seat", "status"])
    db["games"].add_column("chain", int)
    db.execute("UPDATE games SET chain = 1")
    db["seats"].add_column("standing_seq", int)
    db.execute("UPDATE seats SET standing_seq = 0")
    db["faults"].create({"key": str, "first_seen": str, "last_seen": str, "count": int,
                         "notified_at": str, "cleared_at": str, "detail": str}, pk="key")


def _m003(db: sqlite_utils.Database) -> None:
    db["games"].add_column("dice", int)
    db["games"].add_column("dice_context", str)
    db.execute("UPDATE games SET dice = 1")


def _m004(db: sqlite_utils.Database) -> None:
    db["blobs"].create({"sha256": str, "data": bytes, "size": int, "created_at": str, "dropped_at": str},
                       pk="sha256")
    db["outbox_blobs"].create({"outbox_id": int, "sha256": str}, pk=("outbox_id", "sha256"),
                              foreign_keys=[("outbox_id", "outbox", "id"), ("sha256", "blobs", "sha256")])
    db["outbox_blobs"].create_index(["sha256"])
    db["outbox"].create_index(["to_addr", "created_at"])
    db["inbox"].create_index(["game_id", "seat", "step"])
    db["inbox"].create_index(["game_id", "seat", "fetched_at"])
    db["seats"].create_index(["email"])
    db["deadlines"].create_index(["expired_at", "due_at"])
    for row_id, raw, status, created in db.execute("SELECT id, raw, status, created_at FROM outbox").fetchall():
        skeleton, bodies = split(raw or b"")
        db.execute("UPDATE outbox SET raw = ? WHERE id = ?", [pack(skeleton), row_id])
        for digest, body in bodies.items():
            db.execute("INSERT OR IGNORE INTO blobs (sha256, data, size, created_at) VALUES (?, ?, ?, ?)",
                       [digest, body, len(body), created])
            db.execute("INSERT OR IGNORE INTO outbox_blobs (outbox_id, sha256) VALUES (?, ?)", [row_id, digest])
    db.execute("UPDATE blobs SET data = NULL, dropped_at = created_at WHERE NOT EXISTS ("
               "SELECT 1 FROM outbox_blobs ob JOIN outbox o ON o.id = ob.outbox_id "
               "WHERE ob.sha256 = blobs.sha256 AND o.status != 'sent')")


def _m007(db: sqlite_utils.Database) -> None:
    db["seats"].create_index(["bouncing", "email"], if_not_exists=True)


def _m008(db: sqlite_utils.Database) -> None:
    db["outbox"].add_column("answer_digest", str)
    db["answer_digests"].create({"id": int, "to_addr": str, "to_name": str, "game_id": str, "inbox_id": int,
                                 "subject": str, "text": str, "answer_digest": str, "created_at": str,
                                 "sent_at": str}, pk="id")
    db["answer_digests"].create_index(["sent_at", "to_addr"])


def _m010(db: sqlite_utils.Database) -> None:
    db["inbox"].add_column("decided_by", str)


def _m011(db: sqlite_utils.Database) -> None:
    db["deadlines"].add_column("wake_at", str)
    db.execute("UPDATE deadlines SET wake_at = ''")
    db.execute("CREATE INDEX deadlines_wake ON deadlines (wake_at) WHERE expired_at IS NULL")


def _m012(db: sqlite_utils.Database) -> None:
    db["signup_seats"].add_column("language", str)  # issue 28: the language a player signs up in


def _m013(db: sqlite_utils.Database) -> None:
    db["outbox"].add_column("urgent", int)  # issue 24 B/N2: a refusal sent at once past the limit
    db["former_addresses"].create({"game_id": str, "seat": str, "email": str, "until": str})  # issue 24 N8
    db["former_addresses"].create_index(["email"])


MIGRATIONS: list[Migration] = [
    ("001_initial", _m001),
    ("002_pipeline", _m002),
    ("003_trust", _m003),
    ("004_scale", _m004),
    ("005_table", _m005),  # issue 16 (pbem/store/table.py)
    ("006_playercmd", _m006_playercmd),  # issue 16, players' commands (pbem/store/table.py)
    ("007_bouncing", _m007),
    ("008_answer_digests", _m008),
    ("009_commands", _m009_commands),  # issue 25.8, the commands' replay guard (pbem/store/table.py)
    ("010_intake_rule", _m010),  # issue 26.3: which intake rule decided a mail (pbem.service.intake.chain)
    ("011_deadline_wake", _m011),  # issue 30.6: the deadline pass reads only the rows whose time has come
    ("012_signup_language", _m012),  # issue 28: a seat's language chosen at sign-up (pbem.service.commands.join)
    ("013_urgent_answers", _m013),  # issue 24 B/N2: refusals sent at once past the limit, one per 5 minutes
    ("014_standby", _m014_standby),  # issue 29.2: substitutes, the standby list and seat offers (pbem/store/standby.py)
    ("015_observers", _m015_observers),  # issue 29.3/29.4: observers and seats' former players (pbem.store.observers)
    ("016_retention", _m016_retention),  # issue 30.7: finished games moved to the archive database
    ("017_webhooks", _m017_webhooks),  # issue 29.5: a seat's webhook URL, out of the published log
    ("018_host_webhooks", _m018_host_webhooks),  # issue 29 trial 4: a host's webhook, by the host's address
    ("019_proposal_index", _m019_proposal_index),  # issue 30.6: the loop looks only at games with proposals
]
