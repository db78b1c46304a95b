"""Issue 24 items 8, 9 and 14 through the real mail path: a game made by `pbem game new`
played by mail (pymap SMTP in, the IMAP poll, the outbox out) past the end of its first
game turn, with the host extending a deadline and pausing and resuming by mail.

Every report mail a seat receives is read back as a player would
(tests/report/reportparse.py): each VP and LP section adds up to the standings, every
change of VP, LP and control since the seat's previous report has its line with its
cause; the report that closes turn 1 is turn 1's; the footer does not promise a map the
config does not attach (``map_attachment: false``); and the seat's history names what
the host did instead of "the game goes on"."""
from __future__ import annotations

import random
import re
from pathlib import Path

import yaml

from pbem import rules
from tests.conftest import ACCOUNTS
from tests.mailservers import start_pymap
from tests.report.reportparse import check_adds_up, check_explained, parse
from tests.service.tablemail import new_table, text

MAX_DECISIONS = 60
"""Enough to close game turn 1 (about 22 decisions) and place the next reinforcements."""


def test_reports_by_mail_explain_every_change(tmp_path: Path) -> None:
    server = start_pymap(tmp_path / "pymap", ACCOUNTS)
    table = None
    try:
        table, host_key = new_table(tmp_path, server)
        host = f"game: g2\nhost: {host_key}\n"
        rng = random.Random(5)
        turn_ended_at = None
        for decisions in range(MAX_DECISIONS):
            state = table.judge.state("g2")
            if decisions == 2:  # the host gives the waited-on seat a day more, then pauses and resumes
                seat = rules.pending(state)[0].seat
                table.send("host@pbem.localhost", host + f"command: extend\nhours: 24\nseat: {seat}\n", "extend")
                table.send("host@pbem.localhost", host + "command: pause\nreason: a holiday\n", "pause")
                assert table.cycle() == ["host", "host"]
                table.send("host@pbem.localhost", host + "command: resume\n", "resume")
                assert table.cycle() == ["host"]
            assert table.play("g2", rng) == "applied", decisions
            if turn_ended_at is None and table.judge.state("g2").turn > state.turn:
                turn_ended_at = state.step
            elif turn_ended_at is not None and decisions > 30:
                break
        assert turn_ended_at is not None
        table.flush()

        reports = table.mails("south", "[g2] step ")
        reports = [m for m in reports if " report: " in str(m["Subject"])]
        assert len(reports) > 20
        prev, explained = None, 0
        for msg in reports:
            body = text(msg)
            assert "map picture is attached" not in body  # map_attachment: false in this config
            assert "is lower)" not in body  # issue 24 item 9: a rating below the dice caps nothing
            got = parse(body)
            check_adds_up(got)
            if prev is not None:
                explained += check_explained(prev, got)
            prev = got
        assert explained > 0
        # the report of the decision that closed turn 1 is turn 1's, its standings turn 2's
        closing = next(m for m in reports if f"[g2] step {turn_ended_at} report" in str(m["Subject"]))
        body = " ".join(text(closing).split())
        assert body.split(". Report for")[0].endswith("Turn 1 (323 BC), round " + body.split("round ")[1][0])
        assert "Turn 1 (323 BC) ends; turn 2 (319 BC) begins (R-6.7)." in body
        assert "STANDINGS - turn 2 (319 BC), turn order phase" in body

        # the history names the host's actions (issue 24 item 14)
        table.send("south@pbem.localhost", yaml.safe_dump({"game": "g2", "seat": "south", "key": table.keys["south"],
                                                           "history": "all"}), "history")
        assert table.cycle() == ["answered"]
        table.flush()
        listing = " ".join(text(table.mails("south", "[g2] history: ")[-1]).split())
        assert "the game goes on" not in listing
        assert re.search(r"the host extended the deadline of (north|east|south|west)", listing), listing
        assert "the host paused the game" in listing and "the host resumed the game" in listing, listing
        # each step with the turn and the round (or phase) it was played in
        assert re.search(r"step +\d+ turn 2, turn order phase: \w+ played", listing), listing
    finally:
        if table is not None:
            table.close()
        server.stop()
