"""The movement segment's fast paths (issue 27 item 5, fourth pass, i-moves27) answer
exactly as the plain code they stand for."""
from __future__ import annotations

import random
import sys

from pbem.pack import names as pack_names
from pbem.pack.loader import load_pack
from pbem.rules.core import board
from pbem.rules.core.board import resolve_general, resolve_id
from rules_harness import bot_steps


def test_general_names_remembered_answer_as_the_plain_lookup(monkeypatch) -> None:  # noqa: ANN001
    """R-5: a general named by id, name (any case, ``_`` for spaces) or a text naming
    none resolves as the plain scan and lookup do, the second time without a scan; the
    memo stays within its bound whatever texts come."""
    pack = load_pack(None)
    texts: list[object] = [None, 3, "", "nobody", "  Seleucus ", "macedon"]
    for gid, g in pack.generals.items():
        texts += [gid, gid.upper(), g.name, g.name.lower().replace(" ", "_")]

    def plain(text: object) -> str | None:
        return resolve_id(pack.generals, text) or pack_names.lookup(pack, "generals", text)

    want = [plain(t) for t in texts]
    board._GENERAL_NAMES.pop(id(pack), None)  # earlier tests' texts
    assert any(want) and None in want
    assert [resolve_general(pack, t) for t in texts] == want
    scans: list[object] = []
    monkeypatch.setattr(board, "resolve_id", lambda entries, text: scans.append(text))
    assert [resolve_general(pack, t) for t in texts] == want  # remembered: no scan
    assert scans == []
    monkeypatch.undo()
    for n in range(board._GENERAL_NAMES_MAX + 10):
        assert resolve_general(pack, f"junk{n}") is None
    assert len(board._GENERAL_NAMES[id(pack)][1]) <= board._GENERAL_NAMES_MAX
    assert [resolve_general(pack, t) for t in texts] == want


def _positions(pack, games: int = 3, moves: int = 120):  # noqa: ANN001, ANN202
    """Working dicts along random real-pack games (every 10th decision)."""
    return [state.peek() for g in range(games)
            for k, (state, _d, _new, _events)
            in enumerate(bot_steps(pack, bytes([g + 70]) * 8, g, moves)) if k % 10 == 0]


def test_paths_remembered_answer_as_computed(monkeypatch) -> None:  # noqa: ANN001
    """R-9.1: a path's kind, cost and error are the computed ones, also the second time,
    when they are no longer computed."""
    pack = load_pack(None)
    rng = random.Random(9)
    adj = board.info(pack).adjacent
    spaces = sorted(pack.spaces)
    cases = []
    for _ in range(400):
        start = rng.choice(spaces)
        path, x = [], start
        for _ in range(rng.randint(0, 4)):
            x = rng.choice([y for y, _k in adj.get(x, ())] or spaces) if rng.random() < 0.9 \
                else rng.choice(spaces)
            path.append(x)
        cases.append((start, path, rng.randint(0, 6)))
    cases += [(a, [b], mp) for a, v in sorted(adj.items()) for b, k in v if k == "trans_med"
              for mp in (2, 5)]  # the allowance is the cost
    want = [board._classify_path(pack, *c) for c in cases]
    board._PATHS.pop(id(pack), None)  # earlier tests' paths: the memo may fill and start again
    assert {w[0] for w in want} >= {"land", "trans_med", None} and any(w[2] for w in want)
    assert [board.classify_path(pack, *c) for c in cases] == want
    monkeypatch.setattr(board, "_classify_path", lambda *a: (_ for _ in ()).throw(AssertionError(a)))
    assert [board.classify_path(pack, *c) for c in cases] == want


def test_royals_looked_for_only_where_they_stand(monkeypatch) -> None:  # noqa: ANN001
    """R-9.1, R-12.5: a move takes the royals its seat controls standing at its start;
    their control is read only when a royal stands there (issue 27 item 5), and the
    armies that may move (their allowances) read it nowhere: the moves and the options
    are those of the plain code."""
    from pbem.rules.context import Ctx
    from pbem.rules.core import armies
    from pbem.rules.core.pieces import controlled_royals
    from pbem.rules.resolve import movement
    from pbem.rules.resolve.moves import check_moves, do_moves
    pack = load_pack(None)
    calls: list[str] = []
    monkeypatch.setattr(movement, "controlled_royals",
                        lambda p, s, seat: calls.append(seat) or controlled_royals(p, s, seat))
    moved = with_royals = 0
    for s in _positions(pack):
        seat = s["active"]
        if seat is None:
            continue
        for a in armies.army_options(pack, s, seat):
            x = a["space"]
            steps = [y for y, k in board.info(pack).adjacent.get(x, ()) if k == "land"]
            if not steps:
                continue
            here = [r for r in controlled_royals(pack, s, seat) if s["royals"][r].get("space") == x]
            rej: list = []
            calls.clear()
            plan = check_moves(pack, s, seat, [{"army": a["army"], "path": [steps[0]]}],
                               "orders.movement", rej)
            if plan is None:
                continue
            ctx = Ctx(pack, dict(s), None, owned=())
            do_moves(ctx, seat, plan)
            stand = any(r.get("space") == x for r in s["royals"].values())
            assert len(calls) == (2 if stand else 0)  # the dry run and the run
            first = next(e for e in ctx.events if e.kind == "ArmyMoved")
            assert first.data["royals"] == here
            moved += 1
            with_royals += bool(here)
    assert moved > 20 and with_royals > 0


