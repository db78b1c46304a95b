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
from pbem.rules.resolve.reactions import (
    PAUSE,
    _decide,
    _order_after,
    plays_of,
    surprise_window,
)
from pbem.rules.resolve.surprises import find_play, play


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


def near_garrisons(pack: Pack, s: State, seat: str, start: str, path: list[str]) -> bool:
    """R-15: a space of the naval move from ``start`` along ``path``, other than the
    embarkation port, lies within ``naval_declare_range`` sea paths of one of ``seat``'s
    port garrisons. [D] Such a move also concerns ``seat`` for the surprise cards
    (R-8.5: Storm at Sea)."""
    mine = {x for x, o in s["garrisons"].items() if o == seat and pack.spaces[x].port}
    if not mine:
        return False
    near = sea_steps(pack, mine, int(const(pack, "naval_declare_range")))
    return any(x in near for x in path if x != start)


def may_declare(pack: Pack, s: State, seat: str, start: str, path: list[str]) -> bool:
    """R-15: ``seat`` may declare a naval battle against a naval move from ``start`` along
    ``path`` when a space of the move other than the embarkation port lies within
    ``naval_declare_range`` sea paths of one of its garrisons, and it has a fleet ready."""
    return bool(fleets_of(pack, s, seat)) and near_garrisons(pack, s, seat, start, path)


def cancel_naval_move(ctx: Ctx, c: dict, cur: dict, seat: str, got: tuple[int, str]
                      ) -> None:
    """R-8.5 Storm at Sea (``cancel: naval_move``): ``seat`` plays the card and the naval
    move of the cursor is cancelled before it lands: the army goes back to its
    embarkation port and its move ends there (``NavalMoveCancelled``, ``ArmyMoved``)."""
    mv = c["moves"][c["i"]]
    start = mv["army"]
    play(ctx, seat, got[0], "naval_landing", cur["space"], got[1])
    ctx.emit("NavalMoveCancelled", {"seat": seat, "card": got[0], "mover": c["seat"],
                                    "space": cur["space"], "port": start, "rule": "R-8.5"})
    if cur["space"] != start:
        emit_move(ctx, c["seat"], cur["space"], start, cur["group"], "R-8.5",
                  why="the naval move is cancelled: back in port")
    cur["space"] = start
    cur["prev"] = None


def storm_at_sea(ctx: Ctx, c: dict, cur: dict) -> str:
    """R-8.5: a naval or trans-Mediterranean move of the cursor is about to land. Each
    other seat the move concerns (:func:`near_garrisons`), in turn order, may cancel it
    with a ``cancel: naval_move`` card named in a window answer of this move or by
    standing order ``{when: naval_landing, play: N, against: [..]}``; with
    ``ask_windows`` a seat that no naval-battle window will ask gets a ``surprise``
    window (:func:`pbem.rules.resolve.reactions.surprise_window`). Returns
    ``"cancelled"``, ``"none"`` or ``"pause"`` (resumable: ``cur["storm_asked"]``)."""
    pack, s, mover = ctx.pack, ctx.s, c["seat"]
    mv = c["moves"][c["i"]]
    start, path = mv["army"], mv["path"]
    asked = cur.setdefault("storm_asked", [])
    for rseat in _order_after(s, mover):
        if rseat in asked:
            continue
        if not near_garrisons(pack, s, rseat, start, path):
            asked.append(rseat)
            continue
        got = find_play(ctx, rseat, "naval_landing", plays_of(cur, rseat), cur["space"],
                        mover)
        if got is not None:
            cancel_naval_move(ctx, c, cur, rseat, got)
            return "cancelled"
        battle_asks = cur["kind"] == "naval" and "naval" in pack.charts \
            and bool(fleets_of(pack, s, rseat))
        if not battle_asks and surprise_window(ctx, c, cur, rseat, "naval_landing") == PAUSE:
            return "pause"
        asked.append(rseat)
    return "none"


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
        got = find_play(ctx, rseat, "naval_landing", plays_of(cur, rseat), cur["space"],
                        mover)  # Storm at Sea named in the naval-battle answer
        if got is not None:
            cancel_naval_move(ctx, c, cur, rseat, got)
            return "turned_back"
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
