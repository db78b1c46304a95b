"""Generals and armies (R-5): rank, commander, the equal-rank choice, areas (R-3.4)."""
from __future__ import annotations

import difflib
from typing import Any

from pbem.pack.model import Pack
from pbem.rules.context import Ctx
from pbem.rules.mapinfo import space_or_reject
from pbem.rules.reinforcement import generals_at
from pbem.rules.state import Rejection

State = dict[str, Any]


def area_of(pack: Pack, space: str) -> str:
    """R-3.4: the area (europe, asia, africa, islands) of ``space`` — its province's."""
    return pack.provinces[pack.spaces[space].province].area


def eligible_commanders(pack: Pack, s: State, seat: str, space: str) -> list[str]:
    """``seat``'s major generals in ``space`` of the highest rank present (R-5); not those
    inside a major city while they stay out of the battle fought there (R-9.2)."""
    from pbem.rules.inside import inside_generals, sits_out
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


def check_commanders(pack: Pack, s: State, seat: str, part: Any, where: str,
                     rej: list[Rejection]) -> dict[str, str] | None:
    """Validate ``commanders: {Space: general}`` — the owner picks among generals of equal
    highest rank, before the army moves (R-5). Returns ``{space_id: general_id}``."""
    if not isinstance(part, dict):
        rej.append(Rejection("commanders.not_a_mapping", "R-5",
                             "commanders must map a space to a general (R-5)", where,
                             "commanders: {Babylon: Craterus}"))
        return None
    out: dict[str, str] = {}
    n0 = len(rej)
    for key, gname in part.items():
        w = f"{where}.{key}"
        sid = space_or_reject(pack, key, w, rej)
        if sid is None:
            continue
        gid = _resolve_general(pack, gname)
        if gid is None:
            close = difflib.get_close_matches(str(gname).lower(), list(pack.generals), n=1)
            rej.append(Rejection("commanders.unknown_general", "R-5",
                                 f"there is no general {gname!r} (R-5)", w,
                                 f"did you mean {pack.generals[close[0]].name}?"
                                 if close else None))
            continue
        name, here = pack.generals[gid].name, pack.spaces[sid].name
        if sid in out:
            rej.append(Rejection("commanders.duplicate", "R-5",
                                 f"{here} is given twice (R-5)", w,
                                 f"name one commander for {here}: commanders: "
                                 f"{{{here}: {name}}}"))
            continue
        if gid not in generals_at(s, seat, sid):
            rej.append(Rejection("commanders.not_there", "R-5",
                                 f"{name} is not one of your generals in {here} (R-5)", w))
            continue
        top = eligible_commanders(pack, s, seat, sid)
        if gid not in top:
            rej.append(Rejection("commanders.outranked", "R-5",
                                 f"{name} is outranked in {here}: the highest-ranking "
                                 f"general commands (R-5)", w,
                                 "eligible: " + ", ".join(pack.generals[g].name for g in top)))
            continue
        out[sid] = gid
    return out if len(rej) == n0 else None


def _resolve_general(pack: Pack, text: Any) -> str | None:
    if not isinstance(text, str):
        return None
    key = text.strip().lower()
    for gid, g in pack.generals.items():
        if key in (gid, g.name.lower()):
            return gid
    return None


def do_commanders(ctx: Ctx, seat: str, plan: dict[str, str]) -> None:
    """Record the choices (``CommanderChosen``, R-5)."""
    for sid, gid in sorted(plan.items()):
        ctx.emit("CommanderChosen", {"seat": seat, "space": sid, "general": gid,
                                     "rule": "R-5"})
