"""Hosting for years (issue 30, items 1 and 4): ``pbem backup`` while the judge applies
mail, ``pbem restore`` and its refusals, and upgrades that cannot hurt the log (a copy
before every migration, every game verified after it, a newer database refused)."""
from __future__ import annotations

import random
import sqlite3
import threading
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from pbem import rules
from pbem.cli import main
from pbem.config import parse_config
from pbem.service import Judge
from pbem.service.hosting import RestoreRefused, after_migration, backup, check_database, restore
from pbem.store import Store, StoreError
from pbem.store.backup import copy_database
from pbem.store.lock import JudgeLock
from tests.conftest import HASHES, KEYS, PLAYERS, SEATS, player_mail


def _config(tmp_path: Path) -> tuple[Path, dict]:
    raw = {"judge": {"address": "judge@pbem.localhost"}, "database": str(tmp_path / "pbem.sqlite"),
           "map_attachment": False,
           "games": [{"id": "g1", "host_email": "host@pbem.localhost",
                      "seats": [{"seat": s, "player": PLAYERS[s], "email": f"{s}@pbem.localhost",
                                 "key_hash": HASHES[s]} for s in SEATS]}]}
    path = tmp_path / "config.yaml"
    path.write_text(yaml.safe_dump(raw))
    return path, raw


def _judge(tmp_path: Path, raw: dict) -> Judge:
    judge = Judge(parse_config(raw, base=tmp_path), Store(tmp_path / "pbem.sqlite"))
    judge.ensure_games()
    return judge


def _play(judge: Judge, decisions: int, seed: int = 2) -> None:
    """``decisions`` orders mails, each applied through the judge's mail path."""
    rng = random.Random(seed)
    for _ in range(decisions):
        state = judge.state("g1")
        seat = rules.pending(state)[0].seat
        doc = {"game": "g1", "seat": seat, "key": KEYS[seat], "step": state.step,
               "orders": rules.bot_orders(state, seat, rng)}
        assert judge.handle_message(player_mail(seat, doc)) == "applied"


