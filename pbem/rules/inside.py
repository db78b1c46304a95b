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

Coming out while another faction stands outside (``outside`` or a move picking up inside
units) is a sally: a battle, the sallying side attacking (:func:`sally`). Who besieges a
city (another player's CUs outside, or an independent army, R-14) is
:func:`besieger`; besieged royal CUs may desert on a siege point
(:func:`besieged_royals_desert`, R-4.3).
"""
from __future__ import annotations

import contextlib
import contextvars
import difflib
from collections.abc import Iterator
from typing import Any

from pbem.pack.model import Pack
from pbem.rules.constants import const
from pbem.rules.context import Ctx
from pbem.rules.mapinfo import space_or_reject
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
    sid = space_or_reject(pack, raw, where, rej)
    if sid is None:
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
    seen: dict[str, Any] = {}
    for city, units in raw.items():
        w = f"{where}.{city}"
        sid = _city(pack, s, seat, city, w, rej)
        if sid is None:
            continue
        name = pack.spaces[sid].name
        if sid in seen:
            _rej(rej, "inside.duplicate", f"{name} is given twice ({seen[sid]!r} and "
                 f"{city!r})", w, f"list {name} once with all its units, e.g. inside: "
                 f"{{{name}: {{loyal: 1, mercenary: 1}}}}")
            continue
        seen[sid] = city
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
                        outside = sorted(
                            pack.generals[x].name for x, v in s["generals"].items()
                            if x in pack.generals and v.get("where") == "map"
                            and v.get("space") == sid and v.get("seat") == seat
                            and x not in inside_generals(s, seat, sid))
                        _rej(rej, "inside.no_such_units", f"{gtxt!r} is no general of "
                             f"yours outside in {name}", f"{w}.generals[{i}]",
                             ("your generals outside there: " + ", ".join(outside))
                             if outside else f"none of your generals is outside in {name}")
                        continue
                    if g in gens:
                        _rej(rej, "inside.duplicate", f"{pack.generals[g].name} is listed "
                             "twice", f"{w}.generals[{i}]", "list each general once")
                        continue
                    gens.append(g)
                continue
            from pbem.rules.units import is_unit_type, unit_types  # specials
            if not is_unit_type(pack, k):
                close = difflib.get_close_matches(str(k), unit_types(pack), n=1)
                _rej(rej, "inside.unknown_cu_type", f"there is no CU type {k!r}",
                     f"{w}.{k}", f"did you mean {close[0]}?" if close else
                     "types: " + ", ".join(sorted(unit_types(pack))))
                continue
            if not isinstance(v, int) or isinstance(v, bool) or v < 1:
                _rej(rej, "inside.bad_count", f"{k} must be a whole number of CUs ≥ 1",
                     f"{w}.{k}", f"{k}: 1")
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
    While another faction's units stand outside this is a sally: a battle with the
    sallying side as attacker (:func:`sally`, rulebook 13.6: two factions in a space
    after a move fight)."""
    items = raw if isinstance(raw, list) else [raw]
    n0, plan = len(rej), []
    mine = sorted(pack.spaces[x].name for x, r in (s.get("inside") or {}).items()
                  if r.get("seat") == seat and x in pack.spaces)
    for i, city in enumerate(items):
        w = f"{where}[{i}]"
        sid = space_or_reject(pack, city, w, rej)
        if sid is None:
            continue
        name = pack.spaces[sid].name
        if sid in plan:
            _rej(rej, "inside.duplicate", f"{name} is listed twice: its units come out "
                 "once", w, f"outside: [{name}]")
            continue
        if not inside_cus(s, seat, sid) and not inside_generals(s, seat, sid):
            _rej(rej, "inside.nothing_inside", f"you have no units inside {name}", w,
                 ("your units are inside " + ", ".join(mine)) if mine else
                 "you have no units inside any city: leave out outside")
            continue
        plan.append(sid)
    return plan if len(rej) == n0 else None


def do_outside(ctx: Ctx, seat: str, plan: list[str]) -> None:
    """``UnitsCameOut`` for every city in ``plan`` (R-5); against an enemy outside it is
    a sally (:func:`sally`)."""
    from pbem.rules.combat import enemy_of

    for sid in plan:
        if enemy_of(ctx.s, seat, sid) is not None:
            sally(ctx, seat, sid)
            continue
        ctx.emit("UnitsCameOut", {"seat": seat, "space": sid,
                                  "cus": inside_cus(ctx.s, seat, sid),
                                  "generals": inside_generals(ctx.s, seat, sid),
                                  "rule": RULE})


def sally(ctx: Ctx, seat: str, space: str) -> str:
    """R-5 (rulebook 13.6) sally: every unit of ``seat`` inside the major city ``space``
    comes out (``UnitsCameOut``, ``Sallied``) and, another faction's units standing
    outside, fights a battle as the attacker (an attack, R-11.4), ``came_from`` being
    the city itself. A tie sends the survivors back inside (``UnitsWentInside``);
    they always fit, having come from there, but CUs over the capacity would stay
    outside [D]. Returns the battle result."""
    from pbem.rules.combat import battle, enemy_of, note_attack

    s = ctx.s
    enemy = enemy_of(s, seat, space)
    cus, gens = inside_cus(s, seat, space), inside_generals(s, seat, space)
    ctx.emit("UnitsCameOut", {"seat": seat, "space": space, "cus": cus,
                              "generals": gens, "rule": RULE})
    if enemy is None:
        return "none"
    ctx.emit("Sallied", {"seat": seat, "space": space, "enemy": enemy, "cus": cus,
                         "generals": gens, "rule": RULE})
    note_attack(ctx, seat, enemy, "sally")
    result = battle(ctx, seat, enemy, space, space, why="sally")
    if result == "tie":
        from pbem.rules.reinforcement import generals_at
        have = {t: n for t, n in (s["cus"].get(space, {}).get(seat) or {}).items() if n}
        back: dict[str, int] = {}
        room = capacity(ctx.pack)
        for t in sorted(have):
            k = min(have[t], room)
            if k:
                back[t], room = k, room - k
        back_gens = [g for g in gens if g in generals_at(s, seat, space)]
        if (back or back_gens) and s["garrisons"].get(space) == seat:
            ctx.emit("UnitsWentInside", {"seat": seat, "space": space, "cus": back,
                                         "generals": back_gens, "rule": RULE,
                                         "why": "sally tied: back inside"})
    return result


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


def besieger(pack: Pack, s: State, space: str) -> str | None:
    """Who besieges the major city ``space`` (R-7.2, R-10, R-14): an independent army
    standing there (R-14: ending its move in a major city counts as a siege), else a
    player other than the city's controller (or the seat inside) with units outside it;
    None when the city is unbesieged or ``space`` is no major city."""
    from pbem.rules.combat import INDEP, indep_at

    if pack.spaces[space].kind != "major_city":
        return None
    if indep_at(s, space):
        return INDEP
    rec = inside_rec(s, space)
    held = s["garrisons"].get(space) or (rec["seat"] if rec else None)
    for other, cus in sorted(s["cus"].get(space, {}).items()):
        if other != held and sum(cus.values()) and not wholly_inside(s, other, space):
            return other
    return None


def besieged_royals_desert(ctx: Ctx, seat: str, space: str) -> None:
    """R-4.3 last sentence: when ``seat`` scores a siege point against the major city
    ``space``, the royal CUs besieged inside it desert if their side has less
    legitimacy (faction LP + commander's prestige, holy ground for the besieged, as in
    :func:`pbem.rules.combat.side_legitimacy`): ``BesiegedRoyalCUsDeserted``, they join
    the besieging army in the space [D]. Equal legitimacy: nobody deserts."""
    from pbem.rules.combat import INDEP, side_legitimacy

    rec = inside_rec(ctx.s, space)
    if seat == INDEP or not rec or rec["seat"] == seat or ctx.pack.spaces[
            space].kind != "major_city":
        return
    n = rec["cus"].get("royal", 0)
    if not n or not sum(ctx.s["cus"].get(space, {}).get(seat, {}).values()):
        return  # no royal CUs inside, or no besieging army left to join
    them = rec["seat"]
    lb = side_legitimacy(ctx.pack, ctx.s, seat, space, False)
    ld = side_legitimacy(ctx.pack, ctx.s, them, space, True)
    if ld >= lb:
        return
    ctx.emit("BesiegedRoyalCUsDeserted", {"from": them, "to": seat, "space": space,
                                          "count": n, "legitimacy": {seat: lb, them: ld},
                                          "rule": "R-4.3"})


_SITTING_OUT: contextvars.ContextVar[tuple[str, str] | None] = contextvars.ContextVar(
    "pbem_inside_sitting_out", default=None)


@contextlib.contextmanager
def sitting_out(seat: str | None, space: str) -> Iterator[None]:
    """While a battle in ``space`` is resolved, the units of ``seat`` inside the city
    stay out of it (R-9.2: inside units *may* join; ``seat`` None: they join). Battle
    code then sees only ``seat``'s units outside (:func:`sits_out`)."""
    token = _SITTING_OUT.set((seat, space) if seat else None)
    try:
        yield
    finally:
        _SITTING_OUT.reset(token)


def sits_out(seat: str, space: str) -> bool:
    """True while ``seat``'s units inside ``space`` stay out of the battle being fought
    (R-9.2, :func:`sitting_out`)."""
    return _SITTING_OUT.get() == (seat, space)

