"""The fast paths of the rules core (issue 27 item 5, fast playouts) answer exactly as
the plain code they stand for, on the real pack and random positions."""
from __future__ import annotations

import random

from pbem.pack.loader import load_pack
from pbem.rules.core.board import distances, reachable
from pbem.rules.core.garrisons import garrison_costs
from rules_harness import bot_steps


def test_reachable_is_distances_keys() -> None:
    """R-8.3: the table of one- and two-step paths reaches the spaces the Dijkstra
    search reaches, for any sources and blocked middle spaces, at every limit."""
    pack = load_pack(None)
    spaces = sorted(pack.spaces)
    rng = random.Random(27)
    for costs in (garrison_costs(pack), {"land": 1}, {"land": 1, "mountain_strait": 2, "sea": 1}):
        for limit in (0, 1, 2, 3):
            for _ in range(100):
                sources = set(rng.sample(spaces, rng.randint(0, 30)))
                blocked = set(rng.sample(spaces, rng.randint(0, 80)))
                assert reachable(pack, sources, limit, costs, blocked) == \
                    set(distances(pack, sources, limit, costs, blocked))


def _played(pack, moves: int, seed: bytes = b"fastpath"):  # noqa: ANN001, ANN202
    """A real-pack game after ``moves`` random decisions."""
    from pbem import rules
    state = rules.new_game(pack, seed, {})[0]
    for _state, _d, new, _events in bot_steps(pack, seed, seed, moves):
        state = new
    return state


def test_victory_points_kept_are_the_terms_summed() -> None:
    """R-1.4: the VP kept by position are those of the terms, for positions met again
    and changed garrisons; each answer is the caller's own dict."""
    from pbem.rules.core.control import victory_points, victory_terms
    pack = load_pack(None)
    for moves in (0, 25, 60):
        s = _played(pack, moves).to_dict()
        for _ in range(2):
            got = victory_points(pack, s)
            assert got == {x: sum(t.value for t in ts) for x, ts in victory_terms(pack, s).items()}
            got["north"] = -99  # the caller's own dict: the kept answer is untouched
        space = next(iter(s["garrisons"]))
        s["garrisons"][space] = "east" if s["garrisons"][space] != "east" else "west"
        assert victory_points(pack, s) == {
            x: sum(t.value for t in ts) for x, ts in victory_terms(pack, s).items()}


def test_land_path_kept_is_the_search() -> None:
    """R-12.2, R-12.4: the bots' land path kept by position is the search's, and each
    answer is the caller's own list."""
    from pbem.rules.bots.royals import _land_path, land_path
    from pbem.rules.core.pieces import held_by_others
    pack = load_pack(None)
    s = _played(pack, 30).to_dict()
    rng = random.Random(3)
    spaces = sorted(pack.spaces)
    for _ in range(40):
        a, b = rng.choice(spaces), rng.choice(spaces)
        want = _land_path(pack, a, b, frozenset(held_by_others(s, "north")))
        got = land_path(pack, s, "north", a, b)
        assert got == want
        if got:
            got.append("x")
            assert land_path(pack, s, "north", a, b) == want


def test_isolated_garrisons_as_plain_search() -> None:
    """R-13: the supply chains through the per-pack land table isolate the same
    garrisons as a search along every land and mountain/strait path."""
    from collections import deque

    from pbem.rules.core.board import info
    from pbem.rules.core.pieces import general_spaces
    from pbem.rules.phases.isolation import _cut, isolated_garrisons
    pack = load_pack(None)
    for moves in (0, 40, 80):
        s = _played(pack, moves, b"iso").to_dict()
        for seat in ("north", "east", "south", "west"):
            gens = general_spaces(s, seat)
            anchors = [x for x in pack.spaces if x in gens or (
                s["garrisons"].get(x) == seat and pack.spaces[x].kind == "major_city")]
            cut, seen = _cut(s, seat), set(anchors)
            todo = deque(x for x in anchors if x not in cut)
            while todo:
                x = todo.popleft()
                for y, kind in info(pack).adjacent.get(x, ()):
                    if kind in ("land", "mountain_strait") and y not in seen:
                        seen.add(y)
                        if y not in cut:
                            todo.append(y)
            want = sorted(x for x, o in s["garrisons"].items() if o == seat and x not in seen)
            assert isolated_garrisons(pack, s, seat) == want


