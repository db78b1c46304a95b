"""No query on the mail path scans a whole table (issue 14): every statement the judge
runs while handling order mails (right and wrong keys), its deadlines pass, an outbox
pass and an IMAP reconcile is checked with ``EXPLAIN QUERY PLAN``."""
from __future__ import annotations

import random
import re
import sqlite3
from pathlib import Path

from pbem import rules
from pbem.service import Judge
from tests.conftest import KEYS, local_judge, player_mail

#: plan lines that are not a table scan: the schema catalogue (sqlite-utils reads it
#: per insert), the VALUES list of an insert, and a partial index that holds only the
#: rows asked for (``events_proposals``: the proposals' events, migration 019)
_HARMLESS = re.compile(r"SCAN (sqlite_master|sqlite_schema|\d+ CONSTANT ROWS|events USING (COVERING )?INDEX "
                       r"events_proposals$)")


def _mail_path_statements(judge: Judge) -> list[str]:
    statements: list[str] = []
    conn = judge.store.db.conn
    conn.set_trace_callback(statements.append)
    rng = random.Random(1)
    try:
        for _ in range(4):
            state = judge.state("g1")
            d = rules.pending(state)[0]
            doc = {"game": "g1", "seat": d.seat, "key": "wrong", "step": state.step,
                   "orders": rules.bot_orders(state, d.seat, rng)}
            assert judge.handle_message(player_mail(d.seat, doc)) == "rejected"
            assert judge.handle_message(player_mail(d.seat, {**doc, "key": KEYS[d.seat]})) == "applied"
        judge.tick()
        store = judge.store
        for row in store.due_mail(limit=10):
            store.mark_sent(row["id"])
        store.handled_uids("INBOX", 1, [1, 2, 3])
        store.imap_position("INBOX")
    finally:
        conn.set_trace_callback(None)
    return list(dict.fromkeys(s for s in statements if re.match(r"\s*(SELECT|UPDATE|DELETE|INSERT)", s, re.I)))


def scans(conn: sqlite3.Connection, statements: list[str]) -> list[str]:
    """The statements whose plan scans a table, each with its plan lines."""
    found = []
    for sql in statements:
        plan = [row[3] for row in conn.execute("EXPLAIN QUERY PLAN " + sql).fetchall()]
        bad = [line for line in plan if line.startswith("SCAN") and not _HARMLESS.match(line)]
        if bad:
            found.append(f"{bad}: {sql[:200]}")
    return found


def test_no_mail_path_query_scans_a_table(tmp_path: Path) -> None:
    judge = local_judge(tmp_path, {})
    statements = _mail_path_statements(judge)
    assert len(statements) > 30  # the trace saw the pipeline's queries
    assert any("FROM outbox WHERE to_addr" in s for s in statements)  # the reply-rate check
    assert any("result IS NOT NULL" in s for s in statements)  # the previous-orders lookup
    assert scans(judge.store.db.conn, statements) == []


def test_the_check_sees_a_missing_index(tmp_path: Path) -> None:
    judge = local_judge(tmp_path, {})
    statements = _mail_path_statements(judge)
    conn = judge.store.db.conn
    conn.execute("DROP INDEX idx_outbox_to_addr_created_at")
    found = scans(conn, statements)
    assert found and all("FROM outbox WHERE to_addr" in f for f in found)
