"""A stored game for report tests: a Store filled the way the service fills it (setup
events at step 0, one batch of events and a snapshot per applied decision), played by
``rules.bot_orders``; no mail involved."""
from __future__ import annotations

import random
from pathlib import Path

from pbem import rules
from pbem.pack.loader import load_pack
from pbem.rules.dice import Dice, seed_commitment
from pbem.store import Store

PLAYERS = {"north": "Kleitos", "east": "Peukestas", "south": "Nearchos", "west": "Aristonous"}


def make_store(tmp_path: Path, steps: int = 6, game_id: str = "g1", seed: bytes = b"store-seed") -> Store:
    """A Store at ``tmp_path/pbem.sqlite`` holding ``game_id`` after ``steps`` decisions."""
    pack = load_pack()
    store = Store(tmp_path / "pbem.sqlite")
    state, events = rules.new_game(pack, seed, {})
    with store.transaction():
        store.create_game(game_id, "builtin", seed, seed_commitment(seed), {},
                          [{"seat": s, "player": p, "email": f"{s}@example.org", "key_hash": "x"}
                           for s, p in PLAYERS.items()])
        seq = store.append_events(game_id, [e.to_dict() for e in events], step=0)
        store.save_snapshot(game_id, 0, -1, rules.empty_state(pack).to_dict())
        store.save_snapshot(game_id, seq, state.step, state.to_dict())
    rng = random.Random(3)
    for i in range(steps):
        pending = rules.pending(state)
        if not pending:
            break
        d = pending[0]
        step = state.step
        state, events = rules.apply(state, d.seat, rules.bot_orders(state, d.seat, rng), Dice(seed, step))
        with store.transaction():
            seq = store.append_events(game_id, [e.to_dict() for e in events], step=step,
                                      inbox_id=None if i == 1 else i + 1)
            store.save_snapshot(game_id, seq, state.step, state.to_dict())
            store.set_game_step(game_id, state.step, status="over" if not rules.pending(state) else None)
    return store


def war_games(pack, prefix: str, games: int, rng_base: int = 0, decisions: int = 120):
    """Random bot games with war (``ask_windows`` in even games, ``bot_inside`` in two of
    three), seeds ``{prefix}-{g}``: yields ``(state, events)`` after each decision."""
    for g in range(games):
        seed = f"{prefix}-{g}".encode()
        state, _ = rules.new_game(pack, seed, {"ask_windows": g % 2 == 0, "bot_inside": g % 3 != 2})
        rng = random.Random(rng_base + g)
        for _ in range(decisions):
            pending = rules.pending(state)
            if not pending:
                break
            d = pending[0]
            state, events = rules.apply(state, d.seat, rules.bot_orders(state, d.seat, rng), Dice(seed, state.step))
            yield state, events
