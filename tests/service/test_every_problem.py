"""Every problem of a mail in one answer (issue 13): the envelope and the orders are
checked in one pass, each segment of the orders even after an earlier one failed
(where that still makes sense), repeats are merged; and a mail from another address
learns nothing about the seat whatever it holds."""
from __future__ import annotations

import email
import email.policy
from pathlib import Path

import pytest
import yaml

from pbem import rules
from tests.conftest import KEYS, local_judge
from tests.service.helpers import mail


def _replies(judge, address: str) -> list[str]:
    """The answers to ``address`` since the game's first player-turn began."""
    start = judge.store.db.execute("SELECT max(id) FROM outbox WHERE kind = 'prompt'").fetchone()[0]
    rows = judge.store.db.execute("SELECT id FROM outbox WHERE to_addr = ? AND kind = 'reply' AND id > ? "
                                  "ORDER BY id", [address, start]).fetchall()
    return [email.message_from_bytes(judge.store.outbox_row(i)["raw"], policy=email.policy.default)
            .get_body(("plain",)).get_content() for (i,) in rows]


def _send(judge, sender: str, body: str) -> str:
    return judge.handle_message(mail(sender, body))


@pytest.fixture
def turn(tmp_path: Path):
    """A judge whose game waits for a player-turn: (judge, seat, step, hand)."""
    judge = local_judge(tmp_path, {})
    state = judge.state("g1")
    chooser = rules.pending(state)[0].seat
    doc = {"game": "g1", "seat": chooser, "key": KEYS[chooser], "step": state.step,
           "orders": {"first_player": chooser}}
    assert _send(judge, f"{chooser}@pbem.localhost", yaml.safe_dump(doc)) == "applied"
    state = judge.state("g1")
    decision = rules.pending(state)[0]
    assert decision.kind == "player_turn"
    return judge, decision.seat, state.step, list(state.private[decision.seat]["hand"])


def test_five_independent_mistakes_come_back_in_one_answer(turn) -> None:
    judge, seat, step, hand = turn
    not_held = next(n for n in sorted(judge.state("g1").pack.cards) if n not in hand)
    body = (f"game: g1\nseat: {seat}\nkey: YOUR-SEAT-KEY\nstep: {step}\ncomment: my first turn\n"
            f"orders:\n  tyche: {{card: {not_held}, use: garrisons, places: [Pellla]}}\n"
            "  movement: {mercenary: Babylonn}\n")
    address = f"{seat}@pbem.localhost"
    assert _send(judge, address, body) == "rejected"
    [answer] = _replies(judge, address)
    assert "There are 5 problems:" in answer, answer
    for code in ("auth.key", "envelope.unknown_key", "tyche.card_not_in_hand", "orders.unknown_space"):
        assert f"code: {code}" in answer
    assert "'Pellla'" in answer and "did you mean Pella?" in answer
    assert "'Babylonn'" in answer and "did you mean Babylon?" in answer
    assert "placeholder YOUR-SEAT-KEY" in answer
    # the wrong key still counts towards the lockout (one mail, one failure)
    row = judge.store.db.execute("SELECT reason FROM inbox ORDER BY id DESC LIMIT 1").fetchone()
    assert row[0] == "auth.key"
    assert judge.state("g1").step == step


def test_a_wrong_key_with_good_orders_says_the_orders_were_checked(turn) -> None:
    judge, seat, step, _hand = turn
    orders = dict(rules.pending(judge.state("g1"))[0].default)
    doc = {"game": "g1", "seat": seat, "key": "not-the-key", "step": step, "orders": orders}
    address = f"{seat}@pbem.localhost"
    assert _send(judge, address, yaml.safe_dump(doc, sort_keys=False)) == "rejected"
    [answer] = _replies(judge, address)
    assert "There is 1 problem:" in answer and "code: auth.key" in answer
    assert "The orders themselves were checked and have no other problem." in answer


def test_another_address_learns_nothing_about_the_seat(turn) -> None:
    judge, seat, step, hand = turn
    not_held = next(n for n in sorted(judge.state("g1").pack.cards) if n not in hand)
    for i, key in enumerate(("YOUR-SEAT-KEY", KEYS[seat])):  # the same answer whatever the key (no oracle)
        body = (f"game: g1\nseat: {seat}\nkey: {key}\nstep: {step}\n"
                f"orders:\n  tyche: {{card: {not_held}, use: garrisons, places: [Pellla]}}\n")
        _send(judge, f"stranger{i}@else.test", body)  # two strangers: an identical answer goes once an hour
    (first,), (second,) = _replies(judge, "stranger0@else.test"), _replies(judge, "stranger1@else.test")
    assert first.replace("stranger0", "stranger") == second.replace("stranger1", "stranger")
    assert "There is 1 problem:" in first and "code: auth.sender" in first
    assert "your hand" not in first and "Pella" not in first.split("The orders block")[0]


def test_a_later_segment_is_checked_for_what_no_earlier_one_changes(turn) -> None:
    """A refused Tyche play is read as written (issue 24.7): a discard changes no piece,
    so the movement is checked in full; a garrison placement may make its space take
    the mercenary, so that waits for the card to be fixed (none invented)."""
    judge, seat, _step, _hand = turn
    state = judge.state("g1")
    pack = state.pack
    illegal = next(s for s in sorted(pack.spaces) if s not in rules.legal_options(state, seat)["mercenary_spaces"]
                   and pack.spaces[s].kind != "transit")
    orders = {"tyche": {"card": 999, "use": "discard"}, "movement": {"mercenary": pack.spaces[illegal].name}}
    codes = [p.code for p in rules.validate(state, seat, orders)]
    assert codes == ["tyche.card_not_in_hand", "movement.mercenary_place_illegal"]
    orders["tyche"] = {"card": 999, "use": "garrisons", "places": [pack.spaces[illegal].name]}
    codes = [p.code for p in rules.validate(state, seat, orders)]
    assert codes == ["tyche.card_not_in_hand"]
    orders["movement"] = [{"army": "Nobody", "path": ["Pellla"]}]
    codes = [p.code for p in rules.validate(state, seat, orders)]
    assert codes == ["tyche.card_not_in_hand", "movement.unknown_army", "orders.unknown_space"]


def test_a_tab_indented_block_is_one_problem_naming_every_line(turn) -> None:
    judge, seat, step, _hand = turn
    body = (f"game: g1\nseat: {seat}\nkey: {KEYS[seat]}\nstep: {step}\norders:\n"
            "\ttyche: {card: 1, use: discard}\n\tmovement: mercenary\n\tbury: false\n")
    address = f"{seat}@pbem.localhost"
    assert _send(judge, address, body) == "rejected"
    [answer] = _replies(judge, address)
    assert "There is 1 problem:" in answer
    assert "lines 6, 7 and 8" in answer and answer.count("code: yaml.tab") == 1
