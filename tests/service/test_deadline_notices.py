"""Deadline changes are mailed to the seats whose deadline moved, with the new time
(issue 24, finding 10: `extend` told the player nothing, so the prompt's old deadline
stood; a resumed pause of under a minute said "moved on by the pause (0 h 00 min)"
while the deadline moved). Host commands by mail to a judge at a real mail table."""
from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

from pbem.service.play import deadlines
from tests.conftest import ACCOUNTS
from tests.mailservers import start_pymap
from tests.service.tablemail import flat, new_table


def test_extend_mails_the_seat_its_new_deadline_and_a_short_pause_is_told_exactly(tmp_path: Path) -> None:
    server = start_pymap(tmp_path / "pymap", ACCOUNTS)
    try:
        table, host_key = new_table(tmp_path, server)
        store = table.judge.store
        due = {d["seat"]: datetime.fromisoformat(d["due_at"]) for d in store.open_deadlines("g2")}
        seat = next(iter(due))
        others = [s for s in ("north", "east", "south", "west") if s != seat]

        table.send("host@pbem.localhost", f"game: g2\nhost: {host_key}\ncommand: extend\nhours: 12\nseat: {seat}\n",
                   "extend")
        assert table.cycle() == ["host"]
        table.flush()
        new = due[seat] + timedelta(hours=12)
        told = table.mails(seat, "deadline")
        assert told, [str(m["Subject"]) for m in table.inbox(seat)]
        text = flat(told[-1])
        assert deadlines.shown(table.judge, "g2", new) in text and deadlines.shown(table.judge, "g2", due[seat]) in text
        assert "12 h" in text
        assert all(not [m for m in table.inbox(s) if "deadline" in str(m["Subject"])] for s in others), \
            "only the seat whose deadline moved is told"

        table.send("host@pbem.localhost", f"game: g2\nhost: {host_key}\ncommand: pause\nreason: tea\n", "pause")
        assert table.cycle() == ["host"]
        table.offset[0] += timedelta(seconds=40)  # a pause of well under a minute
        table.send("host@pbem.localhost", f"game: g2\nhost: {host_key}\ncommand: resume\n", "resume")
        assert table.cycle() == ["host"]
        table.flush()
        paused = [e.data["paused_seconds"] for e in store.events("g2") if e.kind == "GameResumed"][-1]
        assert 40 <= paused < 60
        resumed = flat(table.mails(seat, "resumes")[-1])
        assert "0 h 00 min" not in resumed and f"{paused} s" in resumed, resumed
        moved = datetime.fromisoformat(store.deadline("g2", table.judge.state("g2").step, seat)["due_at"])
        assert moved == new + timedelta(seconds=paused)
        assert deadlines.shown(table.judge, "g2", moved) in resumed
        receipt = flat(table.mails("host", "Re: resume")[-1])
        assert f"{paused} s" in receipt and "0 h 00 min" not in receipt
        table.close()
    finally:
        server.stop()
