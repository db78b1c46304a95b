"""Special units (R-4.1 [L], R-4.4 [D], R-10 Helepolis): one helper module
(pbem.rules.units) answers for strength, Macedonian-ness and loss order; the card event
is offered and accepted exactly when an army qualifies; losers lose them as their pack
``cu_type``; pick-up/drop-off, inside orders, the tie-break, the view and the reports
know them; fold rebuilds the state."""
from __future__ import annotations

import pytest
from rules_harness import ScriptedThenReal, position

import pbem.rules as R
from pbem.pack.loader import load_pack
from pbem.rules.context import Ctx
from pbem.rules.core.armies import macedonian_cus
from pbem.rules.core.units import (
    is_macedonian,
    is_unit_type,
    loss_key,
    special_status,
    unit_strength,
)
from pbem.rules.dice import Dice

IN_PLAY = {"sieges": {}, "standing": {}, "fleets": {}, "pause": None}


@pytest.fixture
def real():
    p = load_pack()
    return p


def test_type_helpers_read_the_pack(real) -> None:
    sp = real.special_units
    assert unit_strength(real, "silver_shields") == sp["silver_shields"].strength == 3
    assert unit_strength(real, "helepolis") == sp["helepolis"].strength == 0
    # the Corps has a fixed strength, never rolled like elephant CUs
    assert unit_strength(real, "indian_elephant_corps") == 4
    assert unit_strength(real, "elephant") is None
    assert is_macedonian(real, "silver_shields") and is_macedonian(real, "royal")
    assert not is_macedonian(real, "helepolis")
    assert not is_macedonian(real, "indian_elephant_corps")
    assert is_unit_type(real, "helepolis") and not is_unit_type(real, "catapult")
    # losses [D]: ordinary CUs first (weakest first, rolled last), special units last
    order = sorted(["silver_shields", "elephant", "mercenary", "helepolis", "loyal"],
                   key=lambda t: loss_key(real, t))
    assert order == ["mercenary", "loyal", "elephant", "helepolis", "silver_shields"]


def test_no_army_in_asia_is_rejected_and_not_offered(real) -> None:
    st = position(real, {
        "generals": {"ptolemy": {"seat": "north", "where": "map", "space": "pelusium"}},
        "cus": {"pelusium": {"north": {"loyal": 2}}},
        "hands": {"north": [46, 27], "east": [30]}})
    rej = R.validate(st, "north", {"tyche": {"card": 46, "use": "event"},
                                   "movement": "none"})
    assert [r.code for r in rej] == ["tyche.special_unit_no_army"]
    assert rej[0].rule == "R-4.1" and rej[0].where == "orders.tyche.use"
    assert "you have no army (a general with CUs) in Asia that the Indian Elephant " \
           "Corps could join" in rej[0].message
    opts = R.legal_options(st, "north")
    card = next(h for h in opts["hand"] if h["card"] == 46)
    assert "event" not in card["uses"] and "garrisons" in card["uses"]
    assert opts["special_unit_armies"] == {"46": []}


def test_army_must_be_named_when_several_qualify(real) -> None:
    st = position(real, {
        "generals": {"ptolemy": {"seat": "north", "where": "map", "space": "pelusium"},
                     "seleucus": {"seat": "north", "where": "map", "space": "babylon"}},
        "cus": {"pelusium": {"north": {"loyal": 2}}, "babylon": {"north": {"mercenary": 1}}},
        "hands": {"north": [44, 27], "east": [30]}})
    rej = R.validate(st, "north", {"tyche": {"card": 44, "use": "event"},
                                   "movement": "none"})
    assert [r.code for r in rej] == ["tyche.special_unit_army_missing"]
    assert rej[0].hint == "armies that qualify: Seleucus in Babylon, Ptolemy in Pelusium"
    opts = R.legal_options(st, "north")
    assert opts["special_unit_armies"] == {"44": ["babylon", "pelusium"]}
    for space in opts["special_unit_armies"]["44"]:  # offered == accepted
        assert not R.validate(st, "north", {"tyche": {"card": 44, "use": "event",
                                                      "army": space}, "movement": "none"})
    # bad input is a rejection, never a crash
    for bad in (7, None, ["x"], "Nowhere"):
        rej = R.validate(st, "north", {"tyche": {"card": 44, "use": "event", "army": bad},
                                       "movement": "none"})
        assert rej and all(r.rule.startswith("R-") for r in rej), bad


