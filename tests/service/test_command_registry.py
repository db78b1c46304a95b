"""The command registry (issue 26.2; docs/pipeline.md, "Adding a command"): every
command has its help and its section in the player's or the host's guide (in the
manner of sqlite-utils' tests/test_docs.py), a duplicate name is an error, and the
mail path and ``pbem host`` offer exactly the registry's commands."""
from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest

from pbem.cli import main
from pbem.service.commands.catalogue import REGISTRY
from pbem.service.commands.registry import (
    KINDS,
    DuplicateCommand,
    Field,
    Guide,
    HostCommand,
    Limit,
    MailRequest,
    Registry,
    SeatCommand,
    Who,
)
from pbem.service.commands.seat import help as help_cmd

DOCS = Path(__file__).resolve().parents[2] / "docs"
COMMANDS = list(REGISTRY)


def _section(page: str, heading: str) -> str | None:
    """The text of the ``## heading`` (or ``###``) section of ``docs/page``, None when
    there is no such heading."""
    text = (DOCS / page).read_text()
    found = re.search(rf"^(#{{2,3}}) {re.escape(heading)}\s*$", text, re.MULTILINE)
    if found is None:
        return None
    rest = text[found.end():]
    end = re.search(rf"^#{{2,{len(found.group(1))}}} ", rest, re.MULTILINE)
    return rest[:end.start()] if end else rest


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: f"{c.who}-{c.name}")
def test_every_command_has_its_help(command) -> None:
    assert command.help.strip() and command.help.rstrip().endswith("."), command.name
    assert all(f.help.strip() and f.kind in KINDS for f in command.fields), command.name


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: f"{c.who}-{c.name}")
def test_every_command_has_its_section_in_a_guide(command) -> None:
    expected = "host-guide.md" if command.who is Who.HOST else "player-guide.md"
    assert command.guide.page == expected, command.name
    section = _section(command.guide.page, command.guide.section)
    assert section is not None, f"docs/{command.guide.page} has no section {command.guide.section!r}"
    name = re.escape(command.name)
    assert re.search(rf"command: {name}\b|`{name}\b|\*\*{name}\*\*|^{name}:", section, re.MULTILINE), (
        f"docs/{command.guide.page}, {command.guide.section!r}, does not name {command.name}")


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: f"{c.who}-{c.name}")
def test_every_field_is_named_in_the_guide(command) -> None:
    section = _section(command.guide.page, command.guide.section) or ""
    whole = (DOCS / command.guide.page).read_text()
    for f in command.fields:
        pattern = rf"`{re.escape(f.name)}[:`]|^{re.escape(f.name)}:|--{f.name.replace('_', '-')}\b"
        assert re.search(pattern, section, re.MULTILINE) or re.search(pattern, whole, re.MULTILINE), (command.name, f.name)


def test_a_duplicate_name_is_an_error_and_a_name_may_serve_two_senders() -> None:
    seat = next(c for c in COMMANDS if isinstance(c, SeatCommand))
    with pytest.raises(DuplicateCommand):
        Registry([seat, seat])
    with pytest.raises(DuplicateCommand):
        Registry([*COMMANDS, seat])
    assert REGISTRY.seat("resend") is not None and REGISTRY.host("resend") is not None
    assert REGISTRY.seat("resend") is not REGISTRY.host("resend")


def test_a_field_of_no_kind_is_an_error() -> None:
    with pytest.raises(ValueError, match="no kind"):
        Field("hours", "duration", "how long")


def test_the_registry_finds_each_command_by_sender_and_name() -> None:
    assert REGISTRY.seat("pause") is None and REGISTRY.host("help") is None
    assert REGISTRY.seat(["help"]) is None and REGISTRY.host(None) is None
    assert REGISTRY.names(Who.HOST) == ("status", "pause", "resume", "extend", "replace", "approve", "resend", "end",
                                        "rollback", "observers", "webhook")
    assert set(REGISTRY.names(Who.SEAT)) == {"help", "resend", "absence", "address", "preferences", "press",
                                             "archive", "status", "propose", "vote"}
    assert {REGISTRY.request(n).name for n in ("join", "history", "confirm", "standby", "take")} == {
        "join", "history", "confirm", "standby", "take"}
    with pytest.raises(KeyError):
        REGISTRY.request("pause")
    assert REGISTRY.seat("help") is help_cmd.COMMAND
    # issue 29: `command: NAME` from any address, without a seat key
    assert {n: REGISTRY.open_command(n).who for n in ("observe", "leave", "record", "help")} == dict.fromkeys(
        ("observe", "leave", "record", "help"), Who.ANYONE)
    assert REGISTRY.open_command("pause") is None and REGISTRY.open_command("join") is None


def test_each_kind_says_who_sends_it_and_what_it_logs() -> None:
    for c in COMMANDS:
        assert isinstance(c, SeatCommand | HostCommand | MailRequest)
        assert c.who in Who
        assert isinstance(c.logs, tuple) and all(re.fullmatch(r"[A-Z][A-Za-z]+", k) for k in c.logs)
        assert c.limit is None or (isinstance(c.limit, Limit) and c.limit.most > 0 and c.limit.per > timedelta(0))
        assert isinstance(c.guide, Guide)
    assert REGISTRY.request("join").who is Who.ANYONE


def test_pbem_host_offers_exactly_the_registrys_host_commands() -> None:
    host = main.commands["host"]
    choice = next(p for p in host.params if p.name == "command")
    assert tuple(choice.type.choices) == REGISTRY.names(Who.HOST)
