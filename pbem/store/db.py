"""The SQLite store (sqlite-utils, WAL): one class, :class:`Store`, made of one mixin per
group of tables (ARCHITECTURE.md, "Service and store"):

- :mod:`pbem.store.games`: ``games``, ``seats``;
- :mod:`pbem.store.inbox`: ``inbox`` (raw bytes of every message, forever);
- :mod:`pbem.store.events`: ``events`` (append-only, hash-chained), ``snapshots``;
- :mod:`pbem.store.outbox`: ``outbox``, its attachments in :mod:`pbem.store.blobs` (``blobs``,
  ``outbox_blobs``);
- :mod:`pbem.store.imap_state`: ``imap_state``;
- :mod:`pbem.store.deadlines`: ``deadlines``;
- :mod:`pbem.store.faults`: ``faults`` (what the host was told about);
- :mod:`pbem.store.table`: the table around the rules (issue 16): hosts, settings,
  table state, press, address changes, sign-ups, digests;
- :mod:`pbem.store.standby`: ``standby``, ``seat_offers`` (substitutes, issue 29);
- :mod:`pbem.store.observers`: ``observers``, ``former_seats`` (issue 29: observers, players' records);

the connection, transactions and migrations in :mod:`pbem.store.base` and
:mod:`pbem.store.schema`; consistent copies (backup, restore) in :mod:`pbem.store.backup`; one judge per database: :mod:`pbem.store.lock`. Applying a message and recording its Message-ID happen in one
transaction (:meth:`Store.transaction`).
"""
from __future__ import annotations

from pathlib import Path

from pbem.store.backup import copy_database, stamped_name
from pbem.store.base import GENESIS, canonical_json, utcnow
from pbem.store.deadlines import DeadlinesTable
from pbem.store.events import EventsTable, StoredEvent, event_hash
from pbem.store.faults import FaultsTable
from pbem.store.games import GamesTable
from pbem.store.imap_state import ImapStateTable
from pbem.store.inbox import InboxTable
from pbem.store.observers import ObserversTable
from pbem.store.outbox import OutboxTable
from pbem.store.retention import RetentionTable
from pbem.store.schema import MIGRATIONS
from pbem.store.standby import StandbyTable
from pbem.store.table import TableStore
from pbem.store.webhooks import WebhooksTable


class Store(GamesTable, InboxTable, EventsTable, OutboxTable, ImapStateTable, DeadlinesTable, FaultsTable,
            TableStore, RetentionTable, ObserversTable, StandbyTable, WebhooksTable):
    """The pbem database. ``Store(path)`` opens (creating folders and the file), sets WAL
    and applies pending migrations; ``Store(path, readonly=True)`` only reads. Raises
    :class:`pbem.store.base.StoreError` when the file cannot be used. Not thread-safe:
    one Store per thread.

    Before pending migrations touch a database that holds data, a consistent copy is
    written beside it (``<database>.before-<migration>-<UTC time>``; issue 30), and a
    database written by a newer pbem is refused (:class:`pbem.store.base.StoreError`)."""

    MIGRATIONS = MIGRATIONS
    BACKUP_BEFORE_MIGRATION = staticmethod(
        lambda path, name: copy_database(path, stamped_name(Path(path), f"before-{name}")))


__all__ = ["GENESIS", "Store", "StoredEvent", "canonical_json", "event_hash", "utcnow"]
