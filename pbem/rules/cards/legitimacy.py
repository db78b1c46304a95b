"""Card events of legitimacy (R-11, R-16.1): ``adjust_lp`` (#17 Suspicion, #19 Eurydike
Speaks for Philippos, #20 Philip Arrhidaeus, #36 Funeral Games), ``mutiny`` (#16 Mutiny)
and ``condemnation`` (#13, #14 Condemnation).

Fields they read in the ``tyche:`` orders: ``player`` (the seat Suspicion strikes),
``target`` (the enemy army of a Mutiny: its general or its space) and ``general``
(the major general Condemnation falls on; ``none`` returns the marker to its box).
"""
from __future__ import annotations

from typing import Any

from pbem.pack.model import Card, Effect, Pack
from pbem.problems import Problem
from pbem.rules.cards.base import Primitive
from pbem.rules.cards.royals import event_plan, names, no_effect
from pbem.rules.context import Ctx
from pbem.rules.core.board import name_hint, resolve_general, resolve_space
from pbem.rules.core.control import legitimacy_points, royal_controller
from pbem.rules.core.pieces import cus_at, has_general
from pbem.rules.core.problems import reject
from pbem.rules.core.royals import court
from pbem.rules.core.state import SEATS, State
from pbem.rules.resolve.royals import mutiny, mutiny_strikes, mutiny_types

LEGITIMACY_FIELDS = {"lp_targets": "player", "mutiny_armies": "target",
                     "condemnation_generals": "general"}
"""Options key → the ``tyche:`` field its choices fill (for the bots and the prompt)."""

# --- adjust_lp: LP from a card (R-11.1) -----------------------------------------------

def lp_target(eff: Effect) -> str:
    """Whose LP ``adjust_lp`` changes: ``self`` (the player, the default), ``player`` (a
    seat the player names) or ``controller_of`` (whoever controls the effect's
    ``royal`` when the event is resolved)."""
    return str(eff.params.get("target", "self"))


def default_victim(pack: Pack, s: State, seat: str) -> str:
    """[D] The seat an ``adjust_lp`` of ``target: player`` strikes when the orders name
    none (a deadline default): the other seat with most LP, the first in turn order on
    ties."""
    lp = legitimacy_points(pack, s)
    order = [x for x in (s["turn_order"] or list(SEATS)) if x != seat]
    return max(order, key=lambda x: (lp[x], -order.index(x)))


def _choices_lp(pack: Pack, s: State, seat: str, card: Card, eff: Effect
                ) -> list[str] | None:
    return [x for x in SEATS if x != seat] if lp_target(eff) == "player" else None


def _check_lp(pack: Pack, s: State, seat: str, part: dict[str, Any], card: Card,
              eff: Effect, where: str, rej: list[Problem], plan: dict[str, Any],
              soft: bool) -> None:
    if lp_target(eff) != "player":
        return
    if "player" not in part:
        event_plan(plan)["adjust_lp"] = default_victim(pack, s, seat)
        return
    who = part["player"].strip().lower() if isinstance(part["player"], str) else None
    if who not in SEATS or who == seat:
        others = tuple(x for x in SEATS if x != seat)
        reject(rej, "royals.player_not_allowed", f"{part['player']!r} is not another seat",
               f"{where}.player", name_hint(part["player"], words=others,
                                            otherwise="seats: " + ", ".join(others)))
        return
    event_plan(plan)["adjust_lp"] = who


def _adjust_lp(ctx: Ctx, seat: str, card: Card, eff: Effect, plan: dict[str, Any]) -> bool:
    """R-11.1: ``amount`` LP (effect parameter) to the target seat, for this turn
    (``duration: turn``, the default) or the game (``duration: game``); never below 0
    in all (:func:`pbem.rules.core.control.legitimacy_points`)."""
    target = lp_target(eff)
    royal = eff.params.get("royal")
    if target == "player":
        who = event_plan(plan).get("adjust_lp") or default_victim(ctx.pack, ctx.s, seat)
    elif target == "controller_of":
        who = royal_controller(ctx.pack, ctx.s, str(royal))
    else:
        who = seat
    if who is None:
        return no_effect(ctx, seat, card, "R-11.1",
                         f"nobody controls {ctx.pack.royals[str(royal)].name}")
    turn = None if eff.params.get("duration") == "game" else ctx.s["turn"]
    ctx.emit("LegitimacyAdjusted", {"seat": who, "amount": int(eff.params["amount"]),
                                    "card": card.number, "turn": turn, "played_by": seat,
                                    "rule": "R-11.1", **({"royal": royal} if royal else {})})
    return True


