"""Helpers for rules tests: scenario positions, dice that run a script then real rolls,
and invariants checked in playouts.

Scenario files speak the game's own words: a seat's ``hands`` and ``training``, the
``deck``, and ``war.standing`` / ``war.pause.cursor`` for standing orders and a suspended
move. The state keeps those under its private and secret parts; :func:`position` and
:func:`scenario_view` translate between the two."""
from __future__ import annotations

import random
from typing import Any

import pbem.rules as R
from pbem.rules.core.control import (
    legitimacy_parts,
    legitimacy_points,
    positional_controller,
    royal_controller,
    seat_at,
)
from pbem.rules.core.royals import is_held_inside, royal_settlement
from pbem.rules.core.state import SEATS, GameState, upgrade_layout
from pbem.rules.dice import Dice, Roll, die_value
from pbem.rules.phases.setup import blank_position

PER_SEAT = ("hands", "dispersed", "training", "training_cards", "lp_adjust", "minors",
            "primary")
PRIVATE_WORDS = ("hands", "training", "deck")


class ScriptedThenReal(Dice):
    """Yields the scripted values first, then HMAC rolls of ``seed``/``step``."""

    def __init__(self, values: list[int], seed: bytes = b"scenario", step: int = 0):
        super().__init__(seed=seed, step=step)
        self._queue = list(values)

    def roll(self, count: int, purpose: str, rule: str, sides: int = 6) -> Roll:
        vals = []
        start = self._next
        for _ in range(count):
            if self._queue:
                vals.append(self._queue.pop(0))
            else:
                vals.append(die_value(self.seed, self.step, self._next, sides))
            self._next += 1
        r = Roll(self.step, start, tuple(vals), purpose, rule, sides)
        self.rolls.append(r)
        return r


def started_game(pack, seed: bytes, options: dict[str, Any] | None = None
                 ) -> tuple[GameState, list]:
    """``new_game`` with the chooser's turn-order decision (R-6.1) answered by its
    deadline default (the chooser goes first): the state at the first player-turn, the
    cards dealt, and every event so far."""
    state, events = R.new_game(pack, seed, options)
    (d,) = R.pending(state)
    assert d.kind == "turn_order", d.kind
    state, more = R.apply(state, d.seat, d.default, Dice(seed, state.step))
    return state, list(events) + list(more)


def position(pack, spec: dict[str, Any] | None) -> GameState:
    """A scenario position: :func:`blank_position` (independent markers, all Champions)
    updated with ``spec``. Per-seat fields (hands, dispersed, …) merge per seat; all
    other keys replace. ``turn_order`` defaults to SEATS and ``active`` to its first."""
    s = scenario_view(blank_position(pack, turn=(spec or {}).get("turn", 1)))
    s["turn_order"] = list(SEATS)
    for k, v in (spec or {}).items():
        if k in PER_SEAT:
            s[k].update(v)
        elif k == "independent_remove":
            s["independent"] = [x for x in s["independent"] if x not in v]
        else:
            s[k] = v
    if "active" not in (spec or {}):
        s["active"] = s["turn_order"][0]
    for rid, r in s["royals"].items():  # who the position gives each member
        if "seat" not in r and rid in pack.royals:
            r["seat"] = positional_controller(pack, s, rid) if r.get("space") \
                and not r.get("gone") else None
    return GameState.from_dict(s, pack)


def scenario_view(s: dict[str, Any]) -> dict[str, Any]:
    """A working dict in the scenario files' words: ``hands``, ``training`` and ``deck``
    at the top, standing orders under ``war.standing``, a suspended move under
    ``war.pause.cursor`` and withheld orders under ``war.withheld`` (the layout
    :func:`pbem.rules.core.state.upgrade_layout` reads back)."""
    private, secret = s.get("private") or {}, s.get("secret") or {}
    out = {k: v for k, v in s.items() if k not in ("private", "secret")}
    out["hands"] = {seat: list(p.get("hand", [])) for seat, p in private.items()}
    out["training"] = {seat: list(p.get("training", [])) for seat, p in private.items()}
    out["deck"] = list(secret.get("deck", []))
    war = dict(out.get("war") or {})
    war["standing"] = {seat: list(p.get("standing", [])) for seat, p in private.items()
                       if p.get("standing")}
    withheld = next((p["withheld"] for p in private.values() if p.get("withheld")), None)
    if withheld:
        war["withheld"] = withheld
    if war.get("pause") and "suspended" in secret:
        war["pause"] = {**war["pause"], "cursor": secret["suspended"]}
    out["war"] = war
    assert upgrade_layout(out) is not out  # the layout it reads back
    return out


