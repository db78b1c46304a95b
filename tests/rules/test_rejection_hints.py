"""Every refusal a player can meet says how to fix it: the rejections below carry a hint
naming the player's armies, the seats, the valid ``when`` values or an example (R-8, R-9,
R-9.3, R-10, R-15). Also: a standing order may only name the seat's own general, and the
mercenary refusal names what is actually in the space (R-7.2)."""
from __future__ import annotations

import pytest
from rules_harness import position

import pbem.rules as R
from pbem.pack.loader import load_pack

DISCARD = {"card": 27, "use": "discard"}


@pytest.fixture
def real():
    p = load_pack()
    return p


def _board(real, **extra):
    spec = {
        "generals": {"ptolemy": {"seat": "north", "where": "map", "space": "pelusium"},
                     "antigonus": {"seat": "east", "where": "map", "space": "gaza"}},
        "cus": {"pelusium": {"north": {"loyal": 2}}, "gaza": {"east": {"loyal": 6}}},
        "hands": {"north": [27, 28], "east": [30]},
    }
    spec.update(extra)
    return position(real, spec)


def _one(state, seat, orders, code):
    rej = R.validate(state, seat, orders)
    assert [r.code for r in rej] == [code], [r.to_dict() for r in rej]
    r = rej[0]
    assert r.hint, r.to_dict()
    assert r.rule.startswith("R-") and r.message and r.where.startswith("orders")
    return r


def test_movement_hints(real) -> None:
    st = _board(real)
    r = _one(st, "north", {"tyche": DISCARD, "movement": [{"army": "Antigonus",
                                                            "path": ["Gaza"]}]},
             "movement.unknown_army")
    assert "your armies: Ptolemy (Pelusium)" in r.hint
    rej = R.validate(st, "north", {"tyche": DISCARD, "movement": [{"army": "Ptolemy", "path": ["Babylon"]}]})
    assert [r.code for r in rej] == ["movement.bad_path", "movement.too_far"], rej  # issue 24 N3: both at once
    assert rej[0].hint.startswith("next to Pelusium: ") and "Gaza" in rej[0].hint
    r = _one(st, "north", {"tyche": DISCARD, "movement": [{"army": "Ptolemy",
                                                            "path": ["Gaza", "Jerusalem"]}]},
             "movement.illegal")
    assert "armies that may move: Ptolemy (Pelusium" in r.hint


def test_siege_hints(real) -> None:
    st = _board(real)
    r = _one(st, "north", {"tyche": DISCARD, "surrender": {"assault": ["Gaza"]}},
             "siege.illegal")
    assert "surrender.assault" in r.hint
    r = _one(st, "north", {"tyche": DISCARD, "movement": [{"army": "Ptolemy",
                                                            "path": ["Heliopolis"],
                                                            "assault": 1}]},
             "siege.illegal")
    assert "assault: 0" in r.hint


def test_standing_hints(real) -> None:
    st = _board(real)
    r = _one(st, "north", {"tyche": DISCARD, "standing": [{"when": "ambush"}]},
             "standing.bad_when")
    assert "intercept | avoid | naval_battle | inside_join | losses" in r.hint
    r = _one(st, "north", {"tyche": DISCARD,
                           "standing": [{"when": "intercept", "army": "Nobody"}]},
             "standing.unknown_army")
    assert "your armies: Ptolemy (Pelusium)" in r.hint
    r = _one(st, "north", {"tyche": DISCARD, "standing": [{"when": "intercept"}]},
             "standing.army_missing")
    assert "Ptolemy" in r.hint
    r = _one(st, "north", {"tyche": DISCARD,
                           "standing": [{"when": "naval_battle", "against": ["nord"]}]},
             "standing.bad_seat")
    assert r.hint.startswith("seats: east, south, west")
    r = _one(st, "north", {"tyche": DISCARD,
                           "standing": [{"when": "inside_join", "city": ["Gaza"]}]},
             "standing.bad_city")
    assert "Babylon" in r.hint


def test_standing_order_names_only_own_generals(real) -> None:
    st = _board(real)
    for when in ("avoid", "intercept"):
        r = _one(st, "north", {"tyche": DISCARD,
                               "standing": [{"when": when, "army": "Antigonus"}]},
                 "standing.not_your_army")
        assert "Antigonus is not one of your generals" in r.message
        assert "your armies: Ptolemy (Pelusium)" in r.hint
    # sent alone, outside the seat's turn, too
    _one(st, "east", {"standing": [{"when": "avoid", "army": "Ptolemy"}]},
         "standing.not_your_army")
    assert R.validate(st, "east", {"standing": [{"when": "avoid", "army": "Antigonus"}]}) == []


def test_not_your_turn_hint(real) -> None:
    st = _board(real)
    r = _one(st, "east", {"tyche": {"card": 30, "use": "discard"}}, "turn.not_your_turn")
    assert "standing" in r.hint


def test_mercenary_refusal_names_an_independent_army(real) -> None:
    st = position(real, {
        "garrisons": {"susa": "north", "babylon": "north"},
        "cus": {"susa": {"north": {"loyal": 2}}, "babylon": {"north": {"loyal": 1}}},
        "inside": {"susa": {"seat": "north", "cus": {"loyal": 2}, "generals": []}},
        "indep_armies": {"autariatae": {"space": "susa", "strength": 5}},
        "hands": {"north": [27], "east": [30]}})
    r = _one(st, "north", {"tyche": DISCARD, "movement": {"mercenary": "Susa"}},
             "movement.mercenary_place_illegal")
    assert "an independent army stands outside your city" in r.message
    assert "another player" not in r.message


def test_upgrade_fleet_null_and_use_case(real) -> None:
    st = position(real, {"hands": {"north": [27, 12], "east": [30]}})
    assert R.validate(st, "north", {"tyche": {"card": 27, "use": "DISCARD"}}) == []
    for use in ("upgrade_fleet", " Upgrade_Fleet"):
        r = _one(st, "north", {"tyche": {"card": 12, "use": use, "fleet": None}},
                 "tyche.fleet_missing")
        assert r.where == "orders.tyche.fleet"
    # the normalised use is what is carried out and recorded
    _state, events = R.apply(st, "north", {"tyche": {"card": 27, "use": "Discard"}},
                             R.Dice(b"hints", st.step))
    assert any(e.kind == "CardDiscarded" and e.data["card"] == 27 for e in events)
    _state, events = R.apply(st, "north", {"tyche": {"card": 12, "use": "Train", "train": [
        {"unit": "Auxiliary", "ops": 1}]}}, R.Dice(b"hints", st.step))
    played = next(e for e in events if e.kind == "CardPlayed")
    assert played.data["use"] == "train"
    paid = next(e for e in events if e.kind == "TrainingPaid")
    assert paid.data["paid"] == [{"unit": "auxiliary", "ops": 1}]
