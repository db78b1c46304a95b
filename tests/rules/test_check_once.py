"""Check once (pbem/rules/engine.py): an accepted order is checked by one dry run;
carrying it out takes the checked plan as it is and re-checks only what dice can have
changed. "This is a dry run" is said one way: a context without dice."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest
from rules_harness import ScriptedThenReal, position

import pbem.rules as R
from pbem.pack.loader import load_pack
from pbem.rules.orders import tyche

ROOT = Path(__file__).resolve().parents[2] / "pbem" / "rules"
SIEGE = {"generals": {"antigonus": {"seat": "north", "where": "map", "space": "isaura"}},
         "cus": {"isaura": {"north": {"mercenary": 4}}}, "hands": {"north": [27], "east": [30]}}


@pytest.fixture
def counted(monkeypatch):
    """How often the Tyche segment is checked (the check behind every player-turn)."""
    calls: list[bool] = []
    real = tyche.check

    def spy(*args, **kw):
        calls.append(bool(kw.get("soft", args[6] if len(args) > 6 else False)))
        return real(*args, **kw)

    monkeypatch.setattr(tyche, "check", spy)
    return calls


def test_an_order_without_dice_is_checked_once(counted) -> None:
    pack = load_pack()
    state = position(pack, {**SIEGE, "generals": {}, "cus": {"tarsus": {"north": {"loyal": 1}}},
                            "garrisons": {"tarsus": "north"}})
    orders = {"tyche": {"card": 27, "use": "discard"}, "movement": "none"}
    checked = R.check(state, "north", orders)
    assert checked.problems == [] and checked.outcome is not None
    new, events = R.execute(state, checked, ScriptedThenReal([], step=state.step))
    assert counted == [False]  # the check only: carrying out reused its events
    assert new.step == state.step + 1 and events[0].kind == "OrdersApplied"
    assert [e.kind for e in events].count("CardDiscarded") == 1


def test_after_dice_only_the_later_segments_are_checked_again(counted) -> None:
    """A free assault rolls dice in the surrender segment; the Tyche segment that
    follows is checked again (leniently) when carried out, the surrender segment is not."""
    pack = load_pack()
    state = position(pack, SIEGE)
    orders = {"surrender": {"assault": ["Isaura"]}, "tyche": {"card": 27, "use": "discard"}}
    checked = R.check(state, "north", orders)
    assert checked.problems == [] and checked.outcome is None  # dice were used
    assert [name for name, _plan in checked.plans] == ["surrender", "tyche", "movement"]
    new, events = R.execute(state, checked, ScriptedThenReal([5, 5], step=state.step))
    assert counted == [False, True]  # once in the check, once soft after the dice
    assert new.garrisons.get("isaura") == "north"
    assert [e.kind for e in events].count("AssaultRolled") == 1


def test_apply_is_check_then_execute(counted) -> None:
    pack = load_pack()
    state = position(pack, SIEGE)
    orders = {"surrender": {"assault": ["Isaura"]}, "tyche": {"card": 27, "use": "discard"}}
    a = R.apply(state, "north", orders, ScriptedThenReal([5, 5], step=state.step))
    b = R.execute(state, R.check(state, "north", orders),
                  ScriptedThenReal([5, 5], step=state.step))
    assert a[0] == b[0] and a[1] == b[1]
    assert len(counted) == 4  # two runs of check + execute, never a third


def test_a_refused_or_stale_check_is_not_carried_out() -> None:
    pack = load_pack()
    state = position(pack, SIEGE)
    bad = R.check(state, "north", {"tyche": {"card": 99, "use": "discard"}})
    assert [p.code for p in bad.problems] == ["tyche.card_not_in_hand"]
    with pytest.raises(R.IllegalOrders):
        R.execute(state, bad, ScriptedThenReal([], step=state.step))
    good = R.check(state, "north", {"tyche": {"card": 27, "use": "discard"}})
    later, _ = R.execute(state, good, ScriptedThenReal([], step=state.step))
    with pytest.raises(ValueError):
        R.execute(later, good, ScriptedThenReal([], step=later.step))


def test_a_dry_run_is_said_one_way() -> None:
    names = set()
    for f in ROOT.rglob("*.py"):
        for node in ast.walk(ast.parse(f.read_text())):
            if isinstance(node, ast.Name | ast.Attribute):
                names.add(node.id if isinstance(node, ast.Name) else node.attr)
            if isinstance(node, ast.ClassDef | ast.FunctionDef):
                names.add(node.name)
    assert not names & {"DryDice", "SOFT", "soft_if_valid", "has_war_orders"}
    assert "dry" in names