def check_invariants(pack, state: GameState, added_cus: int,
                     gone: set[str] | None = None) -> None:
    """Invariants of any position between decisions (property tests):

    - CUs accounted for: map + dispersed == ``added_cus`` (placed − removed, from events);
      no negative or zero counts stored;
    - one faction per space (R-5) — independent armies count as a faction — except one
      wholly inside a major city, within ``major_city_inside_capacity``;
    - control consistent with markers (R-3.2/3.3): no garrison on a transit point or on an
      independent marker; a controlled province has a strict majority incl. major city;
    - hand sizes ≤ hand_size (R-6.4) and cards conserved: every non-primary card is in
      exactly one of deck, hands, discards, removed, or is the card of a general in play
      (an optional card only in a game that sets its option, R-1.4);
    - minor generals ≤ the limit and each stands on CUs of its seat (R-5, R-4.2);
    - every seat's CUs are marked (general, garrison or minor general, R-4.2);
    - each special unit (R-4.1) is in at most one place (map or dispersed box, count 1),
      nowhere while in its holding box or once destroyed, somewhere while in play;
    - the royal family (:func:`royal_invariants`); ``gone``, when given, is the set of
      members removed from play so far: they stay gone (it is updated in place).
    """
    from pbem.rules.core.control import province_control
    from pbem.rules.core.pieces import has_general, wholly_inside

    s = scenario_view(state.peek())
    total = 0
    for x, by in s["cus"].items():
        assert x in pack.spaces
        assert by, f"empty CU entry at {x}"
        factions = {o for o, c in by.items() if sum(c.values())
                    and not wholly_inside(s, o, x)}  # one inside, one outside
        factions |= {"independent"} if any(a["space"] == x for a in
                                          s["indep_armies"].values()) else set()
        assert len(factions) <= 1, f"two factions in {x}: {factions}"
        inner = (s.get("inside") or {}).get(x)
        if inner:
            assert pack.spaces[x].kind == "major_city", f"units inside {x}"
            assert sum(inner["cus"].values()) <= pack.constants[
                "major_city_inside_capacity"], f"over capacity inside {x}"
            assert all(0 < n <= by.get(inner["seat"], {}).get(t, 0)
                       for t, n in inner["cus"].items()), f"inside not a subset in {x}"
        for o, c in by.items():
            assert c and all(n > 0 for n in c.values()), (x, o, c)
            total += sum(c.values())
            assert has_general(s, o, x) or s["garrisons"].get(x) == o, f"unmarked {o} CUs in {x}"
    total += sum(n for box in s["dispersed"].values() for n in box.values())
    assert total == added_cus, (total, added_cus)
    for x, o in s["garrisons"].items():
        assert pack.spaces[x].kind != "transit" and x not in s["independent"], x
        assert o in SEATS
    for prov, owner in province_control(pack, s).items():
        if owner:
            spaces = [x for x, sp in pack.spaces.items()
                      if sp.province == prov and sp.kind != "transit"]
            mine = [x for x in spaces if s["garrisons"].get(x) == owner]
            assert 2 * len(mine) > len(spaces)
    size = pack.constants["hand_size"]
    seen: list[int] = list(s["deck"]) + list(s["discards"]) + list(s["removed"])
    seen += [o["card"] for o in ((s.get("court") or {}).get("offers") or {}).values()]
    for seat in SEATS:
        assert len(s["hands"][seat]) <= size, (seat, s["hands"][seat])
        seen += s["hands"][seat]
    assert len(seen) == len(set(seen)), "a card is in two places"
    for n, c in pack.cards.items():
        if not seen:  # before the first deal (R-6.1 decision of turn 1): no card is out
            break
        if c.type == "primary":
            assert n not in seen
        elif c.optional and not (s.get("options") or {}).get(c.optional):
            assert n not in seen, n  # an optional card out of the game
        elif n not in seen:
            assert c.general and s["generals"][c.general]["where"] != "deck", n
    specials = (s.get("war") or {}).get("specials") or {}
    for unit in pack.special_units:  # one indivisible counter, in one place at most
        found = [n for by in s["cus"].values() for c in by.values() for t, n in c.items()
                 if t == unit]
        found += [n for box in s["dispersed"].values() for t, n in box.items() if t == unit]
        assert sum(found) <= 1, f"special unit {unit} in several places: {found}"
        if specials.get(unit) == "destroyed" or unit not in specials:
            assert not found, f"special unit {unit} on the map while {specials.get(unit, 'in its box')}"
        else:
            assert found, f"special unit {unit} in play but nowhere"
    for seat, ms in s["minors"].items():
        assert len(ms) <= pack.constants["minor_generals"]
        assert len(ms) == len(set(ms))
        for x in ms:
            assert sum(s["cus"].get(x, {}).get(seat, {}).values()) > 0, (seat, x)
    royal_invariants(pack, state, gone)


