"""Copies of the database that are consistent while the judge writes to it (issue 30).

A file copy of a live SQLite database in WAL mode can catch the main file and its
``-wal`` file at different moments and be unusable; SQLite's online backup API
(https://sqlite.org/backup.html, :meth:`sqlite3.Connection.backup` in the standard
library) copies pages under a read transaction and restarts when a writer changes a
page it has copied, so the copy is one committed state of the database. Every copy made
here goes through it: ``pbem backup``, the automatic copy taken before a migration, the
copy ``pbem restore`` keeps of the database it replaces, and the restore itself.

The functions here only move and check bytes; the command that verifies every game's
log on a copy (the hash chain, the replay) is :mod:`pbem.service.hosting`, above the
store.
"""
from __future__ import annotations

import os
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

from pbem.store.base import StoreError

#: pages copied per step of the backup API; between steps the judge may write
PAGES_PER_STEP = 256


def copy_database(source: str | Path, dest: str | Path) -> Path:
    """Write a consistent copy of the SQLite database ``source`` to ``dest`` (a new
    file; the folder is created) with the online backup API, then fsync it. Returns
    ``dest``. Raises :class:`StoreError` when ``source`` is missing or not a database,
    or ``dest`` exists or cannot be written (a copy never overwrites a file)."""
    src, out = Path(source), Path(dest)
    if not src.is_file():
        raise StoreError(f"no database at {src}")
    if out.exists():
        raise StoreError(f"{out} exists; a backup never overwrites a file (choose a new name)")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        reader = sqlite3.connect(f"file:{src}?mode=ro", uri=True, timeout=30)
        try:
            writer = sqlite3.connect(str(out))
            try:
                reader.backup(writer, pages=PAGES_PER_STEP)
                # a copy is a single file: no WAL beside it to lose in a later file copy
                writer.execute("PRAGMA journal_mode = DELETE")
            finally:
                writer.close()
        finally:
            reader.close()
        with open(out, "rb") as fh:
            os.fsync(fh.fileno())
    except (sqlite3.Error, OSError) as exc:
        try:
            out.unlink(missing_ok=True)
        except OSError:
            pass
        raise StoreError(f"cannot copy {src} to {out}: {type(exc).__name__}: {exc}") from exc
    return out


def integrity_problems(path: str | Path) -> list[str]:
    """SQLite's own check of the file at ``path`` (``PRAGMA integrity_check``, and that
    it holds pbem's tables): [] when sound, else one line per problem. Never raises."""
    try:
        conn = sqlite3.connect(f"file:{Path(path)}?mode=ro", uri=True, timeout=30)
    except sqlite3.Error as exc:
        return [f"{path} cannot be opened: {exc}"]
    try:
        rows = [r[0] for r in conn.execute("PRAGMA integrity_check").fetchall()]
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.Error as exc:
        return [f"{path} is not a database: {exc}"]
    finally:
        conn.close()
    problems = [] if rows == ["ok"] else [f"{path}: integrity check: {r}" for r in rows]
    missing = {"migrations", "games", "events"} - tables
    if missing:
        problems.append(f"{path} is not a pbem database (no table {', '.join(sorted(missing))})")
    return problems


def replace_database(source: str | Path, target: str | Path) -> None:
    """Make the database ``target`` hold exactly what ``source`` holds, through the
    backup API into ``target``'s own connection (so its ``-wal`` and ``-shm`` files stay
    consistent with it). The caller holds the judge lock of ``target``. Raises
    :class:`StoreError`."""
    src, dst = Path(source), Path(target)
    try:
        reader = sqlite3.connect(f"file:{src}?mode=ro", uri=True, timeout=30)
        try:
            writer = sqlite3.connect(str(dst), timeout=30)
            try:
                reader.backup(writer, pages=PAGES_PER_STEP)
            finally:
                writer.close()
        finally:
            reader.close()
    except (sqlite3.Error, OSError) as exc:
        raise StoreError(f"cannot restore {src} into {dst}: {type(exc).__name__}: {exc}") from exc


def stamped_name(database: str | Path, what: str) -> Path:
    """A new file name beside ``database`` for a copy: ``<db>.<what>-<UTC time>``
    (e.g. ``pbem.sqlite3.before-010_intake_rule-20261203T2301Z``); a counter is added
    when the name exists."""
    base = Path(database)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    candidate = base.with_name(f"{base.name}.{what}-{stamp}")
    n = 1
    while candidate.exists():
        n += 1
        candidate = base.with_name(f"{base.name}.{what}-{stamp}-{n}")
    return candidate
