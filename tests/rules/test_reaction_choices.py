"""The reaction windows and choices added to R-9.3 windows: naval battle (R-15), units
inside a major city joining a battle (R-9.2), losses by standing order (R-9.2, R-9.5,
R-8.8), Tyche-segment windows (R-8.2): decisions, validation, and narration."""
from __future__ import annotations

import re

from rules_harness import ScriptedThenReal, position

import pbem.rules as R
from pbem.pack.loader import load_pack
from pbem.report.narrate import narrate
from pbem.rules.core.state import Event

RAW = re.compile(r"[{}\[\]]|'\w+': ")


def _pack():
    pack = load_pack()
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
    state = position(load_pack(), {"hands": {"north": [27], "east": [30]}})
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
    assert new.private["east"]["standing"] == [
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
    state = _gaza_position(pack, card)
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


def _gaza_position(pack, card: int):
    """North (Ptolemy in Pelusium, Perdiccas in Babylon) holds ``card``; east's Antigonus
    in Jerusalem may intercept into Gaza (R-9.3); ask windows on."""
    return position(pack, {
        "options": {"ask_windows": True},
        "generals": {"ptolemy": {"seat": "north", "where": "map", "space": "pelusium"},
                     "perdiccas": {"seat": "north", "where": "map", "space": "babylon"},
                     "antigonus": {"seat": "east", "where": "map", "space": "jerusalem"}},
        "cus": {"pelusium": {"north": {"loyal": 2}}, "babylon": {"north": {"loyal": 1}},
                "jerusalem": {"east": {"loyal": 3}}},
        "hands": {"north": [card], "east": [30]}})


def _gaza_window():
    """North's Ptolemy may move into Gaza, where east may intercept (R-9.3)."""
    pack = _pack()
    state = _gaza_position(pack, 27)
    return pack, state


def _public_text(events) -> str:
    return repr([e.to_dict() for e in events if e.public])


def test_window_keeps_the_movers_later_orders_private_until_they_run() -> None:
    """R-9.3: while a window is open no public event holds the mover's plan (the rest
    of the Tyche path, the movement list); the mover alone sees it (OrdersWithheld);
    once the player-turn has run the orders become public (OrdersRevealed)."""
    _, state = _gaza_window()
    orders = {"tyche": {"card": 27, "use": "activate", "army": "Ptolemy", "path": ["Gaza"]},
              "movement": [{"army": "Perdiccas", "path": ["Opis"]},
                           {"army": "Ptolemy", "path": ["Pelusium"]}],
              "standing": []}
    assert R.validate(state, "north", orders) == []
    mid, evs = R.apply(state, "north", orders, ScriptedThenReal([], step=state.step))
    assert [(d.seat, d.kind) for d in R.pending(mid)] == [("east", "intercept")]
    assert R.fold(state, evs) == mid
    public = _public_text(evs)
    assert "opis" not in public.lower() and "Perdiccas" not in public and "movement" not in public
    [applied] = [e for e in evs if e.kind == "OrdersApplied"]
    assert applied.public and applied.data["withheld"] is True
    assert applied.data["orders"] == {"tyche": {"card": 27, "use": "activate"}}
    [kept] = [e for e in evs if e.kind == "OrdersWithheld"]
    assert (kept.public, kept.seat) == (False, "north")
    assert kept.data["orders"]["movement"] == orders["movement"]
    assert "standing" not in kept.data["orders"]
    end, evs2 = R.apply(mid, "east", {"intercept": "none"}, ScriptedThenReal([], step=mid.step))
    kinds = [e.kind for e in evs2]
    assert kinds.index("OrdersRevealed") < kinds.index("TurnPassed")
    [shown] = [e for e in evs2 if e.kind == "OrdersRevealed"]
    assert shown.public and shown.data["orders"]["movement"] == orders["movement"]
    assert R.fold(state, evs + evs2) == end
    assert not any("withheld" in p for p in end.private.values())


def test_movement_segment_window_keeps_the_later_moves_private() -> None:
    """R-9.3: a window opened by the first move of the movement list: the later moves
    are in no public event until they run."""
    _, state = _gaza_window()
    orders = {"tyche": {"card": 27, "use": "discard"},
              "movement": [{"army": "Ptolemy", "path": ["Gaza"]},
                           {"army": "Perdiccas", "path": ["Opis"]}]}
    mid, evs = R.apply(state, "north", orders, ScriptedThenReal([], step=state.step))
    assert [d.kind for d in R.pending(mid)] == ["intercept"]
    assert "opis" not in _public_text(evs).lower()
    [applied] = [e for e in evs if e.kind == "OrdersApplied"]
    assert applied.data["orders"] == {"tyche": {"card": 27, "use": "discard"}}
    end, evs2 = R.apply(mid, "east", {"intercept": "none"}, ScriptedThenReal([], step=mid.step))
    assert any(e.kind == "OrdersRevealed" and e.public for e in evs2)
    assert R.fold(state, evs + evs2) == end


def test_options_during_a_window_belong_to_the_answering_seat() -> None:
    """R-9.3: while a window is open the answering seat's options are the window's (as
    its pending Decision) and the waiting mover is not active."""
    _, state = _gaza_window()
    orders = {"tyche": {"card": 27, "use": "activate", "army": "Ptolemy", "path": ["Gaza"]}}
    mid, _ = R.apply(state, "north", orders, ScriptedThenReal([], step=state.step))
    [d] = R.pending(mid)
    assert dict(R.legal_options(mid, "east")) == dict(d.options)
    assert R.legal_options(mid, "east")["active"] is True
    assert R.view(mid, "east")["private"]["options"] == dict(d.options)
    north = R.legal_options(mid, "north")
    assert north["active"] is False and north["armies"] == [] and north["movement"] == []
    assert R.view(mid, "north")["private"]["options"]["active"] is False


def test_standing_orders_alone_from_the_window_seat_keep_the_window_open() -> None:
    """R-9.3 (docs/orders.md "Reactions"): standing orders alone from the seat whose
    window is open are recorded; when none of them decides the window, it stays open
    (the step does not advance) and still waits for the answer."""
    _, state = _gaza_window()
    orders = {"tyche": {"card": 27, "use": "discard"},
              "movement": [{"army": "Ptolemy", "path": ["Gaza"]}]}
    mid, _ = R.apply(state, "north", orders, ScriptedThenReal([], step=state.step))
    std = {"standing": [{"when": "intercept", "army": "Antigonus", "into": ["Sidon"]}]}
    assert R.validate(mid, "east", std) == []
    same, evs2 = R.apply(mid, "east", std, ScriptedThenReal([], step=mid.step))
    assert [e.kind for e in evs2] == ["StandingOrdersSet"]
    assert same.step == mid.step and same.war["pause"] == mid.war["pause"]
    assert same.private["east"]["standing"] == [{"when": "intercept", "army": "antigonus",
                                            "into": ["sidon"]}]
    assert [(d.seat, d.kind) for d in R.pending(same)] == [("east", "intercept")]
    assert R.fold(mid, evs2) == same
    _, evs3 = R.apply(same, "east", {"intercept": "none"},
                        ScriptedThenReal([], step=same.step))
    assert [e.data["seat"] for e in evs3 if e.kind == "TurnPassed"] == ["north"]


def test_orders_from_an_unknown_seat_are_refused() -> None:
    """R-2: only the four seats give orders; standing orders of any other name are
    refused, never stored."""
    pack = _pack()
    state = position(pack, {"hands": {"north": [27], "east": [30]}})
    std = {"standing": [{"when": "losses", "order": ["mercenary", "loyal"]}]}
    for seat in ("xyz", None, "North", 3):
        rej = R.validate(state, seat, std)
        assert [r.code for r in rej] == ["orders.unknown_seat"], seat
        assert rej[0].rule == "R-2" and rej[0].hint
        try:
            R.apply(state, seat, std, ScriptedThenReal([], step=state.step))
        except R.IllegalOrders as e:
            assert [r.code for r in e.rejections] == ["orders.unknown_seat"]
        else:
            raise AssertionError(f"orders from {seat!r} were applied")


def test_validation_does_not_refuse_what_a_dry_battle_disperses() -> None:
    """R-8.2, R-8.7 (docs/rules.md "Validation"): the all-1s dry run of the Tyche battle
    disperses the army; its movement-segment order is left to the real run, with or
    without reaction windows."""
    pack = _pack()
    for options in ({"ask_windows": True}, {}):
        state = position(pack, {
            "options": options, "turn_order": ["east", "north", "south", "west"],
            "garrisons": {"babylon": "north"},
            "cus": {"babylon": {"north": {"loyal": 3}}, "opis": {"east": {"mercenary": 3}}},
            "inside": {"babylon": {"seat": "north", "cus": {"loyal": 2}, "generals": []}},
            "generals": {"perdiccas": {"seat": "north", "where": "map", "space": "babylon"},
                         "antigonus": {"seat": "east", "where": "map", "space": "opis"}},
            "hands": {"north": [27, 28], "east": [30, 31]}})
        orders = {"tyche": {"card": 30, "use": "activate", "army": "Antigonus",
                            "path": ["Babylon"]},
                  "movement": [{"army": "Antigonus", "path": ["Opis"]}]}
        assert R.validate(state, "east", orders) == [], options


def test_standing_orders_alone_from_the_seat_on_turn_keep_its_turn_open() -> None:
    """R-9.3: standing orders may come at any time, also from the seat whose player-turn
    it is; they are recorded and the player-turn is still due (the step stays)."""
    pack = _pack()
    state = position(pack, {
        "generals": {"ptolemy": {"seat": "north", "where": "map", "space": "pelusium"}},
        "cus": {"pelusium": {"north": {"loyal": 2}}}, "hands": {"north": [27], "east": [30]}})
    [d] = R.pending(state)
    orders = {"standing": [{"when": "losses", "order": ["mercenary", "loyal"]}]}
    assert R.validate(state, d.seat, orders) == []
    new, events = R.apply(state, d.seat, orders, ScriptedThenReal([], step=state.step))
    assert new.step == state.step and [x.seat for x in R.pending(new)] == [d.seat]
    assert [e.kind for e in events] == ["StandingOrdersSet"] and not events[0].public
    assert new.private[d.seat]["standing"] == [{"when": "losses", "order": ["mercenary", "loyal"]}]
