"""The check through the real mail path (issue 24.1, 24.6, 24.7): a judge polls a real
IMAP server (pymap on loopback), the seats mail their orders over SMTP, and the tests
read the judge's answers in the seats' mailboxes.

- 24.6: the prompt offers a surprise card no use (it is never the Tyche play) and says
  how it is discarded; a use the prompt offers is accepted.
- 24.7: a document with a garrison mistake, a path mistake and an MP mistake gets all
  three in one refusal.
- 24.1: after an unrest card's roll, a move whose first space is not next to the army
  is refused at once (it used to be accepted and then stopped when carried out).
"""
from __future__ import annotations

import email
import email.policy
import random
from email.message import EmailMessage
from pathlib import Path

import pytest
import yaml

from pbem import rules
from pbem.config import parse_config
from pbem.rules.core.board import LAND_KINDS, info
from pbem.rules.core.pieces import enemy_of
from pbem.rules.resolve.surprises import MOVE_MOMENTS, moments_of
from pbem.service import Judge, make_judge, run_once
from pbem.store import Store
from tests.conftest import (
    HASHES,
    KEYS,
    PLAYERS,
    SEATS,
    Table,
    local_judge,
    mail_orders,
    make_config,
    player_mail,
)


def _seed(tmp: Path) -> tuple[bytes, str]:
    """A seed whose first player-turn (after the default turn order, sent by mail as in
    the test) falls to a seat holding an unrest card and a surprise card; with that
    seat. Judges without a mail server look (the dice follow the orders mailed)."""
    for i in range(100):
        seed = f"check-by-mail-{i}".encode()
        config = parse_config({
            "judge": {"address": "judge@pbem.localhost"}, "map_attachment": False,
            "database": str(tmp / f"seed-{i}.sqlite"),
            "games": [{"id": "g1", "seats": [{"seat": s, "player": PLAYERS[s],
                                              "email": f"{s}@pbem.localhost",
                                              "key_hash": HASHES[s]} for s in SEATS]}]},
            base=tmp)
        judge = Judge(config, Store(config.database), new_seed=lambda seed=seed: seed)
        judge.ensure_games()
        state = judge.state("g1")
        d = rules.pending(state)[0]
        doc = {"game": "g1", "seat": d.seat, "key": KEYS[d.seat], "step": state.step,
               "orders": dict(d.default)}
        assert judge.handle_message(player_mail(d.seat, doc)) == "applied"
        state = judge.state("g1")
        seat = rules.pending(state)[0].seat
        types = {state.pack.cards[n].type for n in state.private[seat]["hand"]}
        judge.store.close()
        if {"unrest", "surprise"} <= types:
            return seed, seat
    raise AssertionError("no seed found")


def _answers(table: Table, seat: str, seen: int) -> list[EmailMessage]:
    """The mails to ``seat`` after the first ``seen``."""
    return table.inbox(seat)[seen:]


def _far(pack, start: str) -> tuple[str, str]:
    """A space two steps from ``start`` but not next to it, and a space next to that."""
    adj = info(pack).adjacent
    near = {y for y, _k in adj[start]}
    x = min({z for y in near for z, _k in adj[y]} - near - {start})
    return x, next(y for y, k in adj[x] if k in LAND_KINDS and y != start)


def _too_long(pack, start: str, allowance: int) -> list[str]:
    """A land path from ``start`` (no space twice) that costs more than ``allowance``."""
    costs, path, here, cost = pack.constants["path_mp_cost"], [], start, 0
    rng = random.Random(4)
    while cost <= allowance:
        y, k = rng.choice([(y, k) for y, k in info(pack).adjacent[here]
                           if k in LAND_KINDS and y not in path and y != start])
        path.append(y)
        cost += int(costs[k])
        here = y
    return path


