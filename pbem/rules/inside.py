"""Units inside a major city (R-5; rulebook 13.6; R-7.2, R-9.2, R-10, R-12.1).

State: ``s["inside"] = {space_id: {"seat": seat, "cus": {cu_type: n}, "generals": [id]}}``
(at most one faction inside a city). Inside CUs are a *subset* of
``s["cus"][space][seat]``: every count, control, forage and victory rule keeps reading
``cus``; only the rules that care about inside/outside read this record. Reducers keep it
consistent (:func:`pbem.rules.reducers.clip_inside`): when CUs of the inside seat leave
or die in the space the record shrinks to what is left, outside units going first.

Orders (``docs/orders.md``), carried out at the start of the player-turn, before the
surrender segment, in any of the owner's player-turns::

    outside: [Babylon]                                # everything inside comes out
    inside: {Babylon: {loyal: 2, generals: [Seleucus]}}
"""
from __future__ import annotations

import difflib
from typing import Any

from pbem.pack.model import Pack
from pbem.rules.constants import const
from pbem.rules.context import Ctx
from pbem.rules.mapinfo import resolve_space
from pbem.rules.state import Rejection

State = dict[str, Any]
RULE = "R-5"


def inside_rec(s: State, space: str) -> dict[str, Any] | None:
    """The inside record of ``space`` (see the module docstring) or None."""
    return (s.get("inside") or {}).get(space)


def inside_cus(s: State, seat: str, space: str) -> dict[str, int]:
    """``{cu_type: n}`` of ``seat`` inside the major city ``space`` (a copy)."""
    rec = inside_rec(s, space)
    return dict(rec["cus"]) if rec and rec["seat"] == seat else {}


def inside_generals(s: State, seat: str, space: str) -> list[str]:
    """Major generals of ``seat`` inside ``space``."""
    rec = inside_rec(s, space)
    return list(rec["generals"]) if rec and rec["seat"] == seat else []


def outside_cus(s: State, seat: str, space: str) -> dict[str, int]:
    """``{cu_type: n}`` of ``seat`` in ``space`` that are not inside the city."""
    ins = inside_cus(s, seat, space)
    have = s["cus"].get(space, {}).get(seat, {})
    out = {t: n - ins.get(t, 0) for t, n in have.items()}
    return {t: n for t, n in out.items() if n > 0}


def wholly_inside(s: State, seat: str, space: str) -> bool:
    """True when ``seat`` has units inside ``space`` and none outside (no CUs, no major
    general outside; its minor general stays with the CUs it marks). Such units cannot
    be attacked or overrun and are no enemy to movers (R-5)."""
    rec = inside_rec(s, space)
    if not rec or rec["seat"] != seat or outside_cus(s, seat, space):
        return False
    return all(g in rec["generals"] for g, v in s["generals"].items()
               if v["where"] == "map" and v["space"] == space and v["seat"] == seat)


def capacity(pack: Pack) -> int:
    """CUs a major city holds inside (pack ``major_city_inside_capacity``, R-5)."""
    return int(const(pack, "major_city_inside_capacity"))


def _rej(rej: list[Rejection], code: str, msg: str, where: str,
         hint: str | None = None) -> None:
    rej.append(Rejection(code, RULE, f"{msg} ({RULE})", where, hint))


def _city(pack: Pack, s: State, seat: str, raw: Any, where: str,
          rej: list[Rejection]) -> str | None:
    sid, hint = resolve_space(pack, raw)
    if sid is None:
        rej.append(Rejection("orders.unknown_space", "R-3.1",
                             f"there is no space {raw!r} (R-3.1)", where, hint))
        return None
    name = pack.spaces[sid].name
    if pack.spaces[sid].kind != "major_city":
        _rej(rej, "inside.not_major_city", f"{name} is no major city: only major cities "
             "have an inside", where)
        return None
    if s["garrisons"].get(sid) != seat:
        _rej(rej, "inside.not_your_city", f"you do not control {name}: units go inside "
             "only a major city with your garrison", where,
             "place a garrison there first (surrender segment)")
        return None
    return sid


