"""The orders a judge carries out are the orders its log holds, key order included
(a whole-game test failed on CI: a reinforcement written `cus: {mercenary: 1, loyal:
1}` was carried out in that order, but the log stores canonical JSON with sorted keys,
so `pbem verify` replayed `{loyal: 1, mercenary: 1}` and found other events)."""
from __future__ import annotations

import json
import random

from pbem import rules
from pbem.pack.loader import load_pack
from pbem.rules.dice import Dice
from pbem.service.log import trust
from pbem.store.base import canonical_json


def _reinforcement_with_two_types() -> tuple[rules.GameState, str, dict, bytes]:
    """A reinforcement decision (R-7.2) whose seat places CUs of two types, and one
    entry placing one of each, keys in reverse order (bounded search over seeds)."""
    pack = load_pack(None)
    for g in range(60):
        seed = bytes([g]) * 8
        state, _ = rules.new_game(pack, seed, {})
        rng = random.Random(g)
        for _ in range(300):
            pending = rules.pending(state)
            if not pending:
                break
            d = pending[0]
            if state.reinforce:
                opts = rules.legal_options(state, d.seat)
                kinds = sorted({*opts["new"], *opts["dispersed"]})
                if len(kinds) >= 2 and opts["placement_spaces"]:
                    cus = {t: 1 for t in sorted(kinds[:2], reverse=True)}
                    for space in opts["placement_spaces"]:
                        orders = {"reinforcements": [{"space": space, "cus": cus}]}
                        if not rules.validate(state, d.seat, orders):
                            return state, d.seat, orders, seed
            state, _ = rules.apply(state, d.seat, rules.bot_orders(state, d.seat, rng), Dice(seed, state.step))
    raise AssertionError("no reinforcement of two CU types in 60 seeded games")


def test_orders_are_carried_out_in_the_form_the_log_gives_back() -> None:
    state, seat, orders, seed = _reinforcement_with_two_types()
    carried = trust.json_form(orders)
    logged = json.loads(canonical_json(carried))  # what the event store gives back to a replay
    assert json.dumps(carried) == json.dumps(logged)  # key order included

    def events(o: dict) -> list[dict]:
        return [e.to_dict() for e in rules.apply(state, seat, o, Dice(seed, state.step))[1]]
    assert events(carried) == events(logged)
    # the order matters to the rules, so this test can fail: the mail's order gives others
    assert events(orders) != events(logged)
