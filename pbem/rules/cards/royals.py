"""Card events of the royal family (R-12, R-16.3): ``kill_royal`` (#18 Drink the Hemlock),
``move_royal`` (#19 Eurydike Speaks for Philippos),
``activate_royal`` (#21 Olympias) and ``marriage_offer`` (#31, #32).

The fields they read in the ``tyche:`` orders: ``royal`` (Drink the Hemlock) and
``army`` (where Philip III enters with the player's army). Each primitive lists its
choices for the prompt; a card whose choices are empty cannot be played for its event
now. Checked plans go to ``plan["royal_event"][primitive]``.
"""
from __future__ import annotations

from typing import Any

from pbem.pack.model import Card, Effect, Pack
from pbem.problems import Problem
from pbem.rules.cards.base import Primitive
from pbem.rules.context import Ctx
from pbem.rules.core.armies import resolve_army
from pbem.rules.core.board import _resolve_royal, name_hint
from pbem.rules.core.control import royal_controller
from pbem.rules.core.pieces import army_spaces, has_general
from pbem.rules.core.problems import reject
from pbem.rules.core.royals import court, in_play
from pbem.rules.core.state import State
from pbem.rules.resolve.royals import activate, enter, kill

ROYAL_FIELDS = {"hemlock_royals": "royal", "royal_entry_armies": "army"}
"""Options key → the ``tyche:`` field its choices fill (for the bots and the prompt)."""


def event_plan(plan: dict[str, Any]) -> dict[str, Any]:
    """The part of a Tyche plan the royal and legitimacy events fill."""
    return plan.setdefault("royal_event", {})


def no_effect(ctx: Ctx, seat: str, card: Card, rule: str, why: str) -> bool:
    """Record that ``card``'s event has no effect now (a ``Note`` saying ``why``: what
    the dice or earlier segments changed since the orders were checked). Returns True:
    the effect was resolved."""
    ctx.emit("Note", {"seat": seat, "rule": rule,
                      "text": f"{card.name}: {why}; the event has no effect"})
    return True


def names(pack: Pack, ids: list[str], table: str = "royals") -> str:
    """Printed names of pack entries, for hints."""
    got = getattr(pack, table)
    return ", ".join(got[x].name if x in got else x for x in ids) or "none"


# --- kill_royal: Drink the Hemlock (R-12.6) ----------------------------------------

def killable(pack: Pack, s: State, eff: Effect) -> list[str]:
    """Members ``kill_royal`` may kill (R-12.6): on the map, not removed, never the body
    or the tomb; only the effect's ``royal`` unless it is ``any``."""
    want = eff.params.get("royal", "any")
    return sorted(r for r, rm in pack.royals.items() if rm.kind != "body"
                  and in_play(s, r) and want in ("any", r))


def _check_kill(pack: Pack, s: State, seat: str, part: dict[str, Any], card: Card,
                eff: Effect, where: str, rej: list[Problem], plan: dict[str, Any],
                soft: bool) -> None:
    legal = killable(pack, s, eff)
    hint = "members who may die: " + names(pack, legal)
    if "royal" not in part:
        if len(legal) == 1 or (soft and legal):
            event_plan(plan)["kill_royal"] = legal[0]
        elif legal:
            reject(rej, "royals.royal_missing", "name the member of the royal family who "
                   "dies", f"{where}.royal", hint)
        else:
            reject(rej, "royals.no_target", "no member of the royal family can die now",
                   f"{where}.use", "use the card's OPs or discard it")
        return
    rid = _resolve_royal(pack, part["royal"])
    if rid is None:
        reject(rej, "royals.unknown_royal", f"there is no member {part['royal']!r}",
               f"{where}.royal", name_hint(part["royal"], {r: pack.royals[r] for r in legal},
                                           otherwise=hint, pack=pack))
    elif rid not in legal and not soft:
        why = "Alexander is already dead" if pack.royals[rid].kind == "body" else \
            "the member is not on the map"
        reject(rej, "royals.royal_not_allowed", f"{pack.royals[rid].name} cannot die now: "
               f"{why}", f"{where}.royal", hint)
    else:
        event_plan(plan)["kill_royal"] = rid


