"""Issue 24, finding 13: a player gets the game's archive by mail, through the real mail
path (SMTP in, the IMAP poll, the outbox out). During the game ``command: archive``
answers with its public part as a zip (no seed, no private data, no key: the verifier
checks the chain and the witness, and a receipt's orders digest is "private until the
game ends", not a failure); the seed mail at the end carries the whole archive, and
``command: archive`` after the end sends the same files, byte for byte those of
``pbem archive``. Each is checked with the command line the mail gives, run as a player
runs it."""
from __future__ import annotations

import io
import random
import re
import shlex
import subprocess
import zipfile
from email.message import EmailMessage
from pathlib import Path

import yaml

from pbem.service.commands.seat.archive import PER_HOUR
from tests.conftest import ACCOUNTS, SEATS
from tests.mailservers import start_pymap
from tests.service.tablemail import Table, flat, new_table, text
from tests.verifier.bare import run_verifier

HOST = "host@pbem.localhost"
FILES = ["README.txt", "game.json", "log.jsonl", "pbem_verify.py"]


def _zip(msg: EmailMessage) -> tuple[str, bytes]:
    """(file name, bytes) of the one zip attached to ``msg``."""
    parts = [p for p in msg.iter_attachments() if p.get_content_type() == "application/zip"]
    assert len(parts) == 1, [p.get_content_type() for p in msg.iter_attachments()]
    return parts[0].get_filename(), parts[0].get_content()


def _unzip(data: bytes, where: Path) -> dict[str, bytes]:
    """Unzip ``data`` into ``where``; {file name in its folder: bytes}."""
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        names = zf.namelist()
        assert all(n.startswith("g2-archive/") for n in names), names
        zf.extractall(where)
        return {n.split("/", 1)[1]: zf.read(n) for n in names}


def _check(msg: EmailMessage, where: Path, *extra: str) -> subprocess.CompletedProcess:
    """Run the verifier command line the mail gives (``python3 g2-archive/...``, its
    lines joined by their backslashes), as a player pastes it into a shell, in the
    folder the zip was unzipped into."""
    body = text(msg)
    start = body.index("  python3 g2-archive/")
    lines = body[start:].split("\n")
    n = next(i for i, x in enumerate(lines) if not x.endswith("\\"))
    argv = shlex.split("\n".join(lines[: n + 1]).replace("\\\n", ""))
    assert all(len(x.split()) == 1 for x in lines[1: n + 1]), lines[: n + 1]  # one word a line: never re-wrapped
    assert argv[:3] == ["python3", "g2-archive/pbem_verify.py", "g2-archive"], argv
    assert any(a.startswith("--witness=") for a in argv) and any(a.startswith("--commitment=") for a in argv)
    return run_verifier(where / "g2-archive", *argv[3:], *extra, cwd=where,
                        script=where / "g2-archive" / "pbem_verify.py")


def _ask(table: Table, seat: str, subject: str, n: int = 1) -> None:
    body = yaml.safe_dump({"game": "g2", "seat": seat, "key": table.keys[seat], "command": "archive"}, sort_keys=False)
    for _ in range(n):
        table.send(f"{seat}@pbem.localhost", body, subject)


def test_a_seat_gets_the_archive_by_mail_during_and_after_the_game(tmp_path: Path) -> None:
    server = start_pymap(tmp_path / "pymap", ACCOUNTS)
    try:
        table, host_key = new_table(tmp_path, server)
        rng = random.Random(24)
        for _ in range(4):
            assert table.play("g2", rng) == "applied"
        table.flush()
        receipts = [m for s in SEATS for m in table.inbox(s) if "accepted" in text(m).split("\n")[0]]
        digest = re.search(r"SHA-256 is below;.*?\n\s+([0-9a-f]{64})", text(receipts[0]), re.DOTALL).group(1)
        seed = table.judge.store.game("g2")["seed"]

        # during the game: the public part, nothing secret
        _ask(table, "north", "archive please")
        assert table.cycle() == ["answered"]
        table.flush()
        reply = table.mails("north", "Re: archive please")[0]
        name, data = _zip(reply)
        assert name == "g2-archive.zip"
        files = _unzip(data, tmp_path / "running")
        assert sorted(files) == FILES
        blob = b"".join(files.values())
        assert seed.encode() not in blob and not any(k.encode() in blob for k in table.keys.values())
        log = [yaml.safe_load(x) for x in files["log.jsonl"].decode().splitlines()]
        assert all(r["data"] is None for r in log if not r["public"]) and any(not r["public"] for r in log)
        assert yaml.safe_load(files["game.json"])["seed"] is None
        assert "still running" in flat(reply) and "private until the game ends" in flat(reply)
        out = _check(reply, tmp_path / "running", "--orders", digest)
        assert out.returncode == 0, out.stdout + out.stderr
        assert "OK: hash chain intact" in out.stdout and "OK: witness " in out.stdout
        assert f"note: orders document {digest[:12]}… is not checked yet: orders documents are private until the " \
               "game ends" in out.stdout

        # the host ends the game: every seat's seed mail carries the whole archive
        table.send(HOST, f"game: g2\nhost: {host_key}\ncommand: end\nwinner: east\nreason: conceded\n", "end")
        assert table.cycle() == ["host"]
        table.flush()
        finals = {}
        for s in SEATS:
            seed_mail = table.mails(s, "[g2] the dice seed")[0]
            assert seed in text(seed_mail)
            finals[s] = _unzip(_zip(seed_mail)[1], tmp_path / "over" / s)
            assert all(len(x) <= 72 or len(x.split()) == 1 for x in text(seed_mail).splitlines())
        assert len({tuple(f.items()) for f in finals.values()}) == 1  # every seat the same archive
        seed_mail = table.mails("north", "[g2] the dice seed")[0]
        out = _check(seed_mail, tmp_path / "over" / "north", "--orders", digest)
        assert out.returncode == 0, out.stdout + out.stderr
        for ok in ("OK: hash chain intact", "OK: the seed matches the commitment", "OK: every private event",
                   f"OK: orders document {digest[:12]}… is in the log", "OK: witness "):
            assert ok in out.stdout, (ok, out.stdout)
        assert re.search(r"OK: \d+ rolls \(\d+ dice\) and \d+ shuffles recomputed", out.stdout), out.stdout

        # after the end `command: archive` still answers, with the same files as `pbem archive`
        _ask(table, "north", "archive again")
        assert table.cycle() == ["answered"]
        table.flush()
        again = _unzip(_zip(table.mails("north", "Re: archive again")[0])[1], tmp_path / "again")
        cli = table.cli("archive", "g2", str(tmp_path / "site"))
        assert cli.exit_code == 0, cli.output
        for name in ("log.jsonl", "game.json", "pbem_verify.py"):
            assert again[name] == finals["north"][name] == (tmp_path / "site" / name).read_bytes(), name
        assert "is over" in flat(table.mails("north", "Re: archive again")[0])

        # at most PER_HOUR an hour: the next one is refused, saying why
        _ask(table, "north", "more", n=PER_HOUR - 1)
        assert table.cycle() == ["answered"] * (PER_HOUR - 2) + ["rejected"]
        table.flush()
        refused = [m for m in table.mails("north", "Re: more", PER_HOUR - 1) if "command.rate" in flat(m)]
        assert len(refused) == 1 and "at most 5 times an hour" in flat(refused[0])
        assert not list(refused[0].iter_attachments())
        table.close()
    finally:
        server.stop()
