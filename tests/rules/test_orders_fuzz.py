"""Bad player input never crashes the rules core (R-8 house rule): whatever shape the
orders take, ``validate`` returns Rejections (each with code, rule, message and where)
instead of raising.

Positions come from a few random bot games (options ``ask_windows`` and ``bot_inside``,
so reaction windows and units inside cities occur). Each example takes one decision of
those games, the bot's orders or a richer template using every order field of
``docs/orders.md`` (moves with drop/pick_up/escort, standing orders of every kind,
inside/outside, surrender, Tyche uses, reinforcements, window answers), and mutates it
structurally: any leaf or sub-tree replaced by a list, a mapping, None, a number, a
nested empty list or an odd string, keys duplicated in another case, keys dropped.
Orders it accepts are sometimes applied too: they are carried out without raising."""
from __future__ import annotations

import copy
import random
from functools import cache
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pbem.rules as R
from pbem.pack.loader import load_pack
from pbem.rules.core.state import GameState
from pbem.rules.dice import Dice

GAMES = 4
FUZZ = settings(max_examples=3000, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
JUNK: list[Any] = [None, [], {}, [[]], [[[]]], [{}], {"a": 1}, {"a": [1]}, {"x": None},
                   0, -1, 5, 10**30, 1.5, float("nan"), True, False, "", " ", "x", "None",
                   "none", "ÄÖ\x00", "²", "#" * 3, "9" * 5000, "Babylon", "babylon ",
                   "athenian_fleet", "silver_shields", "Heracles", "join", "default",
                   {1: 2}, {None: None}, {True: [1]}, -10**30, "0", "-1", "#12", "12"]
TOP = ["standing", "inside", "outside", "surrender", "movement", "tyche", "commanders",
       "step", "reinforcements", "intercept", "avoid_battle", "naval_battle", "inside_join"]


@cache
def positions() -> tuple[tuple[dict, str, str, dict], ...]:
    """``(state dict, seat, decision kind, bot orders)`` of every decision of a few bot
    games."""
    pack = load_pack()
    out = []
    for g in range(GAMES):
        seed = f"orders-fuzz-{g}".encode()
        rng = random.Random(g)
        state, _ = R.new_game(pack, seed, {"ask_windows": True, "bot_inside": True})
        while R.pending(state):
            d = R.pending(state)[0]
            orders = R.bot_orders(state, d.seat, rng)
            out.append((state.to_dict(), d.seat, d.kind, orders))
            state, _ = R.apply(state, d.seat, orders, Dice(seed, state.step))
    return tuple(out)


def template(s: dict, seat: str, kind: str, rng: random.Random) -> dict[str, Any]:
    """Orders using the fields of the decision's kind, filled from the position and its
    legal options (mostly legal values, and only some fields at once, so that mutations
    reach the deep checks rather than stop at the first refusal)."""
    pack = load_pack()
    state = GameState.from_dict(s, load_pack())
    from pbem.rules.core.board import info
    armies = [a for a in R.legal_options(state, seat).get("armies", [])] or [
        {"army": "ptolemy", "space": "pelusium", "cus": {"loyal": 1}}]
    a = rng.choice(armies)
    gen = pack.generals[a["army"]].name if a["army"] in pack.generals else a["army"]
    start = a["space"]
    near = [y for y, _k in info(pack).adjacent.get(start, ())] or ["gaza"]
    rng.shuffle(near)
    city = next((x for x, o in sorted(s["garrisons"].items())
                 if o == seat and pack.spaces[x].kind == "major_city"), "babylon")
    fleet = rng.choice(sorted(pack.fleets))
    other = rng.choice([x for x in R.SEATS if x != seat])
    cu = rng.choice(sorted(a["cus"]) or ["loyal"])
    standing = rng.sample([
        {"when": "intercept", "army": gen, "into": near[:2], "if_enemy_strength_at_most": 8},
        {"when": "avoid", "army": gen, "toward": near[0], "if_attacker_ratio_at_least": 2},
        {"when": "naval_battle", "against": [other], "fleets": [fleet]},
        {"when": "inside_join", "city": [city], "join": False},
        {"when": "losses", "order": ["mercenary", "elephant", "loyal", "royal"]},
    ], rng.randint(1, 3))
    if kind == "reinforcements":
        opts = R.legal_options(state, seat)
        sp = rng.choice(opts.get("placement_spaces") or [start])
        new = opts.get("new") or {"mercenary": 1}
        t = rng.choice(sorted(new))
        entries = [{"space": sp, "cus": {t: 1}}]
        if opts.get("inside_room"):
            entries.append({"space": rng.choice(sorted(opts["inside_room"])),
                            "cus": {t: 1}, "inside": True})
        return {"reinforcements": entries, "step": s["step"]}
    if kind != "player_turn":  # a reaction window
        opts = R.pending(state)[0].options
        first = (opts.get("choices") or [{}])[0]
        answer = {"intercept": {"army": first.get("space", gen)},
                  "avoid_battle": {"toward": first.get("space", near[0])},
                  "naval_battle": {"fleets": [first.get("fleet", fleet)]},
                  "inside_join": rng.choice(["stay", "join"])}
        out: dict[str, Any] = {kind: answer.get(kind, "none")}
        if rng.random() < 0.5:
            out["standing"] = standing
        return out
    move: dict[str, Any] = {"army": gen, "path": near[:1]}
    for k, v in (("drop", {"cus": {cu: 1}}), ("pick_up", {"at": near[0], "cus": {cu: 1}}),
                 ("assault", 1), ("escort", [fleet]),
                 ("drop", {"at": start, "generals": [gen], "royals": ["heracles"]})):
        if rng.random() < 0.25:
            move[k] = v
    opts = R.legal_options(state, seat)
    hand = [h for h in opts["hand"] if h["uses"]] or [{"card": 1, "uses": ["discard"]}]
    card = rng.choice(hand)
    use = rng.choice(card["uses"])
    tyche: dict[str, Any] = {"card": card["card"], "use": use}
    if use == "activate":
        tyche.update(copy.deepcopy(move))
    elif use == "event":
        tyche.update(rng.choice([{"moves": [copy.deepcopy(move)]}, {"army": gen},
                                 {"place": [start]}, {"unrest": "attica"}, {}]))
    elif use == "garrisons":
        tyche["places"] = opts["garrison_spaces"][:1] or near[:1]
    elif use == "train":
        tyche["train"] = [{"unit": rng.choice(["phalangite", "auxiliary"]), "ops": 1}]
        tyche["place"] = [start]
    elif use == "upgrade_fleet":
        tyche["fleet"] = (opts.get("fleet_upgrades") or [fleet])[0]
    if opts["surprise_discards"] and rng.random() < 0.3:
        tyche["surprise_discards"] = opts["surprise_discards"][:1]
    sur = opts["surrender"]
    fields = {
        "commanders": {start: gen},
        "surrender": {"accept": sur["accept"][:1], "remove": sur["remove"][:1],
                      "decline": [start], "assault": [start]},
        "movement": rng.choice([[move], "mercenary", {"mercenary": start}, "none"]),
        "standing": standing,
        "outside": [city],
        "inside": {city: {cu: 1, "generals": [gen]}},
        "step": s["step"],
    }
    out = {"tyche": tyche}
    for k in rng.sample(sorted(fields), rng.randint(0, 3)):
        out[k] = fields[k]
    return out


def _paths(o: Any, p: tuple = ()) -> list[tuple]:
    out = [p]
    if isinstance(o, dict):
        for k, v in o.items():
            out += _paths(v, (*p, k))
    elif isinstance(o, list):
        for i, v in enumerate(o):
            out += _paths(v, (*p, i))
    return out


def mutate(o: Any, rng: random.Random) -> Any:
    """One structural mutation of ``o`` (a deep copy is changed)."""
    o = copy.deepcopy(o)
    p = rng.choice(_paths(o))
    r = rng.random()
    if not p:
        return rng.choice(JUNK) if r < 0.2 else o
    parent = o
    for k in p[:-1]:
        parent = parent[k]
    key = p[-1]
    old = parent[key]
    if r < 0.12 and isinstance(parent, dict):
        del parent[key]
    elif r < 0.27 and isinstance(parent, dict) and isinstance(key, str):
        other = key.upper() if key != key.upper() else key.lower() + "_"
        parent[other] = copy.deepcopy(old)  # the same key twice, another case
        if isinstance(old, str):
            parent[other] = old.swapcase()
    elif r < 0.37:
        parent[key] = [copy.deepcopy(old)]
    elif r < 0.45:
        parent[key] = {"a": copy.deepcopy(old)} if rng.random() < 0.5 else {old: 1} \
            if isinstance(old, (str, int)) else {}
    elif r < 0.48 and isinstance(parent, dict):
        del parent[key]  # the same value under a key of another type
        parent[rng.choice([1, None, True, 2.5, key.upper() if isinstance(key, str) else 0])] \
            = old
    elif r < 0.52 and isinstance(parent, list):
        parent.append(copy.deepcopy(old))  # a duplicate entry
    elif r < 0.58 and isinstance(old, str):
        parent[key] = rng.choice([old.upper(), f" {old} ", old.title(), old + "s"])
    else:
        parent[key] = copy.deepcopy(rng.choice(JUNK))
    return o


def check(state: GameState, seat: str, orders: Any) -> None:
    rej = R.validate(state, seat, orders)
    assert isinstance(rej, list)
    for r in rej:
        assert isinstance(r, R.Problem)
        assert r.code and "." in r.code, r
        assert r.rule and r.rule.startswith("R-"), r
        assert r.message and isinstance(r.message, str), r
        assert r.where and r.where.startswith("orders"), r


@FUZZ
@given(st.integers(0, 10**9), st.integers(0, 10**9), st.integers(1, 4), st.booleans(),
       st.sampled_from(TOP), st.sampled_from(JUNK))
def test_mutated_orders_never_raise(pick: int, seed: int, n: int, rich: bool, extra: str,
                                    junk: Any) -> None:
    pos = positions()
    s, seat, kind, bot = pos[pick % len(pos)]
    rng = random.Random(seed)
    orders = template(s, seat, kind, rng) if rich else copy.deepcopy(bot)
    if rng.random() < 0.25 and isinstance(orders, dict):
        orders[extra] = copy.deepcopy(junk)
    for _ in range(n):
        orders = mutate(orders, rng)
    state = GameState.from_dict(s, load_pack())
    check(state, seat, orders)
    if rng.random() < 0.3 and not R.validate(state, seat, orders):
        R.apply(state, seat, orders, Dice(b"fuzz", state.step))  # accepted: carried out
    if rng.random() < 0.2:  # another seat sending the same (standing orders alone too)
        other = rng.choice([x for x in R.SEATS if x != seat])
        check(state, other, orders)
        if isinstance(orders, dict) and "standing" in orders:
            check(state, other, {"standing": orders["standing"]})


def test_templates_are_mostly_well_formed() -> None:
    """The unmutated templates reach the deep checks: no crash, and rejections (if any)
    are about the position, not the shape."""
    rng = random.Random(7)
    for s, seat, kind, _bot in positions()[::9]:
        check(GameState.from_dict(s, load_pack()), seat, template(s, seat, kind, rng))
