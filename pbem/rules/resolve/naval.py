"""Fleets and naval battles (R-15, R-8.2).

A fleet belongs to whoever controls its home province (or the space Athenai); it drops to
its printed strength when dispersed or changing hands. A naval battle may be declared
against another player's naval move (never on trans-Mediterranean paths, never at the
embarkation port) when the moving force comes within ``naval_declare_range`` sea paths
of a garrison of the declaring player. Declarations come from standing orders
``{when: naval_battle, against: [seat], fleets: [fleet id]}`` or, with the game option
``ask_windows``, from a ``naval_battle`` reaction window (answer
``{naval_battle: {fleets: [fleet]}}`` or ``{naval_battle: none}``).
"""
from __future__ import annotations

from typing import Any

from pbem.pack.model import Pack
from pbem.rules.context import Ctx
from pbem.rules.core.board import sea_steps
from pbem.rules.core.control import fleet_strength, fleet_strength_cap, fleets_of
from pbem.rules.core.pack import chart_dice, chart_read, const
from pbem.rules.core.state import State
from pbem.rules.resolve.effects import emit_move, note_attack
from pbem.rules.resolve.reactions import PAUSE, _decide, _order_after


def upgrade_fleet(ctx: Ctx, seat: str, fleet: str, card: int | None,
                  step: int | None = None) -> None:
    """R-8.2: add ``step`` (default ``fleet_upgrade_step``; a card event gives its own,
    R-16) to ``fleet`` (never beyond :func:`fleet_strength_cap`); the upgrade holds while
    ``seat`` owns it (R-15). Event: FleetUpgraded."""
    pack, s = ctx.pack, ctx.s
    base = pack.fleets[fleet].strength
    now = fleet_strength(pack, s, fleet)
    step = int(const(pack, "fleet_upgrade_step")) if step is None else step
    new = min(now + step, fleet_strength_cap(pack))
    ctx.emit("FleetUpgraded", {"seat": seat, "fleet": fleet, "card": card,
                               "upgrade": max(0, new - base), "strength": new,
                               "rule": "R-8.2"})


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


def naval_challenge(ctx: Ctx, c: dict, cur: dict) -> str:
    """At the landing of a naval move: every other seat (in turn order) who may declare
    (:func:`may_declare`) and whose standing order declares a naval battle, or who
    declares in a ``naval_battle`` reaction window (game option ``ask_windows``), fights
    one (R-15, an attack R-11.4). Each side rolls 2d6 on the ``naval`` chart with its
    total fleet strength; higher wins; the loser's fleets are dispersed; a losing mover
    goes back to the embarkation port and its move ends. Returns ``"turned_back"``,
    ``"none"`` or ``"pause"`` (a window opened; resumable: seats asked are in
    ``cur["asked"]``)."""

    pack, s, mover = ctx.pack, ctx.s, c["seat"]
    if cur["kind"] != "naval" or "naval" not in pack.charts:
        return "none"
    mv = c["moves"][c["i"]]
    start, path = mv["army"], mv["path"]
    for rseat in _order_after(s, mover):
        if rseat in cur["asked"]:
            continue
        ready = fleets_of(pack, s, rseat)
        if not ready or not may_declare(pack, s, rseat, start, path):
            cur["asked"].append(rseat)
            continue

        def match(o: dict, ready: list[str] = ready) -> list[str] | None:
            if o.get("when") != "naval_battle" or (o.get("against")
                                                   and mover not in o["against"]):
                return None
            return [f for f in (o.get("fleets") or ready) if f in ready] or None

        choice = _decide(ctx, c, cur, "naval_battle", rseat, ready, match, rule="R-15")
        if choice == PAUSE:
            return "pause"
        cur["asked"].append(rseat)
        mine = [f for f in (choice or []) if f in fleets_of(pack, s, rseat)]
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
            return "turned_back"
    return "none"
