"""Card events (R-16): the pack's effect primitives and how the engine resolves them.

Implemented: ``unrest`` (R-16.2), ``bring_special_unit`` (R-4.1), ``move_armies``
(R-16.1 Major Campaign) and ``activate_independent`` (R-14). Every other primitive is
recorded as skipped (``CardEventSkipped``).
"""
from __future__ import annotations

from typing import Any

from pbem.pack.model import Card
from pbem.rules.cards.markers import resolve_unrest
from pbem.rules.cards.units import bring_special_unit, special_effect
from pbem.rules.context import Ctx


def event_supported(card: Card) -> bool:
    """Events the engine resolves now: general cards (R-8.6) and must-play cards (whose
    unsupported effects are recorded as skipped [D] so the game can go on)."""
    return (card.type == "general" or card.must_play or war_event(card) is not None
            or special_effect(card) is not None)


def war_event(card: Card) -> str | None:
    """``"major_campaign"`` / ``"independent"`` when the card's event is resolved here."""
    prims = {e.primitive for e in card.effects}
    if "move_armies" in prims:
        return "major_campaign"
    if "activate_independent" in prims:
        return "independent"
    return None


def resolve_event(ctx: Ctx, seat: str, card: Card, plan: dict[str, Any]) -> None:
    """Resolve ``card``'s effects in order; unsupported primitives are recorded as one
    ``CardEventSkipped`` (R-16)."""
    skipped = []
    for eff in card.effects:
        if eff.primitive == "unrest" and "unrest" in ctx.pack.charts:
            resolve_unrest(ctx, seat, card, plan.get("unrest"))
        elif eff.primitive == "bring_special_unit":  # R-4.1 [L]
            bring_special_unit(ctx, seat, card, eff, plan.get("special"))
        else:
            skipped.append(eff.primitive)
    if skipped or not card.effects:
        ctx.emit("CardEventSkipped", {"seat": seat, "card": card.number, "name": card.name,
                                      "effects": skipped, "rule": "R-16",
                                      "why": "card events are not yet resolved by the "
                                             "engine [D]"})
