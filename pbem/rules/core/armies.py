"""Armies and their generals (R-5, R-9.1 … R-9.4, R-11.2, R-11.4): the commander and
the equal-rank choice, initiative, battle rating, dice-free strength, local troops,
legitimacy of a side, and armies named as players name them.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

from pbem.pack.model import Pack
from pbem.rules.core.board import info, name_hint, resolve_general, resolve_space
from pbem.rules.core.control import (
    legitimacy_points,
    province_controller,
    royal_controller,
)
from pbem.rules.core.pack import const
from pbem.rules.core.pieces import (
    INDEP,
    cus_at,
    generals_at,
    group_at,
    indep_at,
    inside_generals,
    outside_cus,
    sits_out,
)
from pbem.rules.core.state import State
from pbem.rules.core.units import fixed_strength, is_macedonian, unit_types


def eligible_commanders(pack: Pack, s: State, seat: str, space: str) -> list[str]:
    """``seat``'s major generals in ``space`` of the highest rank present (R-5); not those
    inside a major city while they stay out of the battle fought there (R-9.2)."""
    gens = generals_at(s, seat, space)
    if sits_out(seat, space):
        gens = [g for g in gens if g not in inside_generals(s, seat, space)]
    if not gens:
        return []
    top = max(pack.generals[g].rank for g in gens)
    return sorted(g for g in gens if pack.generals[g].rank == top)


def commander(pack: Pack, s: State, seat: str, space: str) -> str | None:
    """The commander of ``seat``'s army in ``space`` (R-5): the highest-ranking major
    general; among equals the owner's recorded choice, else the most senior [D]; a minor
    general (``"minor"``) when no major general is there; None when no general."""
    top = eligible_commanders(pack, s, seat, space)
    if not top:
        return "minor" if space in s["minors"].get(seat, []) else None
    chosen = s["commanders"].get(space)
    if chosen in top:
        return chosen
    return min(top, key=lambda g: (pack.generals[g].seniority, g))


def group_commander(pack: Pack, s: State, seat: str, group: dict) -> str | None:
    """Commander of a moving group (R-5): highest rank, the owner's recorded choice or
    the most senior among equals; ``"minor"``; None without a general."""
    gens = group["generals"]
    if gens:
        top = max(pack.generals[g].rank for g in gens)
        best = [g for g in gens if pack.generals[g].rank == top]
        chosen = set(s["commanders"].values()) & set(best)
        if chosen:
            return min(chosen)
        return min(best, key=lambda g: (pack.generals[g].seniority, g))
    return "minor" if group["minor"] else None


def group_initiative(pack: Pack, s: State, seat: str, group: dict) -> int:
    """Movement allowance in the movement segment (R-9.1): the commander's initiative."""
    cmd = group_commander(pack, s, seat, group)
    if cmd is None:
        return 0
    if cmd == "minor":
        return int(const(pack, "minor_general_initiative"))
    return pack.generals[cmd].initiative


def side_strength_fixed(pack: Pack, s: State, side: str, space: str) -> int:
    """Dice-free strength of a side in ``space``: CUs of a seat, or the printed strength
    of the independent armies there (R-9.4, R-14: their strength is their CU count)."""
    if side == INDEP:
        return sum(s["indep_armies"][a]["strength"] for a in indep_at(s, space))
    return fixed_strength(pack, cus_at(s, side, space))


def battle_rating(pack: Pack, s: State, side: str, space: str) -> int | None:
    """The roll floor of a side (R-9.2): its commander's battle rating (minor generals:
    constant ``minor_general_battle``), the best rating of stacked independent armies
    (R-14), or None without a general."""
    if side == INDEP:
        ids = indep_at(s, space)
        return max((pack.independent_armies[a].battle for a in ids), default=None)
    cmd = commander(pack, s, side, space)
    if cmd is None:
        return None
    if cmd == "minor":
        return int(const(pack, "minor_general_battle"))
    return pack.generals[cmd].battle


def initiative(pack: Pack, s: State, seat: str, space: str) -> int:
    """Initiative of ``seat``'s commander in ``space`` (R-9.1, R-9.3): a major general's
    rating, ``minor_general_initiative`` for a minor general, 0 without a general."""
    cmd = commander(pack, s, seat, space)
    if cmd is None:
        return 0
    if cmd == "minor":
        return int(const(pack, "minor_general_initiative"))
    return pack.generals[cmd].initiative


