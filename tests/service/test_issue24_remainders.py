"""Issue 24's remainders through the real mail path (a judge polling pymap on loopback,
the seats mailing over SMTP; the tests read the answers in the seats' mailboxes).

- Item 7 ("every mistake in one answer"): a move whose path leaves out a space is
  still dry-run as far as it goes, and its path as written is costed with the gap
  filled: the gap, the MPs, a drop of units the army does not have and a garrison
  mistake come back in one refusal, and the mail with those fixed is accepted.
- Item 6/N6 (command recognition): ``Command: Status`` above ``game:`` is the command;
  ``command:`` with ``orders:`` is refused naming both and how to send each.
"""
from __future__ import annotations

import random

import yaml

from pbem import rules
from pbem.rules.core.board import LAND_KINDS, info, land_distance
from pbem.rules.core.pieces import cus_at, enemy_of
from pbem.service import run_once
from tests.conftest import KEYS
from tests.service.test_check_by_mail import _send, turn  # noqa: F401  (the fixture)


def _cost(pack, start: str, path: list[str]) -> int:
    """The MPs of a land path (R-9.1: the cheapest land kind of each step)."""
    costs, adj, prev, total = pack.constants["path_mp_cost"], info(pack).adjacent, start, 0
    for x in path:
        total += min(int(costs[k]) for y, k in adj[prev] if y == x and k in LAND_KINDS)
        prev = x
    return total


def _winding_walk(pack, s, seat: str, start: str, mp: int) -> tuple[list[str], int]:
    """A land walk from ``start`` through spaces with no other faction's units (no
    space twice) that costs more than ``mp`` while its end lies within ``mp`` by land,
    with a space ``walk[i]`` whose neighbours on the walk are not next to each other:
    ``(walk, i)``. Leaving out ``walk[i]`` makes a path with a gap whose end is in
    reach, while the path as written, the gap filled, is not."""
    adj = info(pack).adjacent
    rng = random.Random(24)
    for _ in range(20000):
        walk, here = [], start
        while _cost(pack, start, walk) <= mp:
            nxt = [y for y, k in adj[here] if k in LAND_KINDS and y != start and y not in walk
                   and pack.spaces[y].kind != "transit" and enemy_of(s, seat, y) is None
                   and not any(v for w, v in s["cus"].get(y, {}).items() if w != seat)]
            if not nxt:
                break
            here = rng.choice(sorted(nxt))
            walk.append(here)
        if _cost(pack, start, walk) <= mp or (land_distance(pack, start, walk[-1]) or 99) > mp:
            continue
        for i in range(1, len(walk) - 1):
            if not any(y == walk[i + 1] for y, _k in adj[walk[i - 1]]):
                return walk, i
    raise AssertionError("no winding walk found")


