"""What every order kind shares: the top-level keys of a player-turn, and
:func:`plan_of`, which reads and checks one order kind.
"""
from __future__ import annotations

from typing import Any

from pbem.pack.model import Pack
from pbem.problems import Problem
from pbem.rules.core.pack import const
from pbem.rules.core.state import State

TOP_KEYS = ("commanders", "surrender", "tyche", "movement", "step", "standing", "inside",
            "outside", "heir", "bury")


def tyche_only(pack: Pack, s: State) -> bool:
    """True in an extra Tyche-only segment (round past the hand size, R-6.5)."""
    return s["round"] > const(pack, "hand_size")


def plan_of(kind: Any, pack: Pack, s: State, seat: str, part: Any, where: str,
            rej: list[Problem], soft: bool = False) -> Any:
    """The plan of one order kind of :mod:`pbem.rules.orders`: ``kind.check`` of what
    ``kind.read`` made of ``part``; None when either found a problem (every problem of
    both is in ``rej``: a part read with problems is still checked as far as it goes)."""
    n0 = len(rej)
    order = kind.read(pack, s, seat, part, where, rej)
    plan = None if order is None else kind.check(pack, s, seat, order, where, rej, soft)
    return plan if len(rej) == n0 else None