def check_inside(pack: Pack, s: State, seat: str, raw: Any, where: str,
                 rej: list[Rejection]) -> list[dict[str, Any]] | None:
    """Validate ``inside: {city: {cu_type: n, generals: [..]}}`` (R-5) against ``s``;
    returns ``[{"space", "cus", "generals"}]`` or None after adding rejections."""
    from pbem.rules.war_orders import resolve_general

    if not isinstance(raw, dict):
        _rej(rej, "inside.not_a_mapping", "inside must map a major city to the units that "
             "go inside", where, "inside: {Babylon: {loyal: 2}}")
        return None
    n0, plan = len(rej), []
    cap = capacity(pack)
    for city, units in raw.items():
        w = f"{where}.{city}"
        sid = _city(pack, s, seat, city, w, rej)
        if sid is None:
            continue
        name = pack.spaces[sid].name
        if not isinstance(units, dict) or not units:
            _rej(rej, "inside.not_a_mapping", f"say which units go inside {name}", w,
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
                        _rej(rej, "inside.no_such_units", f"{gtxt!r} is no general of "
                             f"yours outside in {name}", f"{w}.generals[{i}]")
                        continue
                    gens.append(g)
                continue
            if k not in pack.cu_types:
                close = difflib.get_close_matches(str(k), list(pack.cu_types), n=1)
                _rej(rej, "inside.unknown_cu_type", f"there is no CU type {k!r}",
                     f"{w}.{k}", f"did you mean {close[0]}?" if close else
                     "types: " + ", ".join(sorted(pack.cu_types)))
                continue
            if not isinstance(v, int) or isinstance(v, bool) or v < 1:
                _rej(rej, "inside.bad_count", f"{k} must be a whole number of CUs ≥ 1",
                     f"{w}.{k}")
                continue
            if out.get(k, 0) < v:
                _rej(rej, "inside.no_such_units", f"you have {out.get(k, 0)} {k} CUs "
                     f"outside in {name}, not {v}", f"{w}.{k}",
                     "only units already in the city at the start of the turn go inside")
                continue
            cus[k] = v
        already = sum(inside_cus(s, seat, sid).values())
        if already + sum(cus.values()) > cap:
            _rej(rej, "inside.over_capacity", f"{name} holds at most {cap} CUs inside "
                 f"({already} there already, {sum(cus.values())} more asked)", w,
                 f"put at most {max(0, cap - already)} more CUs inside")
            continue
        if cus or gens:
            plan.append({"space": sid, "cus": cus, "generals": gens})
    return plan if len(rej) == n0 else None


def check_outside(pack: Pack, s: State, seat: str, raw: Any, where: str,
                  rej: list[Rejection]) -> list[str] | None:
    """Validate ``outside: [city, ..]`` (R-5): every unit of ``seat`` inside comes out.
    Refused while another player's units stand outside (that needs a battle: attack
    with a move or assault instead)."""
    from pbem.rules.combat import enemy_of

    items = raw if isinstance(raw, list) else [raw]
    n0, plan = len(rej), []
    for i, city in enumerate(items):
        w = f"{where}[{i}]"
        sid, hint = resolve_space(pack, city)
        if sid is None:
            rej.append(Rejection("orders.unknown_space", "R-3.1",
                                 f"there is no space {city!r} (R-3.1)", w, hint))
            continue
        name = pack.spaces[sid].name
        if not inside_cus(s, seat, sid) and not inside_generals(s, seat, sid):
            _rej(rej, "inside.nothing_inside", f"you have no units inside {name}", w)
            continue
        if enemy_of(s, seat, sid):
            _rej(rej, "inside.enemy_outside", f"enemy units stand outside {name}: your "
                 "units cannot simply come out", w, "bring an army to fight them")
            continue
        plan.append(sid)
    return plan if len(rej) == n0 else None


def do_outside(ctx: Ctx, seat: str, plan: list[str]) -> None:
    """``UnitsCameOut`` for every city in ``plan`` (R-5)."""
    for sid in plan:
        ctx.emit("UnitsCameOut", {"seat": seat, "space": sid,
                                  "cus": inside_cus(ctx.s, seat, sid),
                                  "generals": inside_generals(ctx.s, seat, sid),
                                  "rule": RULE})


def do_inside(ctx: Ctx, seat: str, plan: list[dict[str, Any]]) -> None:
    """``UnitsWentInside`` for every entry of ``plan`` (R-5)."""
    for p in plan:
        ctx.emit("UnitsWentInside", {"seat": seat, "space": p["space"], "cus": p["cus"],
                                     "generals": p["generals"], "rule": RULE})


def run_inside_orders(ctx: Ctx, seat: str, orders: dict[str, Any],
                      rej: list[Rejection]) -> None:
    """The ``outside`` then ``inside`` orders of a player-turn (R-5)."""
    if "outside" in orders:
        out = check_outside(ctx.pack, ctx.s, seat, orders["outside"], "orders.outside", rej)
        if out is not None:
            do_outside(ctx, seat, out)
    if "inside" in orders:
        ins = check_inside(ctx.pack, ctx.s, seat, orders["inside"], "orders.inside", rej)
        if ins is not None:
            do_inside(ctx, seat, ins)


def suffer_as_losers(ctx: Ctx, space: str, rule: str = "R-10") -> None:
    """R-10: when a siege of a major city completes, the units inside suffer as battle
    losers (:func:`pbem.rules.combat.defeat`)."""
    rec = inside_rec(ctx.s, space)
    if rec and wholly_inside(ctx.s, rec["seat"], space):
        from pbem.rules.combat import defeat
        defeat(ctx, rec["seat"], space, rule)