def test_a_gap_hides_neither_the_mps_nor_the_dry_run_nor_the_other_parts(turn) -> None:  # noqa: F811
    """Item 7: one refusal names the gap, the MPs of the path as written, the drop of
    more CUs than the army has (found by the dry run, which used to skip a move with a
    gap) and the garrison placed where none may go; fixing those four gets the orders
    accepted, with no second refusal."""
    table, seat = turn
    state = table.judge.state("g1")
    pack, s = state.pack, state.peek()
    opts = rules.legal_options(state, seat)
    army = opts["armies"][0]
    a1, s1, mp = army["army"], army["space"], army["allowance"]
    walk, i = _winding_walk(pack, s, seat, s1, mp)
    gapped = walk[:i] + walk[i + 1:]
    have = cus_at(s, seat, s1)
    kind = sorted(have)[0]
    card = next(h["card"] for h in opts["hand"] if "garrisons" in h["uses"])
    bad = next(x for x in sorted(pack.spaces) if x not in opts["garrison_spaces"]
               and pack.spaces[x].kind != "transit")
    name = pack.generals[a1].name
    status, answer = _send(table, seat, {
        "tyche": {"card": card, "use": "garrisons", "places": [pack.spaces[bad].name]},
        "movement": [{"army": name, "path": [pack.spaces[x].name for x in gapped],
                      "drop": {"cus": {kind: have[kind] + 1}}}]})
    assert status == "rejected", answer
    assert "There are 4 problems:" in answer, answer
    for code in ("tyche.garrison_illegal", "movement.bad_path", "movement.too_far",
                 "movement.illegal"):
        assert f"code: {code}" in answer, (code, answer)
    assert (f"{pack.spaces[walk[i + 1]].name} is not next to {pack.spaces[walk[i - 1]].name}"
            in answer), answer
    assert (f"is at least {_cost(pack, s1, walk)} MPs from {pack.spaces[s1].name} along the "
            "path as written") in answer, answer
    assert f"the army has {have[kind]} " in answer and f"CUs, not {have[kind] + 1}" in answer, answer

    fixed = []  # the path written out in full, shortened to the army's MPs
    for x in walk:
        if _cost(pack, s1, [*fixed, x]) > mp:
            break
        fixed.append(x)
    status, answer = _send(table, seat, {
        "tyche": {"card": card, "use": "garrisons",
                  "places": [pack.spaces[opts["garrison_spaces"][0]].name]},
        "movement": [{"army": name, "path": [pack.spaces[x].name for x in fixed]}]})
    assert status == "applied", answer


def _mail(table, seat: str, body: str) -> tuple[str, str]:
    """Mail ``body`` from ``seat``; the inbox status and the answer's text."""
    seen = len(table.inbox(seat))
    table.send(seat, body)
    [status] = run_once(table.judge, table.poller).values()
    answers = table.inbox(seat)[seen:]
    return status, " ".join(table.text_of(answers[-1]).split()) if answers else ""


def test_a_capitalised_command_above_game_is_the_command(turn) -> None:  # noqa: F811
    """Item 6/N6: ``Command: Status`` written above ``game:`` (people capitalise) is the
    status command; it used to be cut off the block, which was refused as orders with
    no step and no orders."""
    table, seat = turn
    step = table.judge.state("g1").step
    status, answer = _mail(table, seat, f"Command: Status\ngame: g1\nseat: {seat}\nkey: {KEYS[seat]}\n")
    assert status == "answered", answer
    assert f"Game g1 is active at step {step}; it waits for {seat}." in answer, answer
    assert "code:" not in answer, answer


def test_a_command_and_orders_in_one_mail_are_refused_naming_both(turn) -> None:  # noqa: F811
    """Item 6/N6: ``command:`` and ``orders:`` in one document: neither is done, and the
    answer names both and how to send each (it used to call ``command`` an unknown key)."""
    table, seat = turn
    state = table.judge.state("g1")
    orders = dict(rules.pending(state)[0].default)
    body = (f"command: status\n\ngame: g1\nseat: {seat}\nkey: {KEYS[seat]}\nstep: {state.step}\n"
            + yaml.safe_dump({"orders": orders}, sort_keys=False))
    status, answer = _mail(table, seat, body)
    assert status == "rejected", answer
    assert "There is 1 problem:" in answer and "code: envelope.command_and_orders" in answer, answer
    assert "holds both `command: status` and `orders:`" in answer, answer
    assert "delete the `command:` line" in answer and "a mail of its own" in answer, answer
    assert "Unknown top-level key" not in answer, answer
    assert table.judge.state("g1").step == state.step


