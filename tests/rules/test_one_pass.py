"""Every mistake in one answer (issue 24.7): every part of the orders is checked in one
pass, a later part against the board the others leave, refusing what a refused part
could not change."""
from __future__ import annotations

import pytest
from rules_harness import position

import pbem.rules as R
from pbem.pack.loader import load_pack


@pytest.fixture
def state():
    pack = load_pack()
    return position(pack, {
        "generals": {"ptolemy": {"seat": "north", "where": "map", "space": "memphis"},
                     "seleucus": {"seat": "north", "where": "map", "space": "babylon"}},
        "cus": {"memphis": {"north": {"loyal": 2}}, "babylon": {"north": {"loyal": 2}}},
        "garrisons": {"memphis": "north", "babylon": "north"},
        "hands": {"north": [27, 57], "east": [30]}})


def test_a_garrison_a_path_and_an_mp_mistake_come_back_together(state) -> None:
    orders = {"tyche": {"card": 57, "use": "garrisons", "places": ["Pella"]},
              "movement": [{"army": "Ptolemy", "path": ["Pelusium", "Gaza"]},
                           {"army": "Seleucus", "path": ["Borsippa", "Nippur", "Uruk",
                                                         "Ur", "Aginis", "Hidalu"]}]}
    got = [(p.code, p.where) for p in R.validate(state, "north", orders)]
    assert got == [("tyche.garrison_illegal", "orders.tyche.places[0]"),
                   ("movement.bad_path", "orders.movement[0].path"),
                   ("movement.too_far", "orders.movement[1].path")], got


def test_what_a_refused_part_could_change_waits(state) -> None:
    """A refused Tyche activation of Ptolemy may have moved him: his movement-segment
    path is not judged from Memphis; Seleucus' move, which it cannot touch, is."""
    orders = {"tyche": {"card": 30, "use": "activate", "army": "Ptolemy", "path": ["Heliopolis"]},
              "movement": [{"army": "Ptolemy", "path": ["Pelusium", "Gaza"]},
                           {"army": "Seleucus", "path": ["Borsippa", "Nippur", "Uruk",
                                                         "Ur", "Aginis", "Hidalu"]}]}
    codes = [p.code for p in R.validate(state, "north", orders)]
    assert codes == ["tyche.card_not_in_hand", "movement.too_far"], codes
