"""The surrender segment (R-8.1): ``surrender: {accept: [..], remove: [..], decline: [..],
assault: [..], surprise: {Space: card | [card]}}`` (R-8.5: surprise cards for a siege the
player conducts there: Treachery's siege points after the free assault rolls, a prestige
card for the comparisons their siege points bring).

Like every order kind (:mod:`pbem.rules.orders`): :func:`read`, :func:`options`,
:func:`check`, :func:`execute`.
"""
from __future__ import annotations

from typing import Any

from pbem.pack.model import Pack
from pbem.problems import Problem
from pbem.rules.context import Ctx
from pbem.rules.core.board import resolve_space
from pbem.rules.core.pieces import cus_of
from pbem.rules.core.problems import did_you_mean, reject
from pbem.rules.core.state import State
from pbem.rules.resolve.siege import (
    conducts_siege,
    surprise_siege_points,
    surrender_assaults,
    why_no_assault,
)
from pbem.rules.resolve.surprises import read_cards

SURRENDER_KEYS = ("accept", "remove", "decline", "assault", "surprise")


def options(pack: Pack, s: State, seat: str) -> dict[str, list[str]]:
    """R-8.1: ``{"accept": [space], "remove": [space]}``. Accept: a minor city without an
    independent marker where ``seat`` has CUs and no garrison of its own (an enemy
    garrison is replaced); or [L] a vacant major city or conquered stronghold where it has
    CUs. Remove: a minor city with an enemy garrison where it has CUs (leave it vacant).
    A conquered stronghold (no independent marker left) is a minor city (R-3.3): it
    surrenders like one, also when another player holds it."""
    acc, rem = [], []
    for x in sorted(s["cus"]):
        if cus_of(s, seat, x) == 0 or x in s["independent"]:
            continue
        kind = pack.spaces[x].kind
        owner = s["garrisons"].get(x)
        if owner == seat:
            continue
        if kind in ("minor_city", "stronghold"):  # a conquered stronghold is a
            acc.append(x)                          # minor city (no independent marker)
            if owner:
                rem.append(x)
        elif kind == "major_city" and owner is None:
            acc.append(x)
    return {"accept": acc, "remove": rem}


def read(pack: Pack, s: State, seat: str, part: Any, where: str,
         rej: list[Problem]) -> dict[str, Any] | None:
    """The order's shape: a mapping of the fields accept, remove, decline and assault
    (nothing: ``{}``); unknown fields are refused, the known ones kept (R-8.1)."""
    if part is None:
        return {}
    if not isinstance(part, dict):
        reject(rej, "surrender.not_a_mapping", "surrender must be a mapping with "
               "accept/remove/decline lists", where, "surrender: {accept: [Tarsus]}")
        return None
    for k in part:
        if k not in SURRENDER_KEYS:
            reject(rej, "orders.unknown_key", f"surrender has no field {k!r}", f"{where}.{k}",
                   did_you_mean(k, SURRENDER_KEYS), rule="R-8.1", params={"field": k})
    return {k: v for k, v in part.items() if k in SURRENDER_KEYS}


def check(pack: Pack, s: State, seat: str, part: dict[str, Any], where: str,
          rej: list[Problem], soft: bool = False) -> dict[str, list[str]] | None:
    """Each space named, listed once, and may surrender to ``seat`` (accept, remove);
    free assault rolls where its army besieges (:func:`check_surrender_assault`, which
    ``soft`` makes lenient), R-8.1. Returns ``{"accept", "remove", "decline":
    [space], "assault"?: [space]}`` or None after a problem."""
    n0 = len(rej)
    opts = options(pack, s, seat)
    plan: dict[str, list[str]] = {"accept": [], "remove": [], "decline": []}
    seen: set[str] = set()
    for k, v in part.items():
        if k == "assault":  # free rolls (pbem.rules.siege)
            plan["assault"] = check_surrender_assault(pack, s, seat, v, f"{where}.assault",
                                                      rej, soft)
            continue
        if k == "surprise":  # R-8.5 (pbem.rules.resolve.surprises)
            plan["surprise"] = check_surrender_surprises(pack, s, seat, v,
                                                         f"{where}.surprise", rej, soft)
            continue
        items = v if isinstance(v, list) else [v]
        for i, item in enumerate(items):
            w = f"{where}.{k}[{i}]"
            sid, hint = resolve_space(pack, item)
            if sid is None:
                reject(rej, "orders.unknown_space", f"there is no space {item!r}",
                     w, hint, params={"name": item})
                continue
            name = pack.spaces[sid].name
            if sid in seen:
                reject(rej, "surrender.duplicate", f"{name} is listed twice", w)
                continue
            seen.add(sid)
            if k in ("accept", "remove") and sid not in opts[k]:
                reject(rej, f"surrender.cannot_{k}", _why_not_surrender(pack, s, seat, sid, k), w,
                     ("you may accept: " + ", ".join(pack.spaces[x].name for x in opts[k]))
                     if opts[k] else None, rule="R-8.1")
                continue
            plan[k].append(sid)
    return plan if len(rej) == n0 else None