def test_copy_shares_nothing() -> None:
    """The working dict's deep copy: equal, exact JSON types (tuples become lists), and
    no container shared with the original."""
    from pbem.rules.core.state import _copy
    src = {"a": [1, {"b": (2, [3])}], "c": {"d": {"e": 1}}, "f": "x", "g": None}
    got = _copy(src)
    assert got == {"a": [1, {"b": [2, [3]]}], "c": {"d": {"e": 1}}, "f": "x", "g": None}
    got["a"][1]["b"][1].append(4)
    got["c"]["d"]["e"] = 2
    assert src["a"][1]["b"] == (2, [3]) and src["c"]["d"]["e"] == 1


def test_acceptable_is_validate_yes_or_no() -> None:
    """R-8: the random bot's yes-or-no check accepts exactly the orders validate
    accepts, refused parts anywhere in the player-turn included."""
    from pbem import rules
    from pbem.rules.bots.random import candidate_orders
    from pbem.rules.engine import acceptable
    pack = load_pack(None)
    rng = random.Random(5)
    seen = {True: 0, False: 0}
    for moves in (3, 20, 45):
        state = _played(pack, moves, b"yesno")
        d = rules.pending(state)[0]
        if d.kind != "player_turn":
            continue
        opts = rules.legal_options(state, d.seat)
        for _ in range(25):
            orders = candidate_orders(pack, state, opts, rng)
            ok = acceptable(state, d.seat, orders)
            assert ok == (not rules.validate(state, d.seat, orders))
            seen[ok] += 1
    assert seen[True] and seen[False]


def test_copy_on_write_leaves_every_state_as_it_was() -> None:
    """Copy on write (issue 27 item 5): a check or a decision copies a part of the
    position only when an event writes it (``Ctx.owned``, the kinds' ``writes``), so a
    state shares the parts a decision left alone with the state before it, and no check,
    refused candidate, dry run of moves or decision ever changes a state made before."""
    import json

    from pbem.rules.core.state import _DATA_FIELDS
    pack = load_pack(None)
    shared = 0
    for g in range(3):
        seen: list = []
        for state, _d, new, _events in bot_steps(pack, bytes([g + 1]) * 8, g, 400):
            if not seen:
                seen.append((state, json.dumps(state.to_dict(), sort_keys=True)))
            shared += sum(getattr(new, f) is getattr(state, f) for f in _DATA_FIELDS
                          if isinstance(getattr(state, f), (dict, list)))
            seen.append((new, json.dumps(new.to_dict(), sort_keys=True)))
        for k, (st, text) in enumerate(seen):
            assert json.dumps(st.to_dict(), sort_keys=True) == text, f"game {g}: state {k} changed"
    assert shared > 1000  # the parts a decision does not write are not copied


def test_legal_options_list_the_armies_once(monkeypatch) -> None:  # noqa: ANN001
    """R-8.2, R-9.1: the Tyche part and the movement part of a player-turn's options
    read the seat's armies from one :func:`army_options` (issue 27 item 5), with the
    same options as before."""
    from pbem.rules.core import armies as armies_mod
    from pbem.rules.orders import movement, tyche
    from pbem.rules.phases import player_turn
    pack = load_pack(None)
    states = [_played(pack, n) for n in (1, 9, 30)]
    # dict(...): the options are computed on read (issue 27 item 5), here before the count
    wanted = [dict(player_turn.player_turn_options(pack, st.peek(), st.active)) for st in states]
    calls = []
    real = armies_mod.army_options

    def counted(*a, **k):  # noqa: ANN002, ANN003, ANN202
        calls.append(a[2])
        return real(*a, **k)

    for mod in (armies_mod, tyche, movement, player_turn):
        monkeypatch.setattr(mod, "army_options", counted, raising=False)
    for st, want in zip(states, wanted, strict=True):
        calls.clear()
        assert player_turn.player_turn_options(pack, st.peek(), st.active) == want
        assert want["armies"] and calls == [st.active]


