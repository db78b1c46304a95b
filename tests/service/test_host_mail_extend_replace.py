"""Host commands by mail that the other tests drive by the CLI (issue 16): `extend`
moves the open deadlines on (the seat's alone with `seat:`), `replace` gives a seat to
a new player with a handover mail and a new key; both logged, `pbem verify` after."""
from __future__ import annotations

import random
from datetime import datetime, timedelta
from pathlib import Path

from pbem import rules
from tests.conftest import ACCOUNTS
from tests.mailservers import start_pymap
from tests.service.tablemail import flat, key_in, new_table


def test_host_extend_and_replace_by_mail(tmp_path: Path) -> None:
    server = start_pymap(tmp_path / "pymap", ACCOUNTS)
    try:
        table, host_key = new_table(tmp_path, server)
        store = table.judge.store
        due = {d["seat"]: datetime.fromisoformat(d["due_at"]) for d in store.open_deadlines("g2")}
        seat = next(iter(due))

        table.send("host@pbem.localhost", f"game: g2\nhost: {host_key}\ncommand: extend\nhours: 12\nseat: {seat}\n",
                   "extend")
        assert table.cycle() == ["host"]
        after = {d["seat"]: datetime.fromisoformat(d["due_at"]) for d in store.open_deadlines("g2")}
        assert after[seat] == due[seat] + timedelta(hours=12)
        assert all(after[s] == t for s, t in due.items() if s != seat)
        moved = [e.data for e in store.events("g2") if e.kind == "DeadlineMoved"]
        assert moved and moved[-1]["seat"] == seat and moved[-1]["why"] == "extend"

        # the old player's standing orders go with the seat; the handover names them
        table.send(f"{seat}@pbem.localhost", f"game: g2\nseat: {seat}\nkey: {table.keys[seat]}\nseq: 1\norders:\n"
                   "  standing:\n    - {when: losses, order: [mercenary, loyal]}\n", "standing")
        assert table.cycle() == ["applied"]
        table.send("host@pbem.localhost", f"game: g2\nhost: {host_key}\ncommand: replace\nseat: {seat}\n"
                   "player: Eumenes <stranger@pbem.localhost>\n", "replace")
        assert table.cycle() == ["host"]
        table.flush()
        receipts = table.mails("host", "Re: replace")
        assert "Eumenes" in flat(receipts[0]) and host_key not in flat(receipts[0])
        handover = table.mails("stranger", f"[g2] handover: your seat {seat}")
        new_key = key_in(handover[0])
        assert "standing orders stay in force" in flat(handover[0]) and "seq: 2" in flat(handover[0])
        assert "mercenary" in flat(handover[0])
        assert new_key != table.keys[seat]
        told = table.mails(seat, f"[g2] your seat {seat} has a new player")
        assert told and new_key not in flat(told[0])
        assert [e.kind for e in store.events("g2")][-1] == "SeatChanged"

        # the new player plays with the new key from the new address; the old key is dead
        table.keys[seat] = new_key
        state = table.judge.state("g2")
        assert rules.pending(state)[0].seat == seat  # the seat with a deadline is the one waited on
        assert table.play("g2", random.Random(5), {seat: "stranger@pbem.localhost"}) == "applied"
        table.close()
        v = table.cli("verify", "g2")
        assert v.exit_code == 0 and "replay equals live state" in v.output, v.output
    finally:
        server.stop()
