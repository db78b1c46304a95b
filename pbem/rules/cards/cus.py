"""Card events that bring or take CUs (R-16):

- ``gain_cus`` (``type``, ``count``, ``where``, ``provinces``): ``where: reinforcement``
  places the CUs as reinforcements (R-7.2; #29 Harpalus' Treasure, #30 Veterans Sent
  Home, #43 Army Pay Arrives); ``where: general_in`` gives them to a general of the
  player's in one of ``provinces`` (#15 Greek Mercenaries: Attica or the Peloponnesus,
  and by R-16.1 [E2] also Aetolia or Thessaly; #35 Treasury of Cyinda: Cilicia).
- ``treasure_looted`` (``cities``, ``type``, ``count``): an army of the player in a
  treasure city he controls gains the CUs (#22 Treasure City Looted).
- ``lose_cus`` (``count``, ``target: army_in``, ``provinces``): another player's army in
  one of ``provinces`` loses CUs (#42 Peithon's Ambition).
- ``return_dispersed`` (``count``): CUs come back from the dispersed box as
  reinforcements (#39 Reinforcements from Macedonia).

Orders (``tyche: {card, use: event, ...}``): ``army`` (a general's name or his space)
for ``general_in`` and ``treasure_looted``; ``target`` (a general's name or a space) for
``lose_cus``; ``place`` (spaces, one per CU, in order) for the placements as
reinforcements, the rest at the engine's default space.
"""
from __future__ import annotations

from typing import Any

from pbem.pack.model import Card, Effect, Pack
from pbem.problems import Problem
from pbem.rules.cards.base import Primitive
from pbem.rules.cards.choice import army_of, names, pick_army, place_list
from pbem.rules.context import Ctx
from pbem.rules.core.names import province_name
from pbem.rules.core.pieces import army_spaces, enemy_unit_spaces
from pbem.rules.core.placement import count_placement, default_target, placement_targets
from pbem.rules.core.problems import reject
from pbem.rules.core.state import SEATS, State
from pbem.rules.core.units import loss_key
from pbem.rules.resolve.effects import (
    lift_abandoned,
    lose_cus,
    place_cus,
    tidy_markings,
)

RULE = "R-16"


def _provinces(eff: Effect) -> list[str]:
    return [str(p) for p in eff.params.get("provinces", [])]


def _in_provinces(pack: Pack, x: str, provinces: list[str]) -> bool:
    return pack.spaces[x].province in provinces


def recruit_spaces(pack: Pack, s: State, seat: str, eff: Effect) -> list[str]:
    """R-16 ``gain_cus`` with ``where: general_in``: spaces of ``provinces`` where
    ``seat`` has a general (major or minor) and no other faction has units outside a
    major city (R-7.2 [L]: CUs never join a space held by an enemy)."""
    hostile = enemy_unit_spaces(s, seat)
    gens = {v["space"] for v in s["generals"].values()
            if v["where"] == "map" and v["seat"] == seat} | set(s["minors"].get(seat, []))
    return sorted(x for x in gens if x and _in_provinces(pack, x, _provinces(eff))
                  and x not in hostile)


def treasure_spaces(pack: Pack, s: State, seat: str, eff: Effect) -> list[str]:
    """R-16 ``treasure_looted`` [D]: the treasure ``cities`` that ``seat`` controls (its
    garrison) with an army of his there (a general with CUs) and no enemy outside."""
    hostile = enemy_unit_spaces(s, seat)
    return sorted(x for x in army_spaces(s, seat) if x in eff.params.get("cities", [])
                  and s["garrisons"].get(x) == seat and x not in hostile)


def target_spaces(pack: Pack, s: State, seat: str, eff: Effect) -> list[str]:
    """R-16 ``lose_cus`` with ``target: army_in``: spaces of ``provinces`` holding
    another player's army (a general with CUs)."""
    return sorted({x for other in SEATS if other != seat for x in army_spaces(s, other)
                   if _in_provinces(pack, x, _provinces(eff))})


def _where_text(pack: Pack, eff: Effect) -> str:
    provs = _provinces(eff)
    return " or ".join(province_name(pack, p) for p in provs) if provs else "the map"


def check_places(pack: Pack, s: State, seat: str, part: dict[str, Any], count: int,
                 where: str, rej: list[Problem], soft: bool) -> list[str]:
    """``place`` of an event that places ``count`` CUs as reinforcements (R-7.2): at most
    ``count`` spaces, each a reinforcement space once the earlier ones are placed (the
    placement limit of :func:`pbem.rules.core.placement.placement_targets`: at most
    ``reinforcement_per_province`` in a space, or a province under the rulebook's
    option; ``tyche.event_choice_illegal``). ``soft``: only read, checked when placed."""
    wanted = place_list(pack, part, where, rej, count)  # the card's CUs: R-16
    if soft or len(wanted) > count:
        return wanted
    placed: dict[str, int] = {}
    for i, x in enumerate(wanted):
        targets = placement_targets(pack, s, seat, placed)
        if x not in targets:
            reject(rej, "tyche.event_choice_illegal",
                   f"{pack.spaces[x].name} cannot take a CU placed as a reinforcement",
                   f"{where}.place[{i}]", "spaces: " + names(pack, sorted(targets)),
                   rule="R-7.2")
            continue
        count_placement(pack, s, seat, x, placed)
    return wanted


