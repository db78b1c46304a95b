"""new_game (R-2, R-6.1 … R-6.4), pending, fold and view on the mini and the real pack."""
from __future__ import annotations

import json

import pytest
from rules_harness import started_game

import pbem.rules as R
from pbem.rules.core.control import seat_at, victory_points


def _real():
    from pbem.pack.loader import load_pack
    return load_pack()


@pytest.fixture(params=["mini", "real"])
def any_pack(request, pack):
    return pack if request.param == "mini" else _real()


def test_new_game_setup(any_pack):
    """R-2: two primary generals per seat placed with their forces; markers; royals;
    Demetrius on the track; general cards in the deck; every seat Champion."""
    st, events = started_game(any_pack, b"seed-1")
    assert st.step == 1 and st.turn == 1 and st.round == 1
    prim = st.primary
    assert sorted(n for ns in prim.values() for n in ns) == sorted(
        n for n, c in any_pack.cards.items() if c.type == "primary")
    assert all(len(ns) == 2 for ns in prim.values())
    for seat, ns in prim.items():
        for n in ns:
            g = any_pack.cards[n].general
            pg = any_pack.generals[g]
            assert st.generals[g] == {"seat": seat, "where": "map", "space": pg.start.space}
            for x in pg.start.garrisons:
                assert st.garrisons[x] == seat
            assert st.cus[pg.start.space][seat] == {k: v for k, v in pg.start.cus.items() if v}
    assert st.generals["demetrius"]["where"] == "track"
    for g in ("seleucus", "polyperchon"):
        assert st.generals[g]["where"] == "deck"
    assert sorted(st.champions) == sorted(R.SEATS)
    for x, sp in any_pack.spaces.items():
        if sp.kind == "stronghold" or sp.independent:
            assert x in st.independent or x in st.garrisons
    for rid, rm in any_pack.royals.items():  # heirs and the cart controlled by
        r = st.royals[rid]                     # the seat that starts with them
        assert (r["space"], r["active"]) == (rm.start, rm.active)
        owners = seat_at(st.peek(), rm.start)
        want = next(iter(owners)) if rm.kind != "woman" and len(owners) == 1 else None
        assert r["seat"] == want, rid
    # five cards each, none primary, deck conserved
    size = any_pack.constants["hand_size"]
    hands, deck = {x: p["hand"] for x, p in st.private.items()}, st.secret["deck"]
    assert all(len(h) == size for h in hands.values())
    held = [n for h in hands.values() for n in h]
    assert not any(any_pack.cards[n].type == "primary" for n in held + deck)
    assert len(set(held + deck)) == len(held) + len(deck)
    # private deal events carry the seat
    dealt = [e for e in events if e.kind == "CardsDealt"]
    assert dealt and all(not e.public and e.seat == e.data["seat"] for e in dealt)
    assert R.fold(R.empty_state(any_pack), events) == st


