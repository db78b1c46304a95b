"""Fleets and naval battles (R-15, R-1.4 strongest fleet).

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


def fleet_strength_cap(pack: Pack) -> int:
    """R-8.2 [D]: the most a fleet may be upgraded to, the largest strength column of the
    pack's ``naval`` chart (``"6+"`` → 6): a stronger fleet would read the same column.
    Raises KeyError when the pack has no naval chart."""
    best = 0
    for label in pack.charts["naval"].columns:
        text = str(label).strip().rstrip("+")
        top = text.rsplit("-", 1)[-1] if "-" in text[1:] else text
        if top.isdigit():
            best = max(best, int(top))
    return best


def resolve_fleet(pack: Pack, text: object) -> str | None:
    """Fleet id from an id or a name, case-insensitive (R-15), else None."""
    from pbem.rules.mapinfo import resolve_id
    return resolve_id(pack.fleets, text)


def why_no_fleet_upgrade(pack: Pack, s: State, seat: str, fleet: str) -> str | None:
    """None when ``seat`` may upgrade ``fleet`` now (R-8.2: a fleet he controls, R-15),
    else the reason: another owner, or the fleet is already at
    :func:`fleet_strength_cap`."""
    f = pack.fleets[fleet]
    owner = fleet_owner(pack, s, fleet)
    if owner != seat:
        home = pack.provinces[f.home].name if f.home in pack.provinces else \
            pack.spaces[f.home].name if f.home in pack.spaces else f.home
        return (f"the {f.name} belongs to {owner or 'nobody'}: a fleet belongs to whoever "
                f"controls {home}")
    cap = fleet_strength_cap(pack)
    if fleet_strength(pack, s, fleet) >= cap:
        return f"the {f.name} is already at strength {cap}, the largest the naval table reads"
    return None


def upgradable_fleets(pack: Pack, s: State, seat: str) -> list[str]:
    """Fleet ids ``seat`` may upgrade with a Tyche card now (R-8.2)."""
    if "naval" not in pack.charts:
        return []
    return sorted(f for f in pack.fleets if why_no_fleet_upgrade(pack, s, seat, f) is None)


def upgrade_fleet(ctx: Ctx, seat: str, fleet: str, card: int | None) -> None:
    """R-8.2: add ``fleet_upgrade_step`` to ``fleet`` (never beyond
    :func:`fleet_strength_cap`); the upgrade holds while ``seat`` owns it (R-15).
    Event: FleetUpgraded."""
    pack, s = ctx.pack, ctx.s
    base = pack.fleets[fleet].strength
    now = fleet_strength(pack, s, fleet)
    new = min(now + int(const(pack, "fleet_upgrade_step")), fleet_strength_cap(pack))
    ctx.emit("FleetUpgraded", {"seat": seat, "fleet": fleet, "card": card,
                               "upgrade": max(0, new - base), "strength": new,
                               "rule": "R-8.2"})


def has_upgrades(s: State) -> bool:
    """True when some fleet carries an upgrade (R-8.2)."""
    return any(f.get("upgrade") for f in ((s.get("war") or {}).get("fleets") or {}).values())


def drop_lost_upgrades(ctx: Ctx) -> None:
    """R-15: a fleet drops to its printed strength when it changes hands: every upgraded
    fleet whose owner is no longer the seat that upgraded it loses its upgrade (called
    after each event by :meth:`pbem.rules.context.Ctx.emit`). Event: FleetUpgradeLost."""
    pack, s = ctx.pack, ctx.s
    for fid, f in sorted(((s.get("war") or {}).get("fleets") or {}).items()):
        if not f.get("upgrade") or fid not in pack.fleets:
            continue
        owner = fleet_owner(pack, s, fid)
        if owner != f.get("owner"):
            ctx.emit("FleetUpgradeLost", {"fleet": fid, "seat": f.get("owner"),
                                          "owner": owner,
                                          "strength": pack.fleets[fid].strength,
                                          "rule": "R-15"})


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


def naval_challenge(ctx: Ctx, c: dict, cur: dict) -> str:
    """At the landing of a naval move: every other seat (in turn order) who may declare
    (:func:`may_declare`) and whose standing order declares a naval battle, or who
    declares in a ``naval_battle`` reaction window (game option ``ask_windows``), fights
    one (R-15, an attack R-11.4). Each side rolls 2d6 on the ``naval`` chart with its
    total fleet strength; higher wins; the loser's fleets are dispersed; a losing mover
    goes back to the embarkation port and its move ends. Returns ``"turned_back"``,
    ``"none"`` or ``"pause"`` (a window opened; resumable: seats asked are in
    ``cur["asked"]``)."""
    from pbem.rules.movement import emit_move
    from pbem.rules.reactions import PAUSE, _decide, _order_after

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