@pytest.fixture
def turn(tmp_path: Path, pymap_server):
    """A judge polling pymap whose game g1 waits for the first player-turn of a seat
    holding an unrest and a surprise card (the turn order answered by mail):
    ``(table, seat)``."""
    seed, seat = _seed(tmp_path / "seeds")
    config = make_config(tmp_path, pymap_server, map_attachment=False)
    judge, poller = make_judge(config)
    judge.new_seed = lambda: seed
    judge.ensure_games()
    table = Table(pymap_server, config, judge, poller)
    run_once(judge, poller)
    state = judge.state("g1")
    chooser = rules.pending(state)[0]
    table.send(chooser.seat, table.orders_doc(chooser.seat, state.step, dict(chooser.default)))
    assert list(run_once(judge, poller).values()) == ["applied"]
    assert rules.pending(judge.state("g1"))[0].seat == seat
    yield table, seat
    poller.close()


def _send(table: Table, seat: str, orders: dict) -> tuple[str, str]:
    """Mail ``orders`` of ``seat`` for the current step; the status and the answer."""
    seen = len(table.inbox(seat))
    table.send(seat, table.orders_doc(seat, table.judge.state("g1").step, orders))
    [status] = run_once(table.judge, table.poller).values()
    answers = _answers(table, seat, seen)
    return status, " ".join(table.text_of(answers[-1]).split()) if answers else ""


def test_the_prompt_offers_a_surprise_card_no_use(turn) -> None:
    """24.6: the prompt mailed to the seat offers its surprise card no use and says how
    it is discarded; a use the prompt offers (the unrest card's event) is accepted."""
    table, seat = turn
    state = table.judge.state("g1")
    pack, hand = state.pack, state.private[seat]["hand"]
    prompt = [m for m in table.inbox(seat) if f"step {state.step}:" in str(m["Subject"])][-1]
    flat = " ".join(table.text_of(prompt).split())
    surprises = [n for n in hand if pack.cards[n].type == "surprise"]
    for n in surprises:  # its line, then its text that says how
        line = flat.split(f"#{n} {pack.cards[n].name}", 1)[1].split("surprise_discards")[0]
        assert "Uses now" not in line, line
        assert f"surprise_discards: [{n}]" in flat, flat
    unrest = next(n for n in hand if pack.cards[n].type == "unrest")
    status, answer = _send(table, seat, {"tyche": {"card": surprises[0], "use": "discard"}})
    assert status == "rejected" and "code: tyche.surprise_not_mandatory" in answer
    assert "event" in next(h["uses"] for h in rules.legal_options(state, seat)["hand"]
                           if h["card"] == unrest)
    status, _answer = _send(table, seat, {"tyche": {"card": unrest, "use": "event"},
                                          "movement": "none"})
    assert status == "applied"


def test_every_mistake_in_one_answer(turn) -> None:
    """24.7: a garrison mistake, a path mistake and an MP mistake in one refusal."""
    table, seat = turn
    state = table.judge.state("g1")
    pack = state.pack
    opts = rules.legal_options(state, seat)
    (a1, s1), (a2, s2) = [(a["army"], a["space"]) for a in opts["armies"][:2]]
    allowance2 = next(a["allowance"] for a in opts["armies"] if a["space"] == s2)
    garrison_card = next(h["card"] for h in opts["hand"] if "garrisons" in h["uses"])
    bad_place = next(x for x in sorted(pack.spaces) if x not in opts["garrison_spaces"]
                     and pack.spaces[x].kind != "transit")
    x, y = _far(pack, s1)
    status, answer = _send(table, seat, {
        "tyche": {"card": garrison_card, "use": "garrisons",
                  "places": [pack.spaces[bad_place].name]},
        "movement": [{"army": pack.generals[a1].name, "path": [x, y]},
                     {"army": pack.generals[a2].name, "path": _too_long(pack, s2, allowance2)}]})
    assert status == "rejected"
    assert "There are 3 problems:" in answer, answer
    for code in ("tyche.garrison_illegal", "movement.bad_path", "movement.too_far"):
        assert f"code: {code}" in answer, (code, answer)


