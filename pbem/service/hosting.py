"""Keeping a judge's database for years (issue 30): ``pbem backup``, ``pbem restore`` and
the check of every game after a migration.

A copy is only worth something when it verifies: :func:`backup` writes a consistent copy
with SQLite's online backup API (:mod:`pbem.store.backup`) while ``pbem run`` keeps
running, then checks the copy as ``pbem verify`` would, game by game (the hash chain, the
replay, every roll). :func:`restore` refuses while a judge holds the database (the same
lock ``pbem run`` takes), refuses a source that does not verify, and keeps the database it
replaces beside it, so a restore can itself be undone.
"""
from __future__ import annotations

import gettext
from dataclasses import dataclass, field
from pathlib import Path

from pbem import i18n
from pbem.service.base.context import Service
from pbem.service.outgoing.host_notices import report_fault
from pbem.service.verify import Verified, verify_game
from pbem.store import Store, StoreError
from pbem.store.backup import copy_database, integrity_problems, replace_database, stamped_name
from pbem.store.lock import DatabaseLocked, JudgeLock


@dataclass(frozen=True)
class Checked:
    """What checking a database found: ``path``, one :class:`Verified` per game, and
    the problems of the file itself (SQLite's integrity check). ``ok`` when none."""

    path: Path
    games: list[Verified] = field(default_factory=list)
    file_problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when the file is sound and every game verifies."""
        return not self.file_problems and all(g.ok for g in self.games)

    def lines(self) -> list[str]:
        """One line per game (and per problem of the file), for the host."""
        out = list(self.file_problems)
        for g in self.games:
            if g.ok:
                out.append(f"{g.game_id}: {g.events} events, verified")
            else:
                out += [f"{g.game_id}: {p}" for p in g.problems]
        return out


def verify_all(store: Store, path: Path) -> Checked:
    """Verify every game of ``store`` (:func:`pbem.service.verify.verify_game`); a
    game whose rows cannot be read as the judge writes them is a problem of that game,
    never an exception. ``path`` names the database in the result."""
    games = []
    for row in store.games():
        gid = row["id"]
        try:
            games.append(verify_game(store, gid))
        except Exception as exc:  # noqa: BLE001 - a damaged row is a finding of the check, not a crash
            games.append(Verified(gid, 0, [f"cannot be verified: {type(exc).__name__}: {exc}"]))
    return Checked(path, games)


def check_database(path: str | Path) -> Checked:
    """Check the database file at ``path`` read-only: SQLite's integrity check, then
    every game's log. Never raises for a bad file: its problems are in the result."""
    p = Path(path)
    problems = integrity_problems(p)
    if problems:
        return Checked(p, [], problems)
    try:
        store = Store(p, readonly=True)
    except StoreError as exc:
        return Checked(p, [], [str(exc)])
    try:
        return verify_all(store, p)
    finally:
        store.close()


def archive_companion(path: str | Path) -> Path:
    """Where a backup at ``path`` keeps the archive database beside it (issue 30 item 7):
    ``backup.sqlite`` → ``backup.archive.sqlite``."""
    p = Path(path)
    return p.with_suffix(".archive.sqlite") if p.suffix else p.with_name(p.name + ".archive.sqlite")


def backup(database: str | Path, dest: str | Path) -> Checked:
    """``pbem backup``: a consistent copy of ``database`` at ``dest`` (while a judge
    may be writing to it), checked after it is written (:func:`check_database`). Raises
    :class:`StoreError` when the copy cannot be written; a copy that does not verify
    is kept and reported in the result (it is the host's to judge)."""
    copy_database(database, dest)
    return check_database(dest)


@dataclass(frozen=True)
class Restored:
    """What :func:`restore` did: the source's check, and where the replaced database
    was kept (None when there was none)."""

    source: Checked
    kept: Path | None


class RestoreRefused(RuntimeError):
    """The restore was not done; the message says why (a judge is running, the
    source does not verify, …)."""


def restore(source: str | Path, database: str | Path, *, force: bool = False) -> Restored:
    """``pbem restore``: make ``database`` hold what ``source`` (a backup) holds.
    Refuses (:class:`RestoreRefused`) while a judge holds ``database``'s lock, when
    ``source`` is missing or is ``database`` itself, and when ``source`` does not
    verify (unless ``force``: a damaged backup may still be the best there is). The
    database replaced is first copied to ``<database>.before-restore-<UTC time>``."""
    src, dst = Path(source), Path(database)
    if not src.is_file():
        raise RestoreRefused(f"no backup at {src}")
    if dst.exists() and src.resolve() == dst.resolve():
        raise RestoreRefused(f"{src} is the database itself")
    checked = check_database(src)
    if not checked.ok and not force:
        raise RestoreRefused(f"{src} does not verify ({len(checked.lines())} line(s) below); nothing was "
                             "changed (--force restores it all the same)")
    lock = JudgeLock(dst)
    try:
        lock.acquire()
    except DatabaseLocked as exc:
        raise RestoreRefused(f"not restoring: {exc}; stop `pbem run` first") from exc
    try:
        kept = copy_database(dst, stamped_name(dst, "before-restore")) if dst.exists() else None
        replace_database(src, dst)
    finally:
        lock.release()
    return Restored(checked, kept)


def after_migration(judge: Service) -> Checked | None:
    """When opening the judge's store applied migrations (``store.migrated``), verify
    every game and tell the hosts (a judge notice: what was migrated, where the copy
    taken before it is, and each game's result; a failing game says the host should
    restore that copy). Returns the check, or None when nothing was migrated."""
    store = judge.store
    if not store.migrated:
        return None
    checked = verify_all(store, Path(store.path))
    values = {"path": store.path, "migrations": ", ".join(store.migrated), "copy": store.migration_backup}
    found = "\n".join(checked.lines())

    def head(tr: gettext.NullTranslations) -> str:  # in the host's language (issue 28)
        kept = " " + tr.gettext("The copy taken before it is %(copy)s.") % values if store.migration_backup else ""
        return tr.gettext("The database %(path)s was upgraded (migrations %(migrations)s).") % values + kept

    title: i18n.Localizable
    body: i18n.Localizable
    if checked.ok:
        title = lambda tr: tr.gettext("database upgraded")  # noqa: E731
        body = lambda tr: head(tr) + " " + tr.gettext("Every game verifies after it:") + "\n" + found  # noqa: E731
    else:
        title = lambda tr: tr.gettext("a game does not verify after the upgrade")  # noqa: E731
        body = lambda tr: head(tr) + " " + tr.gettext(  # noqa: E731
            "A game does NOT verify after it; stop `pbem run` and restore the copy with `pbem restore %(copy)s`, "
            "then report the lines below:") % values + "\n" + found
    with store.transaction():
        report_fault(judge, f"migration {','.join(store.migrated)}", title, body)
    return checked
