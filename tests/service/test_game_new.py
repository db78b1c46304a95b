"""Issue 16, slice 1: a game made by `pbem game new` (no config edit) lives in the
database, its table is an event in its hash chain, each player gets a welcome with the
seat key through the real mail path, and the player plays with that key; config games
keep working."""
from __future__ import annotations

import email
import email.policy
import random
import re
import smtplib
from datetime import UTC
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import yaml
from click.testing import CliRunner

from pbem import rules
from pbem.cli import main
from pbem.service import make_judge, run_once
from tests.conftest import ACCOUNTS, PLAYERS, SEATS
from tests.mailservers import start_pymap
from tests.service.helpers import wait_until, write_config


def _inbox(server, account: str) -> list[EmailMessage]:
    return [email.message_from_bytes(r, policy=email.policy.default) for r in server.messages(account)]


def _text(msg: EmailMessage) -> str:
    return msg.get_body(("plain",)).get_content()


def test_pbem_game_new_welcomes_each_player_who_then_plays_with_the_mailed_key(tmp_path: Path) -> None:
    server = start_pymap(tmp_path / "pymap", ACCOUNTS)
    try:
        path, config = write_config(tmp_path, server)
        judge, poller = make_judge(config)
        judge.ensure_games()  # the config game g1
        args = ["game", "new", "-c", str(path), "--host", "host@pbem.localhost", "--time-zone", "Europe/Berlin",
                "--setting", "allowed_days=mon-fri", "--setting", "nmr_limit=3"]
        for s in SEATS:
            args += ["--seat", f"{s}={PLAYERS[s]} <{s}@pbem.localhost>"]
        out = CliRunner().invoke(main, [*args, "g2"])
        assert out.exit_code == 0, out.output
        assert "host key" in out.output
        again = CliRunner().invoke(main, [*args, "g2"])
        assert again.exit_code == 1 and "exists already" in again.output
        bad = CliRunner().invoke(main, ["game", "new", "-c", str(path), "--host", "h@x.org",
                                        "--seat", "north=A <a@x.org>", "g3"])
        assert bad.exit_code == 1 and "give each seat" in bad.output

        run_once(judge, poller)
        keys = {}
        for s in SEATS:
            welcome = [m for m in _inbox(server, s) if str(m["Subject"]) == f"[g2] welcome: your seat {s}"]
            assert len(welcome) == 1
            assert welcome[0].get_body(("html",)) is not None
            text = _text(welcome[0])
            assert max(len(line) for line in text.splitlines()) <= 72
            keys[s] = re.search(r"Your seat key is:\s+(\S+)", text).group(1)
        row = judge.store.table_row("g2")
        assert row["origin"] == "cli" and row["settings"]["time_zone"] == "Europe/Berlin"
        assert row["settings"]["allowed_days"] == ["mon", "tue", "wed", "thu", "fri"]
        table_set = [e for e in judge.store.events("g2") if e.kind == "TableSet"]
        assert len(table_set) == 1 and table_set[0].data["seats"]["north"] == PLAYERS["north"]
        assert "pbem.localhost" not in str(table_set[0].data)  # no address in the public log

        state = judge.state("g2")
        seat = rules.pending(state)[0].seat
        doc = {"game": "g2", "seat": seat, "key": keys[seat], "step": state.step,
               "orders": rules.bot_orders(state, seat, random.Random(3))}
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = f"{seat}@pbem.localhost", "judge@pbem.localhost", "orders"
        msg["Message-ID"] = make_msgid(domain="players.test")
        msg.set_content(yaml.safe_dump(doc, sort_keys=False))
        with smtplib.SMTP("127.0.0.1", server.smtp_port) as smtp:
            smtp.send_message(msg)
        assert list(run_once(judge, poller).values()) == ["applied"]
        assert judge.state("g2").step > state.step
        poller.close()
        judge.store.close()
        for gid in ("g1", "g2"):
            v = CliRunner().invoke(main, ["verify", "-c", str(path), gid])
            assert v.exit_code == 0 and "replay equals live state" in v.output, v.output
    finally:
        server.stop()


def _send(server, sender: str, body: str) -> None:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, "judge@pbem.localhost", "host command"
    msg["Message-ID"] = make_msgid(domain="players.test")
    msg.set_content(body)
    with smtplib.SMTP("127.0.0.1", server.smtp_port) as smtp:
        smtp.send_message(msg)