def local_troops(pack: Pack, s: State, side: str, space: str) -> int:
    """Local troops (R-9.2, R-14): a seat gets ``local_troops_space`` if it controls the
    space and ``local_troops_province`` if it controls the province [D: both add];
    independents get the space value for an independent marker there and the province
    value when most non-transit spaces of the province hold one *and* so does its major
    city, if it has one (seed 004: "большинство зон (не учитывая транзитные зоны) и
    крупных городов (если провинция имеет один)"), at most
    ``independent_local_troops_max``."""
    prov = pack.spaces[space].province
    if side == INDEP:
        n = const(pack, "local_troops_space") if space in s["independent"] else 0
        spaces = [x for x in info(pack).province_spaces.get(prov, ())
                  if pack.spaces[x].kind != "transit"]
        ind = sum(1 for x in spaces if x in s["independent"])
        city = all(x in s["independent"] for x in spaces
                   if pack.spaces[x].kind == "major_city")
        if spaces and 2 * ind > len(spaces) and city:
            n += const(pack, "local_troops_province")
        return min(n, const(pack, "independent_local_troops_max"))
    n = const(pack, "local_troops_space") if s["garrisons"].get(space) == side else 0
    if province_controller(pack, s, prov) == side:
        n += const(pack, "local_troops_province")
    return n


def is_attack_on_champion(s: State, attacker: str, target: str) -> bool:
    """R-11.4: ``attacker`` (a Champion) attacks ``target``, a Champion who is no
    Usurper."""
    return (attacker != INDEP and target != INDEP and attacker != target
            and attacker in s["champions"] and target in s["champions"]
            and target not in s["usurpers"])


def side_legitimacy(pack: Pack, s: State, seat: str, space: str, defending: bool,
                    lps: dict[str, int] | None = None) -> int:
    """R-4.3/R-11.2: faction LP + the commander's prestige (his printed prestige and what
    a surprise card gave him until the end of the segment, :func:`prestige_bonus`; +
    holy ground for a defender holding the body — it controls it — or standing on the
    tomb in ``space``, R-12.4). ``lps``: every seat's LP now
    (:func:`pbem.rules.core.control.legitimacy_points`), when the caller has them."""
    lp = (lps if lps is not None else legitimacy_points(pack, s))[seat]
    cmd = commander(pack, s, seat, space)
    if cmd and cmd != "minor":
        lp += pack.generals[cmd].prestige + prestige_bonus(s, cmd)
    body = s["royals"].get("body")
    tomb = (s.get("court") or {}).get("tomb") or {}
    holds = bool(body) and body.get("space") == space and \
        royal_controller(pack, s, "body") == seat
    if defending and (holds or tomb.get("space") == space):
        lp += int(const(pack, "holy_ground_prestige"))
    return lp


def prestige_bonus(s: State, general: str) -> int:
    """R-11.2, R-8.5: the prestige surprise cards (Orator's Gift) gave ``general`` until
    the end of the segment (``court["prestige"]``)."""
    return sum(int(b["amount"]) for b in (s.get("court") or {}).get("prestige") or []
               if b["general"] == general)


def can_overrun(pack: Pack, s: State, seat: str, space: str, mover_cus: dict[str, int],
                enemy: str) -> bool:
    """R-9.4: the mover's dice-free strength is at least ``overrun`` chart ratio × the
    enemy's dice-free strength (an enemy with no CUs is always overrun)."""
    ratio = pack.charts["overrun"].lookup("ratio") if "overrun" in pack.charts else None
    if ratio is None:
        return False
    mine = (fixed_strength(pack, mover_cus) if seat != INDEP
            else sum(s["indep_armies"][a]["strength"] for a in mover_cus))
    if enemy != INDEP:  # units inside a major city cannot be overrun
        return mine >= int(ratio) * fixed_strength(pack, outside_cus(s, enemy, space))
    return mine >= int(ratio) * side_strength_fixed(pack, s, enemy, space)


def resolve_army(pack: Pack, s: State, seat: str, text: Any) -> tuple[str | None, str]:
    """The start space of ``seat``'s army named by a general (id or name) or a space
    where it has a general. Returns ``(space, "")`` or ``(None, message)``."""
    gid = resolve_general(pack, text)
    if gid:
        g = s["generals"].get(gid) or {}
        if g.get("seat") != seat or g.get("where") != "map":
            return None, f"{pack.generals[gid].name} is not one of your generals on the map"
        return g["space"], ""
    sid, _hint = resolve_space(pack, text)
    if sid is None:
        hint = name_hint(text, pack.generals, pack.spaces, pack=pack)
        return None, f"there is no general or space {text!r}" + (f"; {hint}" if hint else "")
    return sid, ""


def own_armies_hint(pack: Pack, s: State, seat: str) -> str:
    """A hint naming ``seat``'s armies: its generals on the map and its minor generals'
    spaces (R-5), as players read them."""
    gens = sorted(f"{pack.generals[g].name} ({pack.spaces[v['space']].name})"
                  for g, v in s["generals"].items()
                  if g in pack.generals and v.get("seat") == seat
                  and v.get("where") == "map" and v.get("space") in pack.spaces)
    minors = sorted(pack.spaces[x].name for x in s["minors"].get(seat, [])
                    if x in pack.spaces)
    names = gens + [f"the minor general in {x}" for x in minors]
    if not names:
        return "you have no general on the map: an army needs a general (R-5)"
    return "your armies: " + ", ".join(names) + " (a general's name or his space)"


