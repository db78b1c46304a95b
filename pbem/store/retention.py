"""Finished games out of the live database, and their raw mail pruned (issue 30 item 7).

A finished game kept 4.5 MB of the live database for good (its raw mails, the bodies of
the mail it sent, its snapshots), so a judge that hosts games for years grew without
end. As Rally the Troops moves finished games to an archive database, a finished game
moves here from the live database to the **archive database** (a second SQLite file
with the same schema, ``<database>.archive.sqlite`` by default): every row of every
table that has a ``game_id`` column (and its ``games`` row, its sent mail's attachment
bodies) is copied there, the copy's log is verified by the caller, and only then is it
deleted from the live database, which keeps one ``moved_games`` row per moved game.

The game's inbox rows are copied too, but stay in the live database with their raw
bytes dropped (the Message-ID, size and content hash stay): the poller and the restore
drill (:mod:`pbem.service.recover`) recognise a mail they have seen by those, and a mail
to a moved game must never be applied again. Quarantined rows keep their bytes (the
host still has to act on them).

Pruning (after ``retention.prune_after``, only in the archive database, so never before
the game moved): the raw mails and the sent mails' stored text become empty and the
attachment bodies are dropped; the events, snapshots and the inbox rows' step, status
and hashes stay, so ``pbem verify`` and ``pbem archive`` still work on the game.

Moving is two transactions, the archive's then the live database's (SQLite does not
commit attached WAL databases atomically together): a crash between them leaves the
game in both, and the next pass copies it again (``INSERT OR REPLACE``) and deletes it.
The copy is plain SQL through sqlite-utils; the table list is read from the schema, so
a table added later is moved without a change here.
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pbem.store.base import Connection, utcnow
from pbem.store.games import ENDED_STATUSES
from pbem.store.observers import keep_records

#: tables whose rows are not a game's even though they may name one
_NOT_MOVED = {"inbox", "outbox_blobs", "blobs", "moved_games", "migrations"}


@dataclass(frozen=True)
class Moved:
    """What :func:`copy_game` copied: rows per table (``{table: n}``), the archive
    database's path."""

    game_id: str
    rows: dict[str, int]
    archive: Path

    @property
    def total(self) -> int:
        """Rows copied in all."""
        return sum(self.rows.values())


class RetentionTable(Connection):
    """The ``moved_games`` table of the live database (mixed into
    :class:`pbem.store.Store`): one row per game moved to the archive database."""

    def moved_game(self, game_id: str) -> dict[str, Any] | None:
        """The ``moved_games`` row of ``game_id`` (``game_id``, ``status``, ``ended_at``,
        ``moved_at``, ``archive``, ``pruned_at``; times ISO 8601 UTC), or None."""
        rows = list(self.db["moved_games"].rows_where("game_id = ?", [game_id]))
        return rows[0] if rows else None

    def moved_games(self) -> list[dict[str, Any]]:
        """Every ``moved_games`` row, oldest move first."""
        return list(self.db["moved_games"].rows_where(order_by="moved_at, game_id"))

    def unpruned_games(self, ended_before: str) -> list[dict[str, Any]]:
        """The ``moved_games`` rows not pruned yet that ended before ``ended_before``
        (ISO 8601 UTC), the earliest ended first."""
        return list(self.db["moved_games"].rows_where("pruned_at IS NULL AND ended_at < ?", [ended_before],
                                                      order_by="ended_at"))

    def game_known(self, game_id: str) -> bool:
        """True when ``game_id`` names a game here or one moved to the archive database
        (an id is never used twice)."""
        return self.game(game_id) is not None or self.moved_game(game_id) is not None  # type: ignore[attr-defined]

    def mail_waiting(self, game_id: str) -> bool:
        """True while mail of the game waits to be sent: an outbox row pending, a digest
        or an answers digest not sent."""
        return self.db.execute(
            "SELECT 1 FROM outbox WHERE game_id = ? AND status = 'pending' UNION ALL "
            "SELECT 1 FROM digests WHERE game_id = ? AND sent_at IS NULL UNION ALL "
            "SELECT 1 FROM answer_digests WHERE game_id = ? AND sent_at IS NULL LIMIT 1",
            [game_id, game_id, game_id]).fetchone() is not None

    def ended_games(self) -> list[tuple[str, str, str]]:
        """``(game_id, status, ended_at)`` of every finished game still in this database;
        ``ended_at``: the time of its last event (ISO 8601 UTC)."""
        marks = ",".join("?" * len(ENDED_STATUSES))
        rows = self.db.execute(
            f"SELECT g.id, g.status, (SELECT max(created_at) FROM events e WHERE e.game_id = g.id) "
            f"FROM games g WHERE g.status IN ({marks}) ORDER BY g.id", list(ENDED_STATUSES)).fetchall()
        return [(gid, status, ended or "") for gid, status, ended in rows]


