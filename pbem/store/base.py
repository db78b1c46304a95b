"""The SQLite connection under every table group: opening, transactions, migrations,
errors, and the helpers the groups share (canonical JSON, UTC time).

The store is the only package that speaks SQL (ARCHITECTURE.md, "Service and store"); a
boundary test fails on SQL or ``db[...]`` anywhere else under ``pbem/``.

Errors: :class:`StoreError` for a database that cannot be used at all (read-only,
missing directory permissions, not a database), :class:`TransientStoreError` for a
failure that may pass (disk full, busy, I/O error): the caller leaves the mail for a later
retry and commits nothing.
"""
from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlite_utils

GENESIS = "0" * 64

#: sqlite3.OperationalError texts that mean "try again later" (SQLite result codes
#: SQLITE_FULL, SQLITE_BUSY, SQLITE_LOCKED, SQLITE_IOERR, SQLITE_READONLY, SQLITE_CANTOPEN)
TRANSIENT_TEXTS = ("database or disk is full", "database is locked", "disk i/o error",
                   "attempt to write a readonly database", "unable to open database file",
                   "database table is locked", "cannot commit", "readonly database")


class StoreError(RuntimeError):
    """The database cannot be used (e.g. read-only at start, not a database); the
    message says which file and why, for the host to fix."""


class TransientStoreError(StoreError):
    """A database failure that may pass (disk full, busy, I/O error): nothing was
    committed; retry later."""


def is_transient_db_error(exc: BaseException) -> bool:
    """True for an SQLite failure that a later retry may not hit (disk full, busy,
    locked, I/O error, read-only): sqlite3.OperationalError with one of
    :data:`TRANSIENT_TEXTS`, or :class:`TransientStoreError`."""
    if isinstance(exc, TransientStoreError):
        return True
    return isinstance(exc, sqlite3.OperationalError) and any(t in str(exc).lower() for t in TRANSIENT_TEXTS)


def is_db_error(exc: BaseException) -> bool:
    """True when ``exc`` comes from the database (sqlite3.Error or a StoreError)."""
    return isinstance(exc, (sqlite3.Error, StoreError))


def utcnow() -> str:
    """Current UTC time as ISO 8601 text (seconds)."""
    return datetime.now(UTC).replace(microsecond=0).isoformat()