def _why_not_surrender(pack: Pack, s: State, seat: str, sid: str, k: str) -> str:
    sp = pack.spaces[sid]
    if cus_of(s, seat, sid) == 0:
        return f"you have no CUs in {sp.name}"
    if sid in s["independent"]:
        return f"{sp.name} holds an independent marker: it never surrenders"
    if s["garrisons"].get(sid) == seat:
        return f"{sp.name} already holds your garrison"
    if k == "remove":
        return f"{sp.name} holds no enemy garrison to remove"
    return f"{sp.name} is a {sp.kind.replace('_', ' ')} held by another player; " \
           "only minor cities and conquered strongholds surrender"


def execute(ctx: Ctx, seat: str, plan: dict[str, list[str]]) -> None:
    """Carry out R-8.1: GarrisonRemoved (enemy) / GarrisonPlaced, SurrenderDeclined."""
    for x in plan["remove"] + plan["accept"]:
        owner = ctx.s["garrisons"].get(x)
        if owner and owner != seat:
            ctx.emit("GarrisonRemoved", {"seat": owner, "space": x, "by": seat,
                                         "rule": "R-8.1"})
        if x in plan["accept"]:
            ctx.emit("GarrisonPlaced", {"seat": seat, "space": x, "rule": "R-8.1"})
    if plan.get("assault"):
        surrender_assaults(ctx, seat, plan["assault"], plan.get("surprise"))
    for x, cards in (plan.get("surprise") or {}).items():  # Treachery
        surprise_siege_points(ctx, seat, x, cards, "surrender")
    if plan["decline"]:
        ctx.emit("SurrenderDeclined", {"seat": seat, "spaces": plan["decline"],
                                       "rule": "R-8.1"})


def check_surrender_assault(pack: Pack, s: State, seat: str, raw: Any, where: str,
                            rej: list[Problem], soft: bool = False) -> list[str]:
    """Validate ``surrender: {assault: [Space]}`` (R-8.1 free rolls, R-10); ``soft``
    (carried out after dice changed the board): listed spaces are kept and re-checked
    when rolled (``AssaultCancelled``)."""

    out: list[str] = []
    for i, x in enumerate(raw if isinstance(raw, list) else [raw]):
        sid, hint = resolve_space(pack, x)
        if sid is None:
            reject(rej, "orders.unknown_space", f"there is no space {x!r}",
                 f"{where}[{i}]", hint, params={"name": x})
            continue
        if soft:  # re-checked when rolled (AssaultCancelled)
            out.append(sid)
            continue
        try:
            why = why_no_assault(pack, s, seat, sid, "surrender",
                                 {y: (1, None) for y in out}, None)
        except KeyError as e:  # MissingConstant: the pack has no siege numbers
            reject(rej, "rules.pack_incomplete", f"the data pack lacks {e}",
                 f"{where}[{i}]", rule="R-10")
            continue
        if why:
            reject(rej, "siege.illegal", why, f"{where}[{i}]",
                 "leave this space out of surrender.assault; a free roll needs your army "
                 "besieging the space", rule="R-8.1")
            continue
        out.append(sid)
    return out


def check_surrender_surprises(pack: Pack, s: State, seat: str, raw: Any, where: str,
                              rej: list[Problem], soft: bool = False
                              ) -> dict[str, list[int]]:
    """R-8.5: ``surrender: {surprise: {Space: card | [card]}}``: surprise cards of the
    seat's hand for a siege it conducts in each space (:func:`conducts_siege`, R-10):
    ``siege`` cards (Treachery: siege points, played after the segment's free assault
    rolls) and ``prestige`` cards (Orator's Gift, for the comparisons their siege points
    bring, R-4.3). Codes ``surrender.not_a_mapping``, ``surprise.*``
    (``surprise.no_siege`` where there is no siege of the seat's); ``soft``: a siege
    the dice ended is dropped, not refused. Returns ``{space: [card]}``."""
    if not isinstance(raw, dict):
        reject(rej, "surrender.not_a_mapping", "surprise maps a space you besiege to the "
               "surprise cards played there", where, "surprise: {Isaura: 50}", rule="R-8.5")
        return {}
    out: dict[str, list[int]] = {}
    named: list[int] = []
    for x, v in raw.items():
        sid, hint = resolve_space(pack, x)
        w = f"{where}.{x}"
        if sid is None:
            reject(rej, "orders.unknown_space", f"there is no space {x!r}", w, hint, params={"name": x})
            continue
        cards = read_cards(pack, s, seat, v, ("siege", "prestige"), w, rej)
        if any(n in named for n in cards):
            reject(rej, "surprise.duplicate", "a card named for two spaces", w,
                   "name each card once")
        named += cards
        if not conducts_siege(pack, s, seat, sid):
            if not soft:
                reject(rej, "surprise.no_siege", f"you conduct no siege in "
                       f"{pack.spaces[sid].name}: your CUs must stand there with an "
                       "independent marker or another player's major city to besiege",
                       w, "name a space you besiege", rule="R-8.5")
            continue
        out[sid] = cards
    return out