def game_tables(conn: Connection) -> list[tuple[str, str, list[str]]]:
    """``(table, key column, columns)`` of every table holding a game's rows, parents
    first (``games`` by ``id``, then each table with a ``game_id`` column)."""
    out = [("games", "id", [c.name for c in conn.db["games"].columns])]
    for name in conn.db.table_names():
        if name == "games" or name in _NOT_MOVED:
            continue
        cols = [c.name for c in conn.db[name].columns]
        if "game_id" in cols:
            out.append((name, "game_id", cols))
    return out


@contextmanager
def _attached(live: Connection, archive: Path) -> Iterator[None]:
    """``archive`` attached to the live connection as ``archive`` for the block."""
    live.db.execute("ATTACH DATABASE ? AS archive", [str(archive)])
    try:
        yield
    finally:
        live.db.execute("DETACH DATABASE archive")


def copy_game(live: Connection, archive: Path, game_id: str) -> Moved:
    """Copy every row of ``game_id`` from ``live`` to the archive database at
    ``archive`` (which must exist with the same schema: open it once as a
    :class:`pbem.store.Store`), in one transaction of the archive; rows already there
    are replaced. The game's inbox rows and its sent mail's attachment bodies are
    copied too. Raises sqlite3.Error; nothing of ``live`` changes."""
    rows: dict[str, int] = {}
    with _attached(live, archive):
        live.db.execute("BEGIN IMMEDIATE")
        try:
            for table, key, cols in game_tables(live) + [("inbox", "game_id", [c.name for c in live.db["inbox"].columns])]:
                names = ", ".join(f'"{c}"' for c in cols)
                cur = live.db.execute(f'INSERT OR REPLACE INTO archive."{table}" ({names}) '
                                      f'SELECT {names} FROM main."{table}" WHERE "{key}" = ?', [game_id])
                rows[table] = cur.rowcount
            live.db.execute("INSERT OR IGNORE INTO archive.blobs SELECT * FROM main.blobs WHERE sha256 IN "
                            "(SELECT ob.sha256 FROM main.outbox_blobs ob JOIN main.outbox o ON o.id = ob.outbox_id "
                            "WHERE o.game_id = ?)", [game_id])
            cur = live.db.execute("INSERT OR REPLACE INTO archive.outbox_blobs SELECT ob.* FROM main.outbox_blobs ob "
                                  "JOIN main.outbox o ON o.id = ob.outbox_id WHERE o.game_id = ?", [game_id])
            rows["outbox_blobs"] = cur.rowcount
            live.db.execute("COMMIT")
        except BaseException:
            live.db.execute("ROLLBACK")
            raise
    return Moved(game_id, rows, archive)


def _id_tables(live: Connection) -> set[str]:
    """The game tables whose key is an integer ``id`` chosen by SQLite (one more than the
    largest): their largest row must stay, or its id would be given again."""
    out = set()
    for table, key, _ in game_tables(live):
        pks = [c for c in live.db[table].columns if c.is_pk]
        if key == "game_id" and len(pks) == 1 and pks[0].name == "id" and pks[0].type.upper() == "INTEGER":
            out.add(table)
    return out