def test_the_prompt_shows_pick_up_and_what_may_be_picked_up(turn) -> None:  # noqa: F811
    """Item 6/N6: the player-turn prompt says how ``pick_up`` (and ``drop``) is written,
    and once CUs of the seat stand with no general (dropped by a move), its next prompt
    lists them under the legal choices; a move that picks them up as listed is
    accepted."""
    table, seat = turn
    state = table.judge.state("g1")
    pack, s = state.pack, state.peek()
    prompt = [m for m in table.inbox(seat) if f"step {state.step}:" in str(m["Subject"])][-1]
    flat = " ".join(table.text_of(prompt).split())
    assert "pick_up: {at: Space, cus: {loyal: 1}} to take units along on the way (R-9.1)" in flat, flat
    assert "drop: {cus: {loyal: 1}} to leave units at the start" in flat, flat
    assert "Units of yours no general leads" not in flat  # none stand apart yet

    opts = rules.legal_options(state, seat)
    army = opts["armies"][0]
    a1, s1 = army["army"], army["space"]
    kind = sorted(cus_at(s, seat, s1))[0]
    y = next(y for y, k in sorted(info(pack).adjacent[s1]) if k in LAND_KINDS
             and pack.spaces[y].kind != "transit" and not any(s["cus"].get(y, {}).values())
             and enemy_of(s, seat, y) is None)
    discard = next(h["card"] for h in opts["hand"] if "discard" in h["uses"])
    status, answer = _send(table, seat, {"tyche": {"card": discard, "use": "discard"},
                                         "movement": [{"army": pack.generals[a1].name,
                                                       "path": [pack.spaces[y].name],
                                                       "drop": {"cus": {kind: 1}}}]})
    assert status == "applied", answer
    while (d := rules.pending(table.judge.state("g1"))[0]).seat != seat:
        table.send(d.seat, table.orders_doc(d.seat, table.judge.state("g1").step, dict(d.default)))
        assert list(run_once(table.judge, table.poller).values()) == ["applied"]
    state = table.judge.state("g1")
    assert {"space": s1, "cus": {kind: 1}, "royals": []} in rules.legal_options(state, seat)["pick_ups"]
    prompt = [m for m in table.inbox(seat) if f"step {state.step}:" in str(m["Subject"])][-1]
    flat = " ".join(table.text_of(prompt).split())
    listed = flat.split("Units of yours no general leads", 1)[1].split(" - ")[0]
    assert f"{pack.spaces[s1].name} (1 {kind})" in listed, flat
    discard = next(h["card"] for h in rules.legal_options(state, seat)["hand"] if "discard" in h["uses"])
    status, answer = _send(table, seat, {"tyche": {"card": discard, "use": "discard"},
                                         "movement": [{"army": pack.generals[a1].name,
                                                       "path": [pack.spaces[s1].name],
                                                       "pick_up": {"at": pack.spaces[s1].name,
                                                                   "cus": {kind: 1}}}]})
    assert status == "applied", answer


def test_a_pick_up_off_the_path_is_refused_not_dropped(turn) -> None:  # noqa: F811
    """Issue 24 ("no order silently lost"): a ``pick_up`` naming a space the move never
    passes used to be accepted and never carried out; it is refused naming the space,
    and the same move without it is accepted."""
    table, seat = turn
    state = table.judge.state("g1")
    pack, s = state.pack, state.peek()
    opts = rules.legal_options(state, seat)
    army = opts["armies"][0]
    a1, s1 = army["army"], army["space"]
    y = next(y for y, k in sorted(info(pack).adjacent[s1]) if k in LAND_KINDS
             and pack.spaces[y].kind != "transit" and not any(s["cus"].get(y, {}).values())
             and enemy_of(s, seat, y) is None)
    other = next(a["space"] for a in opts["armies"][1:])
    discard = next(h["card"] for h in opts["hand"] if "discard" in h["uses"])
    kind = sorted(cus_at(s, seat, other))[0]
    move = {"army": pack.generals[a1].name, "path": [pack.spaces[y].name],
            "pick_up": {"at": pack.spaces[other].name, "cus": {kind: 1}}}
    status, answer = _send(table, seat, {"tyche": {"card": discard, "use": "discard"}, "movement": [move]})
    assert status == "rejected", answer
    assert f"{pack.spaces[other].name} is not on this move's path" in answer, answer
    assert "There is 1 problem:" in answer and "code: movement.illegal" in answer, answer
    move.pop("pick_up")
    status, answer = _send(table, seat, {"tyche": {"card": discard, "use": "discard"}, "movement": [move]})
    assert status == "applied", answer
