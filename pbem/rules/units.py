"""Combat-unit types and the special units (R-4.1 [L], R-4.4 [D], R-10 Helepolis).

Every place that reads a CU type (battle strength, losses, attrition, forage, pick-up and
drop-off, units inside a major city, the R-1.2 tie-break, reports) asks this module, so
the three special units are handled in one place.

Representation [D]: a special unit on the map is a *CU type key* of its own in the usual
per-type counts (``s["cus"][space][seat] = {"silver_shields": 1, "loyal": 2}``, likewise
in ``s["dispersed"]`` and the ``inside`` records), always with count 0 or 1: it is part
of its seat's stack, moves with the army, is picked up and dropped like CUs, counts as one
CU for stacking, forage and inside capacity, and is one indivisible unit. Its strength,
Macedonian-ness and loser treatment come from the pack (``special_units``: ``strength``
and ``cu_type``). ``s["war"]["specials"]`` (present once a special unit entered play)
maps a unit id to ``"in_play"`` or ``"destroyed"``; a unit not listed is in its holding
box. A special unit removed by any loss (``CUsRemoved``) is destroyed and never returns.
"""
from __future__ import annotations

from typing import Any

from pbem.pack.model import Card, Effect, Pack, SpecialUnit
from pbem.rules.constants import const
from pbem.rules.context import Ctx
from pbem.rules.state import Rejection

State = dict[str, Any]
HELEPOLIS = "helepolis"
"""Id of the special unit whose presence modifies assault rolls (R-10 [D])."""
BRING = "bring_special_unit"
"""The card effect primitive that brings a special unit into play (R-4.1)."""


# --- CU types ----------------------------------------------------------------------

def special_unit(pack: Pack, t: str) -> SpecialUnit | None:
    """The pack's special unit with id ``t`` (R-4.1 [L]), or None for an ordinary type."""
    return pack.special_units.get(t)


def unit_types(pack: Pack) -> list[str]:
    """Every CU type key in pack order: the ``cu_types`` then the special units (R-4.1)."""
    return list(pack.cu_types) + [u for u in pack.special_units if u not in pack.cu_types]


def is_unit_type(pack: Pack, t: Any) -> bool:
    """True when ``t`` names a CU type or a special unit of the pack (R-4.1)."""
    return isinstance(t, str) and (t in pack.cu_types or t in pack.special_units)


def base_type(pack: Pack, t: str) -> str:
    """The ordinary CU type ``t`` behaves as (a special unit's ``cu_type``, R-4.1)."""
    sp = special_unit(pack, t)
    return sp.cu_type if sp else t


def unit_strength(pack: Pack, t: str) -> int | None:
    """Battle strength of one CU of type ``t`` (R-4.4 [D]): the special unit's own
    printed strength (Silver Shields 3, Helepolis 0, Indian Elephant Corps 4: never
    rolled), else the ``cu_types`` strength; None when rolled (elephants, R-9.2); 0 for
    a key the pack does not know."""
    sp = special_unit(pack, t)
    if sp is not None:
        return sp.strength
    ct = pack.cu_types.get(t)
    return ct.strength if ct is not None else 0


def is_macedonian(pack: Pack, t: str) -> bool:
    """True for Macedonian CUs (royal, loyal, Silver Shields): they roll attrition when
    defeated (R-9.2) and count for the R-1.2 tie-break."""
    ct = pack.cu_types.get(base_type(pack, t))
    return bool(ct and ct.macedonian)


def unit_name(pack: Pack, t: str) -> str:
    """How players read type ``t``: ``"loyal"``, ``"Silver Shields"``."""
    sp = special_unit(pack, t)
    return sp.name if sp else t


def loss_key(pack: Pack, t: str) -> tuple[int, int, str]:
    """Sort key of the CU lost first [D] (battle losses, forage, hostile tribes, assault
    losses): ordinary CUs before special units (unique counters); then the lowest
    strength, rolled types (elephants) last; then by id."""
    st = unit_strength(pack, t)
    return (1 if special_unit(pack, t) else 0, 99 if st is None else st, t)


def cus_label(pack: Pack, cus: dict[str, int]) -> str:
    """``{"loyal": 2, "silver_shields": 1}`` -> ``"2 loyal, Silver Shields"`` (pack order)."""
    order = unit_types(pack) + sorted(set(cus) - set(unit_types(pack)))
    return ", ".join(unit_name(pack, t) if special_unit(pack, t) and cus[t] == 1
                     else f"{cus[t]} {unit_name(pack, t)}" for t in order if cus.get(t))


# --- where the special units are ------------------------------------------------------

