"""Deadlines around the rules (issue 16) with a controllable clock and no mail server:
grace (late orders taken inside it, the default after it), late notices (who gets
what), NMR counts and civil disorder (the host notice, leaving it by orders or by a new
player), a pause moved off an excluded weekday, prompts and host status in the game's
local time. After each, ``pbem verify`` passes."""
from __future__ import annotations

import email
import email.policy
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

import yaml
from click.testing import CliRunner

from pbem import i18n, rules
from pbem.cli import main
from pbem.config import load_config
from pbem.service import Judge
from pbem.service.commands import host_commands
from pbem.service.play import deadlines
from pbem.service.play.setup import NewSeat, new_game
from pbem.store import Store
from tests.conftest import HASHES, KEYS, PLAYERS, SEATS, player_mail

START = datetime(2026, 12, 7, 8, 0, tzinfo=UTC)  # Monday 09:00 CET


def _judge(tmp_path: Path, start: datetime = START, **settings: object) -> tuple[Judge, list[datetime], Path]:
    raw = {
        "judge": {"address": "judge@pbem.localhost"},
        "database": str(tmp_path / "pbem.sqlite"),
        "map_attachment": False,
        "deadlines": {"player_turn": "48h", "reaction": "24h", "reminder": "12h"},
        "games": [{"id": "g1", "host_email": "host@pbem.localhost", "options": {},
                   "settings": {"time_zone": "Europe/Berlin", **settings}, "seats": [
                       {"seat": s, "player": PLAYERS[s], "email": f"{s}@pbem.localhost", "key_hash": HASHES[s]}
                       for s in SEATS]}],
    }
    path = tmp_path / "config.yaml"
    path.write_text(yaml.safe_dump(raw, sort_keys=False))
    config = load_config(path)
    judge = Judge(config, Store(config.database))
    now = [start]
    judge.clock = lambda: now[0]
    judge.ensure_games()
    return judge, now, path


def _mails(judge: Judge) -> list[tuple[str, str, str]]:
    """(to, subject, text) of every queued mail, in order."""
    out = []
    for row in judge.store.db["outbox"].rows_where(order_by="id"):
        msg = email.message_from_bytes(judge.store.outbox_row(row["id"])["raw"], policy=email.policy.default)
        part = msg.get_body(("plain",))
        out.append((row["to_addr"], row["subject"], part.get_content() if part else ""))
    return out


def _waited(judge: Judge, game: str = "g1") -> tuple[str, dict]:
    seat = rules.pending(judge.state(game))[0].seat
    return seat, judge.store.deadline(game, judge.state(game).step, seat)


def _orders(judge: Judge, seat: str, game: str = "g1", key: str | None = None) -> str:
    state = judge.state(game)
    doc = {"game": game, "seat": seat, "key": key or KEYS[seat], "step": state.step,
           "orders": rules.bot_orders(state, seat, random.Random(1))}
    return judge.handle_message(player_mail(seat, doc))


def _verify(judge: Judge, path: Path, game: str = "g1") -> None:
    judge.store.close()
    v = CliRunner().invoke(main, ["verify", "-c", str(path), game])
    assert v.exit_code == 0 and "replay equals live state" in v.output, v.output


