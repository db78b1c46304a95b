"""Rules scenarios as data (tests/rules/scenarios/*.yaml), run by one parametrised test.

A scenario file::

    name: ...            rules: [R-8.3, ...]     pack: mini (default) | real
    constants: {...}     # overrides of the mini pack's constants
    position: {...}      # merged onto a blank board (rules_harness.position)
    new_game: {seed: s, options: {...}}   # instead of position: start from setup (R-2)
    steps:
      - seat: north
        orders: {...}
        dice: [3, 4]                 # scripted first, then seeded rolls
        reject: [code, ...]          # the exact list of rejection codes (orders refused)
        reject_where: [path, ...]    # optional: their field paths
        messages: [substring, ...]   # optional: in each rejection's message, in order
        hints: [hint, ...]           # optional: each rejection's exact hint, in order
        check_only: true             # accepted by the check, then not carried out
        events: [{kind: K, data: {...}}, ...]   # each must appear, in this order, data
                                               # compared as a subset
        no_events: [kind, ...]       # kinds that must not appear
    expect: {...}        # subset of the final state (GameState.to_dict())
    check: {vp: {...}, lp: {...}, provinces: {...}, isolated: {seat: [...]},
            reinforcements: {...}, ranking: [...], garrison_spaces: {seat: [...]},
            hand_sizes: {...}, areas: {space: area}, royal_control: {royal: seat|null},
            lp_parts: {seat: {source: LP}}, uses: {seat: {card: [use, ...]}}}
"""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from rules_harness import ScriptedThenReal, position, scenario_view
from rules_minipack import mini_pack

import pbem.rules as R
from pbem.rules.core.board import area_of
from pbem.rules.core.control import (
    legitimacy_parts,
    legitimacy_points,
    province_control,
    royal_controller,
    victory_points,
)
from pbem.rules.core.placement import reinforcement_counts
from pbem.rules.phases.isolation import isolated_garrisons
from pbem.rules.phases.victory import ranking

HERE = Path(__file__).parent / "scenarios"
FILES = sorted(HERE.glob("*.yaml"))


def _subset(expected, actual, path="") -> None:
    if isinstance(expected, dict):
        assert isinstance(actual, dict), f"{path}: expected a mapping, got {actual!r}"
        for k, v in expected.items():
            assert k in actual, f"{path}.{k} missing in {sorted(actual)}"
            _subset(v, actual[k], f"{path}.{k}")
    else:
        assert expected == actual, f"{path}: expected {expected!r}, got {actual!r}"


def _pack(kind: str, constants: dict):
    if kind == "real":
        from pbem.pack.loader import load_pack
        p = load_pack()
    else:
        p = mini_pack(**constants)
    return p


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_scenario(path: Path) -> None:
    sc = yaml.safe_load(path.read_text())
    assert sc.get("rules"), "every scenario cites its rule IDs"
    pack = _pack(sc.get("pack", "mini"), sc.get("constants") or {})
    log: list = []
    if "new_game" in sc:
        ng = sc["new_game"]
        state, log = R.new_game(pack, str(ng["seed"]).encode(), ng.get("options"))
        initial = R.empty_state(pack)
    else:
        state = position(pack, sc.get("position"))
        initial = state
    for i, step in enumerate(sc.get("steps", [])):
        seat = step["seat"]
        orders = step.get("orders", {})
        rej = R.validate(state, seat, orders)
        if "reject" in step:
            assert [r.code for r in rej] == step["reject"], [r.to_dict() for r in rej]
            if "reject_where" in step:
                assert [r.where for r in rej] == step["reject_where"]
            for want, r in zip(step.get("messages", []), rej):
                assert want in r.message, (want, r.message)
            for want, r in zip(step.get("hints", []), rej):
                assert want == r.hint, (want, r.hint)
            for r in rej:
                assert r.rule.startswith("R-") and r.message and r.where.startswith("orders")
            with pytest.raises(R.IllegalOrders):
                R.apply(state, seat, orders, ScriptedThenReal([], step=state.step))
            continue
        assert not rej, [r.to_dict() for r in rej]
        if step.get("check_only"):
            continue
        dice = ScriptedThenReal(step.get("dice", []), seed=path.stem.encode(),
                                step=state.step)
        before = state.step
        state, events = R.apply(state, seat, orders, dice)
        assert state.step == before + 1
        log += events
        kinds = [e.kind for e in events]
        pos = 0
        for want in step.get("events", []):
            for j in range(pos, len(events)):
                ev = events[j]
                if ev.kind == want["kind"]:
                    try:
                        _subset(want.get("data", {}), dict(ev.data), f"step{i}.{ev.kind}")
                    except AssertionError:
                        continue
                    pos = j + 1
                    break
            else:
                pytest.fail(f"step {i}: no event {want} in order after #{pos}: "
                            f"{[e.to_dict() for e in events]}")
        for k in step.get("no_events", []):
            assert k not in kinds, f"step {i}: unexpected {k}"
    assert R.fold(initial, log) == state
    _subset(sc.get("expect", {}), scenario_view(state.to_dict()), "state")
    s = state.to_dict()
    for key, want in (sc.get("check") or {}).items():
        if key == "vp":
            _subset(want, victory_points(pack, s), "vp")
        elif key == "lp":
            _subset(want, legitimacy_points(pack, s), "lp")
        elif key == "provinces":
            _subset(want, province_control(pack, s), "provinces")
        elif key == "isolated":
            for seat, spaces in want.items():
                assert isolated_garrisons(pack, s, seat) == spaces
        elif key == "reinforcements":
            _subset(want, reinforcement_counts(pack, s), "reinforcements")
        elif key == "ranking":
            assert [x for x, _ in ranking(pack, s)] == want
        elif key == "hand_sizes":
            _subset(want, {k: len(v) for k, v in scenario_view(s)["hands"].items()},
                    "hand_sizes")
        elif key == "areas":
            _subset(want, {x: area_of(pack, x) for x in want}, "areas")
        elif key == "lp_parts":  # every source of each seat's LP, exactly
            for seat, parts in want.items():
                assert legitimacy_parts(pack, s)[seat] == parts, (seat, legitimacy_parts(
                    pack, s)[seat])
        elif key == "uses":  # the uses the prompt offers for each card of a hand
            for seat, cards in want.items():
                hand = {h["card"]: h["uses"] for h in R.legal_options(state, seat)["hand"]}
                _subset({int(c): u for c, u in cards.items()}, hand, f"uses.{seat}")
        elif key == "royal_control":
            _subset(want, {r: royal_controller(pack, s, r) for r in want}, "royal_control")
        elif key == "generals_of":
            # {seat_of_general: general} — the seat holding general A also holds B, etc.
            for a, b in want.items():
                assert s["generals"][a]["seat"] == s["generals"][b]["seat"], (a, b)
        elif key == "garrison_spaces":
            for seat, spaces in want.items():
                got = R.legal_options(state, seat)["garrison_spaces"]
                assert sorted(got) == sorted(spaces), got
        else:
            pytest.fail(f"unknown check {key}")