def _kill(ctx: Ctx, seat: str, card: Card, eff: Effect, plan: dict[str, Any]) -> bool:
    rid = event_plan(plan).get("kill_royal")
    if rid not in killable(ctx.pack, ctx.s, eff):
        return no_effect(ctx, seat, card, "R-12.6", "nobody the card could kill is left")
    kill(ctx, seat, card.number, rid)
    return True


# --- move_royal: a member comes from his holding box (R-12.5, R-2) -----------------

def _in_box(s: State, royal: str) -> bool:
    r = s["royals"].get(royal) or {}
    return not r.get("space") and not r.get("gone")


def entry_spaces(pack: Pack, s: State, seat: str, eff: Effect) -> list[str]:
    """Where ``move_royal`` may put its member: one of ``seat``'s armies when
    ``with_army`` (the space ``to`` when it has none), else ``to``."""
    if eff.params.get("with_army"):
        return army_spaces(s, seat) or [str(eff.params["to"])]
    return [str(eff.params["to"])]


def _choices_move(pack: Pack, s: State, seat: str, card: Card, eff: Effect
                  ) -> list[str] | None:
    """The spaces the member may enter; when he has left his box: nothing to choose
    (None) if the card has other effects, else no choice at all (the event cannot be
    played)."""
    if eff.params.get("only_from_box") and not _in_box(s, str(eff.params["royal"])):
        return None if len(card.effects) > 1 else []
    return entry_spaces(pack, s, seat, eff)


def _check_move(pack: Pack, s: State, seat: str, part: dict[str, Any], card: Card,
                eff: Effect, where: str, rej: list[Problem], plan: dict[str, Any],
                soft: bool) -> None:
    choices = _choices_move(pack, s, seat, card, eff)
    if choices is None:
        return
    name = pack.royals[str(eff.params["royal"])].name
    if not choices:
        if not soft:
            reject(rej, "royals.no_target", f"{name} has already left his holding box",
                   f"{where}.use", "use the card's OPs or discard it")
        return
    armies = eff.params.get("with_army") and army_spaces(s, seat)
    if not armies or ("army" not in part and len(choices) == 1):
        event_plan(plan)["move_royal"] = choices[0]
        return
    if "army" not in part:
        reject(rej, "royals.army_missing", f"name the army {name} joins", f"{where}.army",
               "your armies: " + names(pack, choices, "spaces"))
        return
    space, msg = resolve_army(pack, s, seat, part["army"])
    if space not in choices:
        if soft:
            space = choices[0]
        else:
            reject(rej, "royals.army_not_allowed", msg or f"{name} may join only one of "
                   "your armies (a general with CUs)", f"{where}.army",
                   "your armies: " + names(pack, choices, "spaces"))
            return
    event_plan(plan)["move_royal"] = space


def _move(ctx: Ctx, seat: str, card: Card, eff: Effect, plan: dict[str, Any]) -> bool:
    royal = str(eff.params["royal"])
    if eff.params.get("only_from_box") and not _in_box(ctx.s, royal):
        return no_effect(ctx, seat, card, "R-12.5",
                         f"{ctx.pack.royals[royal].name} has already left his holding box")
    legal = entry_spaces(ctx.pack, ctx.s, seat, eff)
    to = event_plan(plan).get("move_royal")
    to = to if to in legal else legal[0]
    enter(ctx, seat, card.number, royal, to,
          bool(eff.params.get("with_army")) and to in army_spaces(ctx.s, seat))
    return True


# --- activate_royal: the Olympias card (R-12.2) --------------------------------------

