"""How long a host command given by the CLI takes to reach the players (issue 24,
finding 11): a real `pbem run` with the embedded mail server, then `pbem host pause`
and `pbem host resume` in turn from another process; each figure is the time from the
CLI's return to the notice in a seat's maildir.

    python benchmarks/cli_wake.py [--root CHECKOUT] [--times 6]

``--root`` runs another checkout's code (e.g. an export of `main`) for comparison.
Measured, never asserted.
"""
from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

from pbem.devmail import free_ports
from pbem.keys import hash_key

SEATS = ("north", "east", "south", "west")
CLI = "import sys; from pbem.cli import main; main(sys.argv[1:], prog_name='pbem')"


def _config(root: Path) -> Path:
    smtp, imap = free_ports(2)
    accounts = {"judge": "jpw", "host": "hpw", **{s: "pw" for s in SEATS}}
    raw = {"judge": {"address": "judge@pbem.localhost"}, "database": str(root / "pbem.sqlite"),
           "map_attachment": False,
           "imap": {"host": "127.0.0.1", "port": imap, "user": "judge", "password": "jpw", "tls": "none",
                    "poll_interval": "60s"},
           "smtp": {"host": "127.0.0.1", "port": smtp, "tls": "none"},
           "devmail": {"enabled": True, "maildir": str(root / "mail"), "accounts": accounts},
           "games": [{"id": "g1", "host_email": "host@pbem.localhost", "seats": [
               {"seat": s, "player": s.title(), "email": f"{s}@pbem.localhost",
                "key_hash": hash_key(f"{s}-key", iterations=1000)} for s in SEATS]}]}
    path = root / "config.yaml"
    path.write_text(yaml.safe_dump(raw))
    return path


def _count(root: Path, account: str) -> int:
    return sum(len(list((root / "mail" / account / d).glob("*"))) for d in ("new", "cur")
               if (root / "mail" / account / d).exists())


def measure(code_root: Path, times: int) -> list[float]:
    """Seconds from each CLI host command's return to its notice in north's maildir."""
    env = {**os.environ, "PYTHONPATH": str(code_root), "PYTHONUNBUFFERED": "1"}
    out: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        config = _config(root)
        log = open(root / "run.log", "wb")  # noqa: SIM115 - the child writes it
        judge = subprocess.Popen([sys.executable, "-c", CLI, "run", "-c", str(config)], env=env, cwd=code_root,
                                 stdout=log, stderr=subprocess.STDOUT)
        try:
            end = time.monotonic() + 60
            while _count(root, "north") < 2 and time.monotonic() < end:  # setup report and prompt
                time.sleep(0.1)
            for i in range(times):
                before = _count(root, "north")
                command = "pause" if i % 2 == 0 else "resume"
                subprocess.run([sys.executable, "-c", CLI, "host", command, "g1", "-c", str(config)], env=env,
                               cwd=code_root, check=True, capture_output=True)
                done = time.monotonic()
                while _count(root, "north") == before and time.monotonic() - done < 90:
                    time.sleep(0.05)
                out.append(time.monotonic() - done)
        finally:
            judge.send_signal(signal.SIGTERM)
            judge.wait(60)
            log.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[1])
    parser.add_argument("--times", type=int, default=6)
    args = parser.parse_args()
    delays = measure(args.root.resolve(), args.times)
    print(f"{args.root}: " + ", ".join(f"{d:.1f}" for d in delays)
          + f" s; median {statistics.median(delays):.1f} s, max {max(delays):.1f} s")


if __name__ == "__main__":
    main()
