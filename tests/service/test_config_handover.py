"""Issue 24 item D (the second hand-played game): editing a config game's seat address
and restarting the judge gave the new address nothing. Through the real mail path: the
new address gets what `command: replace` gives — a handover with a new key, the
history so far, the standing orders in force and the prompt waiting — the old address
is told and refused from then on, the change is in the log, and a second restart with
the same config changes nothing more."""
from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import yaml

from pbem import rules
from pbem.config import load_config
from pbem.service import make_judge
from tests.conftest import KEYS
from tests.service.cmdmail import start, text


def _restart(m, path: Path) -> None:
    """``pbem run`` again on the edited config: a new judge and poller on the same database."""
    m.poller.close()
    m.judge.store.close()
    m.judge, m.poller = make_judge(load_config(path))
    offset = m.offset
    m.judge.clock = lambda: datetime.now(UTC) + offset[0]
    m.judge.ensure_games()
    m.cycle()


def test_a_config_seat_given_a_new_address_gets_the_handover(tmp_path: Path) -> None:
    m = start(tmp_path)
    try:
        seat = rules.pending(m.judge.state("g1"))[0].seat  # the seat the game waits for
        raw = yaml.safe_load(m.path.read_text())
        row = next(s for s in raw["games"][0]["seats"] if s["seat"] == seat)
        row["player"], row["email"] = "Newcomer", "newhome@pbem.localhost"
        m.path.write_text(yaml.safe_dump(raw, sort_keys=False))
        _restart(m, m.path)

        handover = m.mails("newhome", f"handover: your seat {seat}")
        assert len(handover) == 1
        body = text(handover[0])
        key = re.search(r"Your seat key is:\s+(\S+)", body).group(1)
        assert key != KEYS[seat]
        flat = " ".join(body.split())
        assert "you take over the seat" in flat and "standing orders" in flat
        assert "HISTORY" in body.upper() and "setup" in flat.lower()  # the history so far
        assert "docs/player-guide.md" not in body and "command: help" in flat
        prompt = m.mails("newhome", "step")  # the prompt that waits for the seat
        assert any(f"seat {seat}" in text(p) or seat in str(p["Subject"]) for p in prompt)
        told = m.mails(seat, "new player")
        assert "no longer works" in " ".join(text(told[0]).split())
        changed = [e for e in m.judge.store.events("g1") if e.kind == "SeatChanged"]
        assert len(changed) == 1 and {"address", "key"} <= set(changed[0].data["changed"])

        # the new key works from the new address; the old address is refused, with its old key
        m.send("newhome", {"game": "g1", "seat": seat, "key": key, "command": "help"})
        m.send(seat, {"game": "g1", "seat": seat, "key": KEYS[seat], "command": "help"})
        assert sorted(m.cycle().values()) == ["answered", "rejected"]
        assert any(f"Help for seat {seat}" in text(x) for x in m.mails("newhome", "Re: command"))

        # a second restart on the same config: nothing more changes, the judge's key stays
        _restart(m, m.path)
        assert len([e for e in m.judge.store.events("g1") if e.kind == "SeatChanged"]) == 1
        assert len(m.mails("newhome", "handover")) == 1
        m.send("newhome", {"game": "g1", "seat": seat, "key": key, "command": "help"})
        assert list(m.cycle().values()) == ["answered"]
    finally:
        m.close()
