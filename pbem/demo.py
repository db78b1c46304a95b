"""``pbem demo``: a whole game round through real mail on the embedded server.

The demo starts the embedded mail server (SMTP + IMAP on 127.0.0.1), writes a config
with a 4-seat game and fresh seat keys, and runs the judge. Four scripted players read
their prompt mails from their own mailboxes, choose random legal orders (the rules
core's bot), and reply over SMTP on top of the quoted prompt, as people do; the judge
polls IMAP, applies, and mails receipts, reports and the next prompt. Everything stays
in the output folder: the config, the database, every mailbox, and the latest map.
"""
from __future__ import annotations

import email
import email.policy
import random
import re
import secrets
import smtplib
from collections.abc import Callable
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import yaml

from pbem import rules
from pbem.config import load_config
from pbem.devmail import DevMail, free_ports
from pbem.keys import hash_key, new_key
from pbem.report import snapshot
from pbem.service import make_judge, run_once

PLAYERS = {"north": "Kleitos", "east": "Peukestas", "south": "Nearchos", "west": "Aristonous"}
GAME_ID = "demo-1"


@dataclass
class DemoResult:
    """What the demo did and where it left things."""

    out: Path
    config: Path
    database: Path
    maildir: Path
    statuses: list[str] = field(default_factory=list)
    turns_played: int = 0
    game_turn: int = 1
    map_png: Path | None = None

    def summary(self) -> str:
        """A few lines for the terminal."""
        lines = [(f"demo: {self.turns_played} decisions played through real mail (now game turn "
                  f"{self.game_turn}); message statuses: {', '.join(self.statuses)}"),
                 f"  config:    {self.config}", f"  database:  {self.database}",
                 f"  mailboxes: {self.maildir}/<account>/ (Maildir; every prompt, receipt and report)"]
        if self.map_png:
            lines.append(f"  map:       {self.map_png}")
        lines.append(f"  inspect:   pbem status -c {self.config}   |   pbem verify -c {self.config} {GAME_ID}")
        return "\n".join(lines)


def write_config(out: Path, smtp_port: int, imap_port: int) -> tuple[Path, dict[str, str]]:
    """Write the demo's config.yaml; return its path and the plain seat keys."""
    accounts = {name: secrets.token_urlsafe(9) for name in ["judge", "host", *PLAYERS]}
    keys = {seat: new_key() for seat in PLAYERS}
    cfg = {
        "judge": {"address": "judge@pbem.localhost", "name": "pbem judge"},
        "database": "pbem.sqlite", "archive_dir": "archive",
        "imap": {"host": "127.0.0.1", "port": imap_port, "tls": "none", "user": "judge",
                 "password": accounts["judge"], "folder": "INBOX", "processed_folder": "Processed",
                 "poll_interval": "2s"},
        "smtp": {"host": "127.0.0.1", "port": smtp_port, "tls": "none"},
        "devmail": {"enabled": True, "maildir": "devmail", "smtp_port": smtp_port, "imap_port": imap_port,
                    "accounts": accounts, "domain": "pbem.localhost"},
        "deadlines": {"player_turn": "72h", "reminder": "24h"},
        "games": [{"id": GAME_ID, "host_email": "host@pbem.localhost", "seats": [
            {"seat": seat, "player": name, "email": f"{seat}@pbem.localhost", "key_hash": hash_key(keys[seat])}
            for seat, name in PLAYERS.items()]}],
    }
    path = out / "config.yaml"
    path.write_text("# written by `pbem demo`; seat keys are in keys.yaml beside it\n"
                    + yaml.safe_dump(cfg, sort_keys=False))
    (out / "keys.yaml").write_text(yaml.safe_dump(keys))
    return path, keys


def latest_prompt(dev: DevMail, seat: str, step: int) -> EmailMessage | None:
    """The prompt mail for ``step`` in ``seat``'s mailbox, or None."""
    for raw in reversed(dev.messages(seat)):
        msg = email.message_from_bytes(raw, policy=email.policy.default)
        if re.search(rf"step {step}: your move", str(msg["Subject"] or "")):
            return msg  # type: ignore[return-value]
    return None


