"""The reaction windows and choices added to R-9.3 windows: naval battle (R-15), units
inside a major city joining a battle (R-9.2), losses by standing order (R-9.2, R-9.5,
R-8.8), Tyche-segment windows (R-8.2): decisions, validation, and narration."""
from __future__ import annotations

import re

from rules_harness import ScriptedThenReal, position

import pbem.rules as R
from pbem.pack.loader import load_pack
from pbem.report.narrate import narrate
from pbem.rules.state import Event

RAW = re.compile(r"[{}\[\]]|'\w+': ")


def _pack():
    pack = load_pack()
    R.register_pack(pack)
    return pack


def _naval_window():
    pack = _pack()
    state = position(pack, {
        "options": {"ask_windows": True}, "independent_remove": ["athenai"],
        "garrisons": {"athenai": "east", "gaza": "east"},
        "generals": {"ptolemy": {"seat": "north", "where": "map", "space": "alexandria"}},
        "cus": {"alexandria": {"north": {"loyal": 2}}}, "hands": {"north": [27], "east": [30]}})
    orders = {"tyche": {"card": 27, "use": "discard"},
              "movement": [{"army": "Ptolemy", "path": ["Pelusium", "Gaza"]}]}
    new, events = R.apply(state, "north", orders, ScriptedThenReal([], step=state.step))
    return pack, state, new, events


def test_naval_window_decision_default_and_fold() -> None:
    pack, before, state, events = _naval_window()
    assert R.fold(before, events) == state
    [d] = R.pending(state)
    assert (d.seat, d.kind, d.rule) == ("east", "naval_battle", "R-15")
    assert d.default == {"naval_battle": "none"}
    assert d.options["choices"] == [{"fleet": "athenian_fleet",
                                     "name": pack.fleets["athenian_fleet"].name}]
    assert "naval_battle" in d.options["answer"] and "R-15" in d.options["question"]
    new, evs = R.apply(state, "east", d.default, ScriptedThenReal([], step=state.step))
    kinds = [e.kind for e in evs]
    assert "NavalBattleDeclared" not in kinds and "ChampionLost" not in kinds
    assert [e.data["seat"] for e in evs if e.kind == "TurnPassed"] == ["north"]
    assert new.cus["gaza"]["north"] == {"loyal": 2}  # landed
    rej = R.validate(state, "east", {"intercept": "none"})
    assert [r.code for r in rej] == ["orders.unknown_key"] and rej[0].rule == "R-15"
    assert rej[0].hint == "{naval_battle: none}"


def test_standing_orders_for_inside_join_and_losses_are_validated() -> None:
    _pack()
    state = position(R.get_pack("successors"), {"hands": {"north": [27], "east": [30]}})
    bad = {"standing": [{"when": "inside_join", "city": "Babylon", "join": "no"},
                        {"when": "losses"},
                        {"when": "losses", "order": ["loyal", "loyal"]}]}
    rej = R.validate(state, "east", bad)
    assert [r.code for r in rej] == ["standing.bad_join", "standing.order_missing",
                                     "standing.bad_order"]
    assert all(r.rule == "R-9.2" and r.hint for r in rej)
    good = {"standing": [{"when": "inside_join", "city": "Babylon", "join": False},
                         {"when": "losses", "order": ["mercenary", "elephant", "loyal", "royal"]}]}
    assert R.validate(state, "east", good) == []
    new, _ = R.apply(state, "east", good, ScriptedThenReal([], step=state.step))
    assert new.war["standing"]["east"] == [
        {"when": "inside_join", "city": ["babylon"], "join": False},
        {"when": "losses", "order": ["mercenary", "elephant", "loyal", "royal"]}]


def test_new_reaction_events_read_as_sentences() -> None:
    pack = _pack()
    cases = [
        ("ReactionWindowOpened", {"kind": "naval_battle", "seat": "east", "mover": "north",
                                  "space": "gaza", "options": ["athenian_fleet"],
                                  "segment": "movement"}, "naval battle"),
        ("ReactionWindowOpened", {"kind": "intercept", "seat": "east", "mover": "north",
                                  "space": "gaza", "options": ["jerusalem"],
                                  "segment": "tyche"}, "Tyche segment"),
        ("ReactionWindowOpened", {"kind": "inside_join", "seat": "north", "mover": "east",
                                  "space": "babylon", "options": ["join", "stay"]}, "inside"),
        ("ReactionChosen", {"seat": "east", "kind": "naval_battle", "choice": ["athenian_fleet"],
                            "source": "window", "space": "gaza"},
         pack.fleets["athenian_fleet"].name),
        ("ReactionChosen", {"seat": "east", "kind": "naval_battle", "choice": None,
                            "source": "window", "space": "gaza"}, "no naval battle"),
        ("ReactionChosen", {"seat": "north", "kind": "inside_join", "choice": "stay",
                            "source": "standing", "space": "babylon"}, "stay out"),
        ("InsideUnitsStayedOut", {"seat": "north", "space": "babylon", "cus": {"loyal": 2},
                                  "generals": []}, "stay out of the battle"),
        ("CUsRemoved", {"seat": "north", "space": "isaura", "cus": {"loyal": 1},
                        "why": "hostile tribes", "chosen": "standing order"}, "standing order"),
    ]
    for kind, data, want in cases:
        text = narrate(pack, Event(kind, data))
        assert not RAW.search(text), text
        assert want in text, text


def test_major_campaign_pauses_and_resumes_the_second_army() -> None:
    """R-16.1: a Tyche-segment window during a Major Campaign; after the answer the second
    army of the event moves, then the movement segment, and the turn passes."""
    pack = _pack()
    card = next(n for n, c in pack.cards.items()
                if any(e.primitive == "move_armies" for e in c.effects))
    state = position(pack, {
        "options": {"ask_windows": True},
        "generals": {"ptolemy": {"seat": "north", "where": "map", "space": "pelusium"},
                     "perdiccas": {"seat": "north", "where": "map", "space": "babylon"},
                     "antigonus": {"seat": "east", "where": "map", "space": "jerusalem"}},
        "cus": {"pelusium": {"north": {"loyal": 2}}, "babylon": {"north": {"loyal": 1}},
                "jerusalem": {"east": {"loyal": 3}}},
        "hands": {"north": [card], "east": [30]}})
    orders = {"tyche": {"card": card, "use": "event",
                        "moves": [{"army": "Ptolemy", "path": ["Gaza"]},
                                  {"army": "Perdiccas", "path": ["Opis"]}]},
              "movement": "mercenary"}
    assert R.validate(state, "north", orders) == []
    mid, evs = R.apply(state, "north", orders, ScriptedThenReal([], step=state.step))
    assert [d.kind for d in R.pending(mid)] == ["intercept"]
    assert not any(e.kind == "ArmyMoved" and e.data["to"] == "opis" for e in evs)
    end, evs2 = R.apply(mid, "east", {"intercept": "none"}, ScriptedThenReal([], step=mid.step))
    kinds = [e.kind for e in evs2]
    moved = [e.data["to"] for e in evs2 if e.kind == "ArmyMoved"]
    assert moved[0] == "opis"
    assert kinds.index("TurnPassed") > kinds.index("MercenaryRaised") > kinds.index("ArmyMoved")
    assert R.fold(state, evs + evs2) == end
    assert R.pending(end)[0].seat == "east"
