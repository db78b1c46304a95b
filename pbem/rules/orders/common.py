"""What every order kind shares: the top-level keys of a player-turn.
"""
from __future__ import annotations

from pbem.pack.model import Pack
from pbem.rules.core.pack import const
from pbem.rules.core.state import State

TOP_KEYS = ("commanders", "surrender", "tyche", "movement", "step", "standing", "inside",
            "outside")


def tyche_only(pack: Pack, s: State) -> bool:
    """True in an extra Tyche-only segment (round past the hand size, R-6.5)."""
    return s["round"] > const(pack, "hand_size")