def reply_mail(prompt: EmailMessage, seat: str, doc: dict) -> bytes:
    """A player's top-posted reply: the orders, a signature, then the quoted prompt."""
    body = prompt.get_body(("plain",))
    quoted = "\n".join("> " + line for line in (body.get_content() if body else "").splitlines())
    msg = EmailMessage()
    msg["From"] = f"{PLAYERS[seat]} <{seat}@pbem.localhost>"
    msg["To"] = "judge@pbem.localhost"
    msg["Subject"] = "Re: " + str(prompt["Subject"])
    msg["Message-ID"] = make_msgid(domain="pbem.localhost")
    msg["In-Reply-To"] = str(prompt["Message-ID"])
    msg["References"] = str(prompt["Message-ID"])
    text = (yaml.safe_dump(doc, sort_keys=False) + f"\n--\n{PLAYERS[seat]}\n\n"
            f"On {prompt['Date']}, pbem judge <judge@pbem.localhost> wrote:\n{quoted}\n")
    msg.set_content(text)
    return msg.as_bytes(policy=email.policy.SMTP)  # CRLF line ends, as SMTP wants


def run_demo(out: Path, rounds: int = 1, seed: int | None = None,
             echo: Callable[[str], None] = print, turns: int = 0, max_steps: int = 400) -> DemoResult:
    """Run the demo into ``out`` (created); play ``rounds`` full rounds, or with
    ``turns`` > 0 whole game turns (R-6: every round, the Tyche-only segments, isolation,
    and the next turn's reinforcements). Returns where everything is. Raises RuntimeError
    if a prompt never arrives (a broken pipeline)."""
    out = out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    config_path, keys = write_config(out, *free_ports(2))
    config = load_config(config_path)
    result = DemoResult(out, config_path, config.database, config.devmail.maildir)
    with DevMail(config.devmail.maildir, config.devmail.accounts, smtp_port=config.devmail.smtp_port,
                 imap_port=config.devmail.imap_port):
        judge, poller = make_judge(config)
        judge.ensure_games()
        run_once(judge, poller)
        dev = DevMail(config.devmail.maildir, config.devmail.accounts)  # reader only
        first_turn = judge.state(GAME_ID).turn
        for _ in range(max_steps if turns else rounds * len(PLAYERS)):
            state = judge.state(GAME_ID)
            pending = rules.pending(state)
            if not pending or (turns and state.turn >= first_turn + turns):
                break
            decision = pending[0]
            prompt = latest_prompt(dev, decision.seat, state.step)
            if prompt is None:
                raise RuntimeError(f"no prompt for {decision.seat} at step {state.step} arrived by mail")
            orders = rules.bot_orders(state, decision.seat, rng)
            doc = {"game": GAME_ID, "seat": decision.seat, "key": keys[decision.seat], "step": state.step,
                   "orders": orders}
            with smtplib.SMTP("127.0.0.1", config.devmail.smtp_port) as smtp:
                smtp.sendmail(f"{decision.seat}@pbem.localhost", ["judge@pbem.localhost"],
                              reply_mail(prompt, decision.seat, doc))
            handled = run_once(judge, poller)
            result.statuses.extend(handled.values())
            echo(f"step {state.step}: {decision.seat} sent {yaml.safe_dump(orders, default_flow_style=True).strip()}"
                 f" -> {', '.join(handled.values()) or 'nothing fetched'}")
            if "applied" in handled.values():
                result.turns_played += 1
        result.game_turn = judge.state(GAME_ID).turn
        poller.close()
        state = judge.state(GAME_ID)
        png = snapshot.png(judge.pack_for(GAME_ID), state, [], f"{GAME_ID} step {state.step}")
        result.map_png = out / "map-latest.png"
        result.map_png.write_bytes(png)
    return result
