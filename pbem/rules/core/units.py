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

from pbem.pack import names as pack_names
from pbem.pack.model import Pack, SpecialUnit
from pbem.rules.core.pack import const
from pbem.rules.core.state import State

HELEPOLIS = "helepolis"
"""Id of the special unit whose presence modifies assault rolls (R-10 [D])."""


def special_unit(pack: Pack, t: str) -> SpecialUnit | None:
    """The pack's special unit with id ``t`` (R-4.1 [L]), or None for an ordinary type."""
    return pack.special_units.get(t)


def unit_types(pack: Pack) -> list[str]:
    """Every CU type key in pack order: the ``cu_types`` then the special units (R-4.1)."""
    return list(pack.cu_types) + [u for u in pack.special_units if u not in pack.cu_types]


def is_unit_type(pack: Pack, t: Any) -> bool:
    """True when ``t`` names a CU type or a special unit of the pack (R-4.1)."""
    return isinstance(t, str) and (t in pack.cu_types or t in pack.special_units)


def resolve_unit_type(pack: Pack, t: Any) -> str | None:
    """The CU type or special unit (R-4.1) ``t`` names, by id or by printed name in any
    case (``"Silver Shields"``, ``"silver_shields"``), else None."""
    if not isinstance(t, str):
        return None
    if t in pack.cu_types or t in pack.special_units:
        return t
    key = " ".join(t.strip().lower().replace("_", " ").split())
    for uid, unit in pack.special_units.items():
        if key in (uid.replace("_", " "), unit.name.lower()):
            return uid
    if key in pack.cu_types:
        return key
    return pack_names.lookup(pack, "special_units", t)  # a name in another language (issue 28)


def unit_types_text(pack: Pack) -> str:
    """The CU types and special units a player may name, as players read them:
    ``"loyal, mercenary, elephant, royal; special units: Silver Shields, ..."``."""
    specials = ", ".join(u.name for u in pack.special_units.values())
    return ", ".join(pack.cu_types) + (f"; special units: {specials}" if specials else "")


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


def assault_modifier(pack: Pack, s: State, seat: str, space: str
                     ) -> tuple[int, list[dict[str, Any]]]:
    """R-10 [D]: the assault-row modifier of ``seat``'s army in ``space`` and its parts
    ``[{"why": "Helepolis", "value": n}]``: constant ``helepolis_assault_modifier`` when
    the army includes the Helepolis."""
    if not s["cus"].get(space, {}).get(seat, {}).get(HELEPOLIS):
        return 0, []
    n = int(const(pack, "helepolis_assault_modifier"))
    return n, [{"why": unit_name(pack, HELEPOLIS), "value": n}]


def fixed_strength(pack: Pack, cus: dict[str, int]) -> int:
    """Battle strength of ``cus`` without dice (R-9.4): pack ``cu_types`` strength per
    CU; rolled types (elephants) count the lowest value of the elephant chart [D]."""
    total = 0
    for t, n in cus.items():
        st = unit_strength(pack, t)  # special units have a fixed strength
        if st is None:
            ch = pack.charts.get("elephant_strength")
            st = min(int(ch.cells[r]["result"]) for r in ch.rows) if ch else 0
        total += st * n
    return total
