"""The strong bot's own pieces (issue 27 Part A item 4; docs/bots.md "The strong bot"):
the regency outlook of its evaluation (R-1.3), its marches on the heirs and its
reinforcement plans. Outcomes on real positions of the real pack.
"""
from __future__ import annotations

import random

import pytest

import pbem.rules as R
from pbem.pack.loader import load_pack
from pbem.rules.bots.random import random_bot
from pbem.rules.bots.search import (
    END_WEIGHT,
    REGENCY_WEIGHT,
    end_outlook,
    heir_marches,
    heir_plans,
    regency_outlook,
    reinforcement_plans,
    search_score,
)
from pbem.rules.bots.greedy import evaluate
from pbem.rules.bots.seat_view import seat_view
from pbem.rules.core.control import royal_controller
from pbem.rules.core.state import GameState
from pbem.rules.dice import Dice


@pytest.fixture(scope="module")
def real_pack():
    return load_pack()


def _with(state: GameState, change) -> GameState:
    s = state.to_dict()
    change(s)
    return GameState.adopt(s, state.pack)


def test_the_regency_outlook_rewards_the_heirs_holder_and_grows_near_his_turn(real_pack) -> None:
    """At the start the seat dealt Perdiccas holds Alexander IV with the most LP: the
    outlook is positive for it and as negative for each rival, larger in turn 3 (the
    regency is at the start of turn 4) than in turn 1, and nothing once he is gone."""
    state, _ = R.new_game(real_pack, b"outlook")
    s = state.peek()
    holder = royal_controller(real_pack, s, "alexander_iv")
    assert holder in R.SEATS and royal_controller(real_pack, s, "heracles") is None
    rivals = [x for x in R.SEATS if x != holder]
    now = regency_outlook(state, holder)
    assert now > 0
    assert all(regency_outlook(state, x) == pytest.approx(-now) for x in rivals)
    late = _with(state, lambda d: d.__setitem__("turn", 3))
    assert regency_outlook(late, holder) == pytest.approx(4 * now)
    assert regency_outlook(late, holder) > 0.9 * REGENCY_WEIGHT
    gone = _with(late, lambda d: d["royals"]["alexander_iv"].__setitem__("gone", True))
    assert regency_outlook(gone, holder) == 0.0
    assert search_score(late, rivals[0]) == pytest.approx(
        evaluate(late, rivals[0]) + regency_outlook(late, rivals[0])
        + end_outlook(late, rivals[0]))


def test_the_end_outlook_favours_the_vp_leader_in_the_last_turn(real_pack) -> None:
    """Once the VP differ, the seat that leads in VP has the best end outlook (R-1.2:
    most VP wins at the end of the last turn, LP no longer count); in the last turn a
    lead of a VP or more is worth most of its weight, 16 times what it is in turn 1."""
    from pbem.rules.core.control import victory_points
    state, _ = R.new_game(real_pack, b"end-outlook")
    rng = random.Random(4)
    while True:
        vp = victory_points(real_pack, state.peek())
        top = sorted(vp.values())
        if top[-1] > top[-2]:
            break
        d = R.pending(state)[0]
        state, _ = R.apply(state, d.seat, random_bot(state, d.seat, rng),
                           Dice(b"end-outlook", state.step))
    leader = max(vp, key=vp.get)
    last = _with(state, lambda d: d.__setitem__("turn", 5))
    first = _with(state, lambda d: d.__setitem__("turn", 1))
    assert end_outlook(last, leader) > 0.6 * END_WEIGHT
    assert all(end_outlook(last, x) < 0.3 * END_WEIGHT for x in R.SEATS if x != leader)
    assert end_outlook(last, leader) == pytest.approx(16 * end_outlook(first, leader))


def test_the_heir_marches_go_for_the_heirs_and_leave_the_own_one_guarded(real_pack) -> None:
    """A seat without an heir marches its armies toward Alexander IV or Heracles (the
    cheapest land path, as far as the initiative goes); the holder of Alexander IV
    never marches the army that guards him, only its others (toward Heracles)."""
    state, _ = R.new_game(real_pack, b"outlook")
    s = state.peek()
    holder = royal_controller(real_pack, s, "alexander_iv")
    guard = s["royals"]["alexander_iv"]["space"]
    for seat in R.SEATS:
        view = seat_view(state, seat)
        marches = heir_marches(view, seat)
        assert marches, seat
        armies = {g["space"] for g in s["generals"].values() if g["seat"] == seat}
        assert all(m["army"] in armies and m["path"] for m in marches)
        if seat == holder:
            assert all(m["army"] != guard for m in marches)
    rng = random.Random(3)
    while R.pending(state)[0].kind != "player_turn" or R.pending(state)[0].seat == holder:
        d = R.pending(state)[0]
        state, _ = R.apply(state, d.seat, random_bot(state, d.seat, rng),
                           Dice(b"outlook", state.step))
    seat = R.pending(state)[0].seat
    view = seat_view(state, seat)
    plans = heir_plans(view, seat, rng)
    assert plans and all(p["movement"][0] in heir_marches(view, seat) for p in plans)
    assert any(not R.validate(state, seat, p) for p in plans)


def test_the_reinforcement_plans_put_every_cu_with_the_heirs_army_first(real_pack) -> None:
    """In a reinforcement segment where the seat holds an heir with a general beside
    him on a placement space, its first plan puts every new and dispersed CU there,
    and the plans the engine accepts are legal orders."""
    seen = 0
    for g in range(12):
        state, _ = R.new_game(real_pack, b"plans-%d" % g)
        rng = random.Random(g)
        while R.pending(state) and state.turn < 4:
            d = R.pending(state)[0]
            if state.reinforce:
                s = state.peek()
                opts = R.legal_options(state, d.seat)
                heirs = {s["royals"][r]["space"] for r in ("alexander_iv", "heracles")
                         if not s["royals"][r].get("gone")
                         and royal_controller(real_pack, s, r) == d.seat}
                led = {x["space"] for x in s["generals"].values()
                       if x["where"] == "map" and x["seat"] == d.seat}
                places = heirs & led & set(opts["placement_spaces"])
                plans = reinforcement_plans(seat_view(state, d.seat), d.seat)
                if places and sum(opts["new"].values()) + sum(opts["dispersed"].values()):
                    seen += 1
                    first = plans[0]["reinforcements"]
                    assert len(first) == 1 and first[0]["space"] in places
                    assert sum(first[0]["cus"].values()) == \
                        sum(opts["new"].values()) + sum(opts["dispersed"].values())
                assert any(not R.validate(state, d.seat, p) for p in plans) or not plans
            state, _ = R.apply(state, d.seat, random_bot(state, d.seat, rng),
                               Dice(b"plans-%d" % g, state.step))
        if seen >= 2:
            break
    assert seen >= 1