def test_armies_as_plain_code_with_royals() -> None:
    """R-9.1: the armies that may move, their commanders, allowances and CUs are those
    the plain code gives, reading the royals each takes (they name no army)."""
    from pbem.rules.core import armies
    from pbem.rules.core.pieces import controlled_royals, group_at

    def plain(pack, s, seat):  # noqa: ANN001, ANN202
        spaces = {g["space"] for g in s["generals"].values()
                  if g["where"] == "map" and g["seat"] == seat and g["space"]}
        spaces |= set(s["minors"].get(seat, []))
        out = []
        for x in sorted(spaces):
            g = group_at(s, seat, x, controlled_royals(pack, s, seat))
            cmd = armies.group_commander(pack, s, seat, g)
            if cmd is None or (cmd == "minor" and not g["cus"]):
                continue
            out.append({"army": cmd if cmd != "minor" else x, "space": x, "commander": cmd,
                        "allowance": armies.group_initiative(pack, s, seat, g), "cus": g["cus"]})
        return out

    pack = load_pack(None)
    seen = 0
    for s in _positions(pack, games=2):
        for seat in ("north", "south", "east", "west"):
            got = armies.army_options(pack, s, seat)
            assert got == plain(pack, s, seat)
            seen += len(got)
    assert seen > 20


def test_mover_strength_only_for_a_seat_with_candidates(monkeypatch) -> None:  # noqa: ANN001
    """R-9.3: the mover's strength (a standing order's ``if_enemy_strength_at_most``) is
    read only when a seat that may react has armies to intercept with (issue 27 item 5),
    and interceptions are still rolled."""
    from pbem.rules.resolve import reactions
    pack = load_pack(None)
    seen = {"strength": 0, "candidates": 0, "rolled": 0}
    real_strength, real_cands = reactions.fixed_strength, reactions.intercept_candidates

    def strength(pack_, cus):  # noqa: ANN001, ANN202
        seen["strength"] += sys._getframe(1).f_code.co_name == "try_intercept"
        return real_strength(pack_, cus)

    def cands(*a):  # noqa: ANN002, ANN202
        got = real_cands(*a)
        seen["candidates"] += bool(got)
        return got

    monkeypatch.setattr(reactions, "fixed_strength", strength)
    monkeypatch.setattr(reactions, "intercept_candidates", cands)
    for g in range(4):
        for _state, _d, _new, events in bot_steps(pack, bytes([g + 40]) * 8, g, 300):
            seen["rolled"] += sum(e.kind == "InterceptionRolled" for e in events)
    assert seen["rolled"] > 0
    assert 0 < seen["strength"] <= seen["candidates"]


def test_pick_ups_on_the_way_checked_only_for_moves_with_one(monkeypatch) -> None:  # noqa: ANN001
    """R-9.1: a list of moves without a pick-up has no pick-up on the way to check (the
    earlier moves' footprints are not gathered for it, issue 27 item 5); one whose later
    move picks up what no dice can put there is still refused (game 39 of the property
    test)."""
    from rules_harness import GAME_39, position

    from pbem import rules
    from pbem.rules.resolve import moves
    pack = load_pack(None)
    state = position(pack, GAME_39)
    calls: list[int] = []
    real = moves._both
    monkeypatch.setattr(moves, "_both", lambda u, m: calls.append(1) or real(u, m))
    plain = {"tyche": {"card": 20, "use": "discard"},
             "movement": [{"army": "Antipater", "path": ["Chalcedon", "Byzantium"]},
                          {"army": "Cassander", "path": ["Nicaea", "Chalcedon", "Dascylium"]}]}
    assert rules.check(state, "east", plain).problems == []
    assert calls == []
    picks = {**plain, "movement": [plain["movement"][0], {
        **plain["movement"][1], "pick_up": {"at": "Nicaea", "cus": {"mercenary": 6}}}]}
    got = [(p.code, p.where) for p in rules.check(state, "east", picks).problems]
    assert got == [("movement.illegal", "orders.movement[1].pick_up")], got
    assert calls == [1]
