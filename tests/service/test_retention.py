"""Retention (issue 30 item 7): a finished game leaves the live database for the archive
database after ``retention.move_after``, stays verifiable there (``pbem verify``,
``pbem archive``), its raw mail is pruned after ``retention.prune_after`` and never
before it moved, its id is never reused, a mail to it is answered, and ``pbem backup`` /
``pbem restore`` carry the archive database along."""
from __future__ import annotations

import random
import sqlite3
from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy
from pathlib import Path

import yaml
from click.testing import CliRunner

from pbem import rules
from pbem.cli import main
from pbem.config import parse_config
from pbem.service import Judge
from pbem.service.retention import run as run_retention
from pbem.service.verify import verify_game
from pbem.store import Store
from pbem.store.blobs import unpack
from tests.conftest import HASHES, KEYS, PLAYERS, SEATS, player_mail

T0 = datetime.now(UTC)  # the log stamps events with the wall clock


class Clock:
    """A clock the test moves."""

    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now


def _raw(tmp_path: Path, retention: dict | None = None) -> dict:
    raw = {"judge": {"address": "judge@pbem.localhost"}, "database": str(tmp_path / "pbem.sqlite"),
           "map_attachment": True,
           "games": [{"id": "g1", "host_email": "host@pbem.localhost",
                      "seats": [{"seat": s, "player": PLAYERS[s], "email": f"{s}@pbem.localhost",
                                 "key_hash": HASHES[s]} for s in SEATS]}]}
    if retention is not None:
        raw["retention"] = retention
    (tmp_path / "config.yaml").write_text(yaml.safe_dump(raw))
    return raw


def _judge(tmp_path: Path, raw: dict, clock: Clock) -> Judge:
    judge = Judge(parse_config(raw, base=tmp_path), Store(tmp_path / "pbem.sqlite"), clock=clock)
    judge.ensure_games()
    return judge


def _finished_game(tmp_path: Path, raw: dict, clock: Clock, decisions: int = 6) -> Judge:
    """g1 played for ``decisions`` orders mails, then abandoned by the host's mail, every
    mail sent (the outbox drained as the sender would)."""
    judge = _judge(tmp_path, raw, clock)
    rng = random.Random(3)
    for _ in range(decisions):
        state = judge.state("g1")
        seat = rules.pending(state)[0].seat
        doc = {"game": "g1", "seat": seat, "key": KEYS[seat], "step": state.step,
               "orders": rules.bot_orders(state, seat, rng)}
        assert judge.handle_message(player_mail(seat, doc)) == "applied"
        clock.now += timedelta(minutes=5)
    runner = CliRunner()
    out = runner.invoke(main, ["abandon", "-c", str(tmp_path / "config.yaml"), "g1", "--reason", "test"])
    assert out.exit_code == 0, out.output
    judge.store.db.execute("UPDATE outbox SET status = 'sent', sent_at = ?", [clock.now.isoformat()])
    return judge


def _count(path: Path, sql: str, *args: object) -> int:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(sql, args).fetchone()[0]
    finally:
        conn.close()


