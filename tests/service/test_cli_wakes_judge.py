"""Host commands from the CLI reach the players at once (issue 24, finding 11: 11–30 s
later, by mail under 2 s). `pbem host pause` writes its notices into the outbox from
another process; the running judge's sender sees the database change and sends them,
instead of waiting for its next 30-second pass. Real `pbem run` and the real CLI
against pymap on loopback; the judge's poll interval is long, so no cycle wakes it."""
from __future__ import annotations

import email
import email.policy
import subprocess
import sys
import time
from pathlib import Path

from tests.service.helpers import ROOT, pbem_run, stop, wait_until, write_config

#: the sender's own timed pass comes every 30 s (pbem.service.loop.run_forever); the
#: notice must come well before it, so this wait cannot be met by that pass
BEFORE_THE_TIMED_PASS = 15.0


def _subjects(server, account: str) -> list[str]:  # noqa: ANN001
    return [str(email.message_from_bytes(raw, policy=email.policy.default)["Subject"])
            for raw in server.messages(account)]


def test_a_cli_host_command_is_mailed_without_waiting_for_the_timed_pass(tmp_path: Path, pymap_server) -> None:
    path, _config = write_config(tmp_path, pymap_server, imap={"poll_interval": "10m"})
    judge = pbem_run(path)
    try:
        # the first cycle kicks the sender: the setup mail arrives, and the timed pass is 30 s away
        assert wait_until(lambda: any("[g1]" in s for s in _subjects(pymap_server, "north")), 60)
        host = subprocess.run([sys.executable, str(ROOT / "tests" / "service" / "crashpoints.py"), "host", "pause", "g1",
                               "-c", str(path),
                               "--reason", "a holiday"], capture_output=True, timeout=120, cwd=ROOT, text=True, check=False)
        assert host.returncode == 0, host.stdout + host.stderr
        done = time.monotonic()
        arrived = wait_until(lambda: all(any("paused" in s for s in _subjects(pymap_server, seat))
                                         for seat in ("north", "east", "south", "west")), BEFORE_THE_TIMED_PASS)
        assert arrived, (f"no pause notice {time.monotonic() - done:.1f} s after the CLI returned",
                         _subjects(pymap_server, "north"))
    finally:
        stop(judge)