def drop_game(live: Connection, game_id: str, status: str, ended_at: str, archive: Path) -> None:
    """Delete ``game_id``'s rows from ``live`` (after :func:`copy_game` and a verified
    copy), keep its inbox rows without their bytes (quarantined ones whole), drop the
    attachment bodies no other row uses, and record the move in ``moved_games``; one
    transaction. A row that holds its table's largest integer id stays (emptied of its
    mail) until a newer row exists (:func:`sweep`): SQLite gives a new row the largest id
    plus one, and an id given twice would overwrite the archive's copy. Raises
    sqlite3.Error (nothing changed then)."""
    with live.transaction():  # type: ignore[attr-defined]
        keep_records(live, game_id)  # its players' records stay in the live database (issue 29.4)
        ids = _id_tables(live)
        shas = {r[0] for r in live.db.execute(
            "SELECT DISTINCT ob.sha256 FROM outbox_blobs ob JOIN outbox o ON o.id = ob.outbox_id "
            "WHERE o.game_id = ?", [game_id])}
        outbox_rows = live.db.execute("SELECT count(*) FROM outbox WHERE game_id = ?", [game_id]).fetchone()[0]
        live.db.execute("DELETE FROM outbox_blobs WHERE outbox_id IN (SELECT id FROM outbox WHERE game_id = ?)",
                        [game_id])
        live.db.execute("UPDATE outbox SET raw = X'' WHERE game_id = ?", [game_id])
        for table, key, _ in reversed(game_tables(live)):
            keep = f' AND id != (SELECT max(id) FROM "{table}")' if table in ids else ""
            live.db.execute(f'DELETE FROM "{table}" WHERE "{key}" = ?{keep}', [game_id])
        for sha in shas:
            live.db.execute("DELETE FROM blobs WHERE sha256 = ? AND NOT EXISTS "
                            "(SELECT 1 FROM outbox_blobs WHERE sha256 = ?)", [sha, sha])
        live.db.execute("UPDATE inbox SET raw = X'' WHERE game_id = ? AND status != 'quarantined'", [game_id])
        live.db["moved_games"].insert({"game_id": game_id, "status": status, "ended_at": ended_at,
                                       "moved_at": utcnow(), "archive": str(archive), "pruned_at": None,
                                       "outbox_rows": outbox_rows}, replace=True)


def sweep(live: Connection) -> int:
    """Delete the rows of moved games that :func:`drop_game` kept for their id, once a
    newer row holds the table's largest id; returns how many. Raises sqlite3.Error."""
    n = 0
    with live.transaction():  # type: ignore[attr-defined]
        for table in sorted(_id_tables(live)):
            n += live.db.execute(f'DELETE FROM "{table}" WHERE game_id IN (SELECT game_id FROM moved_games) '
                                 f'AND id != (SELECT max(id) FROM "{table}")').rowcount
    return n


def prune_game(archive: Connection, game_id: str) -> int:
    """In the archive database: empty the raw bytes of ``game_id``'s inbox rows and the
    stored text of its sent mail, and drop the attachment bodies only it used (their
    hash and size stay). Returns the bytes freed (before SQLite reuses the pages).
    Raises sqlite3.Error."""
    with archive.transaction():  # type: ignore[attr-defined]
        before = archive.db.execute(
            "SELECT coalesce(sum(length(raw)), 0) FROM inbox WHERE game_id = ?", [game_id]).fetchone()[0]
        before += archive.db.execute(
            "SELECT coalesce(sum(length(raw)), 0) FROM outbox WHERE game_id = ?", [game_id]).fetchone()[0]
        before += archive.db.execute(
            "SELECT coalesce(sum(length(b.data)), 0) FROM blobs b WHERE b.sha256 IN (SELECT ob.sha256 FROM "
            "outbox_blobs ob JOIN outbox o ON o.id = ob.outbox_id WHERE o.game_id = ?)", [game_id]).fetchone()[0]
        archive.db.execute("UPDATE inbox SET raw = X'' WHERE game_id = ?", [game_id])
        archive.db.execute("UPDATE outbox SET raw = X'' WHERE game_id = ?", [game_id])
        archive.db.execute(
            "UPDATE blobs SET data = NULL, dropped_at = coalesce(dropped_at, ?) WHERE sha256 IN (SELECT ob.sha256 "
            "FROM outbox_blobs ob JOIN outbox o ON o.id = ob.outbox_id WHERE o.game_id = ?)", [utcnow(), game_id])
    return int(before)


def mark_pruned(live: Connection, game_id: str) -> None:
    """Record in the live database that ``game_id`` was pruned in the archive."""
    live.db.execute("UPDATE moved_games SET pruned_at = ? WHERE game_id = ?", [utcnow(), game_id])


def migrate(db: Any) -> None:
    """Migration ``016_retention``: the ``moved_games`` table."""
    db["moved_games"].create({"game_id": str, "status": str, "ended_at": str, "moved_at": str, "archive": str,
                              "pruned_at": str, "outbox_rows": int}, pk="game_id")
    db.execute("CREATE INDEX moved_games_unpruned ON moved_games (ended_at) WHERE pruned_at IS NULL")
    db["games"].create_index(["status"], index_name="games_status")


__all__ = ["Moved", "RetentionTable", "copy_game", "drop_game", "game_tables", "mark_pruned", "migrate",
           "prune_game", "sweep"]