# --- mutiny (R-11.2 [D]) ---------------------------------------------------------------

def mutiny_targets(pack: Pack, s: State, seat: str, eff: Effect) -> list[tuple[str, str]]:
    """``[(space, seat)]`` of the enemy armies a Mutiny played by ``seat`` would strike
    (R-11.2, :func:`pbem.rules.resolve.royals.mutiny_strikes`): a general with CUs of
    the effect's types, whose faction LP plus his commander's prestige there is below
    ``seat``'s LP."""
    types = mutiny_types(eff)
    lps = legitimacy_points(pack, s)
    return [(x, other) for x, by in sorted(s["cus"].items()) for other in sorted(by)
            if mutiny_strikes(pack, s, seat, other, x, types, lps)]


def _choices_mutiny(pack: Pack, s: State, seat: str, card: Card, eff: Effect) -> list[str]:
    return [x for x, _o in mutiny_targets(pack, s, seat, eff)]


def mutiny_target(pack: Pack, s: State, seat: str, text: Any,
                  legal: list[tuple[str, str]]) -> tuple[str, str] | None:
    """The army a Mutiny names (``(space, seat)``, or None): a general of another seat
    (his army), or a space (the first army there a Mutiny would strike, else the first
    enemy army there); ``legal``: :func:`mutiny_targets` (R-11.2)."""
    gid = resolve_general(pack, text)
    if gid:
        g = s["generals"].get(gid) or {}
        if g.get("where") == "map" and g.get("seat") not in (None, seat):
            return g["space"], g["seat"]
        return None
    x = resolve_space(pack, text)[0]
    if x is None:
        return None
    here = [a for a in legal if a[0] == x] + [
        (x, o) for o in sorted(s["cus"].get(x, {})) if o != seat and has_general(s, o, x)]
    return here[0] if here else None


def _check_mutiny(pack: Pack, s: State, seat: str, part: dict[str, Any], card: Card,
                  eff: Effect, where: str, rej: list[Problem], plan: dict[str, Any],
                  soft: bool) -> None:
    legal = mutiny_targets(pack, s, seat, eff)
    hint = "armies a mutiny would strike: " + names(pack, [x for x, _o in legal], "spaces")
    if "target" not in part and (len(legal) == 1 or (soft and legal)):
        event_plan(plan)["mutiny"] = list(legal[0])
        return
    if "target" not in part:
        reject(rej, "royals.army_missing" if legal else "royals.no_target",
               "name the enemy army (its general or its space) that mutinies" if legal else
               "no enemy army has less legitimacy than you now", f"{where}.target", hint)
        return
    got = mutiny_target(pack, s, seat, part["target"], legal)
    if got in legal or (soft and got):
        event_plan(plan)["mutiny"] = list(got)
        return
    near = name_hint(part["target"], pack.generals, pack.spaces, pack=pack) if got is None and \
        resolve_general(pack, part["target"]) is None and \
        resolve_space(pack, part["target"])[0] is None else None
    reject(rej, "royals.army_not_allowed", f"{part['target']!r} names no enemy army with "
           "less legitimacy than yours (faction LP + its commander's prestige)",
           f"{where}.target", f"{near} {hint}" if near else hint)


def _mutiny(ctx: Ctx, seat: str, card: Card, eff: Effect, plan: dict[str, Any]) -> bool:
    got = event_plan(plan).get("mutiny")
    if not got or not cus_at(ctx.s, got[1], got[0]) or not has_general(ctx.s, got[1], got[0]):
        return no_effect(ctx, seat, card, "R-11.2", "the army named is no longer there")
    mutiny(ctx, seat, card.number, got[1], got[0], mutiny_types(eff))
    return True


