"""The welcome comes first (issue 24, finding 12): a game made by `pbem game new`
mailed its setup report and first prompt before the welcome that carries the key, and
a config game sent no welcome at all though the player guide promises one. A config
game's seats have key hashes only, so its welcome says everything but the key, which
the host sent. Real pymap and aiosmtpd on loopback, the CLI for `pbem game new`."""
from __future__ import annotations

import email
import email.policy
from pathlib import Path

from pbem.service import make_judge, run_once
from tests.conftest import ACCOUNTS, KEYS, SEATS
from tests.mailservers import start_pymap
from tests.service.helpers import text_of, wait_until, write_config
from tests.service.tablemail import new_table


def _subjects(server, account: str) -> list[str]:  # noqa: ANN001
    return [str(email.message_from_bytes(r, policy=email.policy.default)["Subject"]) for r in server.messages(account)]


def test_a_new_games_welcome_with_the_key_comes_before_its_first_report_and_prompt(tmp_path: Path) -> None:
    server = start_pymap(tmp_path / "pymap", ACCOUNTS)
    try:
        table, _host_key = new_table(tmp_path, server)
        for seat in SEATS:
            subjects = _subjects(server, seat)
            assert subjects[0] == f"[g2] welcome: your seat {seat}", subjects
            flat = " ".join(text_of(server.messages(seat)[0]).split())
            assert "Rule options: none" in flat and "command: help" in flat and "docs/player-guide.md" not in flat
        table.close()
    finally:
        server.stop()


def test_a_config_game_welcomes_each_player_first_without_the_key(tmp_path: Path, pymap_server) -> None:
    """... and (issue 24 item G) names the rule options in force, and sends the player to
    `command: help` for the guide, not to docs/ the player does not have."""
    _path, config = write_config(tmp_path, pymap_server, options={"capitals": True, "ask_windows": True})
    judge, poller = make_judge(config)
    try:
        judge.ensure_games()
        run_once(judge, poller)
        for seat in SEATS:
            assert wait_until(lambda seat=seat: len(_subjects(pymap_server, seat)) >= 2)
            subjects = _subjects(pymap_server, seat)
            assert subjects[0] == f"[g1] welcome: your seat {seat}", subjects
            welcome = text_of(pymap_server.messages(seat)[0])
            assert KEYS[seat] not in welcome
            assert "host@pbem.localhost" in welcome and "key" in welcome and f"seat: {seat}" in welcome
            flat = " ".join(welcome.split())
            assert "Rule options in force: capitals: true (R-1.4" in flat and "ask_windows: true (R-9.3" in flat
            assert "command: help" in flat and "docs/player-guide.md" not in flat
        run_once(judge, poller)
        assert all(len([s for s in _subjects(pymap_server, seat) if "welcome" in s]) == 1 for seat in SEATS)
    finally:
        poller.close()
