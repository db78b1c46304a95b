"""Issue 27's done-when for bots at the table (bot25 item 3): "A whole game by mail with
two people and two bot seats, one of them handed to the bot mid-game after civil
disorder (``civil_disorder: bot``), ends by the rules; ``pbem verify`` and the archive's
verifier pass."

Made by ``pbem game new`` with west the bot's from the start and three people; the
people reply by real mail (SMTP in, the IMAP poll) with random legal orders on their
prompts' steps, as ``pbem demo``'s scripted players do; south goes silent after a few
decisions, misses its deadline (``nmr_limit: 1``) and the bot takes its seat in civil
disorder. From then on two people and two bot seats play to the end. The bot thinks
for two playout rounds (test time; rounds, never a clock: issue 25)."""
from __future__ import annotations

import json
import random
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest

from pbem import rules
from tests.conftest import ACCOUNTS
from tests.mailservers import start_pymap
from tests.service.test_bot_seats import BOT, _bot_table, fold_seats
from tests.service.tablemail import flat

MAX_DECISIONS = 400
"""More than a game has (54 to 110 decisions in the bot games measured)."""
SILENT = "south"
"""The person who goes silent; the bot takes the seat in civil disorder."""


@pytest.mark.timeout(900)  # about 20 s of CPU; 3.5 min of wall time measured on the loaded 2-core machine
def test_a_whole_game_with_two_people_and_two_bot_seats(tmp_path: Path) -> None:
    server = start_pymap(tmp_path / "pymap", ACCOUNTS)
    table = None
    try:
        table, _host_key = _bot_table(tmp_path, server, ["west"], "--setting", "nmr_limit=1",
                                      "--setting", "civil_disorder=bot")
        rng = random.Random(11)
        by_mail, idle = 0, 0
        for _ in range(MAX_DECISIONS):
            state = table.judge.state("g2")
            waiting = rules.pending(state)
            if not waiting:
                break
            seat = waiting[0].seat
            before = state.step
            if seat in fold_seats(table.judge.store):
                table.cycle()  # the judge's own cycle plays the bot's decision
            elif seat == SILENT and by_mail >= 8:
                table.offset[0] += timedelta(hours=80)  # past its 72 h deadline: civil disorder
                table.cycle()
            else:
                assert table.play("g2", rng) == "applied", (seat, state.step)
                by_mail += 1
            idle = idle + 1 if table.judge.state("g2").step == before and rules.pending(table.judge.state("g2")) \
                == waiting else 0
            assert idle < 3, f"the game does not move at step {before} ({seat})"
        state = table.judge.state("g2")
        store = table.judge.store
        assert rules.pending(state) == [] and state.result and state.result["rule"] != "host"  # by the rules
        assert store.game("g2")["status"] == "over"
        events = store.events("g2")
        seated = [(e.data["seat"], e.data["why"]) for e in events if e.kind == "BotSeated"]
        assert seated == [("west", "setup"), (SILENT, "civil_disorder")]
        took = next(e.seq for e in events if e.kind == "BotSeated" and e.data["seat"] == SILENT)
        assert ("CivilDisorderDeclared", SILENT) in [(e.kind, e.data.get("seat")) for e in events]
        orders = [e for e in events if e.kind == "OrdersAccepted"]
        by_seat = {s: [e.data["by"] for e in orders if e.data["seat"] == s] for s in rules.SEATS}
        assert by_seat["west"] and set(by_seat["west"]) == {BOT}  # the log names the bot's orders
        after = [e.data["by"] for e in orders if e.data["seat"] == SILENT and e.seq > took]
        assert after and set(after) == {BOT}
        assert "mail" in [e.data["by"] for e in orders if e.data["seat"] == SILENT and e.seq < took]
        for s in ("north", "east"):
            assert set(by_seat[s]) <= {"mail", "deadline"} and "mail" in by_seat[s]
        assert events[-1].kind == "SeedRevealed"
        seed = store.game("g2")["seed"]
        table.flush()
        winner, how = state.result["winner"], state.result["rule"]
        told = table.mails("north", "[g2] the dice seed")
        assert len(told) == 1 and f"The game is over: {winner}" in flat(told[0]) and f"({how})" in flat(told[0])
        print(f"the game ended at step {state.step}, turn {state.turn}: {winner} wins ({how}); "
              f"{by_mail} decisions by mail, {len(orders) - by_mail} by the bots or defaults")

        v = table.cli("verify", "g2")
        assert v.exit_code == 0 and "re-adjudication equals the log" in v.output, v.output
        out = tmp_path / "archive"
        a = table.cli("archive", "g2", str(out))
        assert a.exit_code == 0, a.output
        meta = json.loads((out / "game.json").read_text())
        assert meta["status"] == "over" and meta["seed"] == seed
        run = subprocess.run([sys.executable, "-I", str(out / "pbem_verify.py"), str(out)], check=False,
                             capture_output=True, text=True, timeout=120)
        assert run.returncode == 0, run.stdout + run.stderr
        log_rows = [json.loads(line) for line in (out / "log.jsonl").read_text().splitlines()]
        bot_rows = [r for r in log_rows if r["kind"] == "OrdersAccepted" and str(r["data"]["by"]).startswith("bot")]
        assert {r["data"]["seat"] for r in bot_rows} == {"west", SILENT}  # the archive names them too
    finally:
        if table is not None:
            table.close()
        server.stop()
