"""Issue 29's trial, finding 2: with the example config, a stranger's `command: observe`
or `command: standby` got an answer that bounced (the embedded server knows only the
example's accounts, and the trial wrote from an address of none). Through the real mail
path on the embedded server with the example config's own accounts and game: the
documented ways to write as someone with no seat — `guest@pbem.localhost` (an account
of the example for that) or `<account>@<another domain>` — get their answers delivered,
nothing bounces and the host hears of no undelivered mail."""
from __future__ import annotations

import email
import email.policy
import smtplib
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import yaml

from pbem.config import load_config
from pbem.service import make_judge, run_once
from tests.mailservers import start_pymap
from tests.service.helpers import wait_until

ROOT = Path(__file__).resolve().parents[2]


def _send(port: int, sender: str, body: str, subject: str) -> None:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, "judge@pbem.localhost", subject
    msg["Message-ID"] = make_msgid(domain="visitor.test")
    msg.set_content(body)
    with smtplib.SMTP("127.0.0.1", port) as smtp:
        smtp.send_message(msg)


def test_a_stranger_tries_observe_and_standby_with_the_example_config(tmp_path: Path) -> None:
    raw = yaml.safe_load((ROOT / "config.example.yaml").read_text(encoding="utf-8"))
    accounts = raw["devmail"]["accounts"]
    assert "guest" in accounts  # the account the README and the host guide tell a stranger to use
    server = start_pymap(tmp_path / "mail", accounts)
    raw["devmail"]["enabled"] = False  # the embedded server above, with the example's accounts
    raw["database"], raw["archive_dir"] = str(tmp_path / "pbem.sqlite"), str(tmp_path / "archive")
    raw["imap"]["port"], raw["smtp"]["port"] = server.imap_port, server.smtp_port
    raw["map_attachment"] = False
    path = tmp_path / "config.yaml"
    path.write_text(yaml.safe_dump(raw, sort_keys=False))
    judge, poller = make_judge(load_config(path))
    offset = [timedelta(0)]
    judge.clock = lambda: datetime.now(UTC) + offset[0]
    try:
        judge.ensure_games()
        run_once(judge, poller)
        judge.flush_outbox()
        game = raw["games"][0]["id"]
        _send(server.smtp_port, "guest@pbem.localhost", f"game: {game}\ncommand: observe\n", "observe")
        _send(server.smtp_port, "guest@pbem.localhost", f"game: {game}\ncommand: standby\nstandby: true\n", "standby")
        _send(server.smtp_port, "north@visitor.localhost", f"game: {game}\ncommand: observe\n", "observe 2")
        statuses = run_once(judge, poller)
        offset[0] += timedelta(seconds=2)
        judge.flush_outbox()
        assert sorted(statuses.values()) == ["answered", "answered", "rejected"], statuses

        def box(account: str, subject: str) -> list[str]:
            msgs = [email.message_from_bytes(r, policy=email.policy.default) for r in server.messages(account)]
            return [" ".join(m.get_body(("plain",)).get_content().split()) for m in msgs
                    if str(m["Subject"]) == subject]

        wait_until(lambda: box("guest", "Re: observe") and box("guest", "Re: standby") and box("north", "Re: observe 2"))
        assert "send this code back from this address" in box("guest", "Re: observe")[0]  # the code comes
        assert "defined in the judge's config file" in box("guest", "Re: standby")[0]
        assert "send this code back" in box("north", "Re: observe 2")[0]  # north's maildir, not north's seat
        rows = judge.store.db.execute("SELECT to_addr, status, last_error FROM outbox").fetchall()
        assert not [r for r in rows if r[1] != "sent"], rows  # nothing bounced or waits
        assert not [m for m in server.messages("host") if b"could not be delivered" in m or b"bounced" in m]
    finally:
        poller.close()
        judge.store.close()
        server.stop()
