"""`pbem run` killed with SIGKILL at each stage of the pipeline (issue 17, done-when):
after the fetch, inside the transaction, after the commit before the IMAP move, and
during SMTP. After a restart every order is applied exactly once and every answer is
delivered at least once, always under the same Message-ID. Real `pbem run` processes
against pymap + aiosmtpd on 127.0.0.1 (crash points: tests/service/crashpoints.py)."""
from __future__ import annotations

import email
import email.policy
import random
import subprocess
import sys

import pytest
import yaml

from pbem import rules
from pbem.service import Judge
from pbem.store import Store
from tests.conftest import KEYS, mail_orders
from tests.service.helpers import (
    ROOT,
    drop,
    folder,
    mail,
    pbem_run,
    stop,
    wait_until,
    write_config,
)

POINTS = ["after_fetch", "in_transaction", "after_commit", "during_smtp"]


def _headers(raw: bytes) -> email.message.Message:
    return email.message_from_bytes(raw, policy=email.policy.default)


@pytest.mark.parametrize("point", POINTS)
def test_sigkill_at_a_stage_applies_once_and_delivers_at_least_once(tmp_path, pymap_server, point) -> None:
    path, config = write_config(tmp_path, pymap_server)
    setup = subprocess.run([sys.executable, str(ROOT / "tests" / "service" / "crashpoints.py"), "run", "--once",
                            "-c", str(path)], capture_output=True, timeout=120, cwd=ROOT)
    assert setup.returncode == 0, setup.stderr
    store = Store(config.database)
    state = Judge(config, store).state("g1")
    seat = rules.pending(state)[0].seat
    doc = {"game": "g1", "seat": seat, "key": KEYS[seat], "step": state.step,
           "orders": mail_orders(state, seat, random.Random(11))}
    mid = "<crash-orders@players.test>"
    before = {_headers(m)["Message-ID"] for m in pymap_server.messages(seat)}

    crashed = pbem_run(path, crash_at=point)
    drop(pymap_server, mail(seat, yaml.safe_dump(doc, sort_keys=False), message_id=mid))
    assert crashed.wait(120) == -9, "the crash point was not reached"
    applied = store.db.execute("SELECT count(*) FROM inbox WHERE message_id = ? AND status = 'applied'",
                               [mid]).fetchone()[0]
    assert applied == (1 if point in ("after_commit", "during_smtp") else 0)

    again = pbem_run(path)
    try:
        def settled() -> bool:
            pending = store.db.execute("SELECT count(*) FROM outbox WHERE status != 'sent'").fetchone()[0]
            return bool(store.inbox_by_message_id(mid)) and pending == 0 and folder(pymap_server, "INBOX") == []
        assert wait_until(settled, 90), "the restarted judge did not finish the order"
    finally:
        assert stop(again) in (0, 1, -15, 130)

    rows = store.db.execute("SELECT status FROM inbox WHERE message_id = ?", [mid]).fetchall()
    assert rows == [("applied",)], "applied exactly once"
    assert Judge(config, store).state("g1").step == state.step + 1
    assert len(folder(pymap_server, "Processed")) == 1
    assert store.verify_chain("g1") == []
    # at least once, with a stable Message-ID: every row of the outbox reached its mailbox
    for row_mid, to_addr in store.db.execute("SELECT message_id, to_addr FROM outbox").fetchall():
        account = to_addr.split("@")[0]
        got = [m for m in pymap_server.messages(account) if _headers(m)["Message-ID"] == row_mid]
        assert got, f"{row_mid} to {to_addr} never arrived"
    receipts = [m for m in pymap_server.messages(seat) if _headers(m)["In-Reply-To"] == mid]
    assert receipts and len({_headers(m)["Message-ID"] for m in receipts}) == 1
    new = {_headers(m)["Message-ID"] for m in pymap_server.messages(seat)} - before
    assert len(new) == len([m for m in store.db.execute(
        "SELECT message_id FROM outbox WHERE to_addr = ?", [f"{seat}@pbem.localhost"]).fetchall()]) - len(before)
