"""Fleets and naval battles (R-15, R-1.4 strongest fleet).

A fleet belongs to whoever controls its home province (or the space Athenai); it drops to
its printed strength when dispersed or changing hands. A naval battle may be declared
against another player's naval move (never on trans-Mediterranean paths, never at the
embarkation port) when the moving force comes within ``naval_declare_range`` sea paths
of a garrison of the declaring player. Declarations come from standing orders
``{when: naval_battle, against: [seat], fleets: [fleet id]}``.
"""
from __future__ import annotations

from typing import Any

from pbem.pack.model import Pack
from pbem.rules.combat import chart_read, note_attack
from pbem.rules.constants import chart_dice, const
from pbem.rules.context import Ctx
from pbem.rules.mapinfo import info

State = dict[str, Any]


def fleet_owner(pack: Pack, s: State, fleet: str) -> str | None:
    """The seat owning ``fleet`` (R-15); see :func:`pbem.rules.control.fleet_owner`."""
    from pbem.rules.control import fleet_owner as owner
    return owner(pack, s, fleet)


def fleet_strength(pack: Pack, s: State, fleet: str) -> int:
    """Printed strength plus upgrades kept while the same seat owns it (R-15)."""
    f = ((s.get("war") or {}).get("fleets") or {}).get(fleet) or {}
    base = pack.fleets[fleet].strength
    if f.get("owner") and f["owner"] == fleet_owner(pack, s, fleet):
        return base + int(f.get("upgrade", 0))
    return base


def fleet_ready(s: State, fleet: str) -> bool:
    """False while a fleet dispersed this turn is in the dispersed box [D]."""
    f = ((s.get("war") or {}).get("fleets") or {}).get(fleet) or {}
    return f.get("dispersed_turn") != s["turn"]


def fleets_of(pack: Pack, s: State, seat: str, ready_only: bool = True) -> list[str]:
    """Fleet ids owned by ``seat`` (only those not dispersed this turn by default)."""
    return sorted(f for f in pack.fleets if fleet_owner(pack, s, f) == seat
                  and (fleet_ready(s, f) or not ready_only))


def sea_steps(pack: Pack, sources: set[str], limit: int) -> set[str]:
    """Ports within ``limit`` sea paths of ``sources``."""
    seen = set(sources)
    frontier = set(sources)
    for _ in range(limit):
        nxt = set()
        for x in frontier:
            for y, kind in info(pack).adjacent.get(x, ()):
                if kind == "sea" and y not in seen:
                    nxt.add(y)
        seen |= nxt
        frontier = nxt
    return seen


def may_declare(pack: Pack, s: State, seat: str, start: str, path: list[str]) -> bool:
    """R-15: ``seat`` may declare a naval battle against a naval move from ``start`` along
    ``path`` when a space of the move other than the embarkation port lies within
    ``naval_declare_range`` sea paths of one of its garrisons, and it has a fleet ready."""
    if not fleets_of(pack, s, seat):
        return False
    mine = {x for x, o in s["garrisons"].items() if o == seat and pack.spaces[x].port}
    near = sea_steps(pack, mine, int(const(pack, "naval_declare_range")))
    return any(x in near for x in path if x != start)


def _score(ctx: Ctx, side: str, strength: int, label: str) -> dict[str, Any]:
    dice = list(ctx.roll(chart_dice(ctx.pack, "naval")[0], f"naval battle: {label} ({side})", "R-15"))
    if strength <= 0:
        return {"side": side, "strength": 0, "dice": dice, "score": 0, "read": None}
    score, rec = chart_read(ctx.pack, "naval", sum(dice), strength)
    return {"side": side, "strength": strength, "dice": dice, "score": int(score),
            "read": rec}


def naval_challenge(ctx: Ctx, c: dict, cur: dict) -> bool:
    """At the landing of a naval move: every other seat (in turn order) whose standing
    order declares a naval battle and who may declare (:func:`may_declare`) fights one
    (R-15, an attack R-11.4). Each side rolls 2d6 on the ``naval`` chart with its total
    fleet strength; higher wins; the loser's fleets are dispersed; a losing mover goes
    back to the embarkation port and its move ends. Returns True when turned back."""
    from pbem.rules.movement import emit_move
    from pbem.rules.reactions import _order_after, war_get

    pack, s, mover = ctx.pack, ctx.s, c["seat"]
    if cur["kind"] != "naval" or "naval" not in pack.charts:
        return False
    mv = c["moves"][c["i"]]
    start, path = mv["army"], mv["path"]
    for rseat in _order_after(s, mover):
        order = next((o for o in war_get(s, "standing", {}).get(rseat, [])
                      if o.get("when") == "naval_battle"
                      and (not o.get("against") or mover in o["against"])), None)
        if order is None or not may_declare(pack, s, rseat, start, path):
            continue
        mine = [f for f in (order.get("fleets") or fleets_of(pack, s, rseat))
                if f in fleets_of(pack, s, rseat)]
        escort = [f for f in (mv.get("escort") or fleets_of(pack, s, mover))
                  if f in fleets_of(pack, s, mover)]
        if not mine:
            continue
        note_attack(ctx, rseat, mover, "naval battle")
        ctx.emit("NavalBattleDeclared", {"seat": rseat, "mover": mover, "fleets": mine,
                                         "escort": escort, "space": cur["space"],
                                         "rule": "R-15"})
        d = _score(ctx, rseat, sum(fleet_strength(pack, s, f) for f in mine), "declarer")
        m = _score(ctx, mover, sum(fleet_strength(pack, s, f) for f in escort), "mover")
        result = "declarer" if d["score"] > m["score"] else \
            "mover" if m["score"] > d["score"] else "tie"
        ctx.emit("FleetsFought", {"space": cur["space"], "declarer": rseat, "mover": mover,
                                  "sides": [d, m], "result": result, "rule": "R-15"})
        if result == "tie":
            continue
        losers = escort if result == "declarer" else mine
        for f in losers:
            ctx.emit("FleetDispersed", {"fleet": f, "turn": s["turn"], "rule": "R-15"})
        if result == "declarer":
            emit_move(ctx, mover, cur["space"], start, cur["group"], "R-15",
                      why="naval battle lost: back to the embarkation port")
            cur["space"] = start
            cur["prev"] = None
            return True
    return False