def test_grace_late_notice_to_every_seat_then_late_orders_taken_then_the_default(tmp_path: Path) -> None:
    judge, now, path = _judge(tmp_path, grace="6h")
    seat, row = _waited(judge)
    due = datetime.fromisoformat(row["due_at"])
    assert due == START + timedelta(hours=48)  # Wednesday 09:00 CET: an allowed day
    prompt = [m for m in _mails(judge) if m[0] == f"{seat}@pbem.localhost" and "your move" in m[1]][-1]
    assert "2026-12-09 09:00 CET (08:00 UTC)" in prompt[2]
    before = len(_mails(judge))
    now[0] = due - timedelta(minutes=1)
    assert judge.tick() == 0 and not any("late" in m[1] for m in _mails(judge)[before:])
    now[0] = due + timedelta(minutes=1)
    assert judge.tick() == 0  # at the deadline: the late notice, no default (the grace runs)
    assert judge.tick() == 0  # once
    late = [m for m in _mails(judge)[before:] if "late" in m[1]]
    assert sorted(m[0] for m in late) == sorted(f"{s}@pbem.localhost" for s in SEATS)
    assert all(m[1] == f"[g1] step {row['step']}: {seat} late" for m in late)
    assert all(f"no orders yet from {seat}" in " ".join(m[2].split())
               and "orders taken until 2026-12-09 15:00 CET (14:00 UTC)" in m[2] for m in late)
    assert all(max(len(line) for line in m[2].splitlines()) <= 72 for m in late)
    # late orders inside the grace are taken
    now[0] = due + timedelta(hours=5)
    assert _orders(judge, seat) == "applied"
    assert not [e for e in judge.store.events("g1") if e.kind == "DecisionMissed"]
    # the next seat sends nothing: at its deadline + grace the default is played
    nxt, row2 = _waited(judge)
    due2 = datetime.fromisoformat(row2["due_at"])
    now[0] = due2 + timedelta(hours=6) - timedelta(seconds=1)
    assert judge.tick() == 0
    now[0] = due2 + timedelta(hours=6)
    step = judge.state("g1").step
    assert judge.tick() == 1
    missed = [e.data for e in judge.store.events("g1") if e.kind == "DecisionMissed"]
    assert missed == [{"seat": nxt, "step": step, "missed": 1, "total": 1}]
    # orders for the decided step come too late: refused (the step moved on)
    if not any(d.seat == nxt for d in rules.pending(judge.state("g1"))):
        doc = {"game": "g1", "seat": nxt, "key": KEYS[nxt], "step": step, "orders": {}}
        assert judge.handle_message(player_mail(nxt, doc)) == "rejected"
    status = i18n.localize(host_commands.run(judge, "g1", "status").text)
    assert f"{nxt}: 1 in all, 1 in a row" in status
    assert all(f"{s}: 0 in all, 0 in a row" in status for s in SEATS if s != nxt)
    assert "CET (" in status and "waited on since" in status
    _verify(judge, path)


def test_without_grace_the_default_comes_at_the_deadline_and_no_late_notice(tmp_path: Path) -> None:
    judge, now, path = _judge(tmp_path)
    _seat, row = _waited(judge)
    now[0] = datetime.fromisoformat(row["due_at"])
    before = len(_mails(judge))
    assert judge.tick() == 1
    assert not any("late" in m[1] for m in _mails(judge)[before:])
    _verify(judge, path)


def test_civil_disorder_after_n_misses_then_defaults_at_once_until_the_seat_sends_orders(tmp_path: Path) -> None:
    judge, now, path = _judge(tmp_path, nmr_limit=2)
    fallen = None
    for _ in range(40):  # nobody sends orders: each deadline passes
        seat, row = _waited(judge)
        now[0] = max(now[0], datetime.fromisoformat(row["due_at"]))
        assert judge.tick() >= 1
        declared = [e.data for e in judge.store.events("g1") if e.kind == "CivilDisorderDeclared"]
        if declared:
            fallen = declared[0]["seat"]
            break
    assert fallen is not None and declared == [{"seat": fallen, "missed": 2}]
    missed = [e.data for e in judge.store.events("g1") if e.kind == "DecisionMissed" and e.data["seat"] == fallen]
    assert [m["missed"] for m in missed] == [1, 2]
    mails = _mails(judge)
    told = [m for m in mails if m[1] == f"[g1] {fallen} falls into civil disorder"]
    assert sorted(m[0] for m in told) == sorted(f"{s}@pbem.localhost" for s in SEATS)
    hostnote = [m for m in mails if m[0] == "host@pbem.localhost" and "civil disorder" in m[1]]
    # g1 is a config game: replace refuses it, so the host is told to change the config (break16)
    assert len(hostnote) == 1 and "games[].seats[] of g1" in " ".join(hostnote[0][2].split())
    assert "pbem host replace" not in hostnote[0][2]
    status = i18n.localize(host_commands.run(judge, "g1", "status").text)
    assert f"{fallen}: 2 in all, 2 in a row, in civil disorder" in status
    # from now on the fallen seat's decisions are due at once
    for _ in range(40):
        seat, row = _waited(judge)
        if seat == fallen:
            break
        now[0] = max(now[0], datetime.fromisoformat(row["due_at"]))
        judge.tick()
    assert seat == fallen and datetime.fromisoformat(row["due_at"]) == now[0]
    assert judge.tick() == 1  # no waiting for a deadline
    for _ in range(40):
        seat, row = _waited(judge)
        if seat == fallen:
            break
        now[0] = max(now[0], datetime.fromisoformat(row["due_at"]))
        judge.tick()
    # its player sends valid orders: out of civil disorder, the in-a-row count starts again
    assert _orders(judge, fallen) == "applied"
    back = [e.data for e in judge.store.events("g1") if e.kind == "SeatReturned"]
    assert back == [{"seat": fallen, "was_in_disorder": True, "by": "orders"}]
    assert sorted(m[0] for m in _mails(judge) if m[1] == f"[g1] {fallen} is back") == \
        sorted(f"{s}@pbem.localhost" for s in SEATS)
    recs, _ = deadlines.table(judge, "g1")
    assert not recs[fallen].disorder and recs[fallen].in_a_row == 0 and recs[fallen].total == 3
    _verify(judge, path)


