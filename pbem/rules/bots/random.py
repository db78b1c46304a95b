"""A random-legal bot: fills empty seats in demos and drives the property tests.
"""
from __future__ import annotations

import random
from typing import Any

from pbem.rules.bots.cards import add_event_fields, event_option
from pbem.rules.bots.royals import add_free_passage, errand_goals, royal_errand
from pbem.rules.bots.seat_view import seat_view
from pbem.rules.bots.surprises import add_surprise_plays, window_plays
from pbem.rules.bots.war import add_war_orders, reaction_orders
from pbem.rules.cards.legitimacy import LEGITIMACY_FIELDS
from pbem.rules.cards.royals import ROYAL_FIELDS
from pbem.rules.core.lazy import LazyOptions
from pbem.rules.core.state import GameState
from pbem.rules.engine import acceptable, legal_options, pack_of, validate
from pbem.rules.orders import reinforcements
from pbem.rules.phases.player_turn import default_orders


def bot_orders(state: GameState, seat: str, rng: random.Random) -> dict[str, Any]:
    """Random orders for ``seat`` chosen among the legal options (R-8). Tries a few
    random candidates and returns the first that :func:`validate` accepts, else the
    deadline default. Uses only ``rng`` for its choices.

    The test driver: it reads only the seat's own private part, but checks its
    candidates against ``state`` as given (the judge's answer a player gets by mail),
    and whether a check is sure can depend on the others' secrets (a reaction window
    their standing orders would open). The recorded random games (rules baseline,
    golden reports) are played by it. A random *player* takes the seat's view:
    :func:`random_bot`."""
    return random_orders(state, seat, rng)


def random_bot(state: GameState, seat: str, rng: random.Random) -> dict[str, Any]:
    """The random bot as a player (issue 27): :func:`random_orders` on the seat's view
    (:func:`pbem.rules.bots.seat_view.seat_view`), never on the other seats' secrets."""
    return random_orders(seat_view(state, seat), seat, rng)


def random_orders(state: GameState, seat: str, rng: random.Random) -> dict[str, Any]:
    """:func:`bot_orders` on ``state`` as it is: the full state (the test driver), the
    seat's view (:func:`random_bot`) or a bot's own sample of it (the strong bot's
    playouts)."""
    opts = legal_options(state, seat)
    pack = pack_of(state)
    if (state.war or {}).get("pause"):  # an open reaction window
        return window_plays(opts, reaction_orders(state, seat, rng), rng)
    if state.order_choice:  # name a random first player
        return {"first_player": rng.choice(opts["first_player"] or [seat])}
    if state.reinforce:
        return random_reinforcements(pack, state, seat, opts, rng)
    for _ in range(6):
        orders = candidate_orders(pack, state, opts, rng)
        if acceptable(state, seat, orders):
            return orders
    return default_orders(pack, state.peek(), seat)