def test_legitimacy_points_are_the_terms_summed_without_terms(monkeypatch) -> None:  # noqa: ANN001
    """R-11.1: the LP are the sum of each seat's terms (never below 0), the counted heir
    the one :func:`counted_heir` names, on positions of real games and with the court
    changed (a chosen heir, card LP, a negative adjustment); the sum builds no ``Term``
    (issue 27 item 5)."""
    from pbem.rules.core import control
    pack = load_pack(None)
    positions = []
    for moves in (0, 20, 45, 90):
        s = _played(pack, moves, b"lp-fast").to_dict()
        positions.append(s)
        t = _copy_of(s)
        heirs = [r for r, rm in pack.royals.items() if rm.kind == "heir"]
        t["court"] = {**(t.get("court") or {}), "heirs": {"north": heirs[-1], "east": heirs[0]},
                      "lp_cards": [{"seat": "west", "card": 7, "amount": 2, "turn": None},
                                   {"seat": "west", "card": 7, "amount": -1, "turn": None}]}
        t["lp_adjust"] = {"south": -50, "east": 3}
        positions.append(t)
    want = []
    for s in positions:
        terms = control.legitimacy_terms(pack, s)
        want.append({x: max(0, sum(t.value for t in ts)) for x, ts in terms.items()})
        for x, ts in terms.items():
            heir = [t.what for t in ts if t.kind == "heir"]
            assert heir == ([control.counted_heir(pack, s, x)]
                            if control.counted_heir(pack, s, x) else [])
    assert any(w["south"] == 0 for w in want)

    def no_term(*a, **k):  # noqa: ANN002, ANN003, ANN202
        raise AssertionError("a Term was built")

    monkeypatch.setattr(control, "Term", no_term)
    assert [control.legitimacy_points(pack, s) for s in positions] == want


def _copy_of(s):  # noqa: ANN001, ANN202
    import copy
    return copy.deepcopy(s)


def _count_runs(monkeypatch) -> list[str]:  # noqa: ANN001
    """Make ``moves.run_cursor`` record the segment of each run (a movement's dry run or
    execution); the list it fills."""
    from pbem.rules.resolve import moves
    runs: list[str] = []
    real_run = moves.run_cursor

    def counted(ctx, c):  # noqa: ANN001, ANN202
        runs.append(c["segment"])
        return real_run(ctx, c)

    monkeypatch.setattr(moves, "run_cursor", counted)
    return runs


def _player_turns(pack, steps: range, seed: bytes):  # noqa: ANN001, ANN202
    """``(n, state, decision, legal options)`` for each ``n`` of ``steps`` whose position
    (:func:`_played` with ``seed``) waits for a player-turn."""
    from pbem import rules
    for n in steps:
        state = _played(pack, n, seed)
        d = (rules.pending(state) or [None])[0]
        if d is not None and d.kind == "player_turn":
            yield n, state, d, rules.legal_options(state, d.seat)