def test_a_first_step_not_next_to_the_army_is_refused_after_dice(turn) -> None:
    """24.1: after the unrest card's roll, a move whose first space is not next to the
    army is refused at once, naming it (it was accepted, then stopped when carried out)."""
    table, seat = turn
    state = table.judge.state("g1")
    pack = state.pack
    a1, s1 = next((a["army"], a["space"]) for a in rules.legal_options(state, seat)["armies"])
    unrest = next(n for n in state.private[seat]["hand"] if pack.cards[n].type == "unrest")
    x, y = _far(pack, s1)
    status, answer = _send(table, seat, {"tyche": {"card": unrest, "use": "event"},
                                         "movement": [{"army": pack.generals[a1].name,
                                                       "path": [x, y]}]})
    assert status == "rejected", answer
    assert "code: movement.bad_path" in answer, answer
    assert f"{pack.spaces[x].name} is not next to {pack.spaces[s1].name}" in answer, answer
    assert table.judge.state("g1").step == state.step


def test_a_misspelled_seat_gets_a_did_you_mean(tmp_path: Path) -> None:
    """24.14: the envelope names the seat a misspelled one is near (seats are public)."""
    judge = local_judge(tmp_path, {})
    state = judge.state("g1")
    doc = {"game": "g1", "seat": "nroth", "key": KEYS["north"], "step": state.step,
           "orders": {"first_player": "north"}}
    assert judge.handle_message(player_mail("north", doc)) == "rejected"
    (row,) = judge.store.db.execute("SELECT id FROM outbox WHERE to_addr = 'north@pbem.localhost' "
                                    "AND kind = 'reply'").fetchone()
    raw = judge.store.outbox_row(row)["raw"]
    body = " ".join(email.message_from_bytes(raw, policy=email.policy.default)
                    .get_body(("plain",)).get_content().split())
    assert "code: envelope.unknown_seat" in body and "did you mean `north`?" in body, body


def test_a_receipt_compares_only_with_accepted_orders(turn) -> None:
    """24.E: orders refused (a wrong key), then the same orders accepted: the receipt
    does not call them "the same orders as your previous submission" (that one was
    refused); standing orders accepted twice at one step are compared."""
    table, seat = turn
    state = table.judge.state("g1")
    pack = state.pack
    unrest = next(n for n in state.private[seat]["hand"] if pack.cards[n].type == "unrest")
    orders = {"tyche": {"card": unrest, "use": "event"}, "movement": "none"}
    seen = len(table.inbox(seat))
    table.send(seat, table.orders_doc(seat, state.step, orders, key="wrong-key"))
    assert list(run_once(table.judge, table.poller).values()) == ["rejected"]
    table.send(seat, table.orders_doc(seat, state.step, orders))
    assert list(run_once(table.judge, table.poller).values()) == ["applied"]
    [receipt] = [" ".join(table.text_of(m).split()) for m in _answers(table, seat, seen)
                 if f"orders from {seat} accepted" in table.text_of(m)]
    assert "previous submission" not in receipt and "Same orders" not in receipt, receipt
    other = next(s for s in SEATS if s != seat and s not in {d.seat for d in rules.pending(
        table.judge.state("g1"))})
    standing = {"standing": [{"when": "losses", "order": ["mercenary", "loyal"]}]}
    answers = []
    for seq in (1, 2):
        before = len(table.inbox(other))
        table.send(other, yaml.safe_dump({"game": "g1", "seat": other, "key": KEYS[other], "seq": seq,
                                          "orders": standing}, sort_keys=False))
        assert list(run_once(table.judge, table.poller).values()) == ["applied"]
        answers.append(" ".join(table.text_of(table.inbox(other)[before:][-1]).split()))
    assert "Same orders" not in answers[0], answers[0]
    assert "Same orders as your accepted orders for this step" in answers[1], answers[1]


UNREST_SEED = b"unrest-block-0"
"""A seed whose first player-turn (the turn order answered with a bot's orders,
``random.Random(0)``) falls to a seat holding an unrest card with an army that can reach
a space beyond an enemy army."""