def test_losers_lose_special_units_as_their_cu_type(real) -> None:
    """R-9.2 + pack ``cu_type``: Helepolis (mercenary) and the Corps (elephant) are
    eliminated, the Silver Shields (loyal) roll attrition; survivors are dispersed and
    still count for the R-1.2 tie-break; the destroyed ones are marked destroyed."""
    from pbem.rules.resolve.combat import defeat

    st = position(real, {
        "generals": {"eumenes": {"seat": "north", "where": "map", "space": "tyre"}},
        "cus": {"tyre": {"north": {"loyal": 1, "silver_shields": 1, "helepolis": 1,
                                   "indian_elephant_corps": 1}}},
        "war": {**IN_PLAY, "specials": {"silver_shields": "in_play", "helepolis": "in_play",
                                        "indian_elephant_corps": "in_play"}}})
    assert macedonian_cus(real, st.peek(), "north") == 2
    ctx = Ctx(real, st.to_dict(), ScriptedThenReal([1, 6]))  # loyal dies, SS survives
    defeat(ctx, "north", "tyre")
    removed = [e.data["cus"] for e in ctx.events if e.kind == "CUsRemoved"]
    assert removed == [{"helepolis": 1, "indian_elephant_corps": 1}, {"loyal": 1}]
    s = ctx.s
    assert s["dispersed"]["north"] == {"silver_shields": 1}
    assert special_status(real, s, "silver_shields")["status"] == "dispersed"
    assert special_status(real, s, "helepolis")["status"] == "destroyed"
    assert special_status(real, s, "indian_elephant_corps")["status"] == "destroyed"
    assert macedonian_cus(real, s, "north") == 1  # dispersed ones count [L]
    assert R.fold(st, ctx.events).to_dict() == s


def test_pick_up_drop_inside_and_reports(real) -> None:
    from pbem.report.context import cus_text, strength

    st = position(real, {
        "generals": {"seleucus": {"seat": "north", "where": "map", "space": "babylon"}},
        "garrisons": {"babylon": "north"},
        "cus": {"babylon": {"north": {"loyal": 2, "silver_shields": 1, "helepolis": 1}}},
        "war": {**IN_PLAY, "specials": {"silver_shields": "in_play",
                                        "helepolis": "in_play"}},
        "hands": {"north": [27, 28], "east": [30]}})
    cus = st.cus["babylon"]["north"]
    assert cus_text(real, cus) == "2 loyal, Silver Shields, Helepolis"
    assert strength(real, cus) == "7"
    view = R.view(st, None)
    assert view["special_units"]["silver_shields"] == {
        "unit": "silver_shields", "status": "map", "seat": "north", "space": "babylon"}
    orders = {"tyche": {"card": 27, "use": "discard"},
              "inside": {"Babylon": {"silver_shields": 1}},
              "movement": [{"army": "Seleucus", "path": ["Opis"],
                            "drop": {"cus": {"helepolis": 1}}}]}
    assert R.validate(st, "north", orders) == []
    st2, _events = R.apply(st, "north", orders, Dice(b"special", st.step))
    assert st2.cus["babylon"]["north"] == {"silver_shields": 1, "helepolis": 1}
    assert st2.cus["opis"]["north"] == {"loyal": 2}
    assert st2.inside["babylon"]["cus"] == {"silver_shields": 1}
    # one indivisible unit: there is no second Helepolis to drop
    bad = {"tyche": {"card": 27, "use": "discard"},
           "movement": [{"army": "Seleucus", "path": ["Opis"],
                         "drop": {"cus": {"helepolis": 2}}}]}
    rej = R.validate(st, "north", bad)
    assert [r.code for r in rej] == ["movement.illegal"]
    assert "the army has 1 Helepolis CUs, not 2" in rej[0].message
    rej = R.validate(st, "north", {"tyche": {"card": 27, "use": "discard"},
                                   "inside": {"Babylon": {"silver_shield": 1}}})
    assert [(r.code, r.hint) for r in rej] == [("inside.unknown_cu_type",
                                                "did you mean silver_shields?")]
    # the special units count as CUs for the inside capacity
    rej = R.validate(st, "north", {"tyche": {"card": 27, "use": "discard"}, "inside": {
        "Babylon": {"silver_shields": 1, "helepolis": 1, "loyal": 1}}})
    assert [r.code for r in rej] == ["inside.over_capacity"]