def candidate_orders(pack, state: GameState, opts: dict, rng: random.Random,
                     pick: tuple[int, str] | None = None) -> dict[str, Any]:
    """One random player-turn orders document (R-8) for the seat of ``opts`` (its legal
    options): surrenders accepted, a Tyche card and its use with random legal fields,
    movement, standing orders, errands and surprise plays. ``pick`` = ``(card, use)``
    forces the card (a number in ``opts["hand"]``) and its use; without it both are
    drawn from ``rng``. Not checked: pass it to :func:`validate`. From a player-turn's
    :class:`pbem.rules.core.lazy.LazyOptions` it reads only the drawn card's entry and
    event choices (its parts, issue 27 item 5): the same draws as from the whole hand."""
    orders: dict[str, Any] = {}
    if not opts["tyche_only"]:
        acc = [x for x in opts["surrender"]["accept"] if rng.random() < 0.8]
        if acc:
            orders["surrender"] = {"accept": acc}
    lazy = isinstance(opts, LazyOptions) and opts.has_part("card")
    # one card's entry only from lazy options (issue 27 item 5): the same draw, the same card
    hand = (opts.part("playable") if lazy
            else [h for h in opts["hand"] if h["type"] != "surprise"])
    surprise = [n for n in opts["surprise_discards"] if rng.random() < 0.15]
    if pick is None:
        card = rng.choice(hand)
        if lazy:
            card = opts.part("card", card)
        use = rng.choice(card["uses"])
    else:
        card = next(h for h in opts["hand"] if h["card"] == pick[0])
        use = pick[1]
    ty: dict[str, Any] = {"card": card["card"], "use": use}
    if surprise:
        ty["surprise_discards"] = surprise
    if use == "garrisons":
        spaces = opts["garrison_spaces"]
        if not spaces:
            ty["use"] = "discard" if "discard" in card["uses"] else use
        else:
            k = rng.randint(1, min(card["ops"], len(spaces)))
            ty["places"] = rng.sample(spaces, k)
    elif use == "train":
        kinds = ["phalangite", "auxiliary"]
        unit = rng.choice(kinds)
        tr = opts["training"]["in_training"]
        if tr and rng.random() < 0.7:
            unit = tr[0]["unit"]
        ty["train"] = [{"unit": unit, "ops": card["ops"]}]
        if rng.random() < 0.5 and card["ops"] > 1:
            a = rng.randint(1, card["ops"] - 1)
            ty["train"] = [{"unit": unit, "ops": a},
                           {"unit": rng.choice(kinds), "ops": card["ops"] - a}]
    elif use == "upgrade_fleet" and opts.get("fleet_upgrades"):
        ty["fleet"] = rng.choice(opts["fleet_upgrades"])
    elif use == "event":  # the event's choices (R-4.1, R-8.6, ...)
        add_event_fields(opts, card["card"], ty, rng)
    if ty["use"] == "event":  # the fields the card's event reads
        for key, fld in {**ROYAL_FIELDS, **LEGITIMACY_FIELDS}.items():
            choices = event_option(opts, key, card["card"])
            if choices and fld not in ty:
                ty[fld] = rng.choice(choices)
    orders["tyche"] = ty
    if opts.get("bury") and rng.random() < 0.8:  # bury the body when it can
        orders["bury"] = True
    if len(opts.get("heirs") or []) > 1 and rng.random() < 0.3:
        orders["heir"] = rng.choice(opts["heirs"])
    if not opts["tyche_only"]:
        if rng.random() < 0.6 and opts["mercenary_spaces"]:
            orders["movement"] = ({"mercenary": rng.choice(opts["mercenary_spaces"])}
                                  if rng.random() < 0.5 else "mercenary")
        else:
            orders["movement"] = "none"
    add_war_orders(pack, state, opts["seat"], orders, rng)
    add_errand(pack, state, opts["seat"], orders, rng)
    add_surprise_plays(pack, state, opts["seat"], orders, rng)
    add_free_passage(opts, state.peek(), opts["seat"], orders, rng)
    return orders


def add_errand(pack, state: GameState, seat: str, orders: dict[str, Any],
               rng: random.Random) -> None:
    """Mostly (0.8) make the movement segment start with a royal errand (R-12.2, R-12.4:
    :func:`pbem.rules.bots.royals.royal_errand`), and bury the body when the move brings
    it to Pella. Draws from ``rng`` only when ``seat`` has an errand."""
    if "movement" not in orders or not errand_goals(pack, state.peek(), seat) \
            or rng.random() >= 0.8:
        return
    errand = royal_errand(pack, state, seat, rng)
    if errand is None:
        return
    mv, reached = errand
    moves = orders["movement"] if isinstance(orders["movement"], list) else []
    orders["movement"] = [mv] + [m for m in moves if m.get("army") != mv["army"]]
    if reached == pack.constants.get("burial_pella_space"):
        orders["bury"] = True


def random_reinforcements(pack, state: GameState, seat: str, opts: dict,
                          rng: random.Random) -> dict[str, Any]:
    """Random reinforcement orders for ``seat`` (R-7.2) from ``opts`` (its legal
    options). Random placement: each CU (new, and dispersed with probability 0.7) to a random
    legal space; falls back to the default when the random plan is refused."""

    units = [t for t, n in sorted(opts["new"].items()) for _ in range(n)]
    units += [t for t, n in sorted(opts["dispersed"].items()) for _ in range(n)
              if rng.random() < 0.7]
    spaces = opts["placement_spaces"]
    if rng.random() < 0.3 or not spaces:
        return {"reinforcements": "default"}
    plan = [{"space": rng.choice(spaces), "cus": {t: 1}} for t in units]
    orders = {"reinforcements": plan}
    if not validate(state, seat, orders):
        return orders
    return reinforcements.default(pack, state.peek(), seat)
