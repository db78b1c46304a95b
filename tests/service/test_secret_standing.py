"""Another seat's standing orders stay secret through the check's answers (issue 25,
third break-it pass): a refusal is worded from the board as the seat may know it, so it
reads the same whatever standing orders the other seats hold (docs/orders.md,
"Validation").

The check dry-runs the orders (every die 1) on the judge's whole position, and a
standing order of another seat that could fire on the way (an interception) makes what
follows a matter of chance, checked leniently. The problems found after it were worded
differently ("… where the move ends", another field, another hint): a seat could mail
orders with a deliberate mistake next to an enemy army and read from the refusal whether
its owner had a standing order to intercept there. The position: seed ``find-1``, the
first decisions played by the random bot, east's player-turn at step 5, next to north's
Eumenes (found by a search over positions and moves; the test checks the position still
shows the difference on the whole position before it mails anything).
"""
from __future__ import annotations

import copy
import random
from datetime import timedelta
from pathlib import Path

from pbem import rules
from pbem.rules.core.state import GameState
from pbem.service import make_judge, run_once
from tests.conftest import KEYS, Table, make_config, player_mail

SEED = b"find-1"
PROBE_MOVE = {"army": "celaenae", "path": ["synnada", "pessinus", "ancyra"], "assault": 1}
"""East's army at Celaenae marches past north's Eumenes and orders an assault where
nothing can be besieged: refused either way, the wording is what is compared."""
INTERCEPT = [{"when": "intercept", "army": "Eumenes"}]


def _position(tmp_path: Path, pymap_server) -> Table:
    """A judge polling pymap whose g1 waits for east's player-turn at step 5."""
    config = make_config(tmp_path, pymap_server, map_attachment=False)
    judge, poller = make_judge(config)
    judge.new_seed = lambda: SEED
    judge.ensure_games()
    rng = random.Random(1)
    while True:
        state = judge.state("g1")
        d = rules.pending(state)[0]
        if d.kind == "player_turn" and state.step >= 5:
            break
        doc = {"game": "g1", "seat": d.seat, "key": KEYS[d.seat], "step": state.step,
               "orders": rules.bot_orders(state, d.seat, rng)}
        assert judge.handle_message(player_mail(d.seat, doc)) == "applied"
    assert (state.step, d.seat) == (5, "east")
    run_once(judge, poller)
    return Table(pymap_server, config, judge, poller)


def _probe(state: GameState) -> dict:
    """East's orders: a discard (no die) and the probing move."""
    card = next(n for n in state.private["east"]["hand"] if state.pack.cards[n].type != "surprise")
    return {"tyche": {"card": card, "use": "discard"}, "movement": [dict(PROBE_MOVE)]}


def _problems(table: Table) -> str:
    """Mail east's probe; the problems part of the judge's answer."""
    state = table.judge.state("g1")
    seen = len(table.inbox("east"))
    table.send("east", table.orders_doc("east", state.step, _probe(state)))
    assert list(run_once(table.judge, table.poller).values()) == ["rejected"]
    table.judge.flush_outbox()
    (answer,) = table.inbox("east")[seen:]
    body = table.text_of(answer)
    assert "code: siege.illegal" in body, body
    return body[body.index("problem"):body.index("code: siege.illegal") + len("code: siege.illegal")]


def test_a_refusal_reads_the_same_whatever_standing_orders_another_seat_holds(tmp_path: Path,
                                                                             pymap_server) -> None:
    table = _position(tmp_path, pymap_server)
    try:
        state = table.judge.state("g1")
        s = state.peek()
        private = copy.deepcopy(s["private"])
        private["north"]["standing"] = [{"when": "intercept", "army": "eumenes"}]
        told = {p.message for p in rules.validate(state, "east", _probe(state))}
        whole = {p.message for p in rules.validate(GameState.from_dict({**s, "private": private}, state.pack),
                                                   "east", _probe(state))}
        assert told != whole, "the position no longer shows the difference: find another"

        before = _problems(table)
        table.send("north", "seq: 1\n" + table.orders_doc("north", state.step, {"standing": INTERCEPT}))
        assert list(run_once(table.judge, table.poller).values()) == ["applied"]
        assert table.judge.state("g1").private["north"]["standing"], "north's standing order was not set"
        later = table.judge.clock() + timedelta(minutes=61)  # the same answer twice in an hour goes once
        table.judge.clock = lambda: later
        after = _problems(table)
        assert after == before
    finally:
        table.poller.close()
