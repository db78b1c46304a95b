"""Units going inside a major city (R-5; rulebook 13.6): ``inside: {Babylon: {loyal: 2,
generals: [Seleucus]}}``, carried out at the start of the player-turn, before the
surrender segment, after the ``outside`` order (:mod:`pbem.rules.orders.outside`), in
any of the owner's player-turns.

Like every order kind (:mod:`pbem.rules.orders`): :func:`read`, :func:`options`,
:func:`check`, :func:`execute`.
"""
from __future__ import annotations

from typing import Any

from pbem.pack.model import Pack
from pbem.problems import Problem
from pbem.rules.context import Ctx
from pbem.rules.core.board import name_hint, resolve_general, space_or_reject
from pbem.rules.core.names import cus_text
from pbem.rules.core.pieces import (
    capacity,
    inside_cus,
    inside_generals,
    outside_cus,
)
from pbem.rules.core.problems import did_you_mean, reject
from pbem.rules.core.state import State
from pbem.rules.core.units import resolve_unit_type, unit_types, unit_types_text
from pbem.rules.resolve.inside import RULE


def _city(pack: Pack, s: State, seat: str, raw: Any, where: str,
          rej: list[Problem]) -> str | None:
    sid = space_or_reject(pack, raw, where, rej)
    if sid is None:
        return None
    name = pack.spaces[sid].name
    if pack.spaces[sid].kind != "major_city":
        reject(rej, "inside.not_major_city", f"{name} is no major city: only major cities "
             "have an inside", where)
        return None
    if s["garrisons"].get(sid) != seat:
        reject(rej, "inside.not_your_city", f"you do not control {name}: units go inside "
             "only a major city with your garrison", where,
             "place a garrison there first (surrender segment)")
        return None
    return sid


def read(pack: Pack, s: State, seat: str, raw: Any, where: str, rej: list[Problem]
         ) -> dict[Any, Any] | None:
    """The order's shape: a mapping from major cities to the units going inside (R-5)."""
    if not isinstance(raw, dict):
        reject(rej, "inside.not_a_mapping", "inside must map a major city to the units that "
               "go inside", where, "inside: {Babylon: {loyal: 2}}")
        return None
    return raw


def options(pack: Pack, s: State, seat: str) -> dict[str, int]:
    """``{city: free places}``: ``seat``'s major cities with room inside, within
    ``major_city_inside_capacity`` (R-5)."""
    room = {x: capacity(pack) - sum(inside_cus(s, seat, x).values())
            for x, o in sorted(s["garrisons"].items())
            if o == seat and pack.spaces[x].kind == "major_city"}
    return {x: n for x, n in room.items() if n > 0}


def check(pack: Pack, s: State, seat: str, raw: dict[Any, Any], where: str,
          rej: list[Problem], soft: bool = False) -> list[dict[str, Any]] | None:
    """Each city a major city ``seat`` holds, each unit one of its own outside there,
    within the capacity (R-5). Returns ``[{"space", "cus", "generals"}]`` or None after
    a problem."""
    n0, plan = len(rej), []
    cap = capacity(pack)
    seen: dict[str, Any] = {}
    for city, units in raw.items():
        w = f"{where}.{city}"
        sid = _city(pack, s, seat, city, w, rej)
        if sid is None:
            continue
        name = pack.spaces[sid].name
        if sid in seen:
            reject(rej, "inside.duplicate", f"{name} is given twice ({seen[sid]!r} and "
                 f"{city!r})", w, f"list {name} once with all its units, e.g. inside: "
                 f"{{{name}: {{loyal: 1, mercenary: 1}}}}")
            continue
        seen[sid] = city
        if not isinstance(units, dict) or not units:
            reject(rej, "inside.not_a_mapping", f"say which units go inside {name}", w,
                 "inside: {Babylon: {loyal: 2, generals: [Seleucus]}}")
            continue
        out = outside_cus(s, seat, sid)
        cus: dict[str, int] = {}
        gens: list[str] = []
        for k, v in units.items():
            if k == "generals":
                for i, gtxt in enumerate(v if isinstance(v, list) else [v]):
                    g = resolve_general(pack, gtxt)
                    here = s["generals"].get(g or "", {})
                    if g is None or here.get("where") != "map" or here.get("space") != sid \
                            or here.get("seat") != seat or g in inside_generals(s, seat, sid):
                        outside = sorted(
                            pack.generals[x].name for x, v in s["generals"].items()
                            if x in pack.generals and v.get("where") == "map"
                            and v.get("space") == sid and v.get("seat") == seat
                            and x not in inside_generals(s, seat, sid))
                        near = name_hint(gtxt, pack.generals, pack=pack) if g is None else None
                        reject(rej, "inside.no_such_units", f"{gtxt!r} is no general of "
                             f"yours outside in {name}", f"{w}.generals[{i}]",
                             ((f"{near} " if near else "") + "your generals outside there: "
                              + ", ".join(outside))
                             if outside else near or f"none of your generals is outside in {name}")
                        continue
                    if g in gens:
                        reject(rej, "inside.duplicate", f"{pack.generals[g].name} is listed "
                             "twice", f"{w}.generals[{i}]", "list each general once")
                        continue
                    gens.append(g)
                continue
            typed = resolve_unit_type(pack, k)
            if typed is None:
                reject(rej, "inside.unknown_cu_type", f"there is no CU type {k!r}", f"{w}.{k}",
                       did_you_mean(k, unit_types(pack), "types: " + unit_types_text(pack)))
                continue
            k = typed  # the type as the rules know it (a special unit by id)
            if not isinstance(v, int) or isinstance(v, bool) or v < 1:
                reject(rej, "inside.bad_count", f"{k} must be a whole number of CUs ≥ 1",
                     f"{w}.{k}", f"{k}: 1")
                continue
            if out.get(k, 0) < v:
                reject(rej, "inside.no_such_units", f"you have {out.get(k, 0)} {cus_text({k: 1}, pack)[2:]} "
                     f"CUs outside in {name}, not {v}", f"{w}.{k}",
                     "only units already in the city at the start of the turn go inside")
                continue
            cus[k] = v
        already = sum(inside_cus(s, seat, sid).values())
        if already + sum(cus.values()) > cap:
            reject(rej, "inside.over_capacity", f"{name} holds at most {cap} CUs inside "
                 f"({already} there already, {sum(cus.values())} more asked)", w,
                 f"put at most {max(0, cap - already)} more CUs inside")
            continue
        if cus or gens:
            plan.append({"space": sid, "cus": cus, "generals": gens})
    return plan if len(rej) == n0 else None


def execute(ctx: Ctx, seat: str, plan: list[dict[str, Any]]) -> None:
    """``UnitsWentInside`` for every entry of ``plan`` (R-5)."""
    for p in plan:
        ctx.emit("UnitsWentInside", {"seat": seat, "space": p["space"], "cus": p["cus"],
                                     "generals": p["generals"], "rule": RULE})
