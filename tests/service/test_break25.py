"""The low findings of issue 25's break-it passes, each through the real mail path:

- ``extend`` and ``resume`` across a daylight-saving change keep the local time (24 h
  moved 13:00 CET to 14:00 CEST; a host means the same wall-clock time a day later);
- the inbox row of a command refused only for a stale ``seq:`` names that, not
  ``envelope.unknown_key`` (the command's own keys, which are allowed);
- an address change ``to: a@x, b@y`` is refused naming both (the first was taken
  without a word);
- the judge's own address with a ``+tag`` is refused as a seat's new address;
- a 5xx for the confirmation code of an address change is told to the seat and the
  host, and the request closed (the player waited for a code that never came);
- a seat's mail whose From: display name decodes to CR LF is answered (it was ignored,
  unanswered), and the answer carries no header made of the name.
"""
from __future__ import annotations

import base64
import re
import smtplib
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path
from types import SimpleNamespace
from zoneinfo import ZoneInfo

from pbem.service import Judge
from pbem.service.play import setup as table_mod
from pbem.store import Store
from tests.conftest import ACCOUNTS, KEYS, PLAYERS, SEATS, player_mail
from tests.mailservers import start_pymap
from tests.service import cmdmail
from tests.service.helpers import FaultySMTP, text_of, write_config
from tests.service.tablemail import flat, new_table

MADRID = ZoneInfo("Europe/Madrid")


def _madrid(*args: int) -> datetime:
    """A local time in Madrid as an aware UTC datetime."""
    return datetime(*args, tzinfo=MADRID).astimezone(UTC)


def _dst_table(tmp_path: Path, server, now: datetime, due: datetime):
    """A ``pbem game new`` game g2 in Europe/Madrid whose clock reads ``now`` and whose
    open deadline is ``due``; the table, the host key and the seat."""
    table, host_key = new_table(tmp_path, server, extra=("--time-zone", "Europe/Madrid"))
    table.offset[0] = now - datetime.now(UTC)
    store = table.judge.store
    [open_deadline] = store.open_deadlines("g2")
    with store.transaction():
        store.move_deadline("g2", open_deadline["step"], open_deadline["seat"], due.isoformat())
    return table, host_key, open_deadline["seat"]


def _due(table, seat: str) -> datetime:
    return datetime.fromisoformat(next(d["due_at"] for d in table.judge.store.open_deadlines("g2")
                                       if d["seat"] == seat))


def test_extend_across_a_daylight_saving_change_keeps_the_local_time(tmp_path: Path) -> None:
    server = start_pymap(tmp_path / "pymap", ACCOUNTS)
    try:
        # Saturday 27 March 2027, 13:00 CET; summer time starts that night (28 March, 02:00)
        table, host_key, seat = _dst_table(tmp_path, server, _madrid(2027, 3, 27, 9), _madrid(2027, 3, 27, 13))
        table.send("host@pbem.localhost", f"game: g2\nhost: {host_key}\ncommand: extend\nhours: 24\n", "extend")
        assert table.cycle() == ["host"]
        table.flush()
        assert _due(table, seat) == _madrid(2027, 3, 28, 13)  # 13:00 CEST, 23 h later: the same local time
        told = flat(table.mails(seat, "deadline")[-1])
        assert "2027-03-28 13:00 CEST" in told, told
        table.close()
    finally:
        server.stop()


def test_resume_after_a_pause_across_a_daylight_saving_change_keeps_the_local_time(tmp_path: Path) -> None:
    server = start_pymap(tmp_path / "pymap", ACCOUNTS)
    try:
        # due Tuesday 30 March 13:00 CEST; paused Saturday 27 March 11:00 CET, resumed Monday 29 March 11:00
        # CEST: two days on the clock, 47 hours elapsed
        table, host_key, seat = _dst_table(tmp_path, server, _madrid(2027, 3, 27, 11), _madrid(2027, 3, 30, 13))
        table.send("host@pbem.localhost", f"game: g2\nhost: {host_key}\ncommand: pause\n", "pause")
        assert table.cycle() == ["host"]
        table.offset[0] = _madrid(2027, 3, 29, 11) - datetime.now(UTC)
        table.send("host@pbem.localhost", f"game: g2\nhost: {host_key}\ncommand: resume\n", "resume")
        assert table.cycle() == ["host"]
        table.flush()
        # Thursday 13:00 CEST, not 12:00 (to the seconds the mails took to handle)
        assert abs(_due(table, seat) - _madrid(2027, 4, 1, 13)) < timedelta(minutes=1), _due(table, seat)
        resumed = flat(table.mails(seat, "resumes")[-1])
        assert re.search(r"now due 2027-04-01 (12:59|13:00) CEST", resumed), resumed
        table.close()
    finally:
        server.stop()


def test_a_command_refused_for_a_stale_seq_is_recorded_as_such(tmp_path: Path) -> None:
    m = cmdmail.start(tmp_path)
    try:
        keys = cmdmail.new_game(m, "g2")
        east = {"game": "g2", "seat": "east", "key": keys["east"]}
        m.send("east", {**east, "seq": 2, "orders": {"standing": []}})
        assert list(m.cycle().values()) == ["applied"]
        m.send("east", {**east, "command": "absence", "from": "2030-01-01", "to": "2030-01-02", "seq": 1})
        assert list(m.cycle().values()) == ["rejected"]
        (reason,) = m.judge.store.db.execute("SELECT reason FROM inbox ORDER BY id DESC LIMIT 1").fetchone()
        assert reason == "envelope.stale_seq"
        assert "code: envelope.stale_seq" in cmdmail.text(m.mails("east", "Re: command")[-1])
    finally:
        m.close()


