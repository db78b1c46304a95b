"""Card events that move armies: Major Campaign (R-16.1) and the activation of an
independent army (R-14).
"""
from __future__ import annotations

import dataclasses
from typing import Any

from pbem.pack.model import Card, Pack
from pbem.problems import Problem
from pbem.rules.cards.registry import resolve_event, war_event
from pbem.rules.context import Ctx
from pbem.rules.core.pack import const
from pbem.rules.core.problems import reject
from pbem.rules.core.state import State
from pbem.rules.resolve.independents import activate_independent
from pbem.rules.resolve.moves import (
    MOVE_KEYS,
    _soft_moves,
    check_moves,
    do_moves,
    parse_move,
    simulate,
    static_checks,
)


def activation_effect(card) -> Any:
    """The card's ``activate_independent`` effect, or None."""
    return next((e for e in card.effects if e.primitive == "activate_independent"), None)


def check_tyche_war(pack: Pack, s: State, seat: str, part: dict, card: Card, use: str,
                    where: str, rej: list[Problem], plan: dict, soft: bool = False) -> None:
    """Validate ``use: activate`` (one army, MA = the card's OPs, R-8.2) and the events
    Major Campaign (``moves``: up to two armies, ``major_campaign_mp`` each, R-16.1) and
    independent army activation (R-14); fills ``plan["war"]``. ``soft``: see
    :func:`pbem.rules.resolve.moves.check_moves`."""
    if use == "activate":
        if "army" not in part or "path" not in part:
            reject(rej, "tyche.activate_army_missing", "name the army and its path to activate with this card", f"{where}.army",
                 "tyche: {card: 12, use: activate, army: Ptolemy, path: [Memphis, Pelusium]}")
            return
        raw = {k: part[k] for k in MOVE_KEYS if k in part}
        if soft:
            plan["war"] = _soft_moves(pack, s, seat, [raw], where, "tyche", card.ops)
            return
        n0 = len(rej)
        mv = parse_move(pack, s, seat, raw, where, rej, card.ops)
        if mv is None:
            return
        static_checks(pack, s, seat, mv, "tyche", rej)
        if len(rej) == n0:
            simulate(pack, s, seat, [mv], "tyche", rej)
        if len(rej) == n0:
            plan["war"] = {"kind": "moves", "moves": [mv], "segment": "tyche"}
        return
    kind = war_event(card)
    if kind == "major_campaign":
        eff = next(e for e in card.effects if e.primitive == "move_armies")
        most = int(eff.params.get("armies", 2))
        mp = int(eff.params.get("mp", const(pack, "major_campaign_mp")))
        raw = part.get("moves", [])
        if not isinstance(raw, list) or not 1 <= len(raw) <= most:
            reject(rej, "tyche.moves_missing", f"Major Campaign moves 1 to {most} armies: moves: [{{army, path}}, ...]",
                 f"{where}.moves", "moves: [{army: Ptolemy, path: [Pelusium, Gaza]}]")
            return
        mv = check_moves(pack, s, seat, raw, f"{where}.moves", rej, "tyche", mp, soft)
        if mv:
            plan["war"] = mv
    elif kind == "independent":
        plan["war"] = {"kind": "independent"}


def do_tyche_war(ctx: Ctx, seat: str, plan: dict) -> None:
    """Carry out the war part of a Tyche plan (after ``CardPlayed``)."""

    w = plan["war"]
    if w["kind"] == "moves":
        do_moves(ctx, seat, w)
    elif w["kind"] == "independent":
        card = ctx.pack.cards[plan["card"]]
        eff = activation_effect(card)
        activate_independent(ctx, seat, eff.params["army"],
                             list(eff.params.get("path", [])), plan["card"])
        rest = tuple(e for e in card.effects if e.primitive != "activate_independent")
        if rest and not ctx.s["result"]:  # the card's other effects (e.g. Lamian War)

            resolve_event(ctx, seat, dataclasses.replace(card, effects=rest), plan)