def _through_enemy(state, seat: str) -> tuple[str, list[str], str]:
    """An army of ``seat`` and a land path within its MPs whose last step but one is a
    space holding an enemy army: ``(general, path, that space)``."""
    pack, s = state.pack, state.to_dict()
    adj, costs = info(pack).adjacent, pack.constants["path_mp_cost"]
    for a in rules.legal_options(state, seat)["armies"]:
        start, paths = a["space"], [([], 0)]
        while paths:
            path, cost = paths.pop(0)
            if len(path) >= 2 and enemy_of(s, seat, path[-2]):
                return a["army"], path, path[-2]
            here = path[-1] if path else start
            paths += [([*path, y], cost + int(costs[k])) for y, k in adj[here]
                      if k in LAND_KINDS and costs.get(k) is not None and y not in path
                      and y != start and cost + int(costs[k]) <= a["allowance"]]
    raise AssertionError(f"no path through an enemy army for {seat}")


def test_a_path_through_an_enemy_army_is_refused_after_an_unrest_roll(tmp_path: Path, pymap_server) -> None:
    """24.1: an unrest card's roll comes before the move, but it only places independent
    markers where no CUs stand: a path that goes on through a space holding an enemy
    army is refused at the check (it was accepted, then stopped when carried out:
    "Cyzicus holds an enemy army")."""
    config = make_config(tmp_path, pymap_server, map_attachment=False)
    judge, poller = make_judge(config)
    judge.new_seed = lambda: UNREST_SEED
    judge.ensure_games()
    table = Table(pymap_server, config, judge, poller)
    run_once(judge, poller)
    state = judge.state("g1")
    chooser = rules.pending(state)[0].seat
    table.send(chooser, table.orders_doc(chooser, state.step, mail_orders(state, chooser, random.Random(0))))
    assert list(run_once(judge, poller).values()) == ["applied"]
    state = judge.state("g1")
    seat = rules.pending(state)[0].seat
    pack = state.pack
    unrest = next(n for n in state.private[seat]["hand"] if pack.cards[n].type == "unrest")
    general, path, enemy = _through_enemy(state, seat)
    move = [{"army": pack.generals[general].name, "path": [pack.spaces[x].name for x in path]}]
    other = next(h["card"] for h in rules.legal_options(state, seat)["hand"]
                 if "discard" in h["uses"] and h["card"] != unrest)
    assert any(f"{pack.spaces[enemy].name} holds an enemy army" in p.message for p in rules.validate(
        state, seat, {"tyche": {"card": other, "use": "discard"}, "movement": move}))  # seen without dice
    status, answer = _send(table, seat, {"tyche": {"card": unrest, "use": "event"}, "movement": move})
    poller.close()
    assert status == "rejected", answer
    assert "code: movement.illegal" in answer and f"{pack.spaces[enemy].name} holds an enemy army" in answer, answer