def _events(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT count(*) FROM events").fetchone()[0]
    finally:
        conn.close()


def test_a_backup_taken_while_a_burst_of_orders_is_applied_verifies(tmp_path: Path) -> None:
    _path, raw = _config(tmp_path)
    _judge(tmp_path, raw).store.close()
    db = tmp_path / "pbem.sqlite"
    start = _events(db)
    done = threading.Event()
    failed: list[BaseException] = []

    def burst() -> None:  # the judge's own thread, its own connection, as in `pbem run`
        try:
            judge = _judge(tmp_path, raw)
            _play(judge, 16)
        except BaseException as exc:  # noqa: BLE001 - reported by the assert below
            failed.append(exc)
        finally:
            done.set()
    worker = threading.Thread(target=burst)
    worker.start()
    copies: list[Path] = []
    while not done.is_set() and len(copies) < 200:
        copies.append(tmp_path / f"copy-{len(copies)}.sqlite")
        copy_database(db, copies[-1])  # the copy `pbem backup` takes; verified below
    worker.join()
    assert not failed, failed
    end = _events(db)
    counts = [_events(c) for c in copies]
    middle = [c for c, n in zip(copies, counts, strict=True) if start < n < end]
    assert middle, (start, end, counts)  # some copies were taken mid-burst
    for c in middle[:: max(1, len(middle) // 3)][:3] + [middle[-1]]:
        checked = check_database(c)
        assert checked.ok, checked.lines()
        assert [g.game_id for g in checked.games] == ["g1"]
    # and the command itself, on the database the burst left
    result = backup(db, tmp_path / "final.sqlite")
    assert result.ok and result.games[0].events == end


def test_pbem_backup_writes_a_copy_that_verifies_and_never_overwrites(tmp_path: Path) -> None:
    path, raw = _config(tmp_path)
    _play(_judge(tmp_path, raw), 3)
    dest = tmp_path / "backups" / "b1.sqlite"
    out = CliRunner().invoke(main, ["backup", "-c", str(path), str(dest)])
    assert out.exit_code == 0, out.output
    assert "every one verifies" in out.output and "g1:" in out.output
    assert _events(dest) == _events(tmp_path / "pbem.sqlite")
    again = CliRunner().invoke(main, ["backup", "-c", str(path), str(dest)])
    assert again.exit_code == 1 and "never overwrites" in again.output


def test_restore_is_refused_while_a_judge_runs_and_keeps_what_it_replaces(tmp_path: Path) -> None:
    path, raw = _config(tmp_path)
    judge = _judge(tmp_path, raw)
    _play(judge, 2)
    db = tmp_path / "pbem.sqlite"
    saved = tmp_path / "saved.sqlite"
    assert backup(db, saved).ok
    _play(judge, 3, seed=5)  # the game goes on after the backup
    judge.store.close()
    later = _events(db)
    assert later > _events(saved)
    with JudgeLock(db):  # what `pbem run` holds
        with pytest.raises(RestoreRefused, match="stop `pbem run` first"):
            restore(saved, db)
        out = CliRunner().invoke(main, ["restore", "-c", str(path), str(saved)])
        assert out.exit_code == 1 and "another pbem run" in out.output
    assert _events(db) == later  # nothing changed
    out = CliRunner().invoke(main, ["restore", "-c", str(path), str(saved)])
    assert out.exit_code == 0, out.output
    assert _events(db) == _events(saved)
    kept = sorted(tmp_path.glob("pbem.sqlite.before-restore-*"))
    assert len(kept) == 1 and _events(kept[0]) == later and str(kept[0]) in out.output
    assert check_database(db).ok


def _played(tmp_path: Path, decisions: int) -> tuple[Path, dict, Path]:
    """(config path, raw config, database) of game g1 after ``decisions`` decisions by mail."""
    path, raw = _config(tmp_path)
    judge = _judge(tmp_path, raw)
    _play(judge, decisions)
    judge.store.close()
    return path, raw, tmp_path / "pbem.sqlite"


def test_restore_refuses_a_backup_that_does_not_verify_unless_forced(tmp_path: Path) -> None:
    path, _raw, db = _played(tmp_path, 2)
    bad = tmp_path / "bad.sqlite"
    backup(db, bad)
    conn = sqlite3.connect(bad)
    conn.execute("UPDATE events SET data = json_set(data, '$.rule', 'R-0') WHERE seq = "
                 "(SELECT max(seq) FROM events WHERE public = 1)")
    conn.commit()
    conn.close()
    assert not check_database(bad).ok
    before = _events(db)
    out = CliRunner().invoke(main, ["restore", "-c", str(path), str(bad)])
    assert out.exit_code == 1 and "does not verify" in out.output
    assert not list(tmp_path.glob("pbem.sqlite.before-restore-*"))
    out = CliRunner().invoke(main, ["restore", "-c", str(path), "--force", str(bad)])
    assert out.exit_code == 0, out.output
    assert _events(db) == before and len(list(tmp_path.glob("pbem.sqlite.before-restore-*"))) == 1


def _to_previous_schema(db: Path) -> None:
    """Make ``db`` what an earlier schema wrote: undo
    ``010_intake_rule`` (the ``inbox.decided_by`` column) and forget it was applied."""
    conn = sqlite3.connect(db)
    conn.execute("ALTER TABLE inbox DROP COLUMN decided_by")
    conn.execute("DELETE FROM migrations WHERE name = '010_intake_rule'")
    conn.commit()
    conn.close()


def test_an_upgrade_takes_a_copy_first_and_every_game_verifies_after_it(tmp_path: Path) -> None:
    _path, raw, db = _played(tmp_path, 4)
    _to_previous_schema(db)
    events = _events(db)
    store = Store(db)
    assert store.migrated == ["010_intake_rule"]
    copy = store.migration_backup
    assert copy is not None and copy.name.startswith("pbem.sqlite.before-010_intake_rule-")
    old = sqlite3.connect(copy)
    assert "decided_by" not in {r[1] for r in old.execute("PRAGMA table_info(inbox)")}  # the old schema
    assert old.execute("SELECT count(*) FROM events").fetchone()[0] == events
    old.close()
    judge = Judge(parse_config(raw, base=tmp_path), store)
    checked = after_migration(judge)
    assert checked is not None and checked.ok and [g.game_id for g in checked.games] == ["g1"]
    notices = [r for r in store.db["outbox"].rows if "upgraded" in (r["subject"] or "")]
    assert len(notices) == 1 and notices[0]["to_addr"] == "host@pbem.localhost"
    store.close()
    assert Store(db).migrated == []  # nothing left to do on the next start: no second copy
    assert len(list(tmp_path.glob("pbem.sqlite.before-*"))) == 1


def test_an_upgrade_by_a_cli_command_says_where_the_copy_is_and_verifies(tmp_path: Path) -> None:
    path, _raw, db = _played(tmp_path, 2)
    _to_previous_schema(db)
    out = CliRunner().invoke(main, ["outbox", "resend", "-c", str(path)])
    assert out.exit_code == 0, out.output
    assert "database upgraded (010_intake_rule)" in out.output and "g1:" in out.output and "verified" in out.output


def test_a_database_written_by_a_newer_pbem_is_refused(tmp_path: Path) -> None:
    path, raw = _config(tmp_path)
    _judge(tmp_path, raw).store.close()
    db = tmp_path / "pbem.sqlite"
    conn = sqlite3.connect(db)
    conn.execute("INSERT INTO migrations (name, applied_at) VALUES ('099_from_the_future', '2030-01-01')")
    conn.commit()
    conn.close()
    for readonly in (False, True):
        with pytest.raises(StoreError, match="written by a newer pbem .*099_from_the_future"):
            Store(db, readonly=readonly)
    out = CliRunner().invoke(main, ["status", "-c", str(path)])
    assert out.exit_code == 1 and "newer pbem" in out.output
    assert not list(tmp_path.glob("pbem.sqlite.before-*"))  # refused before any copy or change


def test_a_new_database_is_no_upgrade(tmp_path: Path) -> None:
    """The README's first start said "database upgraded (001_initial, …); the copy taken
    before it: None" and would have sent the hosts an upgrade notice."""
    _path, raw = _config(tmp_path)
    judge = _judge(tmp_path, raw)
    assert judge.store.migrated == [] and judge.store.migration_backup is None
    assert after_migration(judge) is None
    assert not list(judge.store.db["outbox"].rows_where("subject LIKE '%upgraded%'"))