def test_tyche_activation_moves_once_in_a_check(monkeypatch) -> None:  # noqa: ANN001
    """R-8.2: a check of a Tyche activation dry-runs the army's move once: the run made
    before the card is played is adopted after it (``Ctx.keep_rehearsal``), with the
    same events and position as a second run (issue 27 item 5)."""
    from pbem import rules
    from pbem.rules import context
    from pbem.rules.bots.random import candidate_orders
    pack = load_pack(None)
    rng = random.Random(8)
    runs = _count_runs(monkeypatch)
    compared = 0
    for n, state, d, opts in _player_turns(pack, range(2, 120, 3), b"tyche-once"):
        for h in opts["hand"]:
            if "activate" not in h["uses"]:
                continue
            orders = candidate_orders(pack, state, opts, rng, pick=(h["card"], "activate"))
            if orders["tyche"].get("use") != "activate":  # the bot found no army to move
                continue
            # a surprise discard draws a card the move might play, a surprise play may change
            # the board: the move runs again after them
            orders["tyche"].pop("surprise_discards", None)
            orders["tyche"].pop("surprise_plays", None)
            orders["movement"] = "none"
            runs.clear()
            got = rules.check(state, d.seat, orders)
            if got.problems or got.outcome is None:
                continue
            assert runs.count("tyche") == 1, (n, orders, runs)
            with monkeypatch.context() as m:  # the same check running the move again
                m.setattr(context.Ctx, "_replay_after_card", lambda self, *a: False)
                runs.clear()
                again = rules.check(state, d.seat, orders)
                assert runs.count("tyche") == 2
            assert again.outcome is not None and again.outcome[0] == got.outcome[0]
            assert [(e.kind, e.data) for e in again.outcome[1]] == \
                [(e.kind, e.data) for e in got.outcome[1]]
            compared += 1
    assert compared >= 3


def test_assault_with_nothing_to_besiege_refused_without_dry_run(monkeypatch) -> None:  # noqa: ANN001
    """R-10: the yes-or-no check refuses a first move whose assault has nothing to
    besiege, or too few CUs, where it ends before the movement's dry run (issue 27 item
    5), and answers as :func:`validate` does for every candidate."""
    from pbem import rules
    from pbem.rules.bots.random import candidate_orders
    from pbem.rules.engine import acceptable
    pack = load_pack(None)
    rng = random.Random(10)
    runs = _count_runs(monkeypatch)
    skipped = 0
    for n, state, d, opts in _player_turns(pack, range(2, 90, 4), b"no-siege"):
        for _ in range(12):
            orders = candidate_orders(pack, state, opts, rng)
            mv = orders.get("movement")
            if not isinstance(mv, list) or not mv:
                continue
            mv[0]["assault"] = 1
            problems = rules.validate(state, d.seat, orders)
            runs.clear()
            ok = acceptable(state, d.seat, orders)
            assert ok == (not problems)
            first = [p for p in problems if p.code == "siege.illegal"
                     and (p.where or "").startswith("orders.movement[0]")]
            if first and all(p.where.startswith("orders.movement") for p in problems):
                assert "movement" not in runs, (n, orders, problems)
                skipped += 1
    assert skipped >= 3


def test_second_level_copy_shares_the_spaces_a_decision_leaves_alone() -> None:
    """Second-level copy on write (issue 27 item 5): a decision that moves armies or
    places CUs copies the CUs of the spaces it changes, not every space's: the new
    state's other spaces are the very dicts of the state before (and no state before
    ever changes: :func:`test_copy_on_write_leaves_every_state_as_it_was`)."""
    pack = load_pack(None)
    shared = copied = 0
    for state, _d, new, events in bot_steps(pack, b"cells-27", 27, 120):
        if new.cus is not state.cus and any(e.kind == "ArmyMoved" for e in events):
            for x, by in new.cus.items():
                if x in state.cus:
                    shared += by is state.cus[x]
                    copied += by is not state.cus[x]
    assert shared > copied > 0


