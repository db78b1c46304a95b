"""The retention pass (issue 30 item 7): finished games leave the live database for the
archive database, and their raw mail is pruned there after the host's retention.

A game moves ``retention.move_after`` after it ended (the time of its last event), once
nothing of it waits in the outbox: its rows are copied to the archive database
(:func:`pbem.store.retention.copy_game`), the copy is verified as ``pbem verify`` does
(:func:`pbem.service.verify.verify_game`), and only a copy that verifies lets the game
leave the live database (:func:`pbem.store.retention.drop_game`); a game that does not
verify stays where it is and the hosts are told once. ``retention.prune_after`` after its
end, a moved game's raw mails and sent bodies are dropped in the archive database
(:func:`pbem.store.retention.prune_game`): never before the game moved, so never before
its archive (the log, its verifier; mailed to every seat at the end) is safe.

``pbem run`` runs a pass at start and then every :data:`EVERY` (one game moved per call,
so one loop cycle never carries more than one game's copy and check); ``pbem retention``
runs it by hand, all of it, or ``--dry-run`` to list what is due.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

from pbem import i18n
from pbem.config import Config
from pbem.store import Store
from pbem.store.retention import copy_game, drop_game, mark_pruned, prune_game, sweep
from pbem.service.verify import verify_game

log = logging.getLogger(__name__)

#: how often ``pbem run`` looks for games whose retention has come
EVERY = timedelta(hours=6)


@dataclass
class RetentionPass:
    """What one pass did or (``dry_run``) would do: games moved, games pruned with
    the bytes freed, and games that could not move (``{game: why}``)."""

    moved: list[str] = field(default_factory=list)
    pruned: dict[str, int] = field(default_factory=dict)
    held: dict[str, str] = field(default_factory=dict)
    said: dict[str, i18n.Localizable] = field(default_factory=dict)
    """Why each game of ``held`` stays, for its host's notice in the host's language
    (issue 28; ``held`` is the English the CLI and the log show)."""
    more: bool = False

    def lines(self) -> list[str]:
        """One line per game for the CLI and the log."""
        out = [f"{g}: moved to the archive database" for g in self.moved]
        out += [f"{g}: raw mail and sent bodies pruned ({n / 1e6:.2f} MB)" for g, n in self.pruned.items()]
        out += [f"{g}: not moved: {why}" for g, why in self.held.items()]
        return out


def _due(ended_at: str, after: float | None, now: datetime) -> bool:
    if after is None or not ended_at:
        return False
    return datetime.fromisoformat(ended_at) + timedelta(seconds=after) <= now


def archive_path(config: Config) -> Path:
    """The archive database's file (``retention.archive_db``)."""
    path = config.retention.archive_db
    assert path is not None  # load_config always sets it
    return Path(path)


def run(store: Store, config: Config, now: datetime, *, most: int | None = None,
        dry_run: bool = False) -> RetentionPass:
    """One retention pass over ``store`` (the live database) at ``now`` (aware UTC):
    move up to ``most`` finished games whose ``move_after`` has come (None: all), then
    prune every moved game whose ``prune_after`` has come. ``dry_run``: only say what is
    due. Raises sqlite3.Error and :class:`pbem.store.base.StoreError` for a database
    that cannot be used (the caller's loop treats it as a database fault)."""
    done = RetentionPass()
    r = config.retention
    due = [(gid, status, ended) for gid, status, ended in store.ended_games() if _due(ended, r.move_after, now)]
    prune = [] if r.prune_after is None else [
        m for m in store.unpruned_games((now - timedelta(seconds=r.prune_after)).isoformat())
        if _due(m["ended_at"], r.prune_after, now)]
    if not due and not prune:
        return done
    if dry_run:
        done.moved = [gid for gid, _, _ in due]
        done.pruned = {m["game_id"]: 0 for m in prune}
        return done
    if due:
        sweep(store)  # the rows earlier moves kept for their id, now that newer ones exist
    target = archive_path(config)
    archive = Store(target)
    try:
        for gid, status, ended in due:
            if most is not None and len(done.moved) >= most:
                done.more = True
                break
            if store.mail_waiting(gid):
                done.held[gid] = "mail of the game still waits in the outbox"
                done.said[gid] = lambda tr: tr.gettext("mail of the game still waits in the outbox")
                continue
            copy_game(store, target, gid)
            checked = verify_game(archive, gid)
            if not checked.ok:
                problems = "; ".join(checked.problems[:3])
                done.held[gid] = "its copy in the archive database does not verify: " + problems
                done.said[gid] = lambda tr, problems=problems: tr.gettext(
                    "its copy in the archive database does not verify: %(problems)s") % {"problems": problems}
                continue
            drop_game(store, gid, status, ended, target)
            done.moved.append(gid)
            log.info("game %s moved to the archive database %s", gid, target)
        for m in (prune if not done.more else []):
            freed = prune_game(archive, m["game_id"])
            mark_pruned(store, m["game_id"])
            done.pruned[m["game_id"]] = freed
            log.info("game %s pruned in the archive database (%d bytes)", m["game_id"], freed)
    finally:
        archive.close()
    return done


def store_for(config: Config, live: Store, game_id: str, readonly: bool = True) -> Store | None:
    """The archive database opened when ``game_id`` moved there (None when it did not,
    or the file is gone): ``pbem verify``, ``pbem archive`` and ``history`` read a moved
    game from it. The caller closes it."""
    moved = live.moved_game(game_id)
    if moved is None:
        return None
    path = Path(moved["archive"] or archive_path(config))
    if not path.exists():
        return None
    return Store(path, readonly=readonly)


__all__ = ["EVERY", "RetentionPass", "archive_path", "run", "store_for"]
