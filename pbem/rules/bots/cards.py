"""Random fields for a card played for its event (R-16): the bot reads the choices the
legal options list for the card (:data:`pbem.rules.cards.registry.OPTIONS_KEYS`) and
picks among them, so the random playouts exercise every event. Uses only ``rng``.
"""
from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from pbem.rules.core.lazy import LazyOptions

FIELD = {"recruit_armies": "army", "target_armies": "target", "event_fleets": "fleet",
         "special_unit_armies": "army", "capital_spaces": "capital"}
"""Options keys whose choice goes, as it is, into one field of the ``tyche:`` orders."""


def add_event_fields(opts: dict[str, Any], card: int, ty: dict[str, Any],
                     rng: random.Random) -> None:
    """Fill ``ty`` (``tyche: {card, use: event}``) with random legal choices of the
    event of ``card`` from ``opts`` (the player-turn's legal options): an army, a target,
    a fleet, marker spaces, a woman and her destination, a general's space, or where
    CUs placed as reinforcements go (one of ``mercenary_spaces``)."""
    for okey, field in FIELD.items():
        choices = event_option(opts, okey, card)
        if choices:
            ty[field] = rng.choice(choices)
    markers = event_option(opts, "marker_spaces", card)
    if markers and rng.random() < 0.8:
        ty["markers"] = rng.sample(markers, 1 if rng.random() < 0.7 else min(2, len(markers)))
    women = [w for w in event_option(opts, "women", card) or [] if w["spaces"]]
    if women:
        w = rng.choice(women)
        ty["royal"], ty["place"] = w["royal"], rng.choice(w["spaces"])
        return
    spaces = event_option(opts, "general_spaces", card)
    if spaces and rng.random() < 0.7:
        ty["place"] = rng.choice(spaces)
    elif not spaces and opts.get("mercenary_spaces") and rng.random() < 0.3:
        ty["place"] = [rng.choice(opts["mercenary_spaces"])]


def event_option(opts: Mapping[str, Any], key: str, card: int) -> Any:
    """``opts[key][str(card)]``: the choices the options key ``key`` lists for hand card
    ``card``'s event (R-16), None when it lists none. From a player-turn's
    :class:`pbem.rules.core.lazy.LazyOptions` only that card's event choices are
    computed (its part ``event_choices``, issue 27 item 5): the same value."""
    if isinstance(opts, LazyOptions) and opts.has_part("event_choices"):
        return opts.part("event_choices", card).get(key)
    return (opts.get(key) or {}).get(str(card))
