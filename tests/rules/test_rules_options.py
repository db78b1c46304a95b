"""legal_options and validate share one code path: an order is accepted exactly when it
is legal (ARCHITECTURE: rules core), checked on positions from random games."""
from __future__ import annotations

import random

import pbem.rules as R
from pbem.rules.dice import Dice


def _positions(pack, seed: bytes, every: int = 9, limit: int = 6):
    state, _ = R.new_game(pack, seed)
    rng = random.Random(seed)
    out = []
    n = 0
    while R.pending(state) and len(out) < limit:
        d = R.pending(state)[0]
        if d.kind == "player_turn" and n % every == 0:
            out.append(state)
        state, _ = R.apply(state, d.seat, R.bot_orders(state, d.seat, rng),
                           Dice(seed, state.step))
        n += 1
    return out


def test_garrison_options_match_validate(pack):
    for state in _positions(pack, b"opts-1"):
        seat = state.active
        opts = R.legal_options(state, seat)
        card = next((h for h in opts["hand"] if "garrisons" in h["uses"]), None)
        if card is None:
            continue
        for x in pack.spaces:
            orders = {"tyche": {"card": card["card"], "use": "garrisons", "places": [x]},
                      "movement": "none"}
            ok = not R.validate(state, seat, orders)
            assert ok == (x in opts["garrison_spaces"]), (x, R.validate(state, seat, orders))


def test_mercenary_and_surrender_options_match_validate(pack):
    for state in _positions(pack, b"opts-2", every=5):
        seat = state.active
        opts = R.legal_options(state, seat)
        card = next((h for h in opts["hand"] if "discard" in h["uses"]
                     and h["type"] != "surprise"), None)
        if card is None:
            continue
        base = {"tyche": {"card": card["card"], "use": "discard"}}   # changes no space
        for x in pack.spaces:
            ok = not R.validate(state, seat, {**base, "movement": {"mercenary": x}})
            assert ok == (x in opts["mercenary_spaces"]), x
            ok = not R.validate(state, seat, {**base, "surrender": {"accept": [x]}})
            assert ok == (x in opts["surrender"]["accept"]), x


def test_default_orders_are_legal(pack):
    state, _ = R.new_game(pack, b"opts-3")
    for _ in range(60):
        pend = R.pending(state)
        if not pend:
            break
        d = pend[0]
        assert R.validate(state, d.seat, d.default) == [], d.default
        state, _ = R.apply(state, d.seat, d.default, Dice(b"opts-3", state.step))
