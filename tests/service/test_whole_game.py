"""Issue 16, Done-when: "A whole game can be created, played, paused, have a player
replaced and finish without editing any file by hand (a test drives it through mail and
CLI)". Created by `pbem game new`, every decision answered by mail (bot orders, real SMTP
in and the IMAP poll), paused and resumed by the host's mail, a player replaced by `pbem
host replace`, played to its end by the rules; then `pbem verify` and the archive with
its standalone verifier."""
from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

from pbem import rules
from tests.conftest import ACCOUNTS, SEATS
from tests.mailservers import start_pymap
from tests.service.tablemail import flat, key_in, new_table

MAX_DECISIONS = 400
"""More than a game has (a game of Successors ends after its last turn; 54 to 70
decisions in the bot games of tests/test_service_playout.py)."""


def test_a_whole_game_by_mail_and_cli(tmp_path: Path) -> None:
    server = start_pymap(tmp_path / "pymap", ACCOUNTS)
    table = None
    try:
        table, host_key = new_table(tmp_path, server)
        rng = random.Random(2)
        addresses = {s: f"{s}@pbem.localhost" for s in SEATS}
        host = f"game: g2\nhost: {host_key}\n"
        decisions = 0
        for _ in range(MAX_DECISIONS):
            if not rules.pending(table.judge.state("g2")):
                break
            if decisions == 3:  # the host pauses by mail; orders are still taken while paused
                table.send("host@pbem.localhost", host + "command: pause\nreason: a holiday\n", "pause")
                assert table.cycle() == ["host"]
                assert table.judge.store.game("g2")["status"] == "paused"
                assert table.play("g2", rng, addresses) == "applied"
                decisions += 1
                table.send("host@pbem.localhost", host + "command: resume\n", "resume")
                assert table.cycle() == ["host"]
                assert table.judge.store.game("g2")["status"] == "active"
            if decisions == 6:  # a player leaves: the host replaces east by the CLI
                out = table.cli("host", "--seat", "east", "--player", "Eumenes <stranger@pbem.localhost>",
                                "replace", "g2")
                assert out.exit_code == 0, out.output
                table.flush()
                handover = table.mails("stranger", "[g2] handover: your seat east")
                assert len(handover) == 1
                table.keys["east"] = key_in(handover[0])
                addresses["east"] = "stranger@pbem.localhost"
            assert table.play("g2", rng, addresses) == "applied", decisions
            decisions += 1
        state = table.judge.state("g2")
        assert rules.pending(state) == [] and state.result and state.result["rule"] != "host"  # by the rules
        store = table.judge.store
        assert store.game("g2")["status"] == "over"
        kinds = [e.kind for e in store.events("g2")]
        for kind in ("TableSet", "GamePaused", "GameResumed", "SeatChanged", "SeedRevealed"):
            assert kind in kinds, kind
        assert kinds[-1] == "SeedRevealed"
        table.flush()
        seed = store.game("g2")["seed"]
        winner = state.result["winner"]
        player = next(r["player"] for r in store.seats("g2") if r["seat"] == winner)
        said = f"The game is over: {winner} ({player}) wins by"  # issue 24 item G: the winner and how
        for account in ("north", "south", "west", "stranger"):
            told = table.mails(account, "[g2] the dice seed")
            assert len(told) == 1 and seed in flat(told[0]), account
            assert said in flat(told[0]) and f"({state.result['rule']})" in flat(told[0]), flat(told[0])
        over = table.mails("host", "[g2] host notice: game over")  # the host is told too
        assert len(over) == 1 and said in flat(over[0]) and "pbem verify g2" in flat(over[0])
        for s in SEATS:
            assert table.mails(s, "[g2] the game is paused") and table.mails(s, "[g2] the game resumes")
        assert table.mails("east", "[g2] your seat east has a new player")

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
        assert (out / "index.html").exists() and decisions > 20
    finally:
        if table is not None:
            table.close()
        server.stop()
