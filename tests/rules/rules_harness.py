"""Helpers for rules tests: scenario positions, dice that run a script then real rolls,
and invariants checked in playouts."""
from __future__ import annotations

from typing import Any

from pbem.rules.dice import Dice, Roll, die_value
from pbem.rules.setup import blank_position
from pbem.rules.state import SEATS, GameState

PER_SEAT = ("hands", "dispersed", "training", "training_cards", "lp_adjust", "minors",
            "primary")


class ScriptedThenReal(Dice):
    """Yields the scripted values first, then HMAC rolls of ``seed``/``step``."""

    def __init__(self, values: list[int], seed: bytes = b"scenario", step: int = 0):
        super().__init__(seed=seed, step=step)
        self._queue = list(values)

    def roll(self, count: int, purpose: str, rule: str, sides: int = 6) -> Roll:
        vals = []
        start = self._next
        for _ in range(count):
            if self._queue:
                vals.append(self._queue.pop(0))
            else:
                vals.append(die_value(self.seed, self.step, self._next, sides))
            self._next += 1
        r = Roll(self.step, start, tuple(vals), purpose, rule)
        self.rolls.append(r)
        return r


def position(pack, spec: dict[str, Any] | None) -> GameState:
    """A scenario position: :func:`blank_position` (independent markers, all Champions)
    updated with ``spec``. Per-seat fields (hands, dispersed, …) merge per seat; all
    other keys replace. ``turn_order`` defaults to SEATS and ``active`` to its first."""
    s = blank_position(pack, turn=(spec or {}).get("turn", 1))
    s["turn_order"] = list(SEATS)
    for k, v in (spec or {}).items():
        if k in PER_SEAT:
            s[k].update(v)
        elif k == "independent_remove":
            s["independent"] = [x for x in s["independent"] if x not in v]
        else:
            s[k] = v
    if "active" not in (spec or {}):
        s["active"] = s["turn_order"][0]
    return GameState.from_dict(s)