def canonical_json(value: Any) -> str:
    """JSON with sorted keys and no spaces: the form hashed in the event chain."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


Migration = tuple[str, Callable[[sqlite_utils.Database], None]]


class Connection:
    """One SQLite connection (sqlite-utils, WAL, foreign keys, 30 s busy timeout).

    ``Connection(path)`` creates the folder and the file and applies pending
    ``MIGRATIONS`` (a class attribute set by :class:`pbem.store.Store`); with
    ``readonly=True`` the file is opened read-only (``mode=ro``) and nothing is migrated.
    ``wal_autocheckpoint``: SQLite's automatic checkpoint threshold in WAL pages for this
    connection (None: SQLite's default, 1000; 0: never, when Litestream replicates the
    database and owns its checkpoints, https://litestream.io/tips/; issue 30).
    Raises :class:`StoreError` when the file cannot be opened or written. Not thread-safe:
    one connection per thread.
    """

    MIGRATIONS: list[Migration] = []
    #: called with (database path, first pending migration's name) before pending
    #: migrations touch a database that holds data; returns where it copied it
    #: (:func:`pbem.store.backup.copy_database`, set by :class:`pbem.store.Store`)
    BACKUP_BEFORE_MIGRATION: Callable[[Path, str], Path] | None = None

    def __init__(self, path: str | Path, readonly: bool = False, wal_autocheckpoint: int | None = None):
        self.path = Path(path)
        self.readonly = readonly
        self._depth = 0
        #: the migrations this open applied to an existing schema (an upgrade), and the copy taken before them (issue 30)
        self.migrated: list[str] = []
        self.migration_backup: Path | None = None
        memory = str(path) == ":memory:"
        try:
            if readonly:
                conn = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, isolation_level=None, timeout=30)
            else:
                if not memory:
                    self.path.parent.mkdir(parents=True, exist_ok=True)
                conn = sqlite3.connect(str(path), isolation_level=None, timeout=30)
            self.db = sqlite_utils.Database(conn)
            if not memory and not readonly:
                self.db.enable_wal()
            self.db.execute("PRAGMA foreign_keys = ON")
            self.db.execute("PRAGMA busy_timeout = 30000")
            if wal_autocheckpoint is not None:
                self.db.execute(f"PRAGMA wal_autocheckpoint = {int(wal_autocheckpoint)}")
            if not readonly:
                self.migrate()
                self._probe_write()
            else:
                self.db.execute("SELECT count(*) FROM sqlite_master").fetchone()
                self._refuse_newer()
        except (sqlite3.Error, OSError) as exc:
            raise StoreError(describe_db_error(self.path, exc, readonly)) from exc

    def _probe_write(self) -> None:
        """Fail at open, not at the first mail, when the file cannot be written: SQLite
        opens a file it may not write read-only without a word, and a start with nothing
        to migrate writes nothing. Rewrites ``user_version`` to its own value in a
        transaction that is rolled back (BEGIN IMMEDIATE alone succeeds on such a file).
        Raises sqlite3.Error ("attempt to write a readonly database")."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            version = self.db.execute("PRAGMA user_version").fetchone()[0]
            self.db.execute(f"PRAGMA user_version = {int(version)}")
        finally:
            self.db.execute("ROLLBACK")

    def close(self) -> None:
        """Close the connection."""
        self.db.conn.close()

    @contextmanager
    def transaction(self) -> Iterator[Connection]:
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
            try:
                self.db.execute("ROLLBACK")
            except sqlite3.Error:  # SQLite may have rolled back already (SQLITE_FULL)
                pass
            raise
        else:
            try:
                self.db.execute("COMMIT")
            except sqlite3.Error:
                try:
                    self.db.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
                raise
        finally:
            self._depth = 0

    def data_version(self) -> int:
        """SQLite's ``PRAGMA data_version`` of this connection: it changes when another
        connection — another thread's, or another process's such as a CLI command —
        commits to the database (https://sqlite.org/pragma.html#pragma_data_version)."""
        return int(self.db.execute("PRAGMA data_version").fetchone()[0])

    @property
    def in_transaction(self) -> bool:
        """True inside :meth:`transaction`."""
        return self._depth > 0

    def _refuse_newer(self) -> None:
        """Raise :class:`StoreError` when the database records a migration this pbem
        does not know: a newer pbem wrote it, and this one would misread it (issue 30)."""
        if "migrations" not in self.db.table_names():
            return
        known = {name for name, _ in self.MIGRATIONS}
        unknown = sorted(r["name"] for r in self.db["migrations"].rows if r["name"] not in known)
        if unknown:
            raise StoreError(f"the database {self.path} was written by a newer pbem (it has the migration(s) "
                             f"{', '.join(unknown)}, which this version does not know); run the newer pbem, "
                             "or restore a backup taken before the upgrade (`pbem restore`)")

    def migrate(self) -> list[str]:
        """Apply migrations not yet recorded, all in one transaction, and return the
        names applied (kept in :attr:`migrated` when they upgrade an existing schema). When the database already holds
        a pbem schema, a consistent copy is taken first (:attr:`BACKUP_BEFORE_MIGRATION`;
        its path in :attr:`migration_backup`), so an upgrade can always be undone.
        Raises :class:`StoreError` for a database written by a newer pbem, and when the
        copy cannot be taken (then nothing is migrated)."""
        fresh = "migrations" not in self.db.table_names()
        if fresh:
            self.db["migrations"].create({"name": str, "applied_at": str}, pk="name")
        self._refuse_newer()
        done = {r["name"] for r in self.db["migrations"].rows}
        pending = [(name, fn) for name, fn in self.MIGRATIONS if name not in done]
        if not pending:
            return []
        if done and self.BACKUP_BEFORE_MIGRATION is not None and str(self.path) != ":memory:":
            self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            self.migration_backup = self.BACKUP_BEFORE_MIGRATION(self.path, pending[0][0])
        with self.transaction():
            for name, fn in pending:
                fn(self.db)
                self.db["migrations"].insert({"name": name, "applied_at": utcnow()})
        applied = [name for name, _ in pending]
        # an upgrade only when the database held a schema before: a new database is no news
        self.migrated = applied if done else []
        return applied


def describe_db_error(path: Path, exc: BaseException, readonly: bool = False) -> str:
    """One line for the host saying why the database at ``path`` failed with ``exc``."""
    text = str(exc)
    if "readonly" in text or "read-only" in text or isinstance(exc, PermissionError):
        return (f"cannot write the database {path}: it is read-only ({text}); give the user running "
                "pbem write access to the file and its folder")
    if "unable to open" in text:
        return f"cannot open the database {path} ({text}); check the path and the folder's permissions"
    return f"cannot use the database {path}: {type(exc).__name__}: {text}" + (" (opened read-only)" if readonly else "")
