"""Reaction windows (R-9.3): the pending decision's shape, its default, the view, and that
fold rebuilds a paused player-turn."""
from __future__ import annotations

from rules_harness import ScriptedThenReal, position

import pbem.rules as R
from pbem.pack.loader import load_pack


def _paused():
    pack = load_pack()
    state = position(pack, {
        "options": {"ask_windows": True},
        "generals": {"ptolemy": {"seat": "north", "where": "map", "space": "pelusium"},
                     "antigonus": {"seat": "east", "where": "map", "space": "jerusalem"}},
        "cus": {"pelusium": {"north": {"loyal": 2}}, "jerusalem": {"east": {"loyal": 3}}},
        "hands": {"north": [27], "east": [30]}})
    orders = {"tyche": {"card": 27, "use": "discard"},
              "movement": [{"army": "Ptolemy", "path": ["Gaza"]}]}
    new, events = R.apply(state, "north", orders, ScriptedThenReal([], step=state.step))
    return state, new, events


def test_window_is_a_decision_with_a_no_reaction_default() -> None:
    before, state, events = _paused()
    assert R.fold(before, events) == state
    [d] = R.pending(state)
    assert (d.seat, d.kind, d.rule, d.step) == ("east", "intercept", "R-9.3", state.step)
    assert d.default == {"intercept": "none"}
    assert [c["space"] for c in d.options["choices"]] == ["jerusalem"]
    assert R.view(state, None)["reaction_window"]["seat"] == "east"
    assert R.validate(state, "east", {"intercept": {"army": "Gaza"}})[0].code == \
        "reaction.bad_army"


def test_default_answer_resumes_and_ends_the_movers_turn() -> None:
    _before, state, _ = _paused()
    [d] = R.pending(state)
    new, events = R.apply(state, "east", d.default, ScriptedThenReal([], step=state.step))
    kinds = [e.kind for e in events]
    assert "InterceptionRolled" not in kinds
    assert [e.data["seat"] for e in events if e.kind == "TurnPassed"] == ["north"]
    assert R.view(new, None)["reaction_window"] is None
    assert R.pending(new)[0].kind == "player_turn"


def test_standing_orders_by_mail_out_of_turn() -> None:
    """Any seat may send standing orders at any time; nothing else changes (R-9.3)."""
    pack = load_pack()
    state = position(pack, {"hands": {"north": [27], "east": [30]}})
    orders = {"standing": [{"when": "avoid", "army": "Eumenes", "toward": "Sinope"}]}
    assert R.validate(state, "east", orders) == []
    assert R.validate(state, "east", {"standing": [{"when": "retreat"}]})[0].code == \
        "standing.bad_when"
    new, events = R.apply(state, "east", orders, ScriptedThenReal([], step=state.step))
    assert [e.kind for e in events] == ["StandingOrdersSet"]
    assert new.step == state.step and new.active == "north"
    assert new.private["east"]["standing"] == [{"when": "avoid", "army": "eumenes",
                                            "toward": "sinope"}]
    assert R.fold(state, events) == new
