"""One step of a move (issue 27 item 5, fourth pass, i-step27): an ``ArmyMoved`` writes
no garrison and, of ``war``, only its sieges, so ``Ctx.emit`` takes no Champions' watch
(R-11.4) and looks for no fleet changing hands (R-15) nor capital lost (R-1.4) after it
(``context._SIEGES_ONLY``). Here, in random games: no step changes what VP, the fleets'
owners or the capitals read, and no step pays for those looks."""
from __future__ import annotations

import copy

import pytest
from rules_harness import bot_game

from pbem.pack.loader import load_pack
from pbem.rules import context
from pbem.rules.core.control import _vp_key, fleet_owner
from pbem.rules.core.pieces import generals_at
from pbem.rules.core.state import SEATS
from pbem.rules.resolve.movement import _posted


@pytest.fixture(scope="module")
def pack():
    return load_pack()


def test_a_step_changes_nothing_vp_fleets_or_capitals_read(pack, monkeypatch):
    real_reduce = context.reduce
    seen = {"steps": 0, "sieges lifted": 0}

    def watched(s, ev):
        if ev.kind not in context._SIEGES_ONLY:
            real_reduce(s, ev)
            return
        key = _vp_key(s)
        owners = {fid: fleet_owner(pack, s, fid) for fid in pack.fleets}
        garrisons, text = s["garrisons"], dict(s["garrisons"])
        war = copy.deepcopy(s.get("war") or {})
        real_reduce(s, ev)
        assert _vp_key(s) == key
        assert {fid: fleet_owner(pack, s, fid) for fid in pack.fleets} == owners
        assert s["garrisons"] is garrisons and garrisons == text
        now = s.get("war") or {}
        # the reducer may make the ``war`` part (empty) where there was none
        assert {k: v for k, v in now.items() if k != "sieges" and v} == \
            {k: v for k, v in war.items() if k != "sieges" and v}
        seen["steps"] += 1
        seen["sieges lifted"] += now.get("sieges") != war.get("sieges")

    monkeypatch.setattr(context, "reduce", watched)
    for g in range(3):
        for _ in bot_game(pack, f"step-{g}".encode(), g):
            pass
    assert seen["steps"] > 200, seen


def test_a_step_takes_no_watch_and_looks_for_no_holdings(pack, monkeypatch):
    """Fails where ``Ctx.emit`` takes the watch (a copy of the garrisons and fleets) or
    looks at the fleets' owners after each ``ArmyMoved``."""
    kinds: list[str] = []
    looked: dict[str, int] = {}
    emitted: dict[str, int] = {}
    real_emit = context.Ctx.emit

    def emit(self, kind, data):
        kinds.append(kind)
        emitted[kind] = emitted.get(kind, 0) + 1
        try:
            return real_emit(self, kind, data)
        finally:
            kinds.pop()

    def counted(name):
        real = getattr(context, name)

        def f(*a, **k):
            looked[kinds[-1]] = looked.get(kinds[-1], 0) + 1
            return real(*a, **k)
        return f

    monkeypatch.setattr(context.Ctx, "emit", emit)
    for name in ("vp_watch", "drop_lost_upgrades", "settle_capitals"):
        monkeypatch.setattr(context, name, counted(name))
    for _ in bot_game(pack, b"step-watch", 7):
        pass
    assert emitted.get("ArmyMoved", 0) > 50, emitted
    assert "ArmyMoved" not in looked, looked
    assert looked.get("CUsRemoved", 0) > 0, looked


def test_posted_is_generals_at(pack):
    """``movement._posted`` (a general's own record) answers as ``generals_at``'s scan,
    for every general, seat and space of positions of a random game."""
    from_scan = from_record = 0
    for n, (state, _d, _o) in enumerate(bot_game(pack, b"step-posted", 3)):
        if n % 7:
            continue
        s = state.peek()
        for seat in SEATS:
            for x in {v["space"] for v in s["generals"].values()} | {"pella"}:
                at = set(generals_at(s, seat, x))
                mine = {k for k, v in s["generals"].items() if _posted(v, seat, x)}
                assert mine == at, (seat, x)
                from_scan += len(at)
                from_record += len(mine)
    assert from_scan == from_record and from_scan > 100
