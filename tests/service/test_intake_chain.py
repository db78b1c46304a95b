"""The intake chain (issue 26.3; docs/pipeline.md, "The intake chain"): one table of
rules, one table of handlers per outcome, and the inbox row says which rule decided each
mail — through the service's own entry point (``Judge.handle_message``), one mail of
each kind."""
from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import yaml

from pbem import rules
from pbem.config import parse_config
from pbem.service import Judge
from pbem.service.identity import envelope
from pbem.service.intake.chain import ACCEPT, CHAIN, HANDLERS
from pbem.service.intake.rules import Outcome
from pbem.store import Store
from tests.conftest import HASHES, KEYS, PLAYERS, SEATS
from tests.service.helpers import mail


def _judge(tmp_path: Path, limit: int | None = None) -> Judge:
    config = parse_config({
        "judge": {"address": "judge@pbem.localhost"}, "database": str(tmp_path / "pbem.sqlite"),
        "map_attachment": False, **({"max_message_bytes": limit} if limit else {}),
        "games": [{"id": "g1", "host_email": "host@pbem.localhost", "seats": [
            {"seat": s, "player": PLAYERS[s], "email": f"{s}@pbem.localhost", "key_hash": HASHES[s]}
            for s in SEATS]}]}, base=tmp_path)
    judge = Judge(config, Store(config.database), clock=lambda: datetime(2029, 1, 1, tzinfo=UTC))
    judge.ensure_games()
    return judge


def _decided(judge: Judge) -> list[tuple[str, str | None]]:
    return [(r[0], r[1]) for r in judge.store.db.execute("SELECT status, decided_by FROM inbox ORDER BY id")]


def test_the_inbox_row_names_the_rule_that_decided(tmp_path: Path) -> None:
    judge = _judge(tmp_path)
    state = judge.state("g1")
    seat = rules.pending(state)[0].seat
    other = next(s for s in SEATS if s != seat)
    doc = {"game": "g1", "seat": seat, "key": KEYS[seat], "step": state.step, "orders": {"first_player": seat}}
    sent = [
        mail(seat, "hello, no orders here"),  # shape
        mail(seat, yaml.safe_dump({**doc, "orders": {"first_player": "nobody"}})),  # orders
        mail(seat, yaml.safe_dump({**doc, "key": "wrong"})),  # key: collected by the envelope, orders fine
        mail("stranger@else.test", yaml.safe_dump(doc)),  # sender: the right key elsewhere, held
        mail(seat, yaml.safe_dump({**doc, "game": "g9"})),  # game
        mail(seat, yaml.safe_dump({**doc, "step": state.step + 5})),  # envelope: the orders cannot be checked
        mail(other, yaml.safe_dump({"game": "g1", "seat": other, "key": KEYS[other], "history": "all"})),  # request
        mail(seat, "Out of office", headers={"Auto-Submitted": "auto-replied"}),  # auto_reply
        mail("judge@pbem.localhost", "our own mail", headers={"X-Pbem-Loop": "judge"}),  # loop
        mail(seat, yaml.safe_dump(doc)),  # accept
    ]
    statuses = [judge.handle_message(raw) for raw in sent]
    assert statuses == ["rejected", "rejected", "rejected", "held", "rejected", "rejected", "answered", "ignored",
                        "ignored", "applied"]
    assert [d for _s, d in _decided(judge)] == ["shape", "orders", "envelope", "sender", "game", "envelope",
                                                "request", "auto_reply", "loop", ACCEPT]


def test_a_mail_too_large_is_decided_by_size(tmp_path: Path) -> None:
    judge = _judge(tmp_path, limit=4096)
    assert judge.handle_message(mail("east", "x" * 5000)) == "too_large"
    assert _decided(judge) == [("too_large", "size")]


def test_rules_that_collect_problems_let_the_chain_go_on(tmp_path: Path) -> None:
    """A wrong key from the seat's own address and bad orders: both in one answer, and
    the row names the first rule that found a problem."""
    judge = _judge(tmp_path)
    state = judge.state("g1")
    seat = rules.pending(state)[0].seat
    doc = {"game": "g1", "seat": seat, "key": "wrong", "step": state.step, "orders": {"first_player": "nobody"}}
    assert judge.handle_message(mail(seat, yaml.safe_dump(doc))) == "rejected"
    row = judge.store.db.execute("SELECT decided_by, result FROM inbox").fetchone()
    codes = [p["code"] for p in yaml.safe_load(row[1])["problems"]]
    assert row[0] == "envelope" and codes[0] == "auth.key" and len(codes) >= 2, codes


def test_the_tables_are_whole() -> None:
    names = [r.name for r in CHAIN]
    assert len(names) == len(set(names)) and ACCEPT not in names
    assert set(HANDLERS) == set(Outcome) and all(HANDLERS[o] for o in Outcome)
    assert names.index("shape") < names.index("request") < names.index("sender") < names.index("lock") \
        < names.index("key") < names.index("step") < names.index("envelope") < names.index("orders")
    assert all(r.description for r in CHAIN)
    steps = [name for name, _step in envelope.STEPS]  # the commands' check_envelope runs the same checks
    first = names.index(steps[0])
    assert names[first:first + len(steps)] == steps
