"""Players' commands by mail (issue 16): through real SMTP in, the IMAP poll and the
reply out, with the same envelope checks as orders."""
from __future__ import annotations

import email
import email.policy
import smtplib
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

from click.testing import CliRunner

from pbem import rules
from pbem.cli import main
from pbem.service import make_judge, run_once
from tests.conftest import ACCOUNTS, KEYS
from tests.mailservers import start_pymap
from tests.service.helpers import wait_until, write_config


def _inbox(server, account: str) -> list[EmailMessage]:
    return [email.message_from_bytes(r, policy=email.policy.default) for r in server.messages(account)]


def _send(server, sender: str, body: str, subject: str = "command") -> None:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, "judge@pbem.localhost", subject
    msg["Message-ID"] = make_msgid(domain="players.test")
    msg.set_content(body)
    with smtplib.SMTP("127.0.0.1", server.smtp_port) as smtp:
        smtp.send_message(msg)


def test_resend_sends_the_pending_prompt_again_and_refuses_unknown_commands(tmp_path: Path) -> None:
    server = start_pymap(tmp_path / "pymap", ACCOUNTS)
    try:
        _path, config = write_config(tmp_path, server)
        judge, poller = make_judge(config)
        offset = [timedelta(0)]
        judge.clock = lambda: datetime.now(UTC) + offset[0]
        judge.ensure_games()
        run_once(judge, poller)
        offset[0] += timedelta(seconds=2)  # the outbox sends rows due up to the judge's clock
        judge.flush_outbox()
        seat = rules.pending(judge.state("g1"))[0].seat
        other = next(s for s in KEYS if s != seat)
        prompts = lambda: [m for m in _inbox(server, seat) if "your move" in str(m["Subject"])]
        assert wait_until(lambda: len(prompts()) == 1)

        _send(server, f"{seat}@pbem.localhost", f"game: g1\nseat: {seat}\nkey: {KEYS[seat]}\ncommand: resend\n")
        _send(server, f"{other}@pbem.localhost", f"game: g1\nseat: {other}\nkey: {KEYS[other]}\ncommand: resend\n")
        _send(server, f"{other}@pbem.localhost", f"game: g1\nseat: {other}\nkey: {KEYS[other]}\ncommand: dance\n")
        _send(server, "stranger@pbem.localhost", f"game: g1\nseat: {seat}\nkey: wrong\ncommand: resend\n")
        assert sorted(run_once(judge, poller).values()) == ["answered", "rejected", "rejected", "rejected"]
        offset[0] += timedelta(seconds=2)
        judge.flush_outbox()
        assert wait_until(lambda: len(prompts()) == 2)
        assert prompts()[0].get_body(("plain",)).get_content().split("Log witness")[0] == \
            prompts()[1].get_body(("plain",)).get_content().split("Log witness")[0]
        replies = wait_until(lambda: len([m for m in _inbox(server, other) if "Re: command" in str(m["Subject"])]) == 2)
        assert replies
        texts = [m.get_body(("plain",)).get_content() for m in _inbox(server, other) if "Re: command" in str(m["Subject"])]
        assert any("no pending decision" in t and "history: N" in t for t in texts)
        assert any("no player command 'dance'" in t and "resend" in t for t in texts)
        assert all(max(len(line) for line in t.splitlines()) <= 72 for t in texts)
        acted = [e.data for e in judge.store.events("g1") if e.kind == "PlayerActed"]
        assert acted == [{"command": "resend", "seat": seat}]
        poller.close()
        judge.store.close()
        v = CliRunner().invoke(main, ["verify", "-c", str(_path), "g1"])
        assert v.exit_code == 0 and "replay equals live state" in v.output, v.output
    finally:
        server.stop()