def special_status(pack: Pack, s: State, unit: str) -> dict[str, Any]:
    """Where special unit ``unit`` is (R-4.1): ``{"unit", "status": "box" | "map" |
    "dispersed" | "destroyed", "seat", "space"}`` (seat/space None when not on the map)."""
    for x, by in sorted(s["cus"].items()):
        for seat, cus in sorted(by.items()):
            if cus.get(unit):
                return {"unit": unit, "status": "map", "seat": seat, "space": x}
    for seat, box in sorted(s["dispersed"].items()):
        if box.get(unit):
            return {"unit": unit, "status": "dispersed", "seat": seat, "space": None}
    gone = ((s.get("war") or {}).get("specials") or {}).get(unit) == "destroyed"
    return {"unit": unit, "status": "destroyed" if gone else "box", "seat": None,
            "space": None}


def specials_in_play(pack: Pack, s: State) -> dict[str, dict[str, Any]]:
    """:func:`special_status` of every special unit that has left its holding box."""
    out = {}
    for u in pack.special_units:
        st = special_status(pack, s, u)
        if st["status"] != "box":
            out[u] = st
    return out


# --- the card event (R-4.1 [L]) ----------------------------------------------------

def special_effect(card: Card) -> Effect | None:
    """The ``bring_special_unit`` effect of ``card``, or None."""
    return next((e for e in card.effects if e.primitive == BRING), None)


def joining_area(eff: Effect) -> str | None:
    """The area (R-3.4) the army must stand in for the unit to join, e.g. ``"asia"`` for
    the Indian Elephant Corps (card effect parameter ``area``), or None."""
    area = eff.params.get("area")
    return str(area) if area else None


def army_spaces(s: State, seat: str) -> list[str]:
    """Spaces holding an army of ``seat``: a major or minor general with CUs (R-5)."""
    from pbem.rules.reinforcement import has_general

    return sorted(x for x, by in s["cus"].items()
                  if sum(by.get(seat, {}).values()) and has_general(s, seat, x))


def joining_armies(pack: Pack, s: State, seat: str, eff: Effect) -> list[str]:
    """Spaces of ``seat``'s armies the special unit of ``eff`` may join (R-4.1): every
    army (a general with CUs), only those in the effect's ``area`` when it names one."""
    from pbem.rules.generals import area_of

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
    from pbem.rules.generals import area_of
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


def assault_modifier(pack: Pack, s: State, seat: str, space: str
                     ) -> tuple[int, list[dict[str, Any]]]:
    """R-10 [D]: the assault-row modifier of ``seat``'s army in ``space`` and its parts
    ``[{"why": "Helepolis", "value": n}]``: constant ``helepolis_assault_modifier`` when
    the army includes the Helepolis."""
    if not s["cus"].get(space, {}).get(seat, {}).get(HELEPOLIS):
        return 0, []
    n = int(const(pack, "helepolis_assault_modifier"))
    return n, [{"why": unit_name(pack, HELEPOLIS), "value": n}]


def army_label(pack: Pack, s: State, seat: str, space: str) -> str:
    """``"Demetrius in Tyre"`` / ``"minor general in Gaza"``: an army as players name it."""
    from pbem.rules.generals import commander

    cmd = commander(pack, s, seat, space)
    who = pack.generals[cmd].name if cmd in pack.generals else "minor general"
    return f"{who} in {pack.spaces[space].name}"


def check_join(pack: Pack, s: State, seat: str, part: dict[str, Any], card: Card,
               where: str, rej: list[Rejection], plan: dict[str, Any]) -> None:
    """Validate ``tyche: {card: 44, use: event, army: General | Space}`` (R-4.1 [L]): the
    card's special unit must still be in its holding box and ``army`` must name an army of
    ``seat`` (a general with CUs) in the effect's area, if any (card 46: Asia). ``army``
    may be left out when exactly one army qualifies. Sets ``plan["special"]`` to the
    army's space. In soft mode (orders validated before the dice) nothing is refused:
    :func:`bring_special_unit` falls back to another army."""
    from pbem.rules.war_orders import SOFT, resolve_army

    def no(code: str, msg: str, w: str, hint: str | None = None) -> None:
        rej.append(Rejection(code, "R-4.1", f"{msg} (R-4.1)", w, hint))

    eff = special_effect(card)
    if eff is None:
        return
    plan["special"] = None
    if SOFT.get():  # re-checked when carried out (bring_special_unit)
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
    if "army" not in part:
        if len(legal) == 1:
            plan["special"] = legal[0]
            return
        no("tyche.special_unit_army_missing",
           f"name the army the {name} should join", f"{where}.army",
           f"armies that qualify: {armies}")
        return
    space, msg = resolve_army(pack, s, seat, part["army"])
    if space is None:
        no("tyche.unknown_army", msg, f"{where}.army", f"armies that qualify: {armies}")
        return
    why = why_no_join(pack, s, seat, eff, space)
    if why:
        no("tyche.special_unit_army_illegal", why, f"{where}.army",
           f"armies that qualify: {armies}")
        return
    plan["special"] = space
