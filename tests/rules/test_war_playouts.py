"""Random playouts with army moves, battles, sieges, standing orders and reaction windows
(R-9 … R-15): the bots move armies (pbem.rules.war_bot); half the games set the option
``ask_windows: true`` so interception/avoid-battle windows become decisions; two games
in three set ``bot_inside: true`` so the bots put units inside major cities, besiege
other players' cities held from inside and sally out of their own (R-5, R-10).

Invariants after every decision without an open window (CUs accounted for, one faction
per space, control consistent, markings) and ``fold == live`` over the whole game.
``PBEM_WAR_PLAYOUTS`` sets the number of games (default 12).
"""
from __future__ import annotations

import os
import random

from rules_harness import check_invariants, cu_delta

import pbem.rules as R
from pbem.rules.dice import Dice

GAMES = int(os.environ.get("PBEM_WAR_PLAYOUTS", "12"))


def _play(pack, g: int) -> dict[str, int]:
    seed = f"war-playout-{g}".encode()
    state, events = R.new_game(pack, seed, {"ask_windows": bool(g % 2),
                                            "bot_inside": g % 3 != 2})
    initial = R.empty_state(pack)
    log = list(events)
    added = sum(cu_delta(e) for e in events)
    rng = random.Random(g)
    seen: dict[str, int] = {}
    gone: set[str] = set()  # members removed from play stay removed
    for _ in range(1500):
        pend = R.pending(state)
        if not pend:
            break
        d = pend[0]
        assert d.step == state.step
        orders = R.bot_orders(state, d.seat, rng)
        assert R.validate(state, d.seat, orders) == [], orders
        new, evs = R.apply(state, d.seat, orders, Dice(seed, state.step))
        assert new.step == state.step + 1
        assert R.fold(state, evs) == new
        for e in evs:
            seen[e.kind] = seen.get(e.kind, 0) + 1
        added += sum(cu_delta(e) for e in evs)
        log += evs
        state = new
        if not (state.war or {}).get("pause"):
            check_invariants(pack, state, added, gone)
    else:
        raise AssertionError("game does not end")
    assert state.result and state.result["winner"] in R.SEATS
    assert R.fold(initial, log) == state
    return seen


def test_war_playouts_real_pack() -> None:
    from pbem.pack.loader import load_pack

    pack = load_pack()
    total: dict[str, int] = {}
    for g in range(GAMES):
        for k, v in _play(pack, g).items():
            total[k] = total.get(k, 0) + v
    assert total.get("ArmyMoved", 0) > 0 and total.get("BattleFought", 0) > 0
    assert total.get("UnitsWentInside", 0) > 0  # the bot puts units inside
    if GAMES >= 12:  # bots besiege cities held from inside; the besieged sally
        assert total.get("Sallied", 0) > 0 and total.get("IndependentSiegeBegan", 0) > 0
    if GAMES >= 6:
        assert total.get("ReactionWindowOpened", 0) > 0
