"""Every option of every ``pbem`` command says what it does in ``--help`` (issue 13: `-c`
had no help text under status, verify and devmail)."""
from __future__ import annotations

import click

from pbem.cli import main


def _commands(group: click.Group, path: str = "pbem"):
    for name, cmd in group.commands.items():
        yield f"{path} {name}", cmd
        if isinstance(cmd, click.Group):
            yield from _commands(cmd, f"{path} {name}")


def test_every_option_has_help_text() -> None:
    missing = [f"{where} {' / '.join(p.opts)}" for where, cmd in _commands(main) for p in cmd.params
               if isinstance(p, click.Option) and not p.help]
    assert missing == []