def test_turn_order_fewest_vp_first(pack):
    """R-6.1: the seat with fewest VP (ties by die roll) names the first player in a
    turn_order decision; the deadline default [D] is that it goes first itself."""
    st, events = R.new_game(pack, b"seed-2")
    vp = victory_points(pack, st.to_dict())
    (d,) = R.pending(st)
    assert d.kind == "turn_order" and d.rule == "R-6.1" and d.step == 0
    assert vp[d.seat] == min(vp.values())
    assert d.default == {"first_player": d.seat}
    assert d.options["first_player"] == list(R.SEATS)
    assert R.legal_options(st, d.seat)["first_player"] == list(R.SEATS)
    ev = next(e for e in events if e.kind == "TurnOrderChooserNamed")
    assert ev.data["seat"] == d.seat and ev.data["rule"] == "R-6.1"
    ties = [s for s in R.SEATS if vp[s] == min(vp.values())]
    rolls = [e for e in events if e.kind == "DiceRolled" and e.data["rule"] == "R-6.1"]
    assert bool(rolls) == (len(ties) > 1)
    assert not any(e.kind in ("TurnOrderSet", "CardsDealt") for e in events)
    other = next(x for x in R.SEATS if x != d.seat)
    assert R.validate(st, other, {"first_player": other})[0].code == "turn.not_your_turn"
    assert [p.code for p in R.validate(st, d.seat, {"first_player": "nobody"})] == [
        "turn.first_player_unknown"]
    # the chooser names another seat: play goes clockwise from it
    first = R.SEATS[(R.SEATS.index(d.seat) + 2) % 4]
    st2, evs = R.apply(st, d.seat, {"first_player": first.upper()}, R.Dice(b"x", st.step))
    i = R.SEATS.index(first)
    assert st2.turn_order == [R.SEATS[(i + k) % 4] for k in range(4)]
    ev = next(e for e in evs if e.kind == "TurnOrderSet")
    assert ev.data["first"] == first and ev.data["chooser"] == d.seat
    top = max(vp.values())
    assert st2.usurpers == [s for s in R.SEATS if vp[s] == top]
    assert R.pending(st2)[0].kind == "player_turn" and R.pending(st2)[0].seat == first
    assert st2.order_choice is None and R.fold(st, evs) == st2
    # the default: the chooser goes first
    st3, _ = R.apply(st, d.seat, d.default, R.Dice(b"x", st.step))
    assert st3.turn_order[0] == d.seat


def test_pending_and_options(pack):
    st, _ = started_game(pack, b"seed-3")
    (d,) = R.pending(st)
    assert d.kind == "player_turn" and d.seat == st.turn_order[0] and d.step == 1
    assert d.rule == "R-8"
    assert {h["card"] for h in d.options["hand"]} == set(st.private[d.seat]["hand"])
    assert not R.validate(st, d.seat, d.default)
    json.dumps(d.to_dict())
    other = st.turn_order[1]
    assert R.legal_options(st, other)["garrison_spaces"] == []
    assert R.validate(st, other, d.default)[0].code == "turn.not_your_turn"


def test_apply_advances_step_and_raises(pack):
    st, _ = started_game(pack, b"seed-4")
    (d,) = R.pending(st)
    with pytest.raises(R.IllegalOrders) as exc:
        R.apply(st, d.seat, {"tyche": {"card": 999, "use": "discard"}}, R.Dice(b"x", 0))
    assert exc.value.rejections[0].code == "tyche.card_not_in_hand"
    st2, events = R.apply(st, d.seat, d.default, R.Dice(b"x", st.step))
    assert st2.step == 2
    assert R.pending(st2)[0].seat == st.turn_order[1]
    assert R.fold(st, events) == st2
    assert events[-1].kind == "PlayerTurnStarted"


def test_view_hides_secrets(any_pack):
    st, _ = started_game(any_pack, b"seed-5")
    pub = R.view(st, None)
    text = json.dumps(pub)
    assert "private" not in pub and "hands" not in pub and "deck" not in pub
    assert pub["hand_sizes"] == {s: 5 for s in R.SEATS}
    assert pub["turn"] == 1 and pub["year_bc"] == 323
    assert set(pub["vp"]) == set(R.SEATS) and set(pub["lp"]) == set(R.SEATS)
    assert all(a["space"] in any_pack.spaces for a in pub["armies"])
    seat = st.turn_order[0]
    mine = R.view(st, seat)
    assert mine["private"]["hand"] == st.private[seat]["hand"]
    assert mine["private"]["options"]["active"] is True
    json.dumps(mine)
    assert text


def test_state_and_events_round_trip(pack):
    st, events = R.new_game(pack, b"seed-6")
    again = R.GameState.from_dict(json.loads(json.dumps(st.to_dict())))
    assert again == st
    for e in events:
        assert R.Event.from_dict(json.loads(json.dumps(e.to_dict()))) == e