def test_a_finished_game_moves_to_the_archive_database_and_stays_verifiable(tmp_path: Path) -> None:
    clock = Clock()
    raw = _raw(tmp_path)
    judge = _finished_game(tmp_path, raw, clock)
    live, archive = tmp_path / "pbem.sqlite", tmp_path / "pbem.archive.sqlite"
    events = _count(live, "SELECT count(*) FROM events WHERE game_id = 'g1'")
    sent = _count(live, "SELECT count(*) FROM outbox WHERE game_id = 'g1'")
    mails = _count(live, "SELECT count(*) FROM inbox WHERE game_id = 'g1'")
    assert events > 20 and sent > 10 and mails >= 6

    # 29 days after the end: nothing is due yet
    clock.now += timedelta(days=29)
    judge.tick()
    assert judge.store.game("g1") is not None and not archive.exists()

    # 31 days after: the judge's own tick moves it
    clock.now += timedelta(days=2)
    judge.retention_at = None
    judge.tick()
    assert judge.store.game("g1") is None
    moved = judge.store.moved_game("g1")
    assert moved is not None and moved["status"] == "abandoned" and moved["pruned_at"] is None
    for table in ("events", "seats", "snapshots", "deadlines", "game_tables"):
        assert _count(live, f"SELECT count(*) FROM {table} WHERE game_id = 'g1'") == 0, table
    # the outbox keeps at most the row of the largest id (so no id is given twice), emptied
    assert _count(live, "SELECT count(*) FROM outbox WHERE game_id = 'g1'") <= 1
    assert _count(live, "SELECT coalesce(sum(length(raw)), 0) FROM outbox WHERE game_id = 'g1'") == 0
    assert _count(archive, "SELECT count(*) FROM events WHERE game_id = 'g1'") == events
    assert _count(archive, "SELECT count(*) FROM outbox WHERE game_id = 'g1'") == sent
    # the live inbox keeps the rows (a mail seen is never applied again) without their bytes
    assert _count(live, "SELECT count(*) FROM inbox WHERE game_id = 'g1'") == mails
    assert _count(live, "SELECT coalesce(sum(length(raw)), 0) FROM inbox WHERE game_id = 'g1'") == 0
    assert _count(archive, "SELECT min(length(raw)) FROM inbox WHERE game_id = 'g1'") > 100

    # pbem verify and pbem archive read it from the archive database
    runner = CliRunner()
    out = runner.invoke(main, ["verify", "-c", str(tmp_path / "config.yaml"), "g1"])
    assert out.exit_code == 0 and f"g1: {events} events, hash chain intact" in out.output, out.output
    out = runner.invoke(main, ["archive", "-c", str(tmp_path / "config.yaml"), "g1", str(tmp_path / "html")])
    assert out.exit_code == 0 and (tmp_path / "html" / "index.html").exists(), out.output

    # the config game is not made again at the next start, and its id is not reused
    assert judge.ensure_games() == [] and judge.store.game("g1") is None
    out = runner.invoke(main, ["game", "new", "-c", str(tmp_path / "config.yaml"), "--host", "h@pbem.localhost",
                               *[f"--seat={s}=P <{s}2@pbem.localhost>" for s in SEATS], "g1"])
    assert out.exit_code != 0 and "exists already" in out.output, out.output


def test_raw_mail_is_pruned_only_after_the_move_and_the_log_still_verifies(tmp_path: Path) -> None:
    clock = Clock()
    raw = _raw(tmp_path, {"move_after": "10d", "prune_after": "20d"})
    judge = _finished_game(tmp_path, raw, clock, decisions=4)
    archive = tmp_path / "pbem.archive.sqlite"
    clock.now += timedelta(days=11)
    done = run_retention(judge.store, judge.config, clock.now)
    assert done.moved == ["g1"] and done.pruned == {}
    clock.now += timedelta(days=10)
    done = run_retention(judge.store, judge.config, clock.now)
    assert list(done.pruned) == ["g1"] and done.pruned["g1"] > 10_000
    assert _count(archive, "SELECT coalesce(sum(length(raw)), 0) FROM inbox WHERE game_id = 'g1'") == 0
    assert _count(archive, "SELECT coalesce(sum(length(raw)), 0) FROM outbox WHERE game_id = 'g1'") == 0
    assert _count(archive, "SELECT count(*) FROM blobs WHERE data IS NOT NULL") == 0
    assert judge.store.moved_game("g1")["pruned_at"]
    archived = Store(archive, readonly=True)
    try:
        assert verify_game(archived, "g1").ok
    finally:
        archived.close()
    # a second pass finds nothing to do
    again = run_retention(judge.store, judge.config, clock.now)
    assert not again.moved and not again.pruned


def test_a_game_with_mail_still_waiting_does_not_move(tmp_path: Path) -> None:
    clock = Clock()
    raw = _raw(tmp_path, {"move_after": "1d", "prune_after": None})
    judge = _finished_game(tmp_path, raw, clock, decisions=2)
    judge.store.db.execute("UPDATE outbox SET status = 'pending' WHERE id = (SELECT max(id) FROM outbox)")
    clock.now += timedelta(days=2)
    done = run_retention(judge.store, judge.config, clock.now)
    assert done.moved == [] and "outbox" in done.held["g1"]
    assert judge.store.game("g1") is not None


