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
from tests.service.helpers import write_config


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
