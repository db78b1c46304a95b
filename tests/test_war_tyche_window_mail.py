"""A reaction window opened by a Tyche activation (R-8.2, R-9.3) through the judge's
mail handling (Judge.handle_message, no mail server): the mover's orders pause during
the Tyche segment, the reacting seat is prompted with the question and a pre-filled
answer, answers by mail, and the rest of the mover's player-turn (its movement segment)
runs before the turn passes."""
from __future__ import annotations

import email
from email.policy import default as default_policy
from pathlib import Path

import pytest

from pbem import rules
from pbem.rules.phases.setup import blank_position
from pbem.service import Judge
from tests.conftest import KEYS, SEATS, local_judge, player_mail


def _position(pack, options):
    s = blank_position(pack, turn=1)
    s["turn_order"] = list(SEATS)
    s["active"] = "north"
    s["options"] = dict(options)
    s["generals"] = {"ptolemy": {"seat": "north", "where": "map", "space": "pelusium"},
                     "antigonus": {"seat": "east", "where": "map", "space": "jerusalem"}}
    s["cus"] = {"pelusium": {"north": {"loyal": 2}}, "jerusalem": {"east": {"loyal": 3}}}
    for seat, cards in {"north": [27], "east": [30], "south": [31], "west": [32]}.items():
        s["private"][seat]["hand"] = cards
    return rules.GameState.from_dict(s, pack)


_mail = player_mail


def _prompts(judge: Judge, seat: str, step: int) -> list[str]:
    rows = judge.store.db.execute(
        "SELECT id FROM outbox WHERE kind = 'prompt' AND to_addr = ? AND subject LIKE ?",
        [f"{seat}@pbem.localhost", f"%step {step}:%"]).fetchall()
    out = []
    for raw in (judge.store.outbox_row(i)["raw"] for (i,) in rows):
        msg = email.message_from_bytes(raw, policy=default_policy)
        out.append(msg.get_body(("plain",)).get_content())
    return out


def _judge(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Judge:
    """A judge (no mail server) whose game g1 starts from :func:`_position`, with ask
    windows on."""
    monkeypatch.setattr(rules, "new_game", lambda pack, seed, options: (_position(pack, options), []))
    return local_judge(tmp_path, {"ask_windows": True})


def test_tyche_segment_window_is_prompted_and_answered_by_mail(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    judge = _judge(tmp_path, monkeypatch)
    state = judge.state("g1")
    assert rules.pending(state)[0].seat == "north"
    orders = {"tyche": {"card": 27, "use": "activate", "army": "Ptolemy", "path": ["Gaza"]},
              "movement": [{"army": "Ptolemy", "path": ["Pelusium"]}]}
    doc = {"game": "g1", "seat": "north", "key": KEYS["north"], "step": state.step, "orders": orders}
    assert judge.handle_message(_mail("north", doc)) == "applied"

    state = judge.state("g1")
    [d] = rules.pending(state)
    assert (d.seat, d.kind) == ("east", "intercept")
    assert state.war["pause"]["segment"] == "tyche"
    [text] = _prompts(judge, "east", state.step)
    assert "intercept" in text and "Gaza" in text and "Jerusalem" in text
    assert "intercept: none" in text  # the pre-filled answer (the default: no reaction)
    assert "Pelusium" not in text.split("LEGAL CHOICES")[1].split("YOUR ORDERS")[0]  # no private plan
    # the mover's remaining orders stay with the judge: no public event holds them
    assert not any(e.kind == "MoveSuspended" and e.public for e in judge.store.events("g1"))

    doc = {"game": "g1", "seat": "east", "key": KEYS["east"], "step": state.step,
           "orders": {"intercept": "none"}}
    assert judge.handle_message(_mail("east", doc)) == "applied"
    state = judge.state("g1")
    kinds = [e.kind for e in judge.store.events("g1")]
    assert kinds.count("TurnPassed") == 1
    assert state.generals["ptolemy"]["space"] == "pelusium"  # the movement segment ran
    assert state.war["pause"] is None
    [d] = rules.pending(state)
    assert (d.seat, d.kind) == ("east", "player_turn")
    assert _prompts(judge, "east", state.step)


def test_standing_orders_alone_from_the_window_seat_keep_its_window_open(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """R-9.3 (docs/orders.md "Reactions"): the seat whose window is open mails standing
    orders only; they are recorded, the window stays open (same step) and the receipt
    says the game still waits for its answer."""
    judge = _judge(tmp_path, monkeypatch)
    state = judge.state("g1")
    orders = {"tyche": {"card": 27, "use": "discard"}, "movement": [{"army": "Ptolemy", "path": ["Gaza"]}]}
    doc = {"game": "g1", "seat": "north", "key": KEYS["north"], "step": state.step, "orders": orders}
    assert judge.handle_message(_mail("north", doc)) == "applied"
    state = judge.state("g1")
    assert [(d.seat, d.kind) for d in rules.pending(state)] == [("east", "intercept")]
    doc = {"game": "g1", "seat": "east", "key": KEYS["east"], "step": state.step, "seq": 1,  # standing: a seq
           "orders": {"standing": [{"when": "losses", "order": ["mercenary", "loyal"]}]}}
    assert judge.handle_message(_mail("east", doc)) == "applied"
    after = judge.state("g1")
    assert after.step == state.step and after.war["pause"] == state.war["pause"]
    assert after.private["east"]["standing"] == [{"when": "losses", "order": ["mercenary", "loyal"]}]
    rows = judge.store.db.execute(
        "SELECT id FROM outbox WHERE kind = 'reply' AND to_addr = 'east@pbem.localhost'").fetchall()
    texts = [" ".join(email.message_from_bytes(judge.store.outbox_row(i)["raw"], policy=default_policy)
                      .get_body(("plain",)).get_content().split()) for (i,) in rows]
    assert any("still waits for your answer to the intercept decision" in t for t in texts), texts
    assert not any("turn report goes to every seat" in t for t in texts), "no report follows standing orders"
