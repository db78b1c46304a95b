"""The card-event registry (R-16): every effect primitive of the pack the engine
resolves, from the family modules (:mod:`.markers`, :mod:`.units`, :mod:`.armies`,
:mod:`.hand`, :mod:`.cus`, :mod:`.generals`, :mod:`.fleets`, :mod:`.women`,
:mod:`.royals`, :mod:`.legitimacy`, :mod:`.capitals`), each
with its check, resolution and prompt choices (:class:`~pbem.rules.cards.base.Primitive`).

A card's event is supported when it is a general card (R-8.6, ``place_general``), a
must-play card (its unsupported effects are recorded as skipped [D], so the
game goes on), or when one of its effects is registered here. To add a card whose
primitive is known: data in the pack. To add a primitive: one entry in the family module
of its kind, and a scenario (docs/rules-core.md).
"""
from __future__ import annotations

from typing import Any

from pbem.pack.model import Card, Pack
from pbem.problems import Problem
from pbem.rules.cards import (
    armies,
    capitals,
    cus,
    fleets,
    generals,
    hand,
    legitimacy,
    markers,
    royals,
    units,
    women,
)
from pbem.rules.cards.base import Primitive
from pbem.rules.context import Ctx
from pbem.rules.core.state import State, is_paused

REGISTRY: dict[str, Primitive] = {}
for _family in (markers, units, armies, hand, cus, generals, fleets, women, royals, legitimacy,
                capitals):
    for _p in _family.PRIMITIVES:
        if _p.name in REGISTRY:
            raise ValueError(f"effect primitive {_p.name} is declared twice")
        REGISTRY[_p.name] = _p
OPTIONS_KEYS = tuple(sorted({p.options_key for p in REGISTRY.values() if p.options_key}))
"""The keys of the legal options that list the choices of card events."""
EVENT_KEYS = tuple(sorted({k for p in REGISTRY.values() for k in p.keys}))
"""The fields of the ``tyche:`` orders that card events read (R-16)."""


def event_keys(card: Card) -> set[str]:
    """The fields of the ``tyche:`` orders that ``card``'s registered effects read."""
    return {k for e in card.effects if e.primitive in REGISTRY
            for k in REGISTRY[e.primitive].keys}


def event_supported(card: Card) -> bool:
    """Whether ``card`` may be played for its event now that the engine resolves it:
    general cards (R-8.6), must-play cards, and cards with a registered effect (R-16)."""
    return (card.type == "general" or card.must_play
            or any(e.primitive in REGISTRY for e in card.effects))


def check_event(pack: Pack, s: State, seat: str, part: dict[str, Any], card: Card,
                where: str, rej: list[Problem], plan: dict[str, Any], soft: bool = False
                ) -> None:
    """Check the fields of ``tyche: {card, use: event, ...}`` that ``card``'s registered
    effects read, in card order, filling ``plan`` (R-16); problems go to ``rej``."""
    for eff in card.effects:
        p = REGISTRY.get(eff.primitive)
        if p is not None and p.check is not None:
            p.check(pack, s, seat, part, card, eff, where, rej, plan, soft)


def event_choices(pack: Pack, s: State, seat: str, card: Card) -> dict[str, list[Any]]:
    """``{options key: choices}`` of ``card``'s registered effects that list choices for
    the prompt (an empty list: the event cannot be played now; a primitive whose
    choices are None has nothing to choose now and holds nothing back)."""
    out: dict[str, list[Any]] = {}
    for eff in card.effects:
        p = REGISTRY.get(eff.primitive)
        if p is not None and p.choices is not None and p.options_key:
            got = p.choices(pack, s, seat, card, eff)
            if got is not None:  # None: nothing to choose, the event is not held back
                out[p.options_key] = got
    return out


def resolve_event(ctx: Ctx, seat: str, card: Card, plan: dict[str, Any]) -> None:
    """Carry out ``card``'s event (R-16): first the effects that move armies (a reaction
    window may pause them, R-9.3; the game may end in their battles), then the others in
    card order [D]; the primitives the engine does not resolve are recorded as one
    ``CardEventSkipped``."""
    movers = [e for e in card.effects
              if e.primitive in REGISTRY and REGISTRY[e.primitive].moves_armies]
    for eff in movers:
        REGISTRY[eff.primitive].resolve(ctx, seat, card, eff, plan)
    others = [e for e in card.effects if e not in movers]
    if movers and (not others or is_paused(ctx.s) or ctx.s["result"]):
        return
    skipped = []
    for eff in others:
        p = REGISTRY.get(eff.primitive)
        if p is None or not p.resolve(ctx, seat, card, eff, plan):
            skipped.append(eff.primitive)
    if skipped or not card.effects:
        ctx.emit("CardEventSkipped", {"seat": seat, "card": card.number, "name": card.name,
                                      "effects": skipped, "rule": "R-16",
                                      "why": "card events are not yet resolved by the "
                                             "engine [D]"})