def why_no_activation(pack: Pack, s: State, seat: str, eff: Effect) -> str | None:
    """None when ``seat`` may activate the effect's woman now (R-12.2): she is in play,
    inactive and controlled by nobody, and ``seat`` has a general or a garrison in her
    space (``requires: friendly_general_or_marker``)."""
    royal = str(eff.params["royal"])
    name = pack.royals[royal].name
    r = s["royals"].get(royal) or {}
    if not in_play(s, royal):
        return f"{name} is not in play"
    if r.get("active") or royal_controller(pack, s, royal):
        return f"{name} is already active"
    x = r["space"]
    if not (has_general(s, seat, x) or s["garrisons"].get(x) == seat):
        return f"you have no general or garrison in {pack.spaces[x].name}, where {name} is"
    return None


def _check_activate(pack: Pack, s: State, seat: str, part: dict[str, Any], card: Card,
                    eff: Effect, where: str, rej: list[Problem], plan: dict[str, Any],
                    soft: bool) -> None:
    why = why_no_activation(pack, s, seat, eff)
    if why and not soft:
        reject(rej, "royals.cannot_activate", why, f"{where}.use",
               "bring a general or a garrison into her space first, or use the card's OPs")


def _activate(ctx: Ctx, seat: str, card: Card, eff: Effect, plan: dict[str, Any]) -> bool:
    why = why_no_activation(ctx.pack, ctx.s, seat, eff)
    if why:
        return no_effect(ctx, seat, card, "R-12.2", why)
    activate(ctx, seat, card.number, str(eff.params["royal"]))
    return True


def _choices_activate(pack: Pack, s: State, seat: str, card: Card, eff: Effect
                      ) -> list[str]:
    return [] if why_no_activation(pack, s, seat, eff) else [str(eff.params["royal"])]


# --- marriage_offer: #31 Cleopatra, #32 Thessalonike (R-12.2) ------------------------

def _choices_offer(pack: Pack, s: State, seat: str, card: Card, eff: Effect) -> list[str]:
    royal = str(eff.params["royal"])
    offered = royal in (court(s).get("offers") or {})
    return [royal] if in_play(s, royal) and not offered else []


def _check_offer(pack: Pack, s: State, seat: str, part: dict[str, Any], card: Card,
                 eff: Effect, where: str, rej: list[Problem], plan: dict[str, Any],
                 soft: bool) -> None:
    if not _choices_offer(pack, s, seat, card, eff) and not soft:
        name = pack.royals[str(eff.params["royal"])].name
        reject(rej, "royals.no_target", f"{name} is not in play to offer marriage",
               f"{where}.use", "use the card's OPs or discard it")


def _offer(ctx: Ctx, seat: str, card: Card, eff: Effect, plan: dict[str, Any]) -> bool:
    """R-12.2: the offer stands until the end of the turn; the card lies before the
    player meanwhile; the marriage takes place as soon as its conditions hold
    (:func:`pbem.rules.core.royals.royal_settlement`)."""
    royal = str(eff.params["royal"])
    if not _choices_offer(ctx.pack, ctx.s, seat, card, eff):
        return no_effect(ctx, seat, card, "R-12.2",
                         f"{ctx.pack.royals[royal].name} is not in play")
    ctx.emit("MarriageOffered", {"royal": royal, "seat": seat, "card": card.number,
                                 "rule": "R-12.2"})
    return True


PRIMITIVES: tuple[Primitive, ...] = (
    Primitive("kill_royal", "R-12.6", _kill, _check_kill,
              lambda pack, s, seat, card, eff: killable(pack, s, eff), "hemlock_royals",
              keys=("royal",)),
    Primitive("move_royal", "R-12.5", _move, _check_move, _choices_move,
              "royal_entry_armies", keys=("army",)),
    Primitive("activate_royal", "R-12.2", _activate, _check_activate, _choices_activate,
              "activate_royals"),
    Primitive("marriage_offer", "R-12.2", _offer, _check_offer, _choices_offer,
              "marriage_offers"),
)
"""The royal family primitives the engine resolves."""