def test_a_mail_to_a_moved_game_is_answered(tmp_path: Path) -> None:
    clock = Clock()
    raw = _raw(tmp_path, {"move_after": "1d"})
    judge = _finished_game(tmp_path, raw, clock, decisions=2)
    clock.now += timedelta(days=2)
    assert run_retention(judge.store, judge.config, clock.now).moved == ["g1"]
    before = _count(tmp_path / "pbem.sqlite", "SELECT coalesce(max(id), 0) FROM outbox")
    doc = {"game": "g1", "seat": "north", "key": KEYS["north"], "step": 3, "orders": {"movement": "none"}}
    judge.handle_message(player_mail("north", doc))
    rows = judge.store.db.execute("SELECT to_addr, raw, id FROM outbox WHERE id > ?", [before]).fetchall()
    assert len(rows) == 1 and rows[0][0] == "north@pbem.localhost"
    # a new row never takes an id the archive database holds for the moved game
    assert rows[0][2] > _count(tmp_path / "pbem.archive.sqlite", "SELECT max(id) FROM outbox")
    text = message_from_bytes(unpack(rows[0][1]), policy=policy.default).get_body(("plain",)).get_content()
    assert "moved to the judge's archive" in text and "game.over" in text


def test_backup_and_restore_carry_the_archive_database(tmp_path: Path) -> None:
    clock = Clock()
    raw = _raw(tmp_path, {"move_after": "1d"})
    judge = _finished_game(tmp_path, raw, clock, decisions=2)
    clock.now += timedelta(days=2)
    assert run_retention(judge.store, judge.config, clock.now).moved == ["g1"]
    judge.store.close()
    runner = CliRunner()
    cfg = str(tmp_path / "config.yaml")
    out = runner.invoke(main, ["backup", "-c", cfg, str(tmp_path / "b" / "copy.sqlite")])
    assert out.exit_code == 0 and "copy.archive.sqlite" in out.output, out.output
    assert _count(tmp_path / "b" / "copy.archive.sqlite", "SELECT count(*) FROM events WHERE game_id = 'g1'") > 0
    (tmp_path / "pbem.archive.sqlite").unlink()  # the disk lost the archive database
    out = runner.invoke(main, ["restore", "-c", cfg, str(tmp_path / "b" / "copy.sqlite")])
    assert out.exit_code == 0, out.output
    out = runner.invoke(main, ["verify", "-c", cfg, "g1"])
    assert out.exit_code == 0 and "hash chain intact" in out.output, out.output


def test_a_game_that_cannot_move_is_told_to_its_host_in_the_host_language(tmp_path: Path) -> None:
    """Issue 28 (lang28): the host's notice of a game that stays in the live database said
    why in English ("mail of the game still waits in the outbox") inside a notice in the
    host's language."""
    from pbem import i18n

    clock = Clock()
    raw = _raw(tmp_path, {"move_after": "1d", "prune_after": None})
    raw["games"][0]["settings"] = {"host_language": "es"}
    (tmp_path / "config.yaml").write_text(yaml.safe_dump(raw))
    judge = _finished_game(tmp_path, raw, clock, decisions=2)
    judge.store.db.execute("UPDATE outbox SET status = 'pending' WHERE id = (SELECT max(id) FROM outbox)")
    before = judge.store.db.execute("SELECT max(id) FROM outbox").fetchone()[0]
    clock.now += timedelta(days=2)
    judge.retention_tick()
    rows = judge.store.db.execute("SELECT raw FROM outbox WHERE to_addr = 'host@pbem.localhost' AND id > ?",
                                  [before]).fetchall()
    assert len(rows) == 1, rows
    text = " ".join(message_from_bytes(unpack(rows[0][0]), policy=policy.default).get_body(("plain",))
                    .get_content().split())
    es = i18n.translations("es")
    said = es.gettext("mail of the game still waits in the outbox")
    assert said != "mail of the game still waits in the outbox" and said in text, text
    assert "still waits" not in text, text
