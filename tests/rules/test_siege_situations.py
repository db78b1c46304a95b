"""Siege situations of major cities (R-4.3, R-5, R-7.2, R-14): who besieges a city, the
unlimited reinforcement placement only on an unbesieged friendly major city, an
independent army that wins in a major city keeps off its marker, and the new events read
as sentences. Scenarios: r4_3_besieged_royal_cus_desert, r5_major_city_sally(_tie),
r7_2_reinforcements_inside, r14_independent_besieges_major_city."""
from __future__ import annotations

import pytest
from rules_harness import ScriptedThenReal, position

import pbem.rules as R
from pbem.pack.loader import load_pack
from pbem.report.narrate import narrate
from pbem.rules.context import Ctx
from pbem.rules.core.pieces import INDEP, besieger
from pbem.rules.core.placement import count_placement, placement_targets, unlimited_city
from pbem.rules.resolve.combat import battle


@pytest.fixture
def real():
    p = load_pack()
    return p


def test_besieger_names_who_stands_outside(real) -> None:
    s = position(real, {"garrisons": {"babylon": "north", "opis": "north"},
                        "cus": {"babylon": {"north": {"loyal": 2}}}}).to_dict()
    assert besieger(real, s, "babylon") is None
    assert besieger(real, s, "opis") is None  # no major city: never besieged
    s["inside"] = {"babylon": {"seat": "north", "cus": {"loyal": 2}, "generals": []}}
    s["cus"]["babylon"]["east"] = {"mercenary": 3}
    assert besieger(real, s, "babylon") == "east"
    del s["cus"]["babylon"]["east"]
    s["indep_armies"] = {"autariatae": {"space": "babylon", "strength": 5}}
    assert besieger(real, s, "babylon") == INDEP  # ending there is a siege


def test_no_unlimited_placement_on_a_besieged_major_city(real) -> None:
    # the rulebook's limit (R-7.2, option reinforcement_limit: province); under seed
    # 003's (the default) a besieged city of the seat's is no placement space at all
    s = position(real, {"garrisons": {"babylon": "north"},
                        "options": {"reinforcement_limit": "province"}}).to_dict()
    assert unlimited_city(real, s, "north", "babylon")
    placed: dict[str, int] = {}
    count_placement(real, s, "north", "babylon", placed)
    assert placed == {}
    s["indep_armies"] = {"autariatae": {"space": "babylon", "strength": 5}}
    assert not unlimited_city(real, s, "north", "babylon")
    count_placement(real, s, "north", "babylon", placed)
    assert placed == {"babylonia": 1}
    assert "babylon" not in placement_targets(real, s, "north")  # [L] enemy army there
    s["options"] = {}
    assert "babylon" not in placement_targets(real, s, "north")


@pytest.mark.parametrize("space,kept", [("pella", True), ("aegae", False)])
def test_independent_victory_removes_no_major_city_marker(real, space, kept) -> None:
    s = position(real, {"garrisons": {space: "north"},
                        "cus": {space: {"north": {"mercenary": 1}}},
                        "minors": {"north": [space]}}).to_dict()
    s["indep_armies"] = {"autariatae": {"space": space, "strength": 5}}
    ctx = Ctx(real, s, ScriptedThenReal([6, 6, 1, 1]))
    assert battle(ctx, INDEP, "north", space, "baeonia", why="independent") == "attacker"
    assert (s["garrisons"].get(space) == "north") is kept


def test_new_events_read_as_sentences(real) -> None:
    for kind, data in (
            ("BesiegedRoyalCUsDeserted", {"from": "north", "to": "east", "space": "babylon",
                                          "count": 1, "legitimacy": {"east": 5, "north": 3},
                                          "rule": "R-4.3"}),
            ("Sallied", {"seat": "north", "space": "babylon", "enemy": "east",
                         "cus": {"loyal": 2}, "generals": [], "rule": "R-5"}),
            ("IndependentSiegeBegan", {"army": "autariatae", "space": "pella",
                                       "seat": "north", "rule": "R-14"})):
        text = narrate(real, R.Event(kind, data))
        assert "{" not in text and "[" not in text, text
        assert "Babylon" in text or "Pella" in text, text
        assert text.endswith(".") and "R-" in text
