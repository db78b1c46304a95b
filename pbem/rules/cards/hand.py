"""Card events that change a player's hand: ``extra_cards``, draw more Tyche cards
(R-16.3 [D]; #55 Oath of the Satraps: "Draw one more card")."""
from __future__ import annotations

from typing import Any

from pbem.pack.model import Card, Effect
from pbem.rules.cards.base import Primitive
from pbem.rules.context import Ctx


def draw_extra_cards(ctx: Ctx, seat: str, card: Card, eff: Effect, plan: dict[str, Any]
                     ) -> bool:
    """R-16.3 [D] ``extra_cards``: ``seat`` draws ``count`` (effect parameter, 1) more
    cards from the Tyche deck, the discards reshuffled into it when it runs out (R-6.4).
    Events: ``ExtraCardsDrawn`` (public: how many) and ``CardDrawn`` (private: which)."""
    count = int(eff.params.get("count", 1))
    ctx.emit("ExtraCardsDrawn", {"seat": seat, "card": card.number, "count": count,
                                 "rule": "R-16.3"})
    ctx.draw(seat, count, "R-16.3")
    return True


PRIMITIVES: tuple[Primitive, ...] = (
    Primitive("extra_cards", "R-16.3", draw_extra_cards),
)
"""The hand primitives the engine resolves."""
