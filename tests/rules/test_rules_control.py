"""Control, areas and points (R-3.2, R-3.4, R-1.4, R-11.1) on hand-built positions."""
from __future__ import annotations

from rules_harness import position

from pbem.rules.core.board import area_of
from pbem.rules.core.control import (
    legitimacy_points,
    province_controller,
    royal_controller,
    space_controller,
    victory_points,
)


def test_space_control_and_independent(pack):
    s = position(pack, {"garrisons": {"memphis": "north"}}).to_dict()
    assert space_controller(s, "memphis") == "north"
    assert space_controller(s, "byzantion") == "independent"
    assert space_controller(s, "gaza") is None                 # vacant


def test_province_needs_strict_majority_and_major_city(pack):
    s = position(pack, {"garrisons": {"memphis": "north", "pelusium": "north"}}).to_dict()
    assert province_controller(pack, s, "egypt") == "north"
    s = position(pack, {"garrisons": {"alexandria": "north", "pelusium": "north"}}).to_dict()
    assert province_controller(pack, s, "egypt") is None       # no major city
    s = position(pack, {"garrisons": {"pella": "north", "aegae": "north"}}).to_dict()
    assert province_controller(pack, s, "macedonia") is None   # 2 of 5


def test_areas(pack):
    """R-3.4: a space's area is its province's."""
    assert area_of(pack, "pella") == "europe"
    assert area_of(pack, "memphis") == "africa"
    assert area_of(pack, "babylon") == "asia"


def test_lord_of_asia_and_hellespont(pack):
    g = {"gordion": "north", "celaenae": "north", "antioch": "north", "thapsacus": "north",
         "babylon": "north", "sippar": "north", "lysimachia": "east", "byzantion": "east"}
    s = position(pack, {"garrisons": g, "independent_remove": ["byzantion"]}).to_dict()
    vp = victory_points(pack, s)
    assert vp["north"] == 2 + 2 + 3 + pack.constants["lord_of_asia_vp"]
    # east: Thrace (1 VP) and both Hellespont ports of the mini pack
    assert vp["east"] == 1 + pack.constants["hellespont_vp"]


def test_legitimacy(pack):
    """R-11.1: Champion, one heir only (the best), generals' LP, Strategos of Europe."""
    s = position(pack, {
        "garrisons": {"pella": "north", "aegae": "north", "baeonia": "north"},
        "royals": {"alexander_iv": {"space": "babylon", "active": True},
                   "heracles": {"space": "babylon", "active": True},
                   "cleopatra": {"space": "babylon", "active": False}},
        "generals": {"perdiccas": {"seat": "north", "where": "map", "space": "babylon"}},
        "cus": {"babylon": {"north": {"loyal": 1}}},
        "champions": ["north", "east"],
    }).to_dict()
    assert royal_controller(pack, s, "alexander_iv") == "north"
    assert royal_controller(pack, s, "cleopatra") is None      # inactive woman
    lp = legitimacy_points(pack, s)
    assert lp["north"] == 3 + 3 + 1 + 2                        # champion, Alex IV, Perdiccas, Strategos
    assert lp["east"] == 3 and lp["south"] == 0