def test_a_new_player_takes_a_seat_in_civil_disorder_out_of_it(tmp_path: Path) -> None:
    judge, now, path = _judge(tmp_path)
    made = new_game(judge, "g2", [NewSeat(s, PLAYERS[s], f"{s}@pbem.localhost") for s in SEATS],
                    host_email="host@pbem.localhost", settings={"nmr_limit": 1, "time_zone": "America/New_York",
                                                                   "allowed_days": "mon,tue"})
    seat, row = _waited(judge, "g2")
    # the first deadline keeps to the game's settings: Monday 03:00 EST + 48 h is a
    # Wednesday, not allowed: the next Monday
    assert deadlines.shown(judge, "g2", row["due_at"]) == "2026-12-14 03:00 EST (08:00 UTC)"
    assert any("2026-12-14 03:00 EST (08:00 UTC)" in m[2] for m in _mails(judge)
               if m[0] == f"{seat}@pbem.localhost" and "[g2]" in m[1] and "your move" in m[1])
    now[0] = datetime.fromisoformat(row["due_at"])
    assert judge.tick() >= 1
    assert [e.data["seat"] for e in judge.store.events("g2") if e.kind == "CivilDisorderDeclared"] == [seat]
    host_commands.run(judge, "g2", "replace", seat=seat, player="Zoe <zoe@pbem.localhost>")
    back = [e.data for e in judge.store.events("g2") if e.kind == "SeatReturned"]
    assert back == [{"seat": seat, "was_in_disorder": True, "by": "replace"}]
    recs, _ = deadlines.table(judge, "g2")
    assert not recs[seat].disorder
    assert made.game_id == "g2"
    _verify(judge, path, "g2")


def test_resume_moves_a_deadline_off_an_excluded_weekday_same_local_time(tmp_path: Path) -> None:
    judge, now, path = _judge(tmp_path, allowed_days="mon-fri")
    seat, row = _waited(judge)
    due = datetime.fromisoformat(row["due_at"])
    assert due == START + timedelta(hours=48)  # Wednesday 09:00 CET
    host_commands.run(judge, "g1", "pause", reason="a holiday")
    now[0] = START + timedelta(days=3)  # three days' pause: Wednesday + 3 days = Saturday
    assert judge.tick() == 0
    host_commands.run(judge, "g1", "resume")
    moved = judge.store.deadline("g1", row["step"], seat)["due_at"]
    assert datetime.fromisoformat(moved) == datetime(2026, 12, 14, 8, 0, tzinfo=UTC)  # Monday 09:00 CET
    ev = [e.data for e in judge.store.events("g1") if e.kind == "DeadlineMoved"]
    assert ev == [{"due": moved, "seat": seat, "step": row["step"], "why": "pause"}]
    _verify(judge, path)


def test_the_first_prompt_keeps_to_the_allowed_days_and_the_local_time_across_dst(tmp_path: Path) -> None:
    # Monday 09:00 CET + 48 h is a Wednesday, not allowed: the next Monday, 09:00 CET
    judge, _now, path = _judge(tmp_path, allowed_days="mon,tue")
    seat, row = _waited(judge)
    assert datetime.fromisoformat(row["due_at"]) == datetime(2026, 12, 14, 8, 0, tzinfo=UTC)
    prompt = [m for m in _mails(judge) if m[0] == f"{seat}@pbem.localhost" and "your move" in m[1]][-1]
    assert "2026-12-14 09:00 CET (08:00 UTC)" in prompt[2]
    _verify(judge, path)


def test_a_deadline_across_the_end_of_summer_time_keeps_its_local_time(tmp_path: Path) -> None:
    # Saturday 24 October 2026 18:00 CEST + 48 h: Monday 26 October 18:00 CET (49 h later)
    start = datetime(2026, 10, 24, 16, 0, tzinfo=UTC)
    judge, now, path = _judge(tmp_path, start=start)
    seat, row = _waited(judge)
    due = datetime.fromisoformat(row["due_at"])
    assert due == datetime(2026, 10, 26, 17, 0, tzinfo=UTC) and due - start == timedelta(hours=49)
    prompt = [m for m in _mails(judge) if m[0] == f"{seat}@pbem.localhost" and "your move" in m[1]][-1]
    assert "2026-10-26 18:00 CET (17:00 UTC)" in prompt[2]
    now[0] = due - timedelta(hours=1)  # 48 h of elapsed time: not yet
    assert judge.tick() == 0
    now[0] = due
    assert judge.tick() == 1
    _verify(judge, path)
