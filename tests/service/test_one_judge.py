"""One judge per database, and the duplicate check inside the transaction (issue 17,
finding 8); a server that forgets our flag costs no re-read (finding 13)."""
from __future__ import annotations

import random
import sqlite3
import subprocess
import sys
import threading
import time

import yaml

from pbem import rules
from pbem.config import load_config
from pbem.service import Judge, make_judge, run_once
from pbem.store import Store
from tests.conftest import KEYS, local_judge, player_mail
from tests.service.helpers import (
    ROOT,
    drop,
    mail,
    pbem_run,
    stop,
    wait_until,
    write_config,
)


def test_finding8_a_second_pbem_run_on_the_same_database_refuses_to_start(tmp_path, pymap_server) -> None:
    path, _config = write_config(tmp_path, pymap_server)
    first = pbem_run(path)
    try:
        log = path.with_suffix(".log")
        assert wait_until(lambda: log.exists() and b"polling" in log.read_bytes(), 60), log.read_bytes()
        second = subprocess.run([sys.executable, str(ROOT / "tests" / "service" / "crashpoints.py"), "run", "--once",
                                 "-c", str(path)], capture_output=True, timeout=120, cwd=ROOT)
        assert second.returncode == 1, second.stdout + second.stderr
        assert f"another pbem run (pid {first.pid})".encode() in second.stderr, second.stderr
        assert b"Traceback" not in second.stderr
    finally:
        assert stop(first) == 0 or first.returncode in (0, 130, -15)
    again = subprocess.run([sys.executable, str(ROOT / "tests" / "service" / "crashpoints.py"), "run", "--once",
                            "-c", str(path)], capture_output=True, timeout=120, cwd=ROOT)
    assert again.returncode == 0, again.stderr  # the lock went with the first judge


def test_finding8_two_judges_racing_for_one_mail_apply_it_once(tmp_path) -> None:
    judge = local_judge(tmp_path, {})
    state = judge.state("g1")
    seat = rules.pending(state)[0].seat
    raw = player_mail(seat, {"game": "g1", "seat": seat, "key": KEYS[seat], "step": state.step,
                             "orders": rules.bot_orders(state, seat, random.Random(1))})
    blocker = sqlite3.connect(judge.store.path, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")  # both judges get as far as their transaction, then wait
    results: list[object] = []

    def other_judge() -> None:
        try:
            results.append(Judge(judge.config, Store(judge.store.path)).handle_message(raw))
        except Exception as exc:  # noqa: BLE001 - the finding: UNIQUE constraint failed
            results.append(exc)

    threads = [threading.Thread(target=other_judge) for _ in range(2)]
    for t in threads:
        t.start()
    time.sleep(1.0)  # let both reach the lock (this orders the race; nothing is timed)
    blocker.execute("ROLLBACK")
    for t in threads:
        t.join(60)
    assert sorted(map(str, results)) == ["applied", "duplicate"], results
    assert judge.state("g1").step == state.step + 1


def test_finding13_a_server_that_forgets_our_flag_is_not_read_again(tmp_path, pymap_server) -> None:
    """pymap's maildir backend does not keep the ``$PbemDone`` keyword: with
    ``processed_folder`` empty every reconnect re-read (and re-parsed) the whole INBOX."""
    _path, config = write_config(tmp_path, pymap_server, imap={"processed_folder": ""})
    judge, poller = make_judge(config)
    judge.ensure_games()
    run_once(judge, poller)
    for i in range(3):
        drop(pymap_server, mail("stranger", yaml.safe_dump({"game": "nope"}), subject=f"hello {i}"))
    assert sorted(run_once(judge, poller).values()) == ["rejected"] * 3
    poller.close()
    calls: list[int] = []
    real = poller.handler

    def counting(raw, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
        calls.append(len(raw))
        return real(raw, *args, **kwargs)
    poller.handler = counting
    run_once(judge, poller)  # a reconnect: the reconcile pass
    assert calls == [], "handled mail was fetched and handled again"
    poller.close()
    assert load_config(_path).imap.processed_folder in (None, "")


def test_breakit9b_a_symlinked_path_to_the_database_takes_the_same_lock(tmp_path) -> None:
    from pbem.store.lock import DatabaseLocked, JudgeLock
    real = tmp_path / "data" / "judge.sqlite"
    real.parent.mkdir()
    real.write_bytes(b"")
    (tmp_path / "alias.sqlite").symlink_to(real)
    (tmp_path / "dir").symlink_to(real.parent)
    with JudgeLock(real):
        for other in (tmp_path / "alias.sqlite", tmp_path / "dir" / "judge.sqlite",
                      tmp_path / "data" / ".." / "data" / "judge.sqlite"):
            try:
                JudgeLock(other).acquire().release()
            except DatabaseLocked:
                continue
            raise AssertionError(f"a second judge could start on {other}")
    JudgeLock(tmp_path / "alias.sqlite").acquire().release()  # free again once the first is done
