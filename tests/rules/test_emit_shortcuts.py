"""The watches after each event (issue 27 item 5, fourth pass). The Champions' (R-11.4)
scores VP in full only when an event may have changed them:
:func:`pbem.rules.core.royals._same_vp` says "no seat's VP changed" from the garrisons
the event changed. Here every reduction of random games is watched: whenever it says so
(the fleets and capitals unchanged), the VP before and after are equal, and it does say
both (some events change VP, most do not). The fleets' owners and the capitals are
looked at only after kinds that may write what they read. The kinds whose ``writes``
were declared in this pass (copy on write then copies only those parts) change nothing
else."""
from __future__ import annotations

import copy
import random
from collections import OrderedDict

import pytest
from rules_harness import bot_game

import pbem.rules as R
from pbem.pack.loader import load_pack
from pbem.rules import context, engine
from pbem.rules.dice import Dice
from pbem.rules.core.control import fleet_owner, victory_points
from pbem.rules.core.events import CATALOGUE
from pbem.rules.core.royals import _same_vp, _vp_reads

GAMES = 6


@pytest.fixture(scope="module")
def pack():
    return load_pack()


def test_same_vp_holds_in_played_games(pack, monkeypatch):
    real_reduce = context.reduce
    seen = {"same": 0, "changed": 0, "vp changed": 0}

    def watched(s, ev):
        before = copy.deepcopy(s)
        real_reduce(s, ev)
        w0, w1 = before.get("war") or {}, s.get("war") or {}
        if any((w0.get(k) or {}) != (w1.get(k) or {})
               for k in ("fleets", "capitals", "capitals_destroyed")):
            return
        if before["garrisons"] == s["garrisons"]:
            return
        vp0, vp1 = victory_points(pack, before), victory_points(pack, s)
        if _same_vp(pack, before["garrisons"], s["garrisons"]):
            assert vp0 == vp1, (ev.kind, ev.data)
            seen["same"] += 1
        else:
            seen["changed"] += 1
            seen["vp changed"] += vp0 != vp1

    monkeypatch.setattr(context, "reduce", watched)
    for g in range(GAMES):
        for _ in bot_game(pack, f"watch-{g}".encode(), g):
            pass
    assert seen["same"] > 50 and seen["vp changed"] > 5, seen


def test_vp_reads_name_the_spaces_vp_depend_on(pack):
    provs, direct = _vp_reads(pack)
    # the Hellespont's ports are read by themselves
    assert {x for x, sp in pack.spaces.items() if sp.hellespont} <= direct
    # every space of a province with printed VP counts for it
    for prov, p in pack.provinces.items():
        if p.vp:
            spaces = [x for x, sp in pack.spaces.items() if getattr(sp, "province", None) == prov]
            assert any(prov in provs.get(x, ()) for x in spaces) or not spaces, prov


def test_same_vp_holds_for_random_garrisons(pack):
    """Random boards and one garrison changed, with the Hellespont's ports and the
    fleets' homes often among them: "same" always means equal VP."""
    rng = random.Random(27)
    s = R.new_game(pack, b"watch-random")[0].to_dict()
    spaces = sorted(pack.spaces)
    ports = [x for x, sp in pack.spaces.items() if sp.hellespont]
    homes = sorted({f.home for f in pack.fleets.values()})
    seats = ["north", "east", "south", "west"]
    seen = {"same": 0, "changed": 0}
    for _ in range(1500):
        seat = rng.choice(seats)
        before = {x: rng.choice(seats) for x in spaces if rng.random() < 0.4}
        if rng.random() < 0.3:  # one seat holds every port but one
            before.update({x: seat for x in ports})
            x = rng.choice(ports)
            before.pop(x)
        elif rng.random() < 0.5:  # a fleet's home province or space
            home = rng.choice(homes)
            pool = [y for y, sp in pack.spaces.items() if sp.province == home] or [home]
            x = rng.choice(pool)
        else:
            x = rng.choice(spaces)
        after = dict(before)
        after[x] = seat
        if after == before:
            continue
        vp0 = victory_points(pack, {**s, "garrisons": before})
        vp1 = victory_points(pack, {**s, "garrisons": after})
        if _same_vp(pack, before, after):
            assert vp0 == vp1, x
            seen["same"] += 1
        else:
            seen["changed"] += 1
    assert seen["same"] > 100 and seen["changed"] > 100, seen