def test_an_address_change_to_two_addresses_is_refused_naming_both(tmp_path: Path) -> None:
    m = cmdmail.start(tmp_path)
    try:
        keys = cmdmail.new_game(m, "g2")
        m.send("east", {"game": "g2", "seat": "east", "key": keys["east"], "command": "address",
                        "to": "newhome@pbem.localhost, stranger@pbem.localhost"})
        assert list(m.cycle().values()) == ["rejected"]
        answer = " ".join(cmdmail.text(m.mails("east", "Re: command")[-1]).split())
        assert "names 2 addresses (newhome@pbem.localhost, stranger@pbem.localhost)" in answer, answer
        assert not list(m.judge.store.db["address_changes"].rows)
        assert not [x for x in m.inbox("newhome") if "confirm" in str(x["Subject"])]
    finally:
        m.close()


def test_the_judges_address_with_a_tag_is_refused_as_a_new_address(tmp_path: Path) -> None:
    m = cmdmail.start(tmp_path)
    try:
        keys = cmdmail.new_game(m, "g2")
        m.send("east", {"game": "g2", "seat": "east", "key": keys["east"], "command": "address",
                        "to": "Me <Judge+east@pbem.localhost>"})
        assert list(m.cycle().values()) == ["rejected"]
        answer = " ".join(cmdmail.text(m.mails("east", "Re: command")[-1]).split())
        assert "the judge's own address with a tag" in answer, answer
        assert not list(m.judge.store.db["address_changes"].rows)
    finally:
        m.close()


def test_a_refused_confirmation_code_is_told_to_the_seat_and_the_host(tmp_path: Path) -> None:
    ghost = "ghost@pbem.localhost"
    smtp = FaultySMTP(refuse={ghost}).start()
    try:
        _path, config = write_config(tmp_path, SimpleNamespace(imap_port=1, smtp_port=smtp.port))
        judge = Judge(config, Store(config.database))
        judge.ensure_games()
        made = table_mod.new_game(judge, "g2", [table_mod.NewSeat(s, PLAYERS[s], f"{s}@pbem.localhost")
                                                for s in SEATS], host_email="host@pbem.localhost", settings={})
        judge.flush_outbox()
        doc = {"game": "g2", "seat": "east", "key": made.keys["east"], "command": "address",
               "to": f"Ghost <{ghost}>"}
        assert judge.handle_message(player_mail("east", doc)) == "answered"
        judge.flush_outbox()  # the code to the ghost: 550 5.1.1
        judge.flush_outbox()  # what that causes
        assert smtp.refused_tries.count(ghost) == 1
        east = [text_of(raw) for raw in smtp.to("east@pbem.localhost")]
        told = [" ".join(t.split()) for t in east if "could not be delivered" in t]
        assert len(told) == 1 and ghost in told[0] and "550 5.1.1" in told[0], east
        host = [" ".join(text_of(raw).split()) for raw in smtp.to("host@pbem.localhost")]
        assert any("Seat east of g2" in t and ghost in t and "confirmation" in t for t in host), host
        (status,) = judge.store.db.execute("SELECT status FROM address_changes").fetchone()
        assert status == "undeliverable"
        assert [r["email"] for r in judge.store.seats("g2") if r["seat"] == "east"] == ["east@pbem.localhost"]
        assert not judge.store.bouncing_seats()
    finally:
        smtp.stop()


def test_a_seat_mail_whose_name_decodes_to_a_line_break_is_answered(tmp_path: Path) -> None:
    m = cmdmail.start(tmp_path)
    try:
        name = "=?utf-8?b?" + base64.b64encode(b"\r\n\r\nX-Injected: 1\r\n\r\nPHISH").decode() + "?="
        msg = EmailMessage()
        msg["To"], msg["Subject"], msg["Message-ID"] = "judge@pbem.localhost", "help", make_msgid(domain="p.test")
        msg.set_content("game: g1\nseat: east\nkey: " + KEYS["east"] + "\ncommand: help\n")
        raw = f"From: {name} <east@pbem.localhost>\r\n".encode() + msg.as_bytes()
        with smtplib.SMTP("127.0.0.1", m.server.smtp_port) as smtp:
            smtp.sendmail("east@pbem.localhost", ["judge@pbem.localhost"], raw)
        assert list(m.cycle().values()) == ["answered"]
        answer = m.mails("east", "Re: help")[-1]
        assert "Help for seat east" in cmdmail.text(answer)
        assert "X-Injected" not in answer and len(answer.get_all("To")) == 1, list(answer.items())
        raw = m.server.messages("east")[-1].replace(b"\r\n", b"\n")
        assert not re.search(rb"^(X-Injected|PHISH)", raw.split(b"\n\n", 1)[0], re.MULTILINE), raw[:600]
    finally:
        m.close()