def test_a_receipt_says_what_the_unrest_roll_still_decides(tmp_path: Path, pymap_server) -> None:
    """24.1: orders accepted after an unrest card's roll whose move ends with an assault
    where the roll may place independent markers: the receipt says, in one line for the
    part, that the move was checked up to what the Unrest roll decides, naming the space.
    A plain move after the roll is checked exactly: no such line."""
    config = make_config(tmp_path, pymap_server, map_attachment=False)
    judge, poller = make_judge(config)
    judge.new_seed = lambda: UNREST_SEED
    judge.ensure_games()
    table = Table(pymap_server, config, judge, poller)
    run_once(judge, poller)
    state = judge.state("g1")
    chooser = rules.pending(state)[0].seat
    table.send(chooser, table.orders_doc(chooser, state.step, mail_orders(state, chooser, random.Random(0))))
    assert list(run_once(judge, poller).values()) == ["applied"]
    state = judge.state("g1")
    seat = rules.pending(state)[0].seat
    pack = state.pack
    unrest = next(n for n in state.private[seat]["hand"] if pack.cards[n].type == "unrest")
    tyche = {"card": unrest, "use": "event"}
    found = None
    for a in rules.legal_options(state, seat)["armies"]:
        for y, kind in sorted(info(pack).adjacent[a["space"]]):
            plain = [{"army": pack.generals[a["army"]].name, "path": [pack.spaces[y].name]}]
            if kind not in LAND_KINDS or rules.validate(state, seat, {"tyche": tyche, "movement": plain}):
                continue
            assert rules.validate_partly(state, seat, {"tyche": tyche, "movement": plain}) == ([], [])
            problems, lines = rules.validate_partly(state, seat, {"tyche": tyche,
                                                                  "movement": [{**plain[0], "assault": 1}]})
            if not problems and lines:
                found = (plain[0], y)
                break
        if found:
            break
    assert found is not None
    move, end = found
    seen = len(table.inbox(seat))
    table.send(seat, table.orders_doc(seat, state.step, {"tyche": tyche, "movement": [{**move, "assault": 1}]}))
    assert list(run_once(judge, poller).values()) == ["applied"]
    poller.close()
    [receipt] = [" ".join(table.text_of(m).split()) for m in _answers(table, seat, seen)
                 if f"orders from {seat} accepted" in table.text_of(m)]
    assert (f"- movement: checked up to what the Unrest roll decides: the markers in "
            f"{pack.spaces[end].name}, where a move ends to besiege") in receipt, receipt


def test_orders_with_a_stale_step_are_checked_against_the_current_one(turn) -> None:
    """24.7c: a stale ``step:`` used to be refused before the orders were looked at, so
    the next answer named their mistakes. Orders that fit the decision the game waits
    for from the seat are checked against it in the same answer (their problems, or
    that they have none); orders of another decision's shape are said not to be
    checked, and why. The mail is refused either way."""
    table, seat = turn
    state = table.judge.state("g1")
    pack = state.pack
    opts = rules.legal_options(state, seat)
    garrison_card = next(h["card"] for h in opts["hand"] if "garrisons" in h["uses"])
    bad_place = next(x for x in sorted(pack.spaces) if x not in opts["garrison_spaces"]
                     and pack.spaces[x].kind != "transit")
    stale = state.step - 1

    def send(orders: dict) -> str:
        seen = len(table.inbox(seat))
        table.send(seat, table.orders_doc(seat, stale, orders))
        assert list(run_once(table.judge, table.poller).values()) == ["rejected"]
        [answer] = _answers(table, seat, seen)
        return " ".join(table.text_of(answer).split())

    answer = send({"tyche": {"card": garrison_card, "use": "garrisons",
                             "places": [pack.spaces[bad_place].name]}, "movement": "none"})
    assert "code: envelope.stale_step" in answer and "code: tyche.garrison_illegal" in answer, answer
    assert f"checked against step {state.step}" in answer, answer
    unrest = next(n for n in state.private[seat]["hand"] if pack.cards[n].type == "unrest")
    answer = send({"tyche": {"card": unrest, "use": "event"}, "movement": "none"})
    assert "code: envelope.stale_step" in answer and answer.count("code:") == 1, answer
    assert (f"checked against step {state.step}, the decision the game waits for from you, "
            f"and have no other problem: send them again with step: {state.step}") in answer, answer
    answer = send({"first_player": next(s for s in SEATS if s != seat)})  # not the orders accepted (24 N5)
    assert "code: envelope.stale_step" in answer and answer.count("code:") == 1, answer
    assert f"not checked against step {state.step}: they do not fit its decision (player turn)" in answer, answer
    assert table.judge.state("g1").step == state.step


def _misspelled(pack, sid: str) -> str:
    """The printed name of ``sid`` with its last letter doubled (one close match)."""
    name = pack.spaces[sid].name
    return name + name[-1]


