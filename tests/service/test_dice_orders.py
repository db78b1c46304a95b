"""The dice depend on what the seats sent (issue 15, docs/trust.md): two games with the
same seed whose orders differ in one decision (another salt, or other orders) have the
same dice before it and other dice in it and in every later decision; the same orders
give the same dice, the same log and the same chain head. The games are played by
mail-shaped messages through Judge.handle_message."""
from __future__ import annotations

import random
from pathlib import Path

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from pbem import rules
from pbem.config import parse_config
from pbem.rules.dice import START_CONTEXT, die_value, next_context
from pbem.service import Judge
from pbem.service.log import trust
from pbem.store import Store
from tests.conftest import HASHES, KEYS, PLAYERS, SEATS, player_mail

SEED = b"same seed for both games........"
DECISIONS = 14


def _play(tmp: Path, differ_at: int | None, how: str) -> tuple[list[dict], list, str]:
    """Play DECISIONS bot decisions on a new game of seed SEED; at decision
    ``differ_at`` change the salt (``how="salt"``) or the orders (``how="orders"``).
    Returns (the orders documents, the logged events, the chain head)."""
    tmp.mkdir()
    judge = _judge(tmp)
    rng = random.Random(7)
    for n in range(DECISIONS):
        state = judge.state("g1")
        d = rules.pending(state)[0]
        orders = rules.bot_orders(state, d.seat, rng)
        doc = {"game": "g1", "seat": d.seat, "key": KEYS[d.seat], "step": state.step, "orders": orders,
               "salt": f"words {n}"}
        if n == differ_at:
            if how == "salt":
                doc["salt"] = "other words"
            else:
                doc["orders"] = rules.bot_orders(state, d.seat, random.Random(1000 + n))
        assert judge.handle_message(player_mail(d.seat, doc)) == "applied"
    events = judge.store.events("g1")
    docs = [dict(e.data) for e in events if e.kind == "OrdersAccepted"]
    return docs, events, judge.store.last_event("g1")[1]


def _judge(tmp: Path) -> Judge:
    """Game g1 of seed SEED, no mail server (as tests.conftest.local_judge)."""
    config = parse_config({
        "judge": {"address": "judge@pbem.localhost"}, "database": str(tmp / "pbem.sqlite"), "map_attachment": False,
        "games": [{"id": "g1", "seats": [{"seat": s, "player": PLAYERS[s], "email": f"{s}@pbem.localhost",
                                          "key_hash": HASHES[s]} for s in SEATS]}]}, base=tmp)
    judge = Judge(config, Store(config.database), new_seed=lambda: SEED)
    judge.ensure_games()
    return judge


def _streams(docs: list[dict]) -> list[list[int]]:
    """The first 24 dice (d6) each decision's context yields."""
    out, context = [], START_CONTEXT
    for d in docs:
        context = next_context(context, d)
        out.append([die_value(SEED, d["step"], i, 6, context) for i in range(24)])
    return out


def _rolls(events: list, step: int) -> list:
    return [(e.kind, e.data.get("values"), e.data.get("order")) for e in events
            if e.kind in ("DiceRolled", "Shuffled") and e.step == step]


@settings(max_examples=6, deadline=None)
@given(differ_at=st.integers(0, DECISIONS - 2), how=st.sampled_from(["salt", "orders"]))
def test_orders_that_differ_in_one_decision_change_that_and_every_later_decision_s_dice(
        tmp_path_factory, differ_at: int, how: str) -> None:
    base = tmp_path_factory.mktemp("dice")
    docs_a, events_a, head_a = _play(base / "a", None, how)
    docs_b, events_b, head_b = _play(base / "b", differ_at, how)
    assume(docs_a[differ_at] != docs_b[differ_at])  # other orders may happen to be the same
    assert docs_a[:differ_at] == docs_b[:differ_at]
    streams_a, streams_b = _streams(docs_a), _streams(docs_b)
    for j in range(differ_at):  # before: the same dice, rolled and to be rolled
        assert streams_a[j] == streams_b[j]
        assert _rolls(events_a, docs_a[j]["step"]) == _rolls(events_b, docs_b[j]["step"])
    for j in range(differ_at, len(docs_b)):  # from then on: other dice in every decision
        assert streams_a[j] != streams_b[j], j
    assert head_a != head_b


def test_the_same_orders_give_the_same_dice_log_and_head(tmp_path: Path) -> None:
    docs_a, events_a, head_a = _play(tmp_path / "a", None, "salt")
    docs_b, events_b, head_b = _play(tmp_path / "b", None, "salt")
    assert docs_a == docs_b and _streams(docs_a) == _streams(docs_b)
    assert [(e.kind, e.data) for e in events_a] == [(e.kind, e.data) for e in events_b]
    assert head_a == head_b
    assert any(e.kind == "DiceRolled" for e in events_a)


def test_the_orders_document_is_the_json_form_of_what_was_read() -> None:
    doc = trust.accepted_document("west", 3, {"tyche": {"card": 12, "use": "discard"}, 7: ("a", "b")},
                                  "7431", "mail")
    assert doc == {"by": "mail", "orders": {"tyche": {"card": 12, "use": "discard"}, "7": ["a", "b"]},
                   "salt": "7431", "seat": "west", "step": 3}
