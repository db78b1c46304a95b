"""``pbem run`` as a library function: start the embedded mail server when the config
enables it (and restart its IMAP server if it dies), open the store, start Litestream
beside the judge when the config asks for a replica (and restart it if it dies:
:mod:`pbem.service.replica`), create the configured games, then one cycle or the poll
loop (:mod:`pbem.service.loop`), whose first connection applies again the kept mail a
restored log lacks (:mod:`pbem.service.recover`)."""
from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from pbem.config import Config
from pbem.devmail import DevMail, DevMailError
from pbem.service.base.context import RetryLater
from pbem.service.hosting import after_migration
from pbem.service.loop import NETWORK_ERRORS, make_judge, run_forever, run_once
from pbem.service.play.warmup import warm_up
from pbem.service.replica import ReplicaError, Replicator
from pbem.service.replica import watch as watch_replica
from pbem.store import StoreError, describe_db_error, is_db_error
from pbem.store.lock import DatabaseLocked, JudgeLock

log = logging.getLogger(__name__)


class RunError(RuntimeError):
    """``pbem run`` cannot start or its single cycle failed; the message says why in one
    line (the CLI prints it and exits 1)."""


def start_devmail(config: Config, wake: threading.Event | None = None) -> DevMail:
    """Start the embedded mail server of ``config.devmail``; ``wake`` is set on every
    delivery to the judge's account (``imap.user``). Raises RunError."""
    dm = config.devmail
    judge_account = (config.imap.user or "").lower()

    def delivered(account: str) -> None:
        if wake is not None and account == judge_account:
            wake.set()
    try:
        return DevMail(dm.maildir, dm.accounts, smtp_port=dm.smtp_port, imap_port=dm.imap_port,
                       on_delivery=delivered).start()
    except DevMailError as exc:
        raise RunError(f"cannot start the embedded mail server: {exc}") from exc


def watch_devmail(dev: DevMail, stop: threading.Event, every: float = 2.0) -> None:
    """Restart the embedded IMAP server if it exits while the judge runs, until ``stop``."""
    while not stop.wait(every):
        if not dev.imap_alive():
            log.error("the embedded IMAP server exited (see %s); restarting it", dev._log)
            try:
                dev.restart_imap()
            except Exception as exc:  # noqa: BLE001 - keep watching; the poller backs off meanwhile
                log.error("restarting the embedded IMAP server failed: %s", exc)


def serve(config: Config, *, once: bool = False, echo: Callable[[str], None] = print,
          stop: threading.Event | None = None) -> dict[int, str] | None:
    """Run the judge of ``config``: one cycle (``once``; returns the statuses of the
    messages handled, by UID) or until ``stop`` is set (returns None; a
    KeyboardInterrupt propagates after everything is stopped). ``echo`` gets the
    progress lines. Holds the database's judge lock throughout (one judge per
    database). Raises RunError when another judge holds the database, the database
    cannot be used, the mail server cannot start, or the single cycle hits a mail
    server or database problem."""
    lock = JudgeLock(config.database)
    try:
        lock.acquire()
    except DatabaseLocked as exc:
        raise RunError(f"not starting: {exc}") from exc
    except OSError as exc:
        raise RunError(f"cannot create the lock file {lock.path}: {exc.strerror}") from exc
    try:
        return _serve(config, once, echo, stop or threading.Event())
    finally:
        lock.release()


def _serve(config: Config, once: bool, echo: Callable[[str], None], stop: threading.Event
           ) -> dict[int, str] | None:
    dev = None
    rep: Replicator | None = None
    wake = threading.Event()
    if config.devmail.enabled:
        dev = start_devmail(config, wake)
        echo(f"embedded mail server: SMTP 127.0.0.1:{dev.smtp_port}, IMAP 127.0.0.1:{dev.imap_port}, "
             f"maildirs in {config.devmail.maildir}")
    try:
        try:
            judge, poller = make_judge(config)
        except StoreError as exc:
            raise RunError(str(exc)) from exc
        judge.store.wake_all()  # the config's reminder lengths may have changed since the last run
        if config.replica.enabled:
            try:
                rep = Replicator(config.database, config.replica).start()
            except ReplicaError as exc:
                raise RunError(str(exc)) from exc
            echo(f"replicating {config.database} to {config.replica.url} with Litestream (pid {rep.pid}, every "
                 f"{config.replica.sync_interval:g}s; its log: {rep.log})")
            threading.Thread(target=watch_replica, args=(rep, stop), daemon=True).start()
        checked = after_migration(judge)
        if checked is not None:
            echo(f"database upgraded ({', '.join(judge.store.migrated)}); the copy taken before it: "
                 f"{judge.store.migration_backup}")
            for line in checked.lines():
                echo(f"  {line}")
            if not checked.ok:
                log.error("a game does not verify after the upgrade; the hosts were told")
        try:
            created = judge.ensure_games()
        except Exception as exc:
            raise RunError(describe_db_error(config.database, exc) if is_db_error(exc) else
                           f"cannot set up the games: {type(exc).__name__}: {exc}") from exc
        for gid in created:
            echo(f"created game {gid}; prompts queued")
        echo(f"database: {config.database}")
        if once:
            try:
                return run_once(judge, poller)
            except (RetryLater, *NETWORK_ERRORS) as exc:
                raise RunError(f"{'database' if isinstance(exc, RetryLater) else 'mail server'} problem: "
                               f"{type(exc).__name__}: {exc}") from exc
            finally:
                poller.close()
        warm_up(judge)  # the first report's pictures and templates, drawn now in a thread of its own
        echo(f"polling {config.imap.user}@{config.imap.host}:{config.imap.port}/{config.imap.folder} "
             f"as {config.judge_address}; Ctrl-C to stop")
        if dev is not None:
            threading.Thread(target=watch_devmail, args=(dev, stop), daemon=True).start()
            if config.imap.host in ("127.0.0.1", "localhost") and config.imap.port == dev.imap_port:
                poller.wake = wake  # the embedded server says when mail came; no IDLE needed
        run_forever(judge, poller, stop)
        return None
    finally:
        stop.set()  # first: the watchdogs must not restart what we stop
        if rep is not None:
            rep.stop()
        if dev is not None:
            dev.stop()
