"""``command: absence`` (issue 16): through the real mail path (SMTP in, the IMAP poll,
the reply out) a deadline inside the absence moves after it; without a mail server
(a controllable clock): deadlines started during an absence are set after it, the
absence limit, absences in the past, overlapping ones, bad dates, cancel. After each,
``pbem verify`` passes."""
from __future__ import annotations

import email
import email.policy
import smtplib
from datetime import UTC, date, datetime, timedelta
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path
from zoneinfo import ZoneInfo

import yaml
from click.testing import CliRunner

from pbem import rules
from pbem.cli import main
from pbem.config import load_config
from pbem.service import make_judge, run_once
from tests.conftest import ACCOUNTS, KEYS, SEATS, player_mail
from tests.mailservers import start_pymap
from tests.service.helpers import wait_until, write_config
from tests.service.test_deadlines_table import _judge, _mails, _orders, _verify, _waited

BERLIN = ZoneInfo("Europe/Berlin")


def _command(seat: str, **keys: object) -> bytes:
    return player_mail(seat, {"game": "g1", "seat": seat, "key": KEYS[seat], "command": "absence", **keys})


def test_absence_by_mail_moves_the_open_deadline_after_it_and_the_reply_names_it(tmp_path: Path) -> None:
    server = start_pymap(tmp_path / "pymap", ACCOUNTS)
    try:
        path, _config = write_config(tmp_path, server)
        raw = yaml.safe_load(path.read_text())
        raw["games"][0]["settings"] = {"time_zone": "Europe/Berlin", "absence_limit_days": 5}
        path.write_text(yaml.safe_dump(raw, sort_keys=False))
        judge, poller = make_judge(load_config(path))
        offset = [timedelta(0)]
        judge.clock = lambda: datetime.now(UTC) + offset[0]
        judge.ensure_games()
        run_once(judge, poller)
        state = judge.state("g1")
        seat = rules.pending(state)[0].seat
        due = datetime.fromisoformat(judge.store.deadline("g1", state.step, seat)["due_at"])
        day = due.astimezone(BERLIN).date()
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = f"{seat}@pbem.localhost", "judge@pbem.localhost", "away"
        msg["Message-ID"] = make_msgid(domain="players.test")
        msg.set_content(f"game: g1\nseat: {seat}\nkey: {KEYS[seat]}\ncommand: absence\n"
                        f"from: {day - timedelta(days=1)}\nto: {day + timedelta(days=1)}\n")
        with smtplib.SMTP("127.0.0.1", server.smtp_port) as smtp:
            smtp.send_message(msg)
        assert wait_until(lambda: "answered" in run_once(judge, poller).values())
        local_due = due.astimezone(BERLIN)
        expected = datetime.combine(day + timedelta(days=2), local_due.time(), BERLIN).astimezone(UTC)
        moved = datetime.fromisoformat(judge.store.deadline("g1", state.step, seat)["due_at"])
        assert moved == expected
        events = [e for e in judge.store.events("g1") if e.kind in ("AbsenceDeclared", "DeadlineMoved")]
        assert [e.kind for e in events] == ["AbsenceDeclared", "DeadlineMoved"]
        assert events[0].data["days"] == 3 and events[1].data == {"due": moved.isoformat(), "seat": seat,
                                                                 "step": state.step, "why": "absence"}
        offset[0] += timedelta(seconds=2)
        judge.flush_outbox()

        def reply() -> list[EmailMessage]:
            msgs = [email.message_from_bytes(r, policy=email.policy.default) for r in server.messages(seat)]
            return [m for m in msgs if str(m["Subject"]) == "Re: away"]
        assert wait_until(lambda: len(reply()) == 1)
        text = reply()[0].get_body(("plain",)).get_content()
        flat = " ".join(text.split())
        shown = f"{expected.astimezone(BERLIN):%Y-%m-%d %H:%M %Z}"
        assert "is recorded" in flat and "2 of the 5 days" in flat and f"now due {shown}" in flat
        assert max(len(line) for line in text.splitlines()) <= 72
        assert reply()[0].get_body(("html",)) is not None
        poller.close()
        judge.store.close()
        v = CliRunner().invoke(main, ["verify", "-c", str(path), "g1"])
        assert v.exit_code == 0 and "replay equals live state" in v.output, v.output
    finally:
        server.stop()