def test_kinds_without_holdings_change_no_fleet_owner(pack, monkeypatch):
    """``Ctx.emit`` looks for fleets that changed hands (R-15) and capitals left without
    their garrison (R-1.4) only after kinds that may write the garrisons or ``war``
    (``_facts(kind).holdings``): after every other event of random games, every fleet
    has the owner it had and the garrisons are the same object, unchanged."""
    real_reduce = context.reduce
    seen = {"skipped": 0, "looked": 0}

    def watched(s, ev):
        f = context._facts(ev.kind)
        if f.holdings:
            seen["looked"] += 1
            real_reduce(s, ev)
            return
        owners = {fid: fleet_owner(pack, s, fid) for fid in pack.fleets}
        garrisons, text = s["garrisons"], dict(s["garrisons"])
        war = copy.deepcopy(s.get("war"))
        real_reduce(s, ev)
        assert {fid: fleet_owner(pack, s, fid) for fid in pack.fleets} == owners, ev.kind
        assert s["garrisons"] is garrisons and garrisons == text, ev.kind
        assert s.get("war") == war, ev.kind
        seen["skipped"] += 1

    monkeypatch.setattr(context, "reduce", watched)
    for g in range(3):
        for _ in bot_game(pack, f"holdings-{g}".encode(), g):
            pass
    assert seen["skipped"] > 1000 and seen["looked"] > 100, seen


def _mid_game(pack):
    """A position of a random game some way in (every part of the working dict set)."""
    for n, (state, _d, _o) in enumerate(bot_game(pack, b"declared-writes", 5)):
        if n == 60:
            return copy.deepcopy(state.peek())
    raise AssertionError("the game ended too soon")


# kinds whose ``writes`` this pass declared (the royal family's, the independents',
# the Champions', the fleets' and sieges' records), each with data its reducer takes
DECLARED = {
    "IndependentMarkersPlaced": lambda s: {"spaces": sorted(s["garrisons"])[:2], "rule": "R-14"},
    "IndependentArmyPlaced": lambda s: {"army": "test", "rule": "R-14", "space": "pella",
                                        "strength": 3},
    "IndependentArmyMoved": lambda s: {"army": sorted(s["indep_armies"])[0], "from": "x",
                                       "to": "pella", "rule": "R-14", "no_markers_turn": 2},
    "IndependentArmyRemoved": lambda s: {"army": sorted(s["indep_armies"])[0], "rule": "R-14",
                                         "space": "x", "to_box": False},
    "ChampionLost": lambda s: {"how": "attack", "rule": "R-11.4", "seat": s["champions"][0],
                               "target": "east"},
    "ChampionRegained": lambda s: {"rule": "R-11.4", "seat": "north"},
    "FleetUpgraded": lambda s: {"card": 1, "fleet": "athenian", "rule": "R-8.2",
                                "seat": "north", "strength": 5, "upgrade": 2},
    "SiegePointsScored": lambda s: {"needed": 3, "points": 1, "rule": "R-9.5", "seat": "north",
                                    "space": "pella", "total": 1},
    "CondemnationPlaced": lambda s: {"card": 1, "general": "g", "lp": 1, "rule": "R-11",
                                     "seat": "north"},
    "CondemnationLifted": lambda s: {"card": 1, "general": "g", "rule": "R-11", "seat": "north"},
    "LegitimacyAdjusted": lambda s: {"amount": 1, "card": 1, "rule": "R-11", "seat": "north",
                                     "turn": 1},
    "RoyalTaken": lambda s: {"how": "alone", "royal": sorted(s["royals"])[0], "rule": "R-12.3",
                             "seat": "north", "space": "pella"},
    "RoyalControlLost": lambda s: {"how": "left", "royal": sorted(s["royals"])[0],
                                   "rule": "R-12.1", "seat": "north", "space": "pella",
                                   "woman": True},
    "MarriageOffered": lambda s: {"card": (s["discards"] or [7])[0],
                                  "royal": sorted(s["royals"])[0], "rule": "R-12.2",
                                  "seat": "north"},
    "MarriageOfferEnded": lambda s: {"card": 7, "married": False, "royal": sorted(s["royals"])[0],
                                     "rule": "R-12.2", "seat": "north"},
    "HeirChosen": lambda s: {"royal": sorted(s["royals"])[0], "rule": "R-12", "seat": "north"},
}


