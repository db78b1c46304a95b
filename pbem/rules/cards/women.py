"""Plans of Their Own (#27, R-16.3): ``move_woman`` (``mp``). The royal women
(Olympias, Cleopatra, Thessalonike) cannot move while nobody controls them, "except with
the Tyche card no. 27, Plans of Their Own" (seeds 002 and 004: "Las mujeres no
controladas pueden moverse si un jugador juega el evento en la carta Tyche «Plans of
Their Own»"). The documents give no more: [D] the player moves one woman that no player
controls (inactive, or active but left alone) up to ``mp`` MPs along land and
mountain/strait paths (R-9.1 costs) to any space; she stays as active or inactive as she
was (an active woman who ends with a player's units is his again, R-12.1).

Orders: ``tyche: {card: 27, use: event, royal: Cleopatra, place: Ephesus}`` (``royal``
may be left out when only one woman may move).
"""
from __future__ import annotations

from typing import Any

from pbem.pack.model import Card, Effect, Pack
from pbem.plural import count
from pbem.problems import Problem
from pbem.rules.cards.base import Primitive
from pbem.rules.cards.choice import names, pick_one, place_list
from pbem.rules.context import Ctx
from pbem.rules.core.board import _resolve_royal, distances
from pbem.rules.core.control import royal_controller
from pbem.rules.core.garrisons import garrison_costs
from pbem.rules.core.problems import reject
from pbem.rules.core.state import State


def free_women(pack: Pack, s: State) -> list[str]:
    """Royal women on the map that no player controls (R-12.1), by id."""
    return sorted(r for r, v in s["royals"].items()
                  if r in pack.royals and pack.royals[r].kind == "woman" and v.get("space")
                  and not v.get("gone") and royal_controller(pack, s, r) is None)


def destinations(pack: Pack, s: State, royal: str, eff: Effect) -> list[str]:
    """Spaces ``royal`` may go to: within ``mp`` MPs of hers along land and
    mountain/strait paths, hers excluded."""
    here = s["royals"][royal]["space"]
    near = distances(pack, {here}, int(eff.params["mp"]), garrison_costs(pack))
    return sorted(x for x in near if x != here)


def _check(pack: Pack, s: State, seat: str, part: dict[str, Any], card: Card, eff: Effect,
           where: str, rej: list[Problem], plan: dict[str, Any], soft: bool) -> None:
    """``royal`` (one of :func:`free_women`) and ``place`` (one of her
    :func:`destinations`, required)."""
    plan["royal"] = _resolve_royal(pack, part.get("royal")) if soft else pick_one(
        part, "royal", free_women(pack, s), lambda v: _resolve_royal(pack, v), where, rej,
        "royal woman that no player controls", pack=pack)
    to = place_list(pack, part, where, rej, 1, what=("royal woman", "royal women"))
    plan["place"] = to
    if soft or plan["royal"] is None:
        return
    legal = destinations(pack, s, plan["royal"], eff)
    if not to:
        reject(rej, "tyche.event_choice_missing", "name the space she goes to under place",
               f"{where}.place", "within reach: " + names(pack, legal), rule="R-16")
    elif to[0] not in legal:
        reject(rej, "tyche.event_choice_illegal",
               f"{pack.spaces[to[0]].name} is more than {count(int(eff.params['mp']), 'MP')} from "
               f"{pack.royals[plan['royal']].name}", f"{where}.place",
               "within reach: " + names(pack, legal), rule="R-16")


def _resolve(ctx: Ctx, seat: str, card: Card, eff: Effect, plan: dict[str, Any]) -> bool:
    """R-16.3 [D]: ``WomanMoved``; when she or her destination no longer qualifies
    (dice since the check), a ``Note`` and she stays."""
    pack, s = ctx.pack, ctx.s
    royal, to = plan.get("royal"), (plan.get("place") or [None])[0]
    if royal not in free_women(pack, s) or to not in destinations(pack, s, royal, eff):
        ctx.emit("Note", {"seat": seat, "rule": "R-16",
                          "text": f"{card.name}: the woman named cannot go there now"})
        return True
    ctx.emit("WomanMoved", {"seat": seat, "card": card.number, "royal": royal,
                            "from": s["royals"][royal]["space"], "to": to, "rule": "R-16.3"})
    return True


def _choices(pack: Pack, s: State, seat: str, card: Card, eff: Effect
             ) -> list[dict[str, Any]]:
    return [{"royal": r, "spaces": destinations(pack, s, r, eff)} for r in free_women(pack, s)]


PRIMITIVES: tuple[Primitive, ...] = (
    Primitive("move_woman", "R-16.3", _resolve, _check, _choices, "women",
              keys=("royal", "place")),
)
"""Plans of Their Own (``women``: each woman who may move, with the spaces in reach)."""
