"""A card's ``uses`` from yes/no answers (issue 27 item 5, fourth pass, i-yesno27): whether
a space may take a garrison (R-8.3) and whether an army can step (R-9.1), each stopping
at the first, answer exactly as the lists they replace; the lists are computed only
when they are read."""
from __future__ import annotations


import pytest

from pbem import rules
from pbem.pack.loader import load_pack
from pbem.rules.core.board import info
from pbem.rules.core.garrisons import any_legal_garrison_space, legal_garrison_spaces
from pbem.rules.orders import movement, tyche
from pbem.rules.phases import player_turn
from rules_harness import bot_steps

PACK = load_pack(None)
PACK_INFO = info(PACK)


def _states(seed: bytes, decisions: int) -> list[rules.GameState]:
    """Every state of a random real-pack game, up to ``decisions`` decisions."""
    steps = list(bot_steps(PACK, seed, seed, decisions))
    return [steps[0][0]] + [new for _state, _d, new, _events in steps]


STATES = _states(b"yes-no-a", 150) + _states(b"yes-no-b", 150)[::2]


def test_the_garrison_yes_no_is_the_lists_truth() -> None:
    """R-8.3: ``any_legal_garrison_space`` is ``bool(legal_garrison_spaces)`` for every
    seat in every position of two random games, and also with the seat's CUs gone (the
    range counts from its garrisons, never legal themselves), with its garrisons around
    them too, and with neither (no space)."""
    assert len(STATES) > 100
    seen = {True: 0, False: 0}
    for state in STATES:
        s = state.peek()
        for seat in rules.SEATS:
            want = bool(legal_garrison_spaces(PACK, s, seat))
            assert any_legal_garrison_space(PACK, s, seat) is want
            seen[want] += 1
            no_cus = {**s, "cus": {x: {o: c for o, c in by.items() if o != seat}
                                   for x, by in s["cus"].items()}}
            ring = {y for x, o in s["garrisons"].items() if o == seat
                    for y, _k in PACK_INFO.adjacent.get(x, ())}
            walled = {**no_cus, "garrisons": {**{y: seat for y in ring}, **s["garrisons"]}}
            bare = {**no_cus, "garrisons": {x: o for x, o in s["garrisons"].items() if o != seat}}
            for t in (no_cus, walled, bare):  # bare: nothing to count from, no space
                got = bool(legal_garrison_spaces(PACK, t, seat))
                assert any_legal_garrison_space(PACK, t, seat) is got
                seen[got] += 1
    assert seen[True] and seen[False]


def test_the_step_yes_no_is_can_step_from_the_armies() -> None:
    """R-9.1: ``may_step`` is ``can_step`` from the whole ``army_options`` list, for
    every seat, every position of two random games and 0 to 6 MPs."""
    seen = {True: 0, False: 0}
    for state in STATES[::2]:
        s = state.peek()
        for seat in rules.SEATS:
            for mp in range(7):
                want = tyche.can_step(PACK, s, seat, mp)
                assert tyche.may_step(PACK, s, seat, mp) is want
                seen[want] += 1
    assert seen[True] and seen[False]


def test_a_cards_uses_need_no_list(monkeypatch: pytest.MonkeyPatch) -> None:
    """A card's entry (its ``uses``, R-8.2 … R-8.4) is the same when the garrison spaces'
    list and the armies' list cannot be computed: neither is computed for it; the
    ``garrison_spaces`` key still gives the list when read."""
    checked = 0
    for state in STATES[::5]:
        s = state.peek()
        seat = s["active"]
        if seat not in rules.SEATS:
            continue
        plain = tyche.options(PACK, s, seat)
        want = {h["card"]: h for h in plain["hand"]}

        def no_list(*_a: object, **_k: object) -> None:
            raise AssertionError("a list was computed for a card's uses")

        with monkeypatch.context() as m:
            m.setattr(tyche, "legal_garrison_spaces", no_list)
            m.setattr(tyche, "army_options", no_list)
            m.setattr(movement, "army_options", no_list)
            lazy = player_turn.player_turn_options(PACK, s, seat)
            for n in lazy.part("playable"):
                assert lazy.part("card", n) == want[n]
                checked += 1
        assert lazy["garrison_spaces"] == plain["garrison_spaces"]
    assert checked > 10
