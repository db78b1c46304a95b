"""General cards (R-8.6): ``place_general`` (#40 Polyperchon, #41 Seleucus). Played for
its event, the card places its general as a reinforcement or on any space of his
optional starting location with no enemy CU and no independent army (an enemy garrison
is allowed). The pack's card names the general twice, as ``general`` of the card and as
the effect's parameter; ``pbem data check`` keeps them the same.
"""
from __future__ import annotations

from typing import Any

from pbem.pack.model import Card, Effect, Pack
from pbem.problems import Problem
from pbem.rules.cards.base import Primitive
from pbem.rules.cards.choice import names, place_list
from pbem.rules.context import Ctx
from pbem.rules.core.board import optional_start_spaces
from pbem.rules.core.placement import placement_targets
from pbem.rules.core.problems import reject
from pbem.rules.core.state import State


def general_targets(pack: Pack, s: State, seat: str, gid: str) -> list[str]:
    """R-8.6: spaces where a general card's general may be placed: as a reinforcement
    (R-7.2), or any space of his optional starting location with no enemy CU and no
    independent army (an enemy garrison is allowed)."""
    out = set(placement_targets(pack, s, seat))
    for x in optional_start_spaces(pack, gid):
        blocked = any(o != seat and sum(c.values()) for o, c in s["cus"].get(x, {}).items())
        blocked |= any(a["space"] == x for a in s["indep_armies"].values())
        if not blocked:
            out.add(x)
    return sorted(out)


def _general(card: Card, eff: Effect) -> str:
    return str(eff.params.get("general") or card.general)


def _check(pack: Pack, s: State, seat: str, part: dict[str, Any], card: Card, eff: Effect,
           where: str, rej: list[Problem], plan: dict[str, Any], soft: bool) -> None:
    """R-8.6 ``tyche: {card: 41, use: event, place: Babylon}``: at most one space, one of
    :func:`general_targets` (``tyche.general_place_illegal``); left out: the engine's
    choice (:func:`_resolve`)."""
    gid = _general(card, eff)
    plan["place"] = place_list(pack, part, where, rej, 1, what=("general", "generals"), rule="R-8.6")
    if soft:
        return
    targets = general_targets(pack, s, seat, gid)
    for x in plan["place"]:
        if x not in targets:
            reject(rej, "tyche.general_place_illegal",
                   f"{pack.generals[gid].name} cannot be placed in {pack.spaces[x].name}",
                   f"{where}.place", "legal: " + names(pack, targets))


def _resolve(ctx: Ctx, seat: str, card: Card, eff: Effect, plan: dict[str, Any]) -> bool:
    """R-8.6: ``GeneralPlaced`` at the chosen space; without a (still) legal choice, the
    first space of his optional start that is legal, else the first legal space [D];
    with none, he goes to the dispersed box (he arrives in the next reinforcement
    phase, R-7.3)."""
    gid = _general(card, eff)
    if gid not in ctx.pack.generals:
        return False
    targets = general_targets(ctx.pack, ctx.s, seat, gid)
    want = plan["place"][0] if plan.get("place") else None
    if want not in targets:
        opt = [x for x in optional_start_spaces(ctx.pack, gid) if x in targets]
        want = opt[0] if opt else (targets[0] if targets else None)
    ctx.emit("GeneralPlaced", {"general": gid, "seat": seat,
                               "where": "map" if want else "dispersed", "space": want,
                               "rule": "R-8.6"})
    return True


def _choices(pack: Pack, s: State, seat: str, card: Card, eff: Effect) -> list[str] | None:
    return general_targets(pack, s, seat, _general(card, eff)) or None


PRIMITIVES: tuple[Primitive, ...] = (
    Primitive("place_general", "R-8.6", _resolve, _check, _choices, "general_spaces",
              keys=("place",)),
)
"""The general-card primitive (``general_spaces``: where each general card of the hand
may place its general, R-8.6)."""
