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


def test_a_gap_leaves_the_rest_of_the_move_checked(state) -> None:
    """Issue 24.7: a path that leaves out a space (Heliopolis, then Gaza) is refused for
    the gap, and the move is still dry-run as far as it goes and judged where it ends:
    its drop of CUs it does not have, its assault where nothing is besieged, and the
    same army moved again come in the same answer (they used to wait for the path)."""
    orders = {"tyche": {"card": 57, "use": "discard"},
              "movement": [{"army": "Ptolemy", "path": ["Heliopolis", "Gaza"],
                            "drop": {"cus": {"loyal": 3}}, "assault": 1},
                           {"army": "Ptolemy", "path": ["Heliopolis"]}]}
    got = sorted((p.code, p.where) for p in R.validate(state, "north", orders))
    assert got == [("movement.bad_path", "orders.movement[0].path"),
                   ("movement.illegal", "orders.movement[0]"),
                   ("movement.illegal", "orders.movement[1]"),
                   ("siege.illegal", "orders.movement[0].assault")], got


def test_a_path_as_written_too_long_is_told_with_its_gap(state) -> None:
    """Issue 24.7: Seleucus (5 MPs) leaves out Nippur between Borsippa and Uruk; the end,
    Hidalu, lies within 5 MPs of Babylon, but the path as written costs 6 with the gap
    filled: the MPs are told with the gap, not in the answer to the path filled in."""
    orders = {"tyche": {"card": 57, "use": "discard"},
              "movement": [{"army": "Seleucus", "path": ["Borsippa", "Uruk", "Ur", "Aginis",
                                                         "Hidalu"]}]}
    got = [(p.code, p.message) for p in R.validate(state, "north", orders)]
    assert [c for c, _m in got] == ["movement.bad_path", "movement.too_far"], got
    assert "Hidalu is at least 6 MPs from Babylon along the path as written" in got[1][1], got


def test_a_drop_or_pick_up_off_the_path_is_refused(state) -> None:
    """Issue 24 ("no order silently lost"): ``pick_up: {at: Gaza}`` and ``drop: {at:
    Babylon}`` on a move from Memphis to Pelusium name spaces the army never passes; they
    used to be accepted and never carried out."""
    orders = {"tyche": {"card": 57, "use": "discard"},
              "movement": [{"army": "Ptolemy", "path": ["Heliopolis", "Pelusium"],
                            "pick_up": {"at": "Gaza", "cus": {"loyal": 1}},
                            "drop": {"at": "Babylon", "cus": {"loyal": 1}}}]}
    got = [(p.code, p.where, p.message) for p in R.validate(state, "north", orders)]
    assert [(c, w) for c, w, _m in got] == [("movement.illegal", "orders.movement[0].drop"),
                                            ("movement.illegal", "orders.movement[0].pick_up")], got
    assert got[1][2].startswith("Gaza is not on this move's path"), got
    orders["movement"][0].update(pick_up={"at": "Pelusium", "cus": {"loyal": 1}},
                                 drop={"at": "Heliopolis", "cus": {"loyal": 1}})
    assert [p.code for p in R.validate(state, "north", orders)] == ["movement.illegal"]  # none in Pelusium


def test_a_misspelled_place_leaves_the_rest_of_the_move_checked(state) -> None:
    """Issue 24.7a: a move refused for a misspelled place (read as its one close name)
    is dry-run too: its drop of CUs it does not have comes in the same answer; its
    assault is not judged where the guessed path ends (the player named no end)."""
    orders = {"tyche": {"card": 57, "use": "discard"},
              "movement": [{"army": "Ptolemy", "path": ["Heliopolis", "Pelusiumm"],
                            "drop": {"cus": {"loyal": 3}}, "assault": 1}]}
    got = [(p.code, p.where) for p in R.validate(state, "north", orders)]
    assert got == [("orders.unknown_space", "orders.movement[0].path[1]"),
                   ("movement.illegal", "orders.movement[0]")], got


def test_a_drop_off_the_path_is_refused_where_the_army_may_start_elsewhere(state) -> None:
    """Issue 24 ("no order silently lost"): after a refused Tyche activation of Ptolemy
    he may start the movement segment in Memphis or where that move would have taken
    him (Heliopolis); a ``drop: {at: Babylon}`` is on neither his path nor any start he
    may have, so it would never be carried out: refused. One at Heliopolis, which may
    be his start, is left to the real run."""
    orders = {"tyche": {"card": 30, "use": "activate", "army": "Ptolemy", "path": ["Heliopolis"]},
              "movement": [{"army": "Ptolemy", "path": ["Pelusium", "Gaza"],
                            "drop": {"at": "Babylon", "cus": {"loyal": 1}}}]}
    got = [(p.code, p.where, p.message) for p in R.validate(state, "north", orders)]
    assert [(c, w) for c, w, _m in got] == [("tyche.card_not_in_hand", "orders.tyche.card"),
                                            ("movement.illegal", "orders.movement[0].drop")], got
    assert got[1][2].startswith("Babylon is not on this move's path"), got
    orders["movement"][0]["drop"] = {"at": "Heliopolis", "cus": {"loyal": 1}}
    assert [p.code for p in R.validate(state, "north", orders)] == ["tyche.card_not_in_hand"]
