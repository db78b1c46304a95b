"""Every named thing a player writes gets a "did you mean" when misspelled (issue 24.14):
generals (as an army, dropped, picked up, in standing orders, inside a city, an event's
army), royal family members, fleets, CU types, cards by name, seats. Spaces and
provinces always had one."""
from __future__ import annotations

import pytest
from rules_harness import position

import pbem.rules as R
from pbem.pack.loader import load_pack
from pbem.rules.core.board import info

DISCARD = {"card": 27, "use": "discard"}


@pytest.fixture
def state():
    pack = load_pack()
    return position(pack, {
        "generals": {"ptolemy": {"seat": "north", "where": "map", "space": "pelusium"},
                     "seleucus": {"seat": "north", "where": "map", "space": "pelusium"},
                     "antigonus": {"seat": "east", "where": "map", "space": "gaza"}},
        "cus": {"pelusium": {"north": {"loyal": 2}}, "gaza": {"east": {"loyal": 6}}},
        "garrisons": {"alexandria": "north"},
        "hands": {"north": [27, 52, 15, 44], "east": [30]}})


def _hint(state, orders, code: str, seat: str = "north") -> str:
    got = [p for p in R.validate(state, seat, orders) if p.code == code]
    assert got, R.validate(state, seat, orders)
    return f"{got[0].message} {got[0].hint}"


@pytest.mark.parametrize("orders, code, want", [
    ({"tyche": DISCARD, "movement": [{"army": "Ptolmey", "path": ["Gaza"]}]},
     "movement.unknown_army", "did you mean Ptolemy?"),
    ({"tyche": DISCARD, "movement": [{"army": "Ptolemy", "path": ["Gaza"],
                                      "drop": {"generals": ["Selucus"]}}]},
     "commanders.unknown_general", "did you mean Seleucus?"),
    ({"tyche": DISCARD, "movement": [{"army": "Ptolemy", "path": ["Gaza"],
                                      "drop": {"royals": ["Heracels"]}}]},
     "movement.unknown_royal", "did you mean Heracles?"),
    ({"tyche": DISCARD, "movement": [{"army": "Ptolemy", "path": ["Gaza"],
                                      "drop": {"cus": {"loyl": 1}}}]},
     "movement.bad_cus", "did you mean loyal?"),
    ({"tyche": DISCARD, "movement": [{"army": "Ptolemy", "path": ["Gaza"],
                                      "escort": ["Egyptian Flet"]}]},
     "movement.bad_escort", "did you mean Egyptian Fleet?"),
    ({"tyche": DISCARD, "standing": [{"when": "intercept", "army": "Selecus"}]},
     "standing.unknown_army", "did you mean Seleucus?"),
    ({"tyche": DISCARD, "standing": [{"when": "naval_battle", "against": ["easst"]}]},
     "standing.bad_seat", "did you mean east?"),
    ({"tyche": DISCARD, "standing": [{"when": "losses", "order": ["mercenery"]}]},
     "standing.bad_order", "did you mean mercenary?"),
    ({"tyche": {"card": "Greek Mercenarys", "use": "discard"}},
     "tyche.card_not_in_hand", "did you mean #15 Greek Mercenaries?"),
    ({"tyche": DISCARD, "movement": [{"army": "Ptolemy", "path": ["Gaza"],
                                      "surprise": ["Fortune of Wars"]}]},
     "surprise.not_a_card", "did you mean #52 Fortune of War?"),
    ({"tyche": DISCARD, "heir": "Heracels"}, "royals.unknown_royal", "did you mean Heracles?"),
    ({"tyche": {"card": 44, "use": "event", "army": "Ptolmy"}},
     "tyche.unknown_army", "did you mean Ptolemy?"),
])
def test_a_misspelled_name_gets_a_did_you_mean(state, orders, code, want) -> None:
    assert want in _hint(state, orders, code)


def test_a_misspelled_seat_gets_a_did_you_mean(state) -> None:
    [p] = R.validate(state, "nroth", {"tyche": DISCARD})
    assert p.code == "orders.unknown_seat" and p.hint == "did you mean north?"


def test_no_hint_when_nothing_is_near(state) -> None:
    [p] = [p for p in R.validate(state, "north", {"tyche": DISCARD, "movement": [
        {"army": "Xerxes the Great", "path": ["Gaza"]}]}) if p.code == "movement.unknown_army"]
    assert "did you mean" not in p.message and "your armies" in p.hint


def test_a_bad_path_is_shown_a_path_that_starts_next_to_the_army(state) -> None:
    """Second hand-played game (issue 24): the fix of `movement.bad_path` always ended
    "e.g. path: [Memphis, Pelusium]", an example that broke the rule just stated for an
    army in Memphis. The example now starts next to the army (never at its own space)."""
    pack = load_pack()
    hint = _hint(state, {"tyche": DISCARD, "movement": [{"army": "Ptolemy", "path": ["Babylon", "Opis"]}]},
                 "movement.bad_path")
    example = hint.split("e.g. path: [", 1)[1].split("]", 1)[0].split(", ")
    names = {s.name: k for k, s in pack.spaces.items()}
    first = names[example[0]]
    assert first != "pelusium" and "pelusium" in {y for y, _k in info(pack).adjacent.get(first, ())}, hint
    assert "Memphis, Pelusium" not in hint
