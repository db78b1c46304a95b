"""Golden files for every mail template on fixed scenarios (fixed seeds, fixed deadline
and commitment strings, no clock).

Regenerate after an intended change, then review the diff::

    PBEM_REGEN_GOLDEN=1 .venv/bin/pytest tests/report/test_golden.py

Files: ``tests/report/golden/<scenario>.txt`` and ``.html``.
"""
from __future__ import annotations

import os
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from pbem import rules
from pbem.pack.loader import load_pack
from pbem.report import build
from pbem.report.render import render
from pbem.rules.dice import Dice

GOLDEN = Path(__file__).parent / "golden"
REGEN = os.environ.get("PBEM_REGEN_GOLDEN") == "1"
SEATS_ROWS = [{"seat": "north", "player": "Kleitos"}, {"seat": "east", "player": "Peukestas"},
              {"seat": "south", "player": "Nearchos"}, {"seat": "west", "player": "Aristonous"}]
COMMITMENT = "5c9de4d1c25016d49497bbdf58c0cd9f7754535049c6be153ca7c71cdb5f3522"
WITNESS = "9f1c" * 16 + "@123"
DEADLINE = "2030-03-15 18:00 UTC"


def _game(steps: int = 0, seed: bytes = b"golden-1") -> tuple[rules.GameState, list[rules.Event]]:
    pack = load_pack()
    state, events = rules.new_game(pack, seed, {})
    rng = random.Random(1)
    for _ in range(steps):
        d = rules.pending(state)[0]
        state, events = rules.apply(state, d.seat, rules.bot_orders(state, d.seat, rng), Dice(seed, state.step))
    return state, events


def _report(state: rules.GameState, events: list[rules.Event], seat: str | None, headline: str,
            step: int, before: rules.GameState | None = None) -> tuple[str, str]:
    rep = build.render_report(load_pack(), state, events, game_id="golden", step=step, seat=seat,
                              seats=SEATS_ROWS, headline=headline, seed_commitment=COMMITMENT, before=before)
    return rep.text, rep.html


def setup_report() -> tuple[str, str]:
    state, events = _game()
    return _report(state, events, "north", "setup, the game begins", 0)


def setup_prompt() -> tuple[str, str]:
    state, _ = _game()
    d = rules.pending(state)[0]
    row = next(r for r in SEATS_ROWS if r["seat"] == d.seat)
    return build.render_prompt(load_pack(), state, d, game_id="golden", seat_row=row, deadline=DEADLINE,
                               seats=SEATS_ROWS, witness=WITNESS)


def later_prompt() -> tuple[str, str]:
    state, _ = _game(steps=9)
    d = rules.pending(state)[0]
    row = next(r for r in SEATS_ROWS if r["seat"] == d.seat)
    return build.render_prompt(load_pack(), state, d, game_id="golden", seat_row=row, deadline=DEADLINE,
                               seats=SEATS_ROWS)


def player_turn_report() -> tuple[str, str]:
    before, _ = _game(steps=8)
    state, events = _game(steps=9)
    return _report(state, events, "west", f"{before.active} played", before.step, before)


def control_change_report() -> tuple[str, str]:
    """Issue 24 item 8: a province changes hands; the report says who gained what VP and why."""
    before, _ = _game(steps=10)
    state, events = _game(steps=11)
    return _report(state, events, "south", f"{before.active} played", before.step, before)