def place_as_reinforcements(ctx: Ctx, seat: str, units: list[str], wanted: list[str],
                            why: str, from_dispersed: bool = False) -> None:
    """Place ``units`` (CU types, one each) as reinforcements (R-7.2), the i-th at
    ``wanted[i]`` while it is legal, else at the default space [D]
    (:func:`pbem.rules.core.placement.default_target`); the placement limit counts the
    CUs of this event. New CUs with no legal space go to the dispersed box; CUs from the
    box stay there (``CUsPlaced``, ``MinorGeneralPlaced``, ``DispersedAdded``)."""
    placed: dict[str, int] = {}
    for i, t in enumerate(units):
        targets = placement_targets(ctx.pack, ctx.s, seat, placed)
        want = wanted[i] if i < len(wanted) else None
        space = want if want in targets else default_target(ctx.pack, ctx.s, seat, targets)
        place_cus(ctx, seat, space, {t: 1}, RULE, why, from_dispersed=from_dispersed)
        if space is not None:
            count_placement(ctx.pack, ctx.s, seat, space, placed)


# --- gain_cus and treasure_looted ------------------------------------------------------

def _gain_check(pack: Pack, s: State, seat: str, part: dict[str, Any], card: Card,
                eff: Effect, where: str, rej: list[Problem], plan: dict[str, Any],
                soft: bool) -> None:
    """R-16 ``gain_cus``: ``army`` (``general_in``: one of :func:`recruit_spaces`) or
    ``place`` (``reinforcement``: :func:`check_places`)."""
    if eff.params.get("where") != "general_in":
        plan["place"] = check_places(pack, s, seat, part, int(eff.params["count"]), where,
                                     rej, soft)
        return
    if soft:
        plan["army"] = army_of(pack, s, part["army"], {seat}) if "army" in part else None
        return
    plan["army"] = pick_army(pack, s, part, "army", recruit_spaces(pack, s, seat, eff),
                             {seat}, where, rej,
                             f"general of yours in {_where_text(pack, eff)}")


def _recruit(ctx: Ctx, seat: str, card: Card, eff: Effect, space: str | None,
             legal: list[str]) -> None:
    """``count`` CUs of ``type`` join ``seat`` in ``space`` (the first of ``legal`` when
    it no longer qualifies); with none left a ``Note`` says so."""
    space = space if space in legal else (legal[0] if legal else None)
    cus = {str(eff.params["type"]): int(eff.params["count"])}
    if space is None:
        ctx.emit("Note", {"seat": seat, "rule": RULE,
                          "text": f"{card.name}: no general of {seat} is left where the "
                                  "CUs could join him; none are gained"})
        return
    ctx.emit("CUsPlaced", {"seat": seat, "space": space, "cus": cus, "rule": RULE,
                           "why": card.name, "from_dispersed": False})


def _gain(ctx: Ctx, seat: str, card: Card, eff: Effect, plan: dict[str, Any]) -> bool:
    """R-16: carry ``gain_cus`` out (``CUsPlaced``)."""
    if eff.params.get("where") == "general_in":
        _recruit(ctx, seat, card, eff, plan.get("army"),
                 recruit_spaces(ctx.pack, ctx.s, seat, eff))
    else:
        units = [str(eff.params["type"])] * int(eff.params["count"])
        place_as_reinforcements(ctx, seat, units, list(plan.get("place") or []), card.name)
    return True


def _gain_choices(pack: Pack, s: State, seat: str, card: Card, eff: Effect
                  ) -> list[str] | None:
    if eff.params.get("where") != "general_in":
        return None  # placed as reinforcements: the mercenary_spaces of the prompt
    return recruit_spaces(pack, s, seat, eff)


def _loot_check(pack: Pack, s: State, seat: str, part: dict[str, Any], card: Card,
                eff: Effect, where: str, rej: list[Problem], plan: dict[str, Any],
                soft: bool) -> None:
    """R-16 ``treasure_looted``: ``army``, one of :func:`treasure_spaces`."""
    if soft:
        plan["army"] = army_of(pack, s, part["army"], {seat}) if "army" in part else None
        return
    cities = names(pack, sorted(eff.params.get("cities", [])))
    plan["army"] = pick_army(pack, s, part, "army", treasure_spaces(pack, s, seat, eff),
                             {seat}, where, rej,
                             f"army of yours in a treasure city you control ({cities})")


