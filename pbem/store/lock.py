"""One judge per database (issue 17, finding 8): ``pbem run`` holds an exclusive
``flock`` (POSIX advisory lock, via :func:`fcntl.flock`) on ``<database>.lock`` for as
long as it runs; a second ``pbem run`` on the same database fails to take it and
refuses to start, naming the process that holds it. The kernel drops the lock when the
holder exits, also on SIGKILL, so a crash never leaves a stale lock behind.

The lock file is named after :func:`os.path.realpath` of the database (break-it 9b):
a symlink to the database, a path through a symlinked directory, ``..`` or a relative
path all reach the same lock file, so they cannot be used to start a second judge.
(Hard links to the database file are not seen; the doc says: one name per database.)
"""
from __future__ import annotations

import fcntl
import os
from pathlib import Path
from types import TracebackType


class DatabaseLocked(RuntimeError):
    """Another judge holds the database; the message names the lock file and its pid."""


class JudgeLock:
    """``with JudgeLock(database):`` — hold the database's judge lock or raise
    :class:`DatabaseLocked` at once (never waits)."""

    def __init__(self, database: str | Path):
        self.path = Path(f"{os.path.realpath(database)}.lock")
        self._fd: int | None = None

    def acquire(self) -> JudgeLock:
        """Take the lock. Raises DatabaseLocked when another process (or another
        JudgeLock in this one) holds it, OSError when the file cannot be created."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 64).decode("ascii", "replace").strip() or "unknown"
            os.close(fd)
            raise DatabaseLocked(f"another pbem run (pid {holder}) is using the database "
                                 f"{str(self.path)[:-5]} (lock file {self.path}); one judge per database") from None
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._fd = fd
        return self

    def release(self) -> None:
        """Give the lock up (idempotent)."""
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> JudgeLock:
        return self.acquire()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.release()