def test_a_misspelled_place_does_not_hide_the_rest_of_the_move(turn) -> None:
    """24.7a: a misspelled place in a path that is also too long: both problems in one
    answer (the path is checked with the name read as its one close match, and says so);
    a name that is no space at all: the path is checked up to it (a first step not next
    to the army is named too) and the unknown name is offered the spaces next to the
    last one it follows (24.F)."""
    table, seat = turn
    state = table.judge.state("g1")
    pack = state.pack
    opts = rules.legal_options(state, seat)
    (a1, s1), (a2, s2) = [(a["army"], a["space"]) for a in opts["armies"][:2]]
    allowance2 = next(a["allowance"] for a in opts["armies"] if a["space"] == s2)
    long_path = _too_long(pack, s2, allowance2)
    written = [pack.spaces[x].name for x in long_path]
    written[0] = _misspelled(pack, long_path[0])
    x, y = _far(pack, s1)
    discard = next(h["card"] for h in opts["hand"] if "discard" in h["uses"])
    status, answer = _send(table, seat, {
        "tyche": {"card": discard, "use": "discard"},
        "movement": [{"army": pack.generals[a1].name, "path": [x, y, "Qwxzv"]},
                     {"army": pack.generals[a2].name, "path": written}]})
    assert status == "rejected"
    for code in ("movement.bad_path", "movement.too_far"):
        assert f"code: {code}" in answer, (code, answer)
    assert answer.count("code: orders.unknown_space") == 2, answer
    assert f"reading '{written[0]}' as {pack.spaces[long_path[0]].name}" in answer, answer
    assert f"did you mean {pack.spaces[long_path[0]].name}?" in answer, answer
    near = sorted({pack.spaces[z].name for z, _k in info(pack).adjacent[y]})
    assert "there is no space 'Qwxzv'" in answer and f"next to {pack.spaces[y].name}: " + ", ".join(near) in answer, answer


def test_a_card_in_the_wrong_moment_does_not_hide_the_path(turn) -> None:
    """24.7b: a card that is no surprise card of a move (``wrong_moment``, or no surprise
    card at all) named for a move whose path is wrong: both in one answer."""
    table, seat = turn
    state = table.judge.state("g1")
    pack = state.pack
    opts = rules.legal_options(state, seat)
    a1, s1 = opts["armies"][0]["army"], opts["armies"][0]["space"]
    hand = state.private[seat]["hand"]
    wrong = next((n for n in hand if pack.cards[n].type == "surprise"
                  and not set(moments_of(pack, n)) & set(MOVE_MOMENTS)), None)
    code = "surprise.wrong_moment"
    if wrong is None:
        wrong, code = next(n for n in hand if pack.cards[n].type != "surprise"), "surprise.not_a_surprise"
    discard = next(h["card"] for h in opts["hand"] if "discard" in h["uses"] and h["card"] != wrong)
    x, y = _far(pack, s1)
    status, answer = _send(table, seat, {
        "tyche": {"card": discard, "use": "discard"},
        "movement": [{"army": pack.generals[a1].name, "path": [x, y], "surprise": [wrong]}]})
    assert status == "rejected"
    assert f"code: {code}" in answer and "code: movement.bad_path" in answer, answer


def test_an_illegal_mercenary_space_is_told_why_not_did_you_mean(turn) -> None:
    """24.F: a correctly spelled space that cannot take the mercenary is not answered
    "did you mean"; the answer says why and names the spaces that can."""
    table, seat = turn
    state = table.judge.state("g1")
    pack = state.pack
    opts = rules.legal_options(state, seat)
    bad = next(x for x in sorted(pack.spaces) if x not in opts["mercenary_spaces"]
               and pack.spaces[x].kind != "transit")
    discard = next(h["card"] for h in opts["hand"] if "discard" in h["uses"])
    status, answer = _send(table, seat, {"tyche": {"card": discard, "use": "discard"},
                                         "movement": {"mercenary": pack.spaces[bad].name}})
    assert status == "rejected" and "code: movement.mercenary_place_illegal" in answer, answer
    assert "did you mean" not in answer, answer
    assert f"{pack.spaces[bad].name} is not a space where you may place reinforcements (" in answer
    some = pack.spaces[min(opts["mercenary_spaces"])].name
    assert "spaces that may take it: " in answer and some in answer, answer