def unknown_army_params(pack: Pack, s: State, seat: str, text: Any, msg: str) -> dict[str, Any]:
    """The ``params`` of a ``movement.unknown_army`` problem (R-9.1; issue 28): the army
    as written (``army``), ``seat``'s armies as :func:`own_armies_hint` lists them
    (``armies``: ``[general's name, space's name]`` pairs, ``["", space's name]`` for a
    minor general's army; canonical names) and the name the check found nearest to what
    was written (``near``, from ``msg``'s "did you mean"; absent when none): a
    translated answer says them in the reader's language
    (:func:`pbem.problem_texts.fix_of`)."""
    gens = sorted([pack.generals[g].name, pack.spaces[v["space"]].name]
                  for g, v in s["generals"].items()
                  if g in pack.generals and v.get("seat") == seat
                  and v.get("where") == "map" and v.get("space") in pack.spaces)
    minors = sorted(["", pack.spaces[x].name] for x in s["minors"].get(seat, []) if x in pack.spaces)
    params: dict[str, Any] = {"army": str(text), "armies": gens + minors}
    near = re.search(r"did you mean (.+)\?$", msg or "")
    if near:
        params["near"] = near.group(1)
    return params


def army_pairs(pack: Pack, s: State, seat: str, spaces: list[str]) -> list[list[str]]:
    """``seat``'s armies at ``spaces`` as a problem's ``armies`` param gives them (R-5;
    issue 28): ``[commander's name, space's name]``, ``["", space's name]`` for a minor
    general's army, canonical names, in the order of ``spaces``; a space without a
    general of ``seat`` is left out."""
    out = []
    for x in spaces:
        cmd = commander(pack, s, seat, x)
        if cmd is None or x not in pack.spaces:
            continue
        out.append([pack.generals[cmd].name if cmd in pack.generals else "", pack.spaces[x].name])
    return out


def army_options(pack: Pack, s: State, seat: str) -> list[dict[str, Any]]:
    """``seat``'s armies that may move (R-9.1): ``[{"army": commander id or space,
    "space", "commander", "allowance": MPs in the movement segment, "cus": {type: n}}]``."""
    return list(iter_armies(pack, s, seat))


def iter_armies(pack: Pack, s: State, seat: str,
                where: Callable[[str], bool] | None = None) -> Iterator[dict[str, Any]]:
    """:func:`army_options`' armies one by one, in its order (R-9.1), only at the spaces
    ``where`` accepts (tested before the army there is made; None: every space), so a
    caller that needs the first one only stops there (issue 27 item 5). An army is a
    major general's group, or a minor general's with CUs, whose initiative the pack
    knows."""
    spaces = {g["space"] for g in s["generals"].values()
              if g["where"] == "map" and g["seat"] == seat and g["space"]}
    spaces |= set(s["minors"].get(seat, []))
    for x in sorted(spaces):
        if where is not None and not where(x):
            continue
        g = group_at(s, seat, x, [])  # the royals it would take name no army
        cmd = group_commander(pack, s, seat, g)
        if cmd is None or (cmd == "minor" and not g["cus"]):
            continue
        try:
            mp = group_initiative(pack, s, seat, g)
        except KeyError:  # the pack lacks the minor general's initiative
            continue
        yield {"army": cmd if cmd != "minor" else x, "space": x, "commander": cmd,
               "allowance": mp, "cus": g["cus"]}


def army_label(pack: Pack, s: State, seat: str, space: str) -> str:
    """``"Demetrius in Tyre"`` / ``"minor general in Gaza"``: an army as players name it."""

    cmd = commander(pack, s, seat, space)
    who = pack.generals[cmd].name if cmd in pack.generals else "minor general"
    return f"{who} in {pack.spaces[space].name}"


def best_seniority(pack: Pack, s: State, seat: str) -> int:
    """Seniority of ``seat``'s most senior major general in play (lower is more senior)."""
    vals = [pack.generals[g].seniority for g, v in s["generals"].items()
            if v["seat"] == seat and v["where"] in ("map", "dispersed") and g in pack.generals]
    return min(vals, default=10 ** 6)


def macedonian_cus(pack: Pack, s: State, seat: str) -> int:
    """Macedonian CUs of ``seat`` on the map and in the dispersed box (R-1.2 [L]): loyal,
    royal and the Silver Shields (special units by their pack ``cu_type``)."""
    mac = {t for t in unit_types(pack) if is_macedonian(pack, t)}
    n = sum(c for by in s["cus"].values() for t, c in by.get(seat, {}).items() if t in mac)
    return n + sum(c for t, c in s["dispersed"].get(seat, {}).items() if t in mac)
