"""Card events that bring units: the special units (R-4.1 [L]).
"""
from __future__ import annotations

import re
from typing import Any

from pbem.pack.model import Card, Effect, Pack
from pbem.problems import Problem
from pbem.rules.cards.base import Primitive
from pbem.rules.context import Ctx
from pbem.rules.core.armies import army_label, army_pairs, resolve_army
from pbem.rules.core.board import area_of
from pbem.rules.core.pieces import army_spaces
from pbem.rules.core.problems import reject
from pbem.rules.core.state import State
from pbem.rules.core.units import special_status, unit_name

BRING = "bring_special_unit"
"""The card effect primitive that brings a special unit into play (R-4.1)."""


def special_effect(card: Card) -> Effect | None:
    """The ``bring_special_unit`` effect of ``card``, or None."""
    return next((e for e in card.effects if e.primitive == BRING), None)


def joining_area(eff: Effect) -> str | None:
    """The area (R-3.4) the army must stand in for the unit to join, e.g. ``"asia"`` for
    the Indian Elephant Corps (card effect parameter ``area``), or None."""
    area = eff.params.get("area")
    return str(area) if area else None


def joining_armies(pack: Pack, s: State, seat: str, eff: Effect) -> list[str]:
    """Spaces of ``seat``'s armies the special unit of ``eff`` may join (R-4.1): every
    army (a general with CUs), only those in the effect's ``area`` when it names one."""

    area = joining_area(eff)
    return [x for x in army_spaces(s, seat) if area is None or area_of(pack, x) == area]


def why_no_join(pack: Pack, s: State, seat: str, eff: Effect, space: str | None
                ) -> str | None:
    """None when the special unit of ``eff`` may join ``seat``'s army in ``space``
    (None: any army), else a message naming the unit, the space and the reason."""
    unit = str(eff.params.get("unit"))
    sp = pack.special_units.get(unit)
    name = sp.name if sp else unit
    if sp is None:
        return f"the data pack has no special unit {unit!r}"
    st = special_status(pack, s, unit)
    if st["status"] != "box":
        return f"{name}: no longer in the holding box ({st['status']})"
    area = joining_area(eff)
    where = f" in {area.capitalize()}" if area else ""
    legal = joining_armies(pack, s, seat, eff)
    if space is None:
        return None if legal else (f"you have no army (a general with CUs){where} that "
                                   f"the {name} could join")
    if space in legal:
        return None
    sname = pack.spaces[space].name
    if space not in army_spaces(s, seat):
        return f"{sname} holds no army of yours (a general with CUs) that the {name} could join"
    return (f"the {name} can join an army{where} only; {sname} is in "
            f"{area_of(pack, space).capitalize()}")


def bring_special_unit(ctx: Ctx, seat: str, card: Card, eff: Effect,
                       space: str | None) -> None:
    """Carry out the event (R-4.1 [L]): the special unit joins ``seat``'s army in
    ``space`` (``SpecialUnitJoined``). When that army is gone since validation (dice of
    earlier segments) it joins the first other legal army; with none it stays in its
    holding box (``Note``)."""
    pack, s = ctx.pack, ctx.s
    unit = str(eff.params.get("unit"))
    legal = joining_armies(pack, s, seat, eff)
    if space not in legal:
        space = legal[0] if legal else None
    name = pack.special_units[unit].name if unit in pack.special_units else unit
    if space is None or why_no_join(pack, s, seat, eff, space):
        ctx.emit("Note", {"seat": seat, "rule": "R-4.1",
                          "text": f"no army of {seat} is left that the {name} could join; "
                                  "the unit stays in its holding box"})
        return
    ctx.emit("SpecialUnitJoined", {"seat": seat, "unit": unit, "name": name,
                                   "space": space, "card": card.number, "rule": "R-4.1"})


def check_join(pack: Pack, s: State, seat: str, part: dict[str, Any], card: Card,
               where: str, rej: list[Problem], plan: dict[str, Any], soft: bool = False
               ) -> None:
    """Validate ``tyche: {card: 44, use: event, army: General | Space}`` (R-4.1 [L]): the
    card's special unit must still be in its holding box and ``army`` must name an army of
    ``seat`` (a general with CUs) in the effect's area, if any (card 46: Asia). ``army``
    may be left out when exactly one army qualifies. Sets ``plan["special"]`` to the
    army's space. ``soft`` (carried out after dice changed the board): nothing is refused:
    :func:`bring_special_unit` falls back to another army."""

    def no(code: str, msg: str, w: str, hint: str | None = None, params: dict[str, Any] | None = None) -> None:
        reject(rej, code, msg, w, hint, params=params)

    eff = special_effect(card)
    if eff is None:
        return
    plan["special"] = None
    if soft:  # re-checked when carried out (bring_special_unit)
        plan["special"] = resolve_army(pack, s, seat, part.get("army"))[0] \
            if "army" in part else None
        return
    unit = str(eff.params.get("unit"))
    name = unit_name(pack, unit)
    why = why_no_join(pack, s, seat, eff, None)
    if why:
        gone = special_status(pack, s, unit)["status"] != "box" \
            if unit in pack.special_units else True
        no("tyche.special_unit_gone" if gone else "tyche.special_unit_no_army", why,
           f"{where}.use", "use the card's OPs or discard it")
        return
    legal = joining_armies(pack, s, seat, eff)
    armies = ", ".join(army_label(pack, s, seat, x) for x in legal)
    # the qualifying armies for a translated fix (issue 28: the generic fix named none of them)
    qualify: dict[str, Any] = {"armies": army_pairs(pack, s, seat, legal)}
    if "army" not in part:
        if len(legal) == 1:
            plan["special"] = legal[0]
            return
        no("tyche.special_unit_army_missing",
           f"name the army the {name} should join", f"{where}.army",
           f"armies that qualify: {armies}", qualify)
        return
    space, msg = resolve_army(pack, s, seat, part["army"])
    if space is None:
        near = re.search(r"did you mean (.+)\?$", msg or "")
        no("tyche.unknown_army", msg, f"{where}.army", f"armies that qualify: {armies}",
           {**qualify, "army": str(part["army"]), **({"near": near.group(1)} if near else {})})
        return
    why = why_no_join(pack, s, seat, eff, space)
    if why:
        no("tyche.special_unit_army_illegal", why, f"{where}.army",
           f"armies that qualify: {armies}", qualify)
        return
    plan["special"] = space


def _resolve(ctx: Ctx, seat: str, card: Card, eff: Effect, plan: dict[str, Any]) -> bool:
    bring_special_unit(ctx, seat, card, eff, plan.get("special"))
    return True


def _check(pack: Pack, s: State, seat: str, part: dict[str, Any], card: Card, eff: Effect,
           where: str, rej: list[Problem], plan: dict[str, Any], soft: bool) -> None:
    check_join(pack, s, seat, part, card, where, rej, plan, soft)


def _choices(pack: Pack, s: State, seat: str, card: Card, eff: Effect) -> list[str]:
    return [] if why_no_join(pack, s, seat, eff, None) else joining_armies(pack, s, seat, eff)


PRIMITIVES: tuple[Primitive, ...] = (
    Primitive(BRING, "R-4.1", _resolve, _check, _choices, "special_unit_armies"),
)
"""The unit primitives the engine resolves (``special_unit_armies``: the armies each
special-unit card of the hand may join, R-4.1)."""