def test_deadlines_started_during_an_absence_are_set_after_it(tmp_path: Path) -> None:
    judge, now, path = _judge(tmp_path, absence_limit_days=10)  # Monday 7 December 2026, 09:00 CET
    seat, _row = _waited(judge)
    for s in SEATS:  # everyone away Tuesday 8 to Thursday 10 December
        assert judge.handle_message(_command(s, **{"from": "2026-12-08", "to": "2026-12-10"})) == "answered"
    end = datetime(2026, 12, 10, 23, 0, tzinfo=UTC)  # Friday 00:00 CET
    assert datetime.fromisoformat(judge.store.deadline("g1", judge.state("g1").step, seat)["due_at"]) >= end
    now[0] += timedelta(hours=1)
    assert _orders(judge, seat) == "applied"
    nxt, row = _waited(judge)
    # started Monday 10:00 CET + 48 h = Wednesday 10:00, inside: Friday 11 December 10:00 CET
    assert datetime.fromisoformat(row["due_at"]) == datetime(2026, 12, 11, 9, 0, tzinfo=UTC)
    prompt = [m for m in _mails(judge) if m[0] == f"{nxt}@pbem.localhost" and "your move" in m[1]][-1]
    assert "2026-12-11 10:00 CET (09:00 UTC)" in prompt[2]
    _verify(judge, path)


def test_the_absence_limit_past_overlapping_bad_and_cancelled_absences(tmp_path: Path) -> None:
    judge, now, path = _judge(tmp_path, absence_limit_days=4)
    # a seat with no open deadline: an absence that moves one keeps its days even when
    # cancelled (break16), which is not what this test counts (the seat waited on
    # depends on the game's random seed: the test failed on a CI run)
    waited = {d["seat"] for d in judge.store.open_deadlines("g1")}
    seat = next(s for s in SEATS if s not in waited)
    before = len(_mails(judge))

    def last_reply() -> str:
        return " ".join([m for m in _mails(judge) if m[0] == f"{seat}@pbem.localhost"][-1][2].split())

    assert judge.handle_message(_command(seat, **{"from": "2026-12-09", "to": "2026-12-11"})) == "answered"
    assert "1 of the 4 days" in last_reply()
    assert judge.handle_message(_command(seat, **{"from": "2026-12-20", "to": "2026-12-21"})) == "rejected"
    assert "needs 2 days but 1 of the 4 days" in last_reply() and "command.absence_limit" in last_reply()
    assert judge.handle_message(_command(seat, **{"from": "2026-12-01", "to": "2026-12-02"})) == "rejected"
    assert "command.absence_past" in last_reply() and "from today on" in last_reply()
    assert judge.handle_message(_command(seat, **{"from": "2026-12-11", "to": "2026-12-11"})) == "rejected"
    assert "command.absence_overlap" in last_reply() and "cancel: true" in last_reply()
    assert judge.handle_message(_command(seat, **{"from": "next week", "to": "2026-12-11"})) == "rejected"
    assert "command.absence_dates" in last_reply() and "from: 2026-12-10" in last_reply()
    assert judge.handle_message(_command(seat, **{"from": "2026-12-11", "to": "2026-12-10"})) == "rejected"
    assert "before it begins" in last_reply()
    # a date-time in local time
    assert judge.handle_message(_command(seat, **{"from": "2026-12-14 08:00", "to": "2026-12-14 20:00"})) \
        == "answered"
    assert "0 of the 4 days" in last_reply()
    assert judge.handle_message(_command(seat, cancel=True)) == "answered"
    assert "4 of the 4 days" in last_reply()
    assert judge.handle_message(_command(seat, cancel=True)) == "rejected"
    # an absence under way, cancelled: its days so far stay counted
    assert judge.handle_message(_command(seat, **{"from": "2026-12-07", "to": "2026-12-08"})) == "answered"
    now[0] = datetime(2026, 12, 7, 12, 0, tzinfo=UTC)
    assert judge.handle_message(_command(seat, cancel=True)) == "rejected"  # a copy of the first cancel
    assert "command.repeat" in last_reply() and "seq: 1" in last_reply()
    assert judge.handle_message(_command(seat, cancel=True, seq=1)) == "answered"  # on purpose (issue 25.8)
    assert "3 of the 4 days" in last_reply()
    declared = [e.data for e in judge.store.events("g1") if e.kind == "AbsenceDeclared"]
    assert declared[-1] == {"seat": seat, "from": "2026-12-07T00:00:00+01:00", "to": now[0].isoformat(),
                            "days": 1, "cancel": True}
    replies = _mails(judge)[before:]
    assert all(max(len(line) for line in m[2].splitlines()) <= 72 for m in replies)
    assert date(2026, 12, 7).weekday() == 0
    _verify(judge, path)
