"""Card events that move armies: Major Campaign (R-16.1) and the activation of an
independent army (R-14). Both move armies: they are resolved before the card's other
effects, and a reaction window may pause a Major Campaign (R-9.3)."""
from __future__ import annotations

from typing import Any

from pbem.pack.model import Card, Effect, Pack
from pbem.problems import Problem
from pbem.rules.cards.base import Primitive
from pbem.rules.context import Ctx
from pbem.rules.core.pack import const
from pbem.rules.core.problems import reject
from pbem.rules.core.state import State
from pbem.rules.resolve.independents import activate_independent
from pbem.rules.resolve.moves import check_moves, do_moves


def check_major_campaign(pack: Pack, s: State, seat: str, part: dict[str, Any], card: Card,
                         eff: Effect, where: str, rej: list[Problem], plan: dict[str, Any],
                         soft: bool) -> None:
    """R-16.1: ``moves``: up to ``armies`` (effect parameter, 2) army moves of up to
    ``mp`` MPs each (effect parameter, else constant ``major_campaign_mp``), the first
    finishing before the second starts; fills ``plan["war"]`` with the moves plan."""
    most = int(eff.params.get("armies", 2))
    mp = int(eff.params.get("mp", const(pack, "major_campaign_mp")))
    raw = part.get("moves", [])
    if not isinstance(raw, list) or not 1 <= len(raw) <= most:
        reject(rej, "tyche.moves_missing",
               f"Major Campaign moves 1 to {most} armies: moves: [{{army, path}}, ...]",
               f"{where}.moves", "moves: [{army: Ptolemy, path: [Pelusium, Gaza]}]")
        return
    mv = check_moves(pack, s, seat, raw, f"{where}.moves", rej, "tyche", mp, soft)
    if mv:
        plan["war"] = mv


def _move_armies(ctx: Ctx, seat: str, card: Card, eff: Effect, plan: dict[str, Any]) -> bool:
    do_moves(ctx, seat, plan["war"])
    return True


def _check_independent(pack: Pack, s: State, seat: str, part: dict[str, Any], card: Card,
                       eff: Effect, where: str, rej: list[Problem], plan: dict[str, Any],
                       soft: bool) -> None:
    plan["war"] = {"kind": "independent"}


def _activate_independent(ctx: Ctx, seat: str, card: Card, eff: Effect,
                          plan: dict[str, Any]) -> bool:
    """R-14: the card's independent army enters and walks its scripted ``path``."""
    activate_independent(ctx, seat, eff.params["army"], list(eff.params.get("path", [])),
                         card.number)
    return True


PRIMITIVES: tuple[Primitive, ...] = (
    Primitive("move_armies", "R-16.1", _move_armies, check_major_campaign,
              moves_armies=True),
    Primitive("activate_independent", "R-14", _activate_independent, _check_independent,
              moves_armies=True),
)
"""The army-moving primitives the engine resolves."""
