"""Secrets live in one place (pbem/rules/core/state.py): each seat's hand, training,
standing orders and withheld orders under ``private[seat]``, the deck order and a
suspended move under ``secret``. A seat's view shows its own part and nothing of the
others' but the counts (hand sizes, deck size), and snapshots of the earlier layout
still load."""
from __future__ import annotations

import copy
import json
import random

from rules_harness import scenario_view, started_game

import pbem.rules as R
from pbem.pack.loader import load_pack
from pbem.rules.core.state import GameState, upgrade_layout
from pbem.rules.dice import Dice


def _games(pack, n: int = 3):
    """Every decision's state of ``n`` bot games with reaction windows and standing
    orders (war options on)."""
    for g in range(n):
        seed = f"private-{g}".encode()
        state, _ = R.new_game(pack, seed, {"ask_windows": True, "bot_inside": True})
        rng = random.Random(g)
        while R.pending(state):
            yield state
            d = R.pending(state)[0]
            state, _ = R.apply(state, d.seat, R.bot_orders(state, d.seat, rng),
                               Dice(seed, state.step))
        yield state


def _scrambled(state: GameState, keep: str | None) -> GameState:
    """``state`` with every secret a viewer ``keep`` may not know replaced: the other
    seats' hands (by other cards, same counts), training, standing and withheld orders,
    and the deck order (reversed)."""
    s = state.to_dict()
    for seat, p in s["private"].items():
        if seat == keep:
            continue
        p["hand"] = [9000 + i for i in range(len(p["hand"]))]
        p["training"] = [{"unit": "auxiliary", "paid": 1, "segments": 1}]
        p["standing"] = [{"when": "losses", "order": ["royal"]}]
        p.pop("withheld", None)
    s["secret"]["deck"] = list(reversed(s["secret"].get("deck", [])))
    s["secret"].pop("suspended", None)
    return GameState.from_dict(s, state.pack)


def test_a_view_depends_on_no_other_seats_secret() -> None:
    pack = load_pack()
    checked = 0
    for i, state in enumerate(_games(pack)):
        if i % 3:
            continue
        for viewer in (None, *R.SEATS):
            mine = R.view(state, viewer)
            assert R.view(_scrambled(state, viewer), viewer) == mine
            if viewer is None:
                assert "private" not in mine
                assert not ({"hands", "deck", "secret"} & set(mine))
            else:
                own = state.private[viewer]
                assert mine["private"]["hand"] == own["hand"]
                assert mine["private"]["standing"] == own["standing"]
            checked += 1
    assert checked > 100


def test_the_withheld_orders_stay_with_their_seat() -> None:
    pack = load_pack()
    seen = 0
    for state in _games(pack, 4):
        w = [s for s, p in state.private.items() if "withheld" in p]
        if not w:
            continue
        seen += 1
        (mover,) = w
        assert state.war["pause"]["mover"] == mover
        for other in R.SEATS:
            text = json.dumps(R.view(state, other))
            assert ("withheld" in text) == (other == mover)
    assert seen > 0


def test_snapshots_of_the_earlier_layout_load() -> None:
    pack = load_pack()
    for state in list(_games(pack, 1))[::7]:
        old = scenario_view(state.to_dict())  # hands, training, deck, war.standing, ...
        assert "private" not in old and "hands" in old
        again = GameState.from_dict(json.loads(json.dumps(old)), pack)
        assert again == state
        assert upgrade_layout(state.to_dict()) == state.to_dict()


def test_reducers_write_only_their_seats_part() -> None:
    pack = load_pack()
    state, events = started_game(pack, b"private-deal")
    for e in events:
        if e.kind == "CardsDealt":
            assert not e.public and e.seat == e.data["seat"]
    before = copy.deepcopy(state.private)
    d = R.pending(state)[0]
    new, _ = R.apply(state, d.seat, {"standing": [{"when": "losses", "order": ["mercenary"]}]},
                     Dice(b"private-deal", state.step))
    for seat in R.SEATS:
        if seat != d.seat:
            assert new.private[seat] == before[seat]
    assert new.private[d.seat]["standing"] == [{"when": "losses", "order": ["mercenary"]}]
