"""The ``writes`` declarations of the event catalogue hold, and what they let the engine
skip is never needed (issue 14).

An event kind may declare the top-level parts of the working dict its reducer changes
(:attr:`pbem.rules.core.events.base.EventKind.writes`); ``Ctx.emit`` then skips the royal
family's and the Champions' settlement after kinds that write nothing of
:data:`pbem.rules.context.BOARD`, and copies only the declared parts before the reducer
runs (copy on write, ``Ctx.owned``, issue 27 item 5: a part left out would be written
in a state shared with others). Here random games are played with every reduction
watched: a declared kind must leave every other part equal, and after a skipped
settlement the position must need none (``royal_settlement`` finds nothing to do). A kind
that declares ``where`` (the spaces it changes) must need no settlement elsewhere: the
settlement restricted to those spaces equals the full one after every such event. The
one-pass :func:`province_control` is compared with :func:`province_controller` of each
province at every decision.
"""
from __future__ import annotations

import copy

import pytest
from rules_harness import bot_game

import pbem.rules as R
from pbem.pack.loader import load_pack
from pbem.rules import context
from pbem.rules.core.control import province_control, province_controller
from pbem.rules.core.events import CATALOGUE
from pbem.rules.core.royals import royal_settlement

GAMES = 10


@pytest.fixture(scope="module")
def pack():
    return load_pack()


def test_declared_kinds_exist_and_name_state_parts():
    parts = set(R.empty_state(load_pack()).to_dict()) | {"conceded"}  # in the dict only once a seat conceded
    declared = {k.name: k.writes for k in CATALOGUE.values() if k.writes is not None}
    assert "OrdersApplied" in declared and "CardPlayed" in declared
    for name, writes in declared.items():
        assert writes, name
        assert set(writes) <= parts, (name, set(writes) - parts)
    # the board kinds stay undeclared: they always call for a settlement
    for name in ("ArmyMoved", "GarrisonPlaced", "CUsRemoved", "RoyalTaken"):
        assert CATALOGUE[name].writes is None or not context.BOARD.isdisjoint(
            CATALOGUE[name].writes)


def test_writes_hold_and_skipped_settlements_are_never_needed(pack, monkeypatch):
    real_reduce = context.reduce
    seen: dict[str, int] = {}

    def watched(s, ev):
        k = CATALOGUE[ev.kind]
        if k.writes is None or k.reduce is None:
            real_reduce(s, ev)
        else:  # a declared kind (with or without ``where``) writes nothing else
            before = {p: copy.deepcopy(v) for p, v in s.items() if p not in k.writes}
            real_reduce(s, ev)
            after = {p: v for p, v in s.items() if p not in k.writes}
            assert after == before, f"{ev.kind} changed {[p for p in after if after[p] != before.get(p)]}"
        if k.where is not None:  # only the members in the event's spaces can be unsettled
            full = royal_settlement(pack, s)
            assert royal_settlement(pack, s, k.where(ev.data)) == full, f"{ev.kind} {ev.data}"
            seen[ev.kind] = seen.get(ev.kind, 0) + 1
            seen["settlement due"] = seen.get("settlement due", 0) + (full is not None)
            return
        if k.writes is None or k.reduce is None:
            return
        if context.BOARD.isdisjoint(k.writes):
            assert royal_settlement(pack, s) is None, f"a settlement was due after {ev.kind}"
        seen[ev.kind] = seen.get(ev.kind, 0) + 1

    monkeypatch.setattr(context, "reduce", watched)
    compared = 0
    for g in range(GAMES):
        for state, _d, _orders in bot_game(pack, f"writes-{g}".encode(), g):
            s = state.peek()
            assert province_control(pack, s) == {
                p: province_controller(pack, s, p) for p in pack.provinces}
            compared += 1
    # the frequent bookkeeping kinds were all exercised
    for name in ("OrdersApplied", "CardPlayed", "PlayerTurnStarted", "TurnPassed",
                 "RoundStarted", "PhaseStarted", "CardsDealt", "ArmyMoved", "CUsPlaced",
                 "CUsRemoved", "GarrisonPlaced", "GarrisonRemoved", "MinorGeneralPlaced"):
        assert seen.get(name, 0) > 0, name
    assert compared > 100
    assert seen["settlement due"] > 0  # some moves did call for a change of control


def test_cells_hold_in_played_games(pack, monkeypatch):
    """Second-level copy on write (issue 27 item 5): a kind's ``cells`` name every entry
    of those parts its reducer writes; the other entries are the very objects they were,
    unchanged, none added or removed, in random games."""
    real_reduce = context.reduce
    seen: dict[str, int] = {}

    def watched(s, ev):
        k = CATALOGUE[ev.kind]
        if k.cells is None or k.reduce is None:
            real_reduce(s, ev)
            return
        cells = k.cells(ev.data)
        assert set(cells) <= set(k.writes or ()), ev.kind
        before = {p: {key: (v, copy.deepcopy(v)) for key, v in (s.get(p) or {}).items()
                      if key not in keys} for p, keys in cells.items()}
        real_reduce(s, ev)
        for p, keys in cells.items():
            after = {key: v for key, v in (s.get(p) or {}).items() if key not in keys}
            assert set(after) == set(before[p]), (ev.kind, p)
            for key, (obj, text) in before[p].items():
                assert after[key] is obj and after[key] == text, (ev.kind, p, key)
        seen[ev.kind] = seen.get(ev.kind, 0) + 1

    monkeypatch.setattr(context, "reduce", watched)
    for g in range(4):
        for _ in bot_game(pack, f"cells-{g}".encode(), g):
            pass
    for name in ("ArmyMoved", "CUsPlaced", "CUsRemoved", "CardPlayed", "CardsDealt",
                 "GeneralPlaced", "StandingOrdersSet"):
        assert seen.get(name, 0) > 0, name
