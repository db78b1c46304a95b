"""Every event kind the rules core emits reads as a sentence, never as raw data."""
from __future__ import annotations

import random
import re

from pbem import rules
from pbem.pack.loader import load_pack
from pbem.report.narrate import SENTENCES, narrate
from pbem.rules.dice import Dice

RAW = re.compile(r"[{}\[\]]|'\w+': ")


def test_war_games_narrate_without_raw_data() -> None:
    pack = load_pack()
    seen: set[str] = set()
    for g in range(6):
        seed = f"narrate-{g}".encode()
        state, _ = rules.new_game(pack, seed, {"ask_windows": g % 2 == 0, "bot_inside": g % 3 != 2})
        rng = random.Random(g)
        for _ in range(120):
            pending = rules.pending(state)
            if not pending:
                break
            d = pending[0]
            state, events = rules.apply(state, d.seat, rules.bot_orders(state, d.seat, rng), Dice(seed, state.step))
            for e in events:
                if e.kind in ("OrdersApplied", "DiceRolled"):
                    continue
                seen.add(e.kind)
                text = narrate(pack, e)
                assert not RAW.search(text), f"{e.kind} narrated as raw data: {text}"
                assert e.kind in SENTENCES, f"no sentence for {e.kind}: {text}"
    assert {"ArmyMoved", "BattleFought", "InterceptionRolled"} & seen