def battle_report() -> tuple[str, str]:
    """A report with a move, a battle's dice (modifiers, chart row/column, result) and a
    siege: events as the rules core's movement and combat will log them."""
    state, _ = _game(steps=4)
    ev = rules.Event
    events = [
        ev("ArmyMoved", {"seat": "west", "general": "ptolemy", "path": ["memphis", "pelusium", "gaza"],
                         "cus": {"loyal": 1, "mercenary": 4}, "rule": "R-9.1"}),
        ev("DiceRolled", {"purpose": "battle at Gaza: west (attacker)", "rule": "R-9.2", "values": [4, 5],
                          "sides": 6, "modifiers": {"battle rating floor": 0}, "modified": 9,
                          "chart": "battle", "row": "9", "column": "6-7", "result": 4}),
        ev("DiceRolled", {"purpose": "leader-loss check: Ptolemy", "rule": "R-9.2", "values": [2], "sides": 6}),
        ev("BattleFought", {"space": "gaza", "attacker": "west", "defender": "south",
                            "strengths": {"attacker": 7, "defender": 5}, "rolls": {"attacker": 9, "defender": 7},
                            "scores": {"attacker": 4, "defender": 2}, "result": "attacker", "winner": "west",
                            "rule": "R-9.2"}),  # the shape pbem.rules.combat emits
        ev("AssaultRolled", {"seat": "west", "space": "tyre", "dice": [4, 3], "modifier": 0,
                             "modifiers": [], "read": {"chart": "assault", "row": 7, "column": 5,
                                                       "result": "1/0"},
                             "points": 1, "lost": 0, "segment": "movement", "rule": "R-10"}),
        ev("CardsDealt", {"seat": "east", "cards": [44], "rule": "R-6.4"}, public=False, seat="east"),
    ]
    return _report(state, events, "west", "west played", 4)


def end_of_game_report() -> tuple[str, str]:
    state, _ = _game(steps=12)
    d = state.to_dict()
    d.update(result={"winner": "east", "how": "automatic_victory", "kind": "vp", "vp": 24}, active=None,
             phase="over")
    over = rules.GameState.from_dict(d, state.pack)
    events = [rules.Event("GameWon", {"seat": "east", "how": "automatic victory (23 VP)", "rule": "R-1.1"})]
    return _report(over, events, "south", "east wins", 12)


def small_mails() -> tuple[str, str]:
    text = "\n=====\n".join([
        build.render_receipt("golden", 3, "east", "orders:\n  tyche: {card: 12, use: discard}\n", "ab" * 32),
        build.render_receipt("golden", 4, "east", "orders:\n  tyche: {card: 12, use: discard}\n", "ab" * 32,
                             logged="cd" * 32, witness=WITNESS),
        build.render_rejection("orders", [{"message": "Pelusium is 3 MPs from Memphis, Ptolemy has 2",
                                           "where": "orders.movement[0]", "line": 7, "rule": "R-9.1",
                                           "hint": "stop at Pelusium"}], "golden", "orders:\n  movement: x\n"),
        build.render_notice("Your orders for step 4 are due at 2030-03-15 18:00 UTC.", "golden"),
        render("history.txt.j2", {"game_id": "golden", "seat": "north", "asked": 7, "entries": [
            {"step": 0, "turn": 1, "round": 1, "stage": "round 1", "headline": "setup, the game begins"},
            {"step": 0, "turn": 1, "round": 1, "stage": "round 1", "headline": "south played"}]}),
    ])
    html = render("history.html.j2", {"game_id": "golden", "seat": "north", "asked": None, "entries": [
        {"step": 0, "turn": 1, "round": 1, "stage": "round 1", "headline": "setup, the game begins"}]})
    return text, html


SCENARIOS: dict[str, Callable[[], tuple[str, str]]] = {
    "setup_report": setup_report, "setup_prompt": setup_prompt, "later_prompt": later_prompt,
    "player_turn_report": player_turn_report, "control_change_report": control_change_report,
    "battle_report": battle_report,
    "end_of_game_report": end_of_game_report, "small_mails": small_mails,
}


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_golden(name: str) -> None:
    text, html = SCENARIOS[name]()
    for ext, body in (("txt", text), ("html", html)):
        path = GOLDEN / f"{name}.{ext}"
        if REGEN:
            GOLDEN.mkdir(exist_ok=True)
            path.write_text(body, encoding="utf-8")
        assert path.exists(), f"{path} missing: PBEM_REGEN_GOLDEN=1 .venv/bin/pytest tests/report/test_golden.py"
        assert body == path.read_text(encoding="utf-8"), f"{path} differs (regenerate if intended)"


@pytest.mark.parametrize("name", [n for n in sorted(SCENARIOS) if n != "small_mails"])
def test_text_fits_a_phone(name: str) -> None:
    """Plain text stays within 72 columns, except the YAML template and long names."""
    text, _ = SCENARIOS[name]()
    long = [ln for ln in text.splitlines() if len(ln) > 72]
    assert not long, long