# --- condemnation (R-16.1 [D]) -------------------------------------------------------------

def condemned(s: State) -> str | None:
    """The major general under the Condemnation marker, while he is in play (R-16.1)."""
    cond = court(s).get("condemned")
    g = s["generals"].get(cond["general"]) if cond else None
    return cond["general"] if g and g["where"] in ("map", "dispersed") and g["seat"] \
        else None


def condemnable(pack: Pack, s: State, seat: str) -> list[str]:
    """Major generals of the other seats in play (map or dispersed box) that are not
    already condemned (R-16.1)."""
    now = condemned(s)
    return sorted(g for g, v in s["generals"].items() if g in pack.generals and v["seat"]
                  and v["seat"] != seat and v["where"] in ("map", "dispersed") and g != now)


def _choices_condemn(pack: Pack, s: State, seat: str, card: Card, eff: Effect
                     ) -> list[str]:
    return condemnable(pack, s, seat) + (["none"] if condemned(s) else [])


def _check_condemn(pack: Pack, s: State, seat: str, part: dict[str, Any], card: Card,
                   eff: Effect, where: str, rej: list[Problem], plan: dict[str, Any],
                   soft: bool) -> None:
    legal = condemnable(pack, s, seat)
    hint = "generals: " + names(pack, legal, "generals") + (
        "; or general: none to return the marker to its box" if condemned(s) else "")
    raw = part.get("general")
    if raw is None or (isinstance(raw, str) and raw.strip().lower() == "none"):
        if condemned(s) or (soft and not legal):
            event_plan(plan)["condemnation"] = None
        elif len(legal) == 1 or (soft and legal):
            event_plan(plan)["condemnation"] = legal[0]
        else:
            reject(rej, "royals.general_missing" if legal else "royals.no_target",
                   "name the major general Condemnation falls on" if legal else
                   "no major general of another seat can be condemned now",
                   f"{where}.general", hint)
        return
    gid = resolve_general(pack, raw)
    if gid in legal or (soft and gid):
        event_plan(plan)["condemnation"] = gid
        return
    near = name_hint(raw, {g: pack.generals[g] for g in legal}, pack=pack) if gid is None else None
    reject(rej, "royals.general_not_allowed", f"{raw!r} names no major general of another "
           "seat in play that is not already condemned", f"{where}.general",
           f"{near} {hint}" if near else hint)


def _condemn(ctx: Ctx, seat: str, card: Card, eff: Effect, plan: dict[str, Any]) -> bool:
    """R-16.1 [D]: the marker goes on the named major general (his faction loses ``lp``
    LP while he is condemned and in play), taken from the one it was on (2nd edition);
    with no general named it returns to its box."""
    pack, s = ctx.pack, ctx.s
    gid = event_plan(plan).get("condemnation")
    now = condemned(s)
    if gid is None or gid not in condemnable(pack, s, seat):
        if now:
            ctx.emit("CondemnationLifted", {"general": now, "seat": seat,
                                            "card": card.number, "rule": "R-16.1"})
        return True
    ctx.emit("CondemnationPlaced", {"general": gid, "seat": seat, "card": card.number,
                                    "lp": int(eff.params["lp"]),
                                    "owner": s["generals"][gid]["seat"], "rule": "R-16.1",
                                    **({"previous": now} if now else {})})
    return True


PRIMITIVES: tuple[Primitive, ...] = (
    Primitive("adjust_lp", "R-11.1", _adjust_lp, _check_lp, _choices_lp, "lp_targets",
              keys=("player",)),
    Primitive("mutiny", "R-11.2", _mutiny, _check_mutiny, _choices_mutiny, "mutiny_armies",
              keys=("target",)),
    Primitive("condemnation", "R-16.1", _condemn, _check_condemn, _choices_condemn,
              "condemnation_generals", keys=("general",)),
)
"""The legitimacy primitives the engine resolves."""