@pytest.mark.parametrize("name", sorted(DECLARED))
def test_declared_writes_hold(pack, name):
    """The reducer of each kind declared this pass changes only the parts it declares
    (copy on write copies no other part before it runs: one left out would be written
    in a state shared with others, issue 27 item 5)."""
    k = CATALOGUE[name]
    s = _mid_game(pack)
    s["indep_armies"].setdefault("test", {"space": "x", "strength": 2})
    s["champions"] = [x for x in s["champions"] if x != "north"]  # one to regain
    s.setdefault("court", {})["condemned"] = {"general": "h", "card": 2, "lp": 1}  # to lift
    data = DECLARED[name](s)
    k.check(data)
    before = copy.deepcopy(s)
    k.reduce(s, dict(data))
    changed = {p for p in set(s) | set(before) if s.get(p) != before.get(p)}
    assert changed and changed <= set(k.writes), (name, changed)


def test_apply_reuses_the_check_of_the_same_orders(pack, monkeypatch):
    """``apply`` after ``validate`` of the same state, seat and orders carries that
    check out (issue 27 item 5: orders already plain are compared as they are, without
    their plain copy); other orders are checked again."""
    checks: list[object] = []
    real = engine.check

    def spy(state, seat, orders):
        checks.append(orders)
        return real(state, seat, orders)

    monkeypatch.setattr(engine, "check", spy)
    state, _ = R.new_game(pack, b"reuse")
    seat = R.pending(state)[0].seat
    for again in ({"first_player": "east"}, OrderedDict(first_player="east")):
        checks.clear()
        R.validate(state, seat, {"first_player": "east"})
        R.apply(state, seat, again, Dice(b"reuse", state.step))
        assert len(checks) == 1, again  # validate's check only
    checks.clear()
    R.validate(state, seat, {"first_player": "east"})
    R.apply(state, seat, {"first_player": "west"}, Dice(b"reuse", state.step))
    assert len(checks) == 2  # other orders: checked again


def test_a_fleet_upgrade_that_takes_the_strongest_fleet_returns_a_champion(pack):
    """R-11.4 with R-1.4: west's only VP are the strongest fleet (Athenai's garrison, the
    Athenian fleet, 3); north upgrades the Rhodian fleet (2 + 1) whose record exists
    already, so the tie gives the VP to nobody: west falls to 0 VP and is a Champion
    again, also when the context owns ``war`` and the reducer changes the record in
    place (the watch copied the fleets' records, not only their dict)."""
    s = R.new_game(pack, b"fleet-test")[0].to_dict()
    s["garrisons"] = {"athenai": "west", "camirus": "north", "lindus": "north",
                      "rhodos": "north"}
    s["champions"] = ["north", "east", "south"]
    s.setdefault("war", {})["fleets"] = {"rhodian_fleet": {"upgrade": 0, "owner": "north"}}
    assert victory_points(pack, s)["west"] == 3
    ctx = context.Ctx(pack, s, None)  # every part its own: reducers write in place
    ctx.emit("FleetUpgraded", {"card": 1, "fleet": "rhodian_fleet", "rule": "R-8.2",
                               "seat": "north", "strength": 3, "upgrade": 1})
    assert victory_points(pack, ctx.s)["west"] == 0
    assert [e.kind for e in ctx.events] == ["FleetUpgraded", "ChampionRegained"]
    assert "west" in ctx.s["champions"]
