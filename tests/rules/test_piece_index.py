"""The indexes of who is where (:mod:`pbem.rules.core.derived`, issue 27 item 5, fourth
pass) are never stale: random games are played with every reduction watched, and after
each one every index or memo still kept for a part of the working dict (the CU holders
of ``cus``, updated at the kinds' ``cells``; the generals by space and seat; province
control of the garrisons) equals the same value computed from scratch.
"""
from __future__ import annotations

import pytest
from rules_harness import bot_game

from pbem.pack.loader import load_pack
from pbem.rules import context, engine
from pbem.rules.core import control, derived, pieces

GAMES = 4


@pytest.fixture(scope="module")
def pack():
    return load_pack()


def _check_kept(pack, s) -> int:
    """Compare what is kept for the parts of ``s`` with fresh values; how many were."""
    n = 0
    hit = derived._HOLDERS.get(id(s["cus"]))
    if hit is not None:
        assert hit[0] is s["cus"]
        fresh = derived._scan(s["cus"])
        assert {o: xs for o, xs in hit[1].items() if xs} == fresh
        n += 1
    memo = derived._MEMOS.get(id(s["generals"]))
    if memo is not None and pieces._POSTED in memo[2]:
        assert memo[2][pieces._POSTED] == pieces._post(s["generals"])
        n += 1
    memo = derived._MEMOS.get(id(s["garrisons"]))
    if memo is not None and memo[1] is pack:
        for key, value in memo[2].items():
            if key == control._ALL:
                assert value == control._province_control(pack, s)
            else:
                assert value == control._province_controller(pack, s, key)
            n += 1
    return n


def test_kept_indexes_equal_fresh_ones_after_every_event(pack, monkeypatch):
    real = context.reduce
    checked = [0, 0]

    def watched(s, ev):
        real(s, ev)
        checked[0] += 1
        checked[1] += _check_kept(pack, s)

    monkeypatch.setattr(context, "reduce", watched)
    monkeypatch.setattr(engine, "reduce", watched)
    for g in range(GAMES):
        for state, _d, _orders in bot_game(pack, bytes([g + 40]) * 8, g):
            checked[1] += _check_kept(pack, state.peek())
    assert checked[0] > 1000 and checked[1] > 1000, checked
