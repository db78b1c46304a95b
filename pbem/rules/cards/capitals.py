"""The optional capitals (R-1.4, game option ``capitals``): ``found_capital``, the event
of the optional card Foundation of the Capital (#64; seed 001: "Capitales: construir una
con la carta opcional de Fundación de la capital ….. 2PV. Destruir una capital
enemiga….. 1 PV").

The field it reads in the ``tyche:`` orders: ``capital`` (the city where the capital is
founded; left out when only one city qualifies). What a capital is worth and how it is
destroyed: :func:`pbem.rules.core.control.victory_points` and
:func:`pbem.rules.context.settle_capitals`.
"""
from __future__ import annotations

from typing import Any

from pbem.pack.model import Card, Effect, Pack
from pbem.problems import Problem
from pbem.rules.cards.base import Primitive
from pbem.rules.cards.choice import pick_one
from pbem.rules.cards.royals import event_plan, no_effect
from pbem.rules.context import Ctx
from pbem.rules.core.board import resolve_space
from pbem.rules.core.control import capitals
from pbem.rules.core.pieces import has_enemy_units
from pbem.rules.core.state import State

CAPITAL_KINDS = ("minor_city", "major_city")
"""The spaces a capital may stand in [D]: cities (no stronghold, no transit point)."""


def capital_spaces(pack: Pack, s: State, seat: str) -> list[str]:
    """R-1.4 [D]: where ``seat`` may found its capital now: a minor or major city with its
    garrison and no other faction's units (an enemy inside a major city counts too),
    when ``seat`` has no capital standing (one capital per seat at a time). Sorted ids."""
    caps = capitals(s)
    if seat in caps.values():
        return []
    return sorted(x for x, owner in s["garrisons"].items()
                  if owner == seat and pack.spaces[x].kind in CAPITAL_KINDS
                  and x not in caps and not has_enemy_units(s, seat, x))


def _choices(pack: Pack, s: State, seat: str, card: Card, eff: Effect) -> list[str]:
    return capital_spaces(pack, s, seat)


def _check(pack: Pack, s: State, seat: str, part: dict[str, Any], card: Card, eff: Effect,
           where: str, rej: list[Problem], plan: dict[str, Any], soft: bool) -> None:
    legal = capital_spaces(pack, s, seat)
    if soft and part.get("capital") is not None:  # after dice: never refused here
        event_plan(plan)["capital"] = resolve_space(pack, part["capital"])[0]
        return
    got = pick_one(part, "capital", legal, lambda v: resolve_space(pack, v)[0], where, rej,
                   "city of yours where a capital may be founded (your garrison, no "
                   "other faction's units, no capital of yours standing)", pack=pack)
    if got:
        event_plan(plan)["capital"] = got


def _found(ctx: Ctx, seat: str, card: Card, eff: Effect, plan: dict[str, Any]) -> bool:
    """R-1.4: the capital is founded (``CapitalFounded``), or a ``Note`` when the city
    chosen no longer qualifies (earlier dice of the player-turn)."""
    x = event_plan(plan).get("capital")
    if x not in capital_spaces(ctx.pack, ctx.s, seat):
        return no_effect(ctx, seat, card, "R-1.4", "no capital can be founded there now")
    ctx.emit("CapitalFounded", {"seat": seat, "space": x, "card": card.number,
                                "rule": "R-1.4"})
    return True


PRIMITIVES: tuple[Primitive, ...] = (
    Primitive("found_capital", "R-1.4", _found, _check, _choices, "capital_spaces",
              keys=("capital",)),
)
"""The capital primitive (``capital_spaces``: where each Foundation card of the hand may
found a capital now)."""