def _loot(ctx: Ctx, seat: str, card: Card, eff: Effect, plan: dict[str, Any]) -> bool:
    """R-16 [D]: the army in the treasure city gains ``count`` CUs of ``type``."""
    _recruit(ctx, seat, card, eff, plan.get("army"),
             treasure_spaces(ctx.pack, ctx.s, seat, eff))
    return True


# --- lose_cus ----------------------------------------------------------------------------

def _lose_check(pack: Pack, s: State, seat: str, part: dict[str, Any], card: Card,
                eff: Effect, where: str, rej: list[Problem], plan: dict[str, Any],
                soft: bool) -> None:
    """R-16 ``lose_cus``: ``target``, one of :func:`target_spaces` (named by the general
    of another player or by the space)."""
    others = set(SEATS) - {seat}
    if soft:
        plan["target"] = army_of(pack, s, part["target"], others) if "target" in part \
            else None
        return
    plan["target"] = pick_army(pack, s, part, "target", target_spaces(pack, s, seat, eff),
                               others, where, rej,
                               f"army of another player in {_where_text(pack, eff)}")


def _lose(ctx: Ctx, seat: str, card: Card, eff: Effect, plan: dict[str, Any]) -> bool:
    """R-16 [D]: the target army loses ``count`` CUs, in its owner's loss order
    (standing order ``losses``, else weakest first); not an attack (R-11.4 lists what
    is). Its owner's markings are tidied (R-4.2) and a siege it leaves is lifted (R-10).
    A target gone since the check: the first army left that qualifies, else a Note."""
    s = ctx.s
    legal = target_spaces(ctx.pack, s, seat, eff)
    space = plan.get("target")
    space = space if space in legal else (legal[0] if legal else None)
    owner = next((o for o in SEATS if o != seat and space in army_spaces(s, o)), None)
    if space is None or owner is None:
        ctx.emit("Note", {"seat": seat, "rule": RULE,
                          "text": f"{card.name}: no army of another player is left in "
                                  f"{_where_text(ctx.pack, eff)}; nobody loses CUs"})
        return True
    lose_cus(ctx, owner, space, int(eff.params["count"]), RULE, card.name)
    tidy_markings(ctx, owner)
    lift_abandoned(ctx)
    return True


def _lose_choices(pack: Pack, s: State, seat: str, card: Card, eff: Effect) -> list[str]:
    return target_spaces(pack, s, seat, eff)


# --- return_dispersed ------------------------------------------------------------------

def returning_units(pack: Pack, s: State, seat: str, count: int) -> list[str]:
    """The CU types (one entry per CU) that come back from ``seat``'s dispersed box: at
    most ``count``, the strongest first [D] (the reverse of the loss order)."""
    box = s["dispersed"].get(seat, {})
    out: list[str] = []
    for t in sorted(box, key=lambda t: loss_key(pack, t), reverse=True):
        out += [t] * min(box[t], count - len(out))
    return out


def _return_check(pack: Pack, s: State, seat: str, part: dict[str, Any], card: Card,
                  eff: Effect, where: str, rej: list[Problem], plan: dict[str, Any],
                  soft: bool) -> None:
    plan["place"] = check_places(pack, s, seat, part, int(eff.params["count"]), where,
                                 rej, soft)


def _return(ctx: Ctx, seat: str, card: Card, eff: Effect, plan: dict[str, Any]) -> bool:
    """R-16 [D]: up to ``count`` CUs of the dispersed box, strongest first, are placed
    as reinforcements (R-7.2); with an empty box a ``Note`` says so."""
    units = returning_units(ctx.pack, ctx.s, seat, int(eff.params["count"]))
    if not units:
        ctx.emit("Note", {"seat": seat, "rule": RULE,
                          "text": f"{card.name}: {seat}'s dispersed box is empty"})
        return True
    place_as_reinforcements(ctx, seat, units, list(plan.get("place") or []), card.name,
                            from_dispersed=True)
    return True


PRIMITIVES: tuple[Primitive, ...] = (
    Primitive("gain_cus", RULE, _gain, _gain_check, _gain_choices, "recruit_armies",
              keys=("place",)),
    Primitive("treasure_looted", RULE, _loot, _loot_check,
              lambda p, s, seat, c, e: treasure_spaces(p, s, seat, e), "recruit_armies"),
    Primitive("lose_cus", RULE, _lose, _lose_check, _lose_choices, "target_armies",
              keys=("target",)),
    Primitive("return_dispersed", RULE, _return, _return_check, keys=("place",)),
)
"""The CU primitives the engine resolves (``recruit_armies``: the armies that may take
the CUs of ``gain_cus`` with ``general_in`` and ``treasure_looted``; ``target_armies``:
the armies ``lose_cus`` may strike)."""
