"""The systemd units in contrib/ (issue 30, item 5) call pbem with options pbem has: each
`pbem …` command line of an ExecStart is parsed by the CLI itself, so a renamed option
breaks this test, not a host's server."""
from __future__ import annotations

import re
import shlex
from pathlib import Path

import click

from pbem.cli import main

CONTRIB = Path(__file__).resolve().parent.parent / "contrib"


def _pbem_lines() -> list[list[str]]:
    out = []
    for unit in sorted(CONTRIB.glob("*.service")):
        text = unit.read_text().replace("\\\n", " ")
        for line in re.findall(r"^ExecStart=(.*)$", text, re.M):
            for m in re.finditer(r"/opt/pbem/\.venv/bin/pbem ([^;&|']*)", line):
                out.append(shlex.split(re.sub(r"\$\([^)]*\)", "STAMP", m.group(1))))
    return out


def test_every_pbem_command_in_the_units_parses() -> None:
    lines = _pbem_lines()
    assert len(lines) == 3  # run, status --check, backup
    flags = {opt for p in main.params for opt in p.opts}
    for args in lines:
        lead = [a for a in args[: next(i for i, a in enumerate(args) if not a.startswith("-"))]]
        assert set(lead) <= flags, args  # the group's own options (--log-json, -v)
        name, *rest = args[len(lead):]
        cmd = main.get_command(click.Context(main), name)
        assert isinstance(cmd, click.Command), args
        cmd.make_context(name, rest)  # raises click.UsageError on an unknown option or a missing argument


def test_the_units_run_as_the_pbem_user_and_restart_on_failure() -> None:
    text = (CONTRIB / "pbem.service").read_text()
    assert "User=pbem" in text and "Restart=on-failure" in text and "--log-json run" in text