def test_host_pause_resume_extend_status_by_mail_and_cli(tmp_path: Path) -> None:
    """Slice 2: pause by mail freezes the deadlines (a tick after the due time decides
    nothing), resume by mail moves each by the pause's length, extend and status by the
    CLI; a wrong key or address is refused; every command is in the log; verify passes."""
    from datetime import datetime, timedelta

    server = start_pymap(tmp_path / "pymap", ACCOUNTS)
    try:
        path, config = write_config(tmp_path, server)
        args = ["game", "new", "-c", str(path), "--host", "host@pbem.localhost"]
        for s in SEATS:
            args += ["--seat", f"{s}={PLAYERS[s]} <{s}@pbem.localhost>"]
        out = CliRunner().invoke(main, [*args, "g2"])
        assert out.exit_code == 0, out.output
        host_key = re.search(r"host key .*: (\S+)", out.output).group(1)
        judge, poller = make_judge(config)
        offset = [timedelta(0)]  # the judge's clock runs ahead of real time by offset
        judge.clock = lambda: datetime.now(UTC) + offset[0]
        run_once(judge, poller)
        due = {d["seat"]: datetime.fromisoformat(d["due_at"]) for d in judge.store.open_deadlines("g2")}
        assert due

        _send(server, "stranger@pbem.localhost", f"game: g2\nhost: {host_key}\ncommand: pause\n")
        _send(server, "host@pbem.localhost", "game: g2\nhost: not-the-key\ncommand: pause\n")
        assert sorted(run_once(judge, poller).values()) == ["rejected", "rejected"]
        assert judge.store.game("g2")["status"] == "active"

        _send(server, "host@pbem.localhost", f"game: g2\nhost: {host_key}\ncommand: pause\nreason: a holiday\n")
        assert list(run_once(judge, poller).values()) == ["host"]
        assert judge.store.game("g2")["status"] == "paused"
        def host_answers() -> list[str]:
            return [_text(m) for m in _inbox(server, "host") if "Re: host command" in str(m["Subject"])]

        offset[0] += timedelta(seconds=2)  # the outbox sends rows due before this second
        judge.flush_outbox()
        answers = wait_until(lambda: len(host_answers()) >= 2) and host_answers()
        assert len(answers) == 2 and sum("is paused" in a for a in answers) == 1
        assert sum("not from the host of that game" in a for a in answers) == 1
        assert not any(host_key in a for a in answers)
        for s in SEATS:
            told = wait_until(lambda s=s: [m for m in _inbox(server, s) if str(m["Subject"]) == "[g2] the game is paused"])
            assert len(told) == 1 and "a holiday" in _text(told[0])

        offset[0] = max(due.values()) - datetime.now(UTC) + timedelta(hours=5)  # past every deadline
        assert judge.tick() == 0
        assert {d["seat"] for d in judge.store.open_deadlines("g2")} == set(due)

        _send(server, "host@pbem.localhost", f"game: g2\nhost: {host_key}\ncommand: resume\n")
        assert list(run_once(judge, poller).values()) == ["host"]
        assert judge.store.game("g2")["status"] == "active"
        resumed = next(e for e in judge.store.events("g2") if e.kind == "GameResumed")
        pause = timedelta(seconds=resumed.data["paused_seconds"])
        assert pause >= timedelta(hours=5)
        moved = {d["seat"]: datetime.fromisoformat(d["due_at"]) for d in judge.store.open_deadlines("g2")}
        assert moved == {s: t + pause for s, t in due.items()}
        poller.close()
        judge.store.close()

        seat = next(iter(due))
        ext = CliRunner().invoke(main, ["host", "-c", str(path), "--hours", "24", "--seat", seat, "extend", "g2"])
        assert ext.exit_code == 0, ext.output
        st = CliRunner().invoke(main, ["host", "-c", str(path), "status", "g2"])
        assert st.exit_code == 0 and f"waiting for {seat}" in st.output, st.output
        again = CliRunner().invoke(main, ["host", "-c", str(path), "resume", "g2"])
        assert again.exit_code == 1 and "not paused" in again.output
        rep = CliRunner().invoke(main, ["host", "-c", str(path), "--seat", seat, "--player",
                                        "Eumenes <stranger@pbem.localhost>", "replace", "g2"])
        assert rep.exit_code == 0 and "Eumenes" in rep.output, rep.output
        from pbem.store import Store

        store = Store(config.database, readonly=True)
        kinds = [e.kind for e in store.events("g2")]
        assert [k for k in kinds if k in ("GamePaused", "GameResumed", "HostActed")] == \
            ["GamePaused", "GameResumed", "HostActed"]
        assert kinds.count("DeadlineMoved") == len(due) + 1
        after = {d["seat"]: datetime.fromisoformat(d["due_at"]) for d in store.open_deadlines("g2")}
        assert after[seat] == moved[seat] + timedelta(hours=24)
        assert next(r for r in store.seats("g2") if r["seat"] == seat)["email"] == "stranger@pbem.localhost"
        assert kinds[-1] == "SeatChanged"
        store.close()
        judge, poller = make_judge(config)
        run_once(judge, poller)
        handover = wait_until(lambda: [m for m in _inbox(server, "stranger")
                                       if str(m["Subject"]) == f"[g2] handover: your seat {seat}"])
        assert len(handover) == 1
        new_key = re.search(r"Your seat key is:\s+(\S+)", _text(handover[0])).group(1)
        assert wait_until(lambda: [m for m in _inbox(server, "stranger") if "your move" in str(m["Subject"])])
        state = judge.state("g2")
        doc = {"game": "g2", "seat": seat, "key": new_key, "step": state.step,
               "orders": rules.bot_orders(state, seat, random.Random(3))}
        _send(server, "stranger@pbem.localhost", yaml.safe_dump(doc, sort_keys=False))
        assert list(run_once(judge, poller).values()) == ["applied"]
        waited = rules.pending(judge.state("g2"))[0].seat
        poller.close()
        judge.store.close()
        res = CliRunner().invoke(main, ["host", "-c", str(path), "--seat", waited, "resend", "g2"])
        assert res.exit_code == 0 and "sent again" in res.output, res.output
        store = Store(config.database, readonly=True)
        assert [e.data for e in store.events("g2") if e.kind == "HostActed"][-1] == {"command": "resend",
                                                                                    "seat": waited}
        assert store.db.execute("SELECT count(*) FROM outbox WHERE kind = 'prompt' AND subject LIKE ?",
                                [f"%your move, {waited}"]).fetchone()[0] >= 2
        store.close()
        v = CliRunner().invoke(main, ["verify", "-c", str(path), "g2"])
        assert v.exit_code == 0 and "replay equals live state" in v.output, v.output
    finally:
        server.stop()
