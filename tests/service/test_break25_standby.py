"""Issue 25's fresh break-it attempt (bot25 item 2): a real ``pbem run`` SIGKILLed while
a seat in civil disorder is offered to the standby list, and while a substitute takes it
(issue 29 item 2: ``command: standby``, the offer, ``command: take``, the first to
accept gets the seat). After a restart nothing is lost or doubled: one civil disorder,
one offer, one handover (one new key, its mail under one Message-ID), the take answered
once, every outbox row delivered, the chain intact and ``pbem verify`` passing; the key
the handover mailed sends orders. Real pymap + aiosmtpd on loopback; the game's bot
plays the seat in civil disorder until it is taken (``civil_disorder: bot``)."""
from __future__ import annotations

import email
import email.policy
import os
import random
import re
import subprocess
import sys

import pytest
import yaml
from click.testing import CliRunner

from pbem import rules
from pbem.cli import main
from pbem.service import Judge
from pbem.store import Store
from tests.conftest import PLAYERS, SEATS, mail_orders
from tests.service.helpers import ROOT, drop, folder, mail, stop, wait_until, write_config

STRANGER = "stranger@pbem.localhost"
POINTS = ["in_offer", "in_take", "after_commit", "during_smtp"]


def _run(path, *args: str, crash_at: str | None = None) -> subprocess.Popen:
    """``pbem run`` under tests/service/standbycrash.py (``crash_at``: its crash point)."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    if crash_at:
        env["PBEM_TEST_CRASH_AT"] = crash_at
    out = open(path.with_suffix(".log"), "ab")  # noqa: SIM115 - the child owns it
    return subprocess.Popen([sys.executable, str(ROOT / "tests" / "service" / "standbycrash.py"), "run", "-c",
                             str(path), *args], stdout=out, stderr=subprocess.STDOUT, cwd=ROOT, env=env)


def _msg(raw: bytes) -> email.message.EmailMessage:
    return email.message_from_bytes(raw, policy=email.policy.default)


def _id(raw: bytes, header: str = "Message-ID") -> str:
    """A message id header of ``raw`` (a folded one read without its leading space)."""
    return str(_msg(raw)[header] or "").strip()


def _text(raw: bytes) -> str:
    return _msg(raw).get_body(("plain",)).get_content()


def _mails(server, account: str, subject: str) -> list[bytes]:
    return [m for m in server.messages(account) if subject in str(_msg(m)["Subject"])]


def _settle(path, store: Store, server, mid: str | None = None, until=lambda: True) -> None:  # noqa: ANN001
    """``pbem run`` (no crash) until the mail ``mid`` is in the inbox, ``until()`` holds,
    and nothing waits in the outbox or the INBOX; then stopped."""
    proc = _run(path)
    try:
        def settled() -> bool:
            pending = store.db.execute("SELECT count(*) FROM outbox WHERE status != 'sent'").fetchone()[0]
            return ((mid is None or bool(store.inbox_by_message_id(mid))) and until() and pending == 0
                    and folder(server, "INBOX") == [])
        assert wait_until(settled, 120), "the judge did not settle"
    finally:
        assert stop(proc) in (0, 1, -15, 130)


@pytest.mark.parametrize("point", POINTS)
def test_sigkill_during_an_offer_or_a_take_loses_and_doubles_nothing(tmp_path, pymap_server, point) -> None:
    path, config = write_config(tmp_path, pymap_server)
    args = ["game", "new", "-c", str(path), "--host", "host@pbem.localhost", "--setting", "nmr_limit=1",
            "--setting", "civil_disorder=bot", "--setting", "bot_playouts=2"]
    for s in SEATS:
        args += ["--seat", f"{s}={PLAYERS[s]} <{s}@pbem.localhost>"]
    out = CliRunner().invoke(main, [*args, "g2"])
    assert out.exit_code == 0, out.output
    store = Store(config.database)
    drop(pymap_server, mail(STRANGER, "game: g2\ncommand: standby\nstandby: true\nname: Eumenes\n", "standby",
                            message_id="<standby@players.test>"))
    _settle(path, store, pymap_server, "<standby@players.test>")
    assert store.inbox_by_message_id("<standby@players.test>")["status"] == "answered"

    # the waited-on seat's deadline has passed (as if three days went by): civil disorder, the offer
    state = Judge(config, store).state("g2")
    seat = rules.pending(state)[0].seat
    with store.transaction():
        store.db.execute("UPDATE deadlines SET due_at = '2000-01-01T00:00:00+00:00', wake_at = '' "
                         "WHERE game_id = 'g2' AND seat = ? AND expired_at IS NULL", [seat])
    if point == "in_offer":
        crashed = _run(path, crash_at=point)
        assert crashed.wait(120) == -9, "the crash point was not reached"
        assert [e for e in store.events("g2") if e.kind == "CivilDisorderDeclared"] == []  # nothing committed
    _settle(path, store, pymap_server, until=lambda: any(e.kind == "BotSeated" for e in store.events("g2")))
    assert [e.data["seat"] for e in store.events("g2") if e.kind == "CivilDisorderDeclared"] == [seat]
    offers = _mails(pymap_server, "stranger", f"[g2] seat {seat} is free: take it?")
    assert len(offers) == 1 and store.seat_offer("g2", seat)["status"] == "open"

    take_id = "<take@players.test>"
    drop(pymap_server, mail(STRANGER, f"game: g2\ncommand: take\ntake: {seat}\n", "take", message_id=take_id))
    if point != "in_offer":
        crashed = _run(path, crash_at=point)
        assert crashed.wait(120) == -9, "the crash point was not reached"
        changed = [e for e in store.events("g2") if e.kind == "SeatChanged"]
        assert len(changed) == (1 if point in ("after_commit", "during_smtp") else 0)
    _settle(path, store, pymap_server, take_id)

    assert store.db.execute("SELECT status FROM inbox WHERE message_id = ?", [take_id]).fetchall() == [("answered",)]
    changed = [e.data for e in store.events("g2") if e.kind == "SeatChanged"]
    assert changed == [{"seat": seat, "changed": ["player", "address", "key"], "player": "Eumenes", "by": "standby"}]
    assert store.seat_offer("g2", seat)["status"] == "taken"
    assert len(_mails(pymap_server, "stranger", f"[g2] seat {seat} is free: take it?")) == 1  # offered once
    handovers = _mails(pymap_server, "stranger", f"[g2] handover: your seat {seat}")
    assert handovers and len({_id(m) for m in handovers}) == 1  # one handover, maybe sent twice
    keys = {re.search(r"Your seat key is:\s+(\S+)", _text(m)).group(1) for m in handovers}
    assert len(keys) == 1
    answers = [m for m in pymap_server.messages("stranger") if _id(m, "In-Reply-To") == take_id]
    assert answers and len({_id(m) for m in answers}) == 1  # the take answered once
    for row_mid, to_addr in store.db.execute("SELECT message_id, to_addr FROM outbox").fetchall():
        account = to_addr.split("@")[0]
        assert any(_id(m) == row_mid for m in pymap_server.messages(account)), (row_mid, to_addr)
    assert store.verify_chain("g2") == []

    # the key the handover mailed plays the seat from the substitute's address (when it is waited on)
    judge = Judge(config, store)
    state = judge.state("g2")
    if rules.pending(state)[0].seat == seat:
        doc = {"game": "g2", "seat": seat, "key": keys.pop(), "step": state.step,
               "orders": mail_orders(state, seat, random.Random(1))}
        drop(pymap_server, mail(STRANGER, yaml.safe_dump(doc, sort_keys=False), message_id="<sub-orders@players.test>"))
        _settle(path, store, pymap_server, "<sub-orders@players.test>")
        assert store.inbox_by_message_id("<sub-orders@players.test>")["status"] == "applied"
    store.close()
    v = CliRunner().invoke(main, ["verify", "-c", str(path), "g2"])
    assert v.exit_code == 0 and "replay equals live state" in v.output, v.output