def test_interception_candidates_only_for_a_seat_that_may_react(monkeypatch) -> None:  # noqa: ANN001
    """R-9.3: a move entering a space asks each other seat for an interception; a seat
    with no standing order to intercept, no answer waiting and no window to open
    reacts to none, so its candidate armies are not looked for (issue 27 item 5), and
    the seats that may react are still asked (interceptions are still rolled)."""
    from pbem.rules.core.state import standing_orders
    from pbem.rules.resolve import reactions
    pack = load_pack(None)
    calls = {"may": 0, "may not": 0}
    real = reactions.intercept_candidates

    def counted(pack_, s, rseat, space, mover):  # noqa: ANN001, ANN202
        may = any(o.get("when") == "intercept" for o in standing_orders(s, rseat))
        calls["may" if may else "may not"] += 1
        return real(pack_, s, rseat, space, mover)

    monkeypatch.setattr(reactions, "intercept_candidates", counted)
    rolled = 0
    for g in range(6):
        for _state, _d, _new, events in bot_steps(pack, bytes([g + 40]) * 8, g, 300):
            rolled += sum(e.kind == "InterceptionRolled" for e in events)
    assert calls["may not"] == 0
    assert calls["may"] > 0 and rolled > 0


def _enemy_unit_spaces_plain(s, seat):  # noqa: ANN001, ANN202
    """:func:`enemy_unit_spaces` as written before issue 27 item 5's third pass."""
    from pbem.rules.core.pieces import wholly_inside
    out = {x for x, by in s["cus"].items()
           if any(o != seat and sum(c.values()) and not wholly_inside(s, o, x)
                  for o, c in by.items())}
    out |= {v["space"] for v in s["generals"].values()
            if v["where"] == "map" and v["seat"] != seat
            and not wholly_inside(s, v["seat"], v["space"])}
    out |= {x for o, ms in s["minors"].items() if o != seat for x in ms
            if not wholly_inside(s, o, x)}
    out.update(a["space"] for a in s["indep_armies"].values() if a["space"])
    return out


def test_enemy_unit_spaces_as_plain_search_with_units_inside() -> None:
    """R-5, R-7.2: the enemy units' spaces read with the inside record's seat first are
    those of the plain search, in games whose bots go inside cities and besiege them."""
    from pbem import rules
    from pbem.rules.core.pieces import enemy_unit_spaces
    from pbem.rules.core.state import SEATS
    from pbem.rules.dice import Dice
    pack = load_pack(None)
    inside = 0
    for g in range(3):
        seed = bytes([g + 90]) * 8
        state, _ = rules.new_game(pack, seed, {"bot_inside": True})
        rng = random.Random(g)
        for _ in range(250):
            pending = rules.pending(state)
            if not pending:
                break
            s = state.peek()
            inside += bool(s.get("inside"))
            for seat in SEATS:
                assert enemy_unit_spaces(s, seat) == _enemy_unit_spaces_plain(s, seat)
            d = pending[0]
            state, _ = rules.apply(state, d.seat, rules.bot_orders(state, d.seat, rng),
                                   Dice(seed, state.step))
    assert inside > 20


def test_adopt_sets_the_fields_without_init(monkeypatch) -> None:  # noqa: ANN001
    """``GameState.adopt`` of a working dict of exactly the state's fields (``conceded``
    left out or not) makes the state ``__init__`` would, without calling it (issue 27
    item 5); another dict still goes through ``__init__`` (unknown keys refused)."""
    import pytest

    from pbem import rules
    from pbem.rules.core.state import GameState
    pack = load_pack(None)
    state = _played(pack, 12, b"adopt")
    plain = state.to_dict()
    want = GameState(**plain, pack=pack)
    with_conceded = {**plain, "conceded": ["west"]}
    want_conceded = GameState(**with_conceded, pack=pack)

    def no_init(self, *a, **k):  # noqa: ANN001, ANN002, ANN003, ANN202
        raise AssertionError("__init__ called")

    monkeypatch.setattr(GameState, "__init__", no_init)
    got = GameState.adopt(dict(plain), pack)
    assert got == want and got.pack is pack and got.memo == {} and got.conceded == []
    assert GameState.adopt(dict(with_conceded), pack) == want_conceded
    assert rules.legal_options(got, got.active) == rules.legal_options(want, want.active)
    monkeypatch.undo()
    with pytest.raises(TypeError):
        GameState.adopt({**plain, "not_a_field": 1}, pack)