def cu_delta(event) -> int:
    """CUs an event adds to (map + dispersed): for the accounting invariant."""
    d = event.data
    if event.kind == "CUsPlaced" and not d.get("from_dispersed"):
        return sum(d["cus"].values())
    if event.kind == "DispersedAdded":
        return sum(d["cus"].values())
    if event.kind == "CUsRemoved":
        return -sum(d["cus"].values())
    if event.kind == "SpecialUnitJoined":  # one special unit enters play
        return 1
    return 0


def royal_invariants(pack, state: GameState, gone: set[str] | None = None) -> None:
    """The royal family and legitimacy between decisions (R-11, R-12):

    - a controlled member's controller has a general, CU or garrison in its space
      (R-12.1); a member off the map or removed is controlled by nobody;
    - an active woman is controlled, an inactive one is not (R-12.2); an heir or the cart
      controlled by nobody has nobody in its space who would take it: control is
      settled (no pending :func:`pbem.rules.core.royals.royal_settlement`);
    - a member controlled by nobody is never inside a major city (R-12.1);
    - only Philip III waits off the map in his box; a member removed stays removed;
    - the tomb exists only once the body is gone; a marriage offer names a woman;
    - LP are never below 0 (R-11.1) and are the sum of their sources, clipped at 0.
    """
    s = state.peek()
    for rid, r in s["royals"].items():
        rm = pack.royals[rid]
        seat = royal_controller(pack, s, rid)
        if not r.get("space") or r.get("gone"):
            assert seat is None, (rid, r)
            assert r.get("gone") or rm.start is None, f"{rid} off the map but not gone"
            continue
        if seat is not None:
            assert seat in seat_at(s, r["space"]), f"{rid} controlled by {seat} from afar"
        if rm.kind == "woman" and "seat" in r:
            assert bool(r["active"]) == (seat is not None), (rid, r)
        if seat is None:
            assert not is_held_inside(pack, s, rid), f"uncontrolled {rid} inside a city"
    assert royal_settlement(pack, s) is None, royal_settlement(pack, s)
    now_gone = {rid for rid, r in s["royals"].items() if r.get("gone")}
    if gone is not None:
        assert gone <= now_gone, f"back in play: {gone - now_gone}"
        gone |= now_gone
    court = s.get("court") or {}
    if court.get("tomb"):
        assert s["royals"]["body"].get("gone"), "a tomb while the body is on the map"
    for rid in court.get("offers") or {}:
        assert pack.royals[rid].kind == "woman", rid
    lp, parts = legitimacy_points(pack, s), legitimacy_parts(pack, s)
    for seat in SEATS:
        assert lp[seat] >= 0 and lp[seat] == max(0, sum(parts[seat].values())), seat



def bot_game(pack, seed: bytes, rng_seed: int, limit: int = 3000):
    """Play one game of the random bots, yielding ``(state, decision, orders)`` before
    each decision is applied; the caller may inspect (never change) them. Asserts the
    game ended within ``limit`` decisions."""
    state, _ = R.new_game(pack, seed)
    rng = random.Random(rng_seed)
    for _ in range(limit):
        pending = R.pending(state)
        if not pending:
            break
        d = pending[0]
        orders = R.bot_orders(state, d.seat, rng)
        yield state, d, orders
        state, _ = R.apply(state, d.seat, orders, Dice(seed, state.step))
    assert state.result, f"game {seed!r} did not end"


def bot_steps(pack, seed: bytes, rng_seed: object, most: int):
    """Play up to ``most`` decisions of one game of the random bots (the rules
    baseline's driver, :func:`pbem.rules.bot_orders`, dice ``Dice(seed, step)``),
    yielding ``(state, decision, new_state, events)`` for each decision carried out;
    stops when the game ends (unlike :func:`bot_game`, it asserts no end)."""
    state, _ = R.new_game(pack, seed, {})
    rng = random.Random(rng_seed)
    for _ in range(most):
        pending = R.pending(state)
        if not pending:
            return
        d = pending[0]
        new, events = R.apply(state, d.seat, R.bot_orders(state, d.seat, rng),
                              Dice(seed, state.step))
        yield state, d, new, events
        state = new


GAME_39 = {
    "generals": {"antipater": {"seat": "east", "where": "map", "space": "nicaea"},
                 "cassander": {"seat": "east", "where": "map", "space": "gordium"}},
    "cus": {"nicaea": {"east": {"mercenary": 1}}, "gordium": {"east": {"mercenary": 1}}},
    "indep_armies": {"autariatae": {"space": "byzantium", "strength": 5}},
    "hands": {"east": [20]}, "active": "east"}
"""The position of game 39 of the property test (tests/rules/test_check_proves.py), for
:func:`position`: east's army of Nicaea (one mercenary CU) next to the independent army
in Byzantium, its army of Gordium behind, card 20 in hand."""
