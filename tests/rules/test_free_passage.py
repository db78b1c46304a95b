"""Free passage for a marriage (R-12.2, seed 002): the legal options list the marriages a
seat's CUs alone forbid, so the prompt and the bots can offer the grant; the random bot
grants it, and its orders go through the same check as a player's."""
from __future__ import annotations

import random

import pytest
from rules_harness import ScriptedThenReal, position

import pbem.rules as R
from pbem.pack.loader import load_pack

SPEC = {
    "turn_order": ["east", "north", "south", "west"],
    "generals": {"antipater": {"seat": "north", "where": "map", "space": "pella"}},
    "cus": {"pella": {"north": {"loyal": 4}, "east": {"mercenary": 1}}},
    "inside": {"pella": {"seat": "east", "cus": {"mercenary": 1}, "generals": []}},
    "garrisons": {"pella": "east"},
    "royals": {"thessalonike": {"space": "pella", "active": False, "seat": None}},
    "court": {"offers": {"thessalonike": {"seat": "north", "card": 32, "married": False}}},
    "hands": {"north": [57], "east": [58, 59], "south": [60], "west": [61]},
}


@pytest.fixture(scope="module")
def real():
    return load_pack()


def test_the_blocking_seat_is_offered_the_grant(real) -> None:
    state = position(real, SPEC)
    assert R.legal_options(state, "east")["free_passage"] == [
        {"to": "north", "royal": "thessalonike", "space": "pella"}]
    for seat in ("north", "south", "west"):
        assert R.legal_options(state, seat)["free_passage"] == []


def test_the_random_bot_grants_it_and_the_marriage_follows(real) -> None:
    state = position(real, SPEC)
    granted = 0
    for seed in range(12):
        orders = R.bot_orders(state, "east", random.Random(seed))
        grant = [o for o in orders.get("standing") or [] if o.get("when") == "free_passage"]
        if not grant:
            continue
        granted += 1
        assert grant == [{"when": "free_passage", "to": ["north"], "royal": ["thessalonike"]}]
        assert not R.validate(state, "east", orders)
        new, events = R.apply(state, "east", orders, ScriptedThenReal([], step=state.step))
        married = [e for e in events if e.kind == "MarriageConcluded"]
        assert married and married[0].data["passage"] == ["east"], [e.kind for e in events]
        assert new.royals["thessalonike"]["seat"] == "north"
    assert 0 < granted < 12  # half the time
