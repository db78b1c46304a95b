"""Card events on fleets (R-16, R-15): ``fleet_upgrade`` (``step``; #53 Shipwrights of
Phoenicia: "upgrade one of your fleets by 1"). Like the 4-OP upgrade of R-8.2, the
fleet must be one the player controls (R-15) and below the naval table's largest
strength column; the upgrade is lost when the fleet is dispersed or changes hands.

Orders: ``tyche: {card: 53, use: event, fleet: Phoenician Fleet}`` (left out when only
one fleet qualifies).
"""
from __future__ import annotations

from typing import Any

from pbem.pack.model import Card, Effect, Pack
from pbem.problems import Problem
from pbem.rules.cards.base import Primitive
from pbem.rules.cards.choice import pick_one
from pbem.rules.context import Ctx
from pbem.rules.core.board import resolve_fleet
from pbem.rules.core.control import upgradable_fleets
from pbem.rules.core.state import State
from pbem.rules.resolve.naval import upgrade_fleet


def _check(pack: Pack, s: State, seat: str, part: dict[str, Any], card: Card, eff: Effect,
           where: str, rej: list[Problem], plan: dict[str, Any], soft: bool) -> None:
    """``fleet``: one of :func:`pbem.rules.core.control.upgradable_fleets` (``soft``: read
    only, re-checked when carried out)."""
    if soft:
        plan["fleet"] = resolve_fleet(pack, part.get("fleet"))
        return
    plan["fleet"] = pick_one(part, "fleet", upgradable_fleets(pack, s, seat),
                             lambda v: resolve_fleet(pack, v), where, rej,
                             "fleet of yours that may be upgraded (R-15)", pack=pack)


def _resolve(ctx: Ctx, seat: str, card: Card, eff: Effect, plan: dict[str, Any]) -> bool:
    """R-16 [D]: ``FleetUpgraded`` by ``step``; a fleet no longer the player's (dice
    since the check): the first that qualifies, else a ``Note``."""
    legal = upgradable_fleets(ctx.pack, ctx.s, seat)
    fid = plan.get("fleet") if plan.get("fleet") in legal else (legal[0] if legal else None)
    if fid is None:
        ctx.emit("Note", {"seat": seat, "rule": "R-16",
                          "text": f"{card.name}: {seat} has no fleet left to upgrade"})
        return True
    upgrade_fleet(ctx, seat, fid, card.number, int(eff.params["step"]))
    return True


def _choices(pack: Pack, s: State, seat: str, card: Card, eff: Effect) -> list[str]:
    return upgradable_fleets(pack, s, seat)


PRIMITIVES: tuple[Primitive, ...] = (
    Primitive("fleet_upgrade", "R-16", _resolve, _check, _choices, "event_fleets",
              keys=("fleet",)),
)
"""The fleet primitives the engine resolves (``event_fleets``: the fleets each such card
of the hand may upgrade now)."""
