"""Card events that change a player's hand: ``extra_cards``, draw more Tyche cards
(R-16.3 [D]; #55 Oath of the Satraps: "Draw one more card"), and
``extra_tyche_segment`` (R-6 step 5; #22 Treasure City Looted, #23 Ahura Mazda): the
player draws ``count`` more cards, so he still holds a card when the others have played
their hands and plays it in an extra Tyche-only segment (rulebook 12.12: "these two
events give the player extra cards and will allow him a sixth or seventh Tyche
Segment"; the rounds past the hand size are those segments, R-6.5).
"""
from __future__ import annotations

from typing import Any

from pbem.pack.model import Card, Effect
from pbem.rules.cards.base import Primitive
from pbem.rules.context import Ctx

EVENTS = {"extra_cards": ("ExtraCardsDrawn", "R-16.3"),
          "extra_tyche_segment": ("ExtraTycheSegmentGranted", "R-6")}
"""The public event and the rule of each hand primitive."""


def draw_extra_cards(ctx: Ctx, seat: str, card: Card, eff: Effect, plan: dict[str, Any]
                     ) -> bool:
    """``extra_cards`` (R-16.3 [D]) and ``extra_tyche_segment`` (R-6 step 5): ``seat``
    draws ``count`` (effect parameter, 1) more cards from the Tyche deck, the discards
    reshuffled into it when it runs out (R-6.4). Events: ``ExtraCardsDrawn`` or
    ``ExtraTycheSegmentGranted`` (public: how many) and ``CardDrawn`` (private: which)."""
    count = int(eff.params.get("count", 1))
    rule = EVENTS[eff.primitive][1]
    data = {"seat": seat, "card": card.number, "count": count, "rule": rule}
    if eff.primitive == "extra_tyche_segment":
        ctx.emit("ExtraTycheSegmentGranted", data)
    else:
        ctx.emit("ExtraCardsDrawn", data)
    ctx.draw(seat, count, rule)
    return True


PRIMITIVES: tuple[Primitive, ...] = tuple(
    Primitive(name, rule, draw_extra_cards) for name, (_kind, rule) in EVENTS.items())
"""The hand primitives the engine resolves."""
