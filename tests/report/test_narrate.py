"""Every event kind the rules core emits reads as a sentence, never as raw data."""
from __future__ import annotations

import re

from pbem.pack.loader import load_pack
from pbem.report.narrate import SENTENCES, narrate
from tests.report.gamestore import war_games

RAW = re.compile(r"[{}\[\]]|'\w+': ")


def test_war_games_narrate_without_raw_data() -> None:
    pack = load_pack()
    seen: set[str] = set()
    for _state, events in war_games(pack, "narrate", 6):
        for e in events:
            if e.kind in ("OrdersApplied", "DiceRolled"):
                continue
            seen.add(e.kind)
            text = narrate(pack, e)
            assert not RAW.search(text), f"{e.kind} narrated as raw data: {text}"
            assert e.kind in SENTENCES, f"no sentence for {e.kind}: {text}"
    assert {"ArmyMoved", "BattleFought", "InterceptionRolled"} & seen
