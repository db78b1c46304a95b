"""Reinforcements and their placement (R-7), the movement-segment mercenary (R-8.7),
marking CUs / dispersal of unmarked CUs (R-4.2) and minor generals (R-5).
"""
from __future__ import annotations

from typing import Any

from pbem.pack.model import Pack
from pbem.rules.constants import const
from pbem.rules.context import Ctx
from pbem.rules.control import legitimacy_points, province_controller, victory_points
from pbem.rules.state import SEATS

State = dict[str, Any]


def cus_of(s: State, seat: str, space: str) -> int:
    """Number of ``seat``'s CUs in ``space``."""
    return sum(s["cus"].get(space, {}).get(seat, {}).values())


def generals_at(s: State, seat: str, space: str) -> list[str]:
    """Ids of ``seat``'s major generals on the map in ``space``."""
    return sorted(g for g, v in s["generals"].items()
                  if v["where"] == "map" and v["space"] == space and v["seat"] == seat)


def has_enemy_units(s: State, seat: str, space: str) -> bool:
    """True when another seat (or an independent army) has CUs or a general in ``space``."""
    for other, cus in s["cus"].get(space, {}).items():
        if other != seat and sum(cus.values()):
            return True
    for v in s["generals"].values():
        if v["where"] == "map" and v["space"] == space and v["seat"] != seat:
            return True
    if any(space in sp for o, sp in s["minors"].items() if o != seat):
        return True
    return any(a["space"] == space for a in s["indep_armies"].values())


def has_general(s: State, seat: str, space: str) -> bool:
    """True when ``seat`` has a major or minor general in ``space``."""
    return bool(generals_at(s, seat, space)) or space in s["minors"].get(seat, [])


def free_minor_generals(pack: Pack, s: State, seat: str) -> int:
    """Minor generals ``seat`` has off the map (R-5: four in all)."""
    return const(pack, "minor_generals") - len(s["minors"].get(seat, []))


def placement_targets(pack: Pack, s: State, seat: str,
                      placed: dict[str, int] | None = None) -> dict[str, str]:
    """Spaces where ``seat`` may place one more reinforcement CU now (R-7.2).

    ``placed`` counts CUs already placed this phase per province. Returns
    ``{space_id: "normal" | "overflow"}``: normal targets are friendly-controlled spaces
    and spaces with his general, without enemy units ([L]), at most
    ``reinforcement_per_province`` per province except on a friendly major city; overflow
    targets (only when there is no normal one) are uncontrolled or independent non-transit
    spaces of provinces no other seat controls, same per-province limit, needing a free
    minor general when no general of his is there.
    """
    placed = placed or {}
    limit = const(pack, "reinforcement_per_province")
    mine_gen = general_spaces(s, seat)
    hostile = enemy_unit_spaces(s, seat)
    out: dict[str, str] = {}
    for sid, sp in pack.spaces.items():
        mine = s["garrisons"].get(sid) == seat
        if not (mine or sid in mine_gen) or sid in hostile:
            continue
        if unlimited_city(pack, s, seat, sid) or placed.get(sp.province, 0) < limit:
            out[sid] = "normal"
    if out:
        return out
    free = free_minor_generals(pack, s, seat) > 0
    owners: dict[str, str | None] = {}
    for sid, sp in pack.spaces.items():
        if sp.kind == "transit" or sid in s["garrisons"] or sid in hostile:
            continue
        if sp.province not in owners:
            owners[sp.province] = province_controller(pack, s, sp.province)
        if owners[sp.province] not in (None, seat):
            continue
        if placed.get(sp.province, 0) >= limit:
            continue
        if sid in mine_gen or free:
            out[sid] = "overflow"
    return out


def general_spaces(s: State, seat: str) -> set[str]:
    """Spaces with a major or minor general of ``seat``."""
    out = {v["space"] for v in s["generals"].values()
           if v["where"] == "map" and v["seat"] == seat}
    return out | set(s["minors"].get(seat, []))


def enemy_unit_spaces(s: State, seat: str) -> set[str]:
    """Spaces where another seat has CUs or a general, or an independent army stands.
    R-7.2: a seat whose units there are all inside a major city does not count (a
    general besieging it may receive reinforcements), so CUs are never placed inside a
    major city while another player has CUs outside it."""
    from pbem.rules.inside import wholly_inside
    out = {x for x, by in s["cus"].items()
           if any(o != seat and sum(c.values()) and not wholly_inside(s, o, x)
                  for o, c in by.items())}
    out |= {v["space"] for v in s["generals"].values()
            if v["where"] == "map" and v["seat"] != seat
            and not wholly_inside(s, v["seat"], v["space"])}
    out |= {x for o, ms in s["minors"].items() if o != seat for x in ms
            if not wholly_inside(s, o, x)}
    out |= {a["space"] for a in s["indep_armies"].values() if a["space"]}
    return out


def unlimited_city(pack: Pack, s: State, seat: str, space: str) -> bool:
    """R-7.2: ``space`` is an unbesieged major city ``seat`` controls, where any number of
    reinforcements may be placed (besieged: by another player's units outside or an
    independent army standing there, R-14; :func:`pbem.rules.inside.besieger`)."""
    from pbem.rules.inside import besieger
    return (pack.spaces[space].kind == "major_city" and s["garrisons"].get(space) == seat
            and besieger(pack, s, space) is None)


def count_placement(pack: Pack, s: State, seat: str, space: str,
                    placed: dict[str, int]) -> None:
    """Count a CU placed in ``space`` against its province's limit (R-7.2), except on
    ``seat``'s own unbesieged major city (no limit there)."""
    if unlimited_city(pack, s, seat, space):
        return
    prov = pack.spaces[space].province
    placed[prov] = placed.get(prov, 0) + 1


def default_target(pack: Pack, s: State, seat: str, targets: dict[str, str]) -> str | None:
    """The default space for a reinforcement [D]: a space with his major general (most
    CUs first), else his major city, else any target; ties by space id."""
    if not targets:
        return None

    def key(x: str) -> tuple:
        return (not generals_at(s, seat, x), pack.spaces[x].kind != "major_city",
                targets[x] != "normal", -cus_of(s, seat, x), x)
    return min(targets, key=key)


def place_cus(ctx: Ctx, seat: str, space: str | None, cus: dict[str, int], rule: str,
              why: str, from_dispersed: bool = False) -> None:
    """Place CUs (already checked against :func:`placement_targets`), adding a minor
    general when the space has no general or garrison of ``seat`` (R-4.2). ``space`` None
    means no legal space: new CUs go to the dispersed box [D]."""
    if space is None:
        if not from_dispersed:
            ctx.emit("DispersedAdded", {"seat": seat, "cus": cus, "rule": rule,
                                        "why": why + ": no space to place them"})
        return
    s = ctx.s
    if not has_general(s, seat, space) and s["garrisons"].get(space) != seat:
        ctx.emit("MinorGeneralPlaced", {"seat": seat, "space": space, "rule": "R-5"})
    ctx.emit("CUsPlaced", {"seat": seat, "space": space, "cus": cus, "rule": rule,
                           "why": why, "from_dispersed": from_dispersed})


def raise_mercenary(ctx: Ctx, seat: str, space: str | None) -> None:
    """R-8.7: the movement segment is spent raising mercenary CUs placed as reinforcements
    (R-7.2). ``space`` None picks :func:`default_target`."""
    n = const(ctx.pack, "movement_mercenary_cus")
    for _ in range(n):
        targets = placement_targets(ctx.pack, ctx.s, seat)
        where = space if space in targets else default_target(ctx.pack, ctx.s, seat, targets)
        ctx.emit("MercenaryRaised", {"seat": seat, "space": where, "rule": "R-8.7"})
        place_cus(ctx, seat, where, {"mercenary": 1}, "R-8.7", "mercenary raised")


def reinforcement_counts(pack: Pack, s: State) -> dict[str, dict[str, int]]:
    """R-7.1: new CUs per seat by type: mercenaries for all; a loyal CU for Macedonia's
    controller; a loyal CU for the single seat with most LP (tie: nobody); mercenaries for
    the single seat with most VP, or fewer to each seat tied for most. Rule option
    ``lp_bonus_tie: seniority`` [L]: a tie for most LP goes to the tied seat with the
    most senior major general in play."""
    out = {seat: {"mercenary": const(pack, "reinforcement_mercenaries")} for seat in SEATS}

    def add(seat: str, t: str, n: int) -> None:
        if n:
            out[seat][t] = out[seat].get(t, 0) + n
    mac = province_controller(pack, s, const(pack, "macedonia_province"))
    if mac:
        add(mac, "loyal", const(pack, "reinforcement_macedonia_bonus"))
    lp = legitimacy_points(pack, s)
    top = [x for x in SEATS if lp[x] == max(lp.values())]
    if len(top) > 1 and s.get("options", {}).get("lp_bonus_tie") == "seniority":
        from pbem.rules.victory import best_seniority
        best = min(best_seniority(pack, s, x) for x in top)
        top = [x for x in top if best_seniority(pack, s, x) == best]
    if len(top) == 1:
        add(top[0], "loyal", const(pack, "reinforcement_lp_bonus"))
    vp = victory_points(pack, s)
    top = [x for x in SEATS if vp[x] == max(vp.values())]
    if len(top) == 1:
        add(top[0], "mercenary", const(pack, "reinforcement_vp_bonus"))
    else:
        for x in top:
            add(x, "mercenary", const(pack, "reinforcement_vp_tie_bonus"))
    return out


def reinforcement_phase(ctx: Ctx) -> None:
    """R-7 opening: grant the turn's new CUs (R-7.1, ``ReinforcementsGranted``), bring
    back dispersed major generals (R-7.3) and open one ``reinforcements`` decision per
    seat in turn order (``ReinforcementQueued``); :mod:`pbem.rules.reinforce_orders`
    handles each seat's placement."""
    pack, s = ctx.pack, ctx.s
    ctx.emit("PhaseStarted", {"phase": "reinforcement", "rule": "R-7"})
    counts = reinforcement_counts(pack, s)
    for seat in s["turn_order"]:
        _arrive_generals(ctx, seat)
    _arrive_track_generals(ctx)
    ctx.emit("ReinforcementsGranted", {"cus": counts, "queue": list(s["turn_order"]),
                                       "rule": "R-7.1"})


def auto_placement(pack: Pack, s: State, seat: str, new: dict[str, int],
                   back: dict[str, int]) -> list[dict[str, Any]]:
    """The default placement [D]: new CUs then dispersed ones, one at a time at
    :func:`default_target` (dispersed CUs without a space stay in the box). Returns
    ``[{"space": id, "cus": {type: n}}]`` in order, merged per space. Reads ``s`` only."""
    from copy import deepcopy

    sim = {k: s[k] for k in s}
    sim["cus"] = deepcopy(s["cus"])
    sim["minors"] = deepcopy(s["minors"])
    placed: dict[str, int] = {}
    out: dict[str, dict[str, int]] = {}
    units = [t for t, n in sorted(new.items()) for _ in range(n)]
    units += [t for t, n in sorted(back.items()) for _ in range(n)]
    for t in units:
        where = default_target(pack, sim, seat, placement_targets(pack, sim, seat, placed))
        if where is None:
            continue
        if not has_general(sim, seat, where) and sim["garrisons"].get(where) != seat:
            sim["minors"].setdefault(seat, []).append(where)
        at = sim["cus"].setdefault(where, {}).setdefault(seat, {})
        at[t] = at.get(t, 0) + 1
        count_placement(pack, sim, seat, where, placed)
        out.setdefault(where, {})
        out[where][t] = out[where].get(t, 0) + 1
    return [{"space": x, "cus": c} for x, c in out.items()]


def _general_spot(ctx: Ctx, seat: str) -> str | None:
    s = ctx.s
    spots = [x for x, o in s["garrisons"].items() if o == seat
             and not has_enemy_units(s, seat, x)]
    if not spots:
        return None
    return min(spots, key=lambda x: (ctx.pack.spaces[x].kind != "major_city",
                                     -cus_of(s, seat, x), x))


def _arrive_generals(ctx: Ctx, seat: str) -> None:
    for gid, g in sorted(ctx.s["generals"].items()):
        if g["where"] == "dispersed" and g["seat"] == seat:
            spot = _general_spot(ctx, seat)
            if spot:
                ctx.emit("GeneralPlaced", {"general": gid, "seat": seat, "where": "map",
                                           "space": spot, "rule": "R-7.3"})


def _arrive_track_generals(ctx: Ctx) -> None:
    """R-7.3 [D]: a general on the turn track whose arrival turn has come joins the
    seat with fewest VP (ties: turn order) at one of its garrisons."""
    s = ctx.s
    for gid, g in sorted(s["generals"].items()):
        pg = ctx.pack.generals.get(gid)
        if g["where"] != "track" or not pg or not pg.arrival_turn:
            continue
        if pg.arrival_turn > s["turn"]:
            continue
        vp = victory_points(ctx.pack, s)
        seat = min(s["turn_order"], key=lambda x: (vp[x], s["turn_order"].index(x)))
        spot = _general_spot(ctx, seat)
        if spot:
            ctx.emit("GeneralPlaced", {"general": gid, "seat": seat, "where": "map",
                                       "space": spot, "rule": "R-7.3",
                                       "decision": "[D] joins the seat with fewest VP"})


def tidy_markings(ctx: Ctx, seat: str) -> None:
    """R-4.2/R-5 after a player-turn: a minor general with no CUs or with a friendly major
    general leaves the map; CUs with no general, garrison or minor general of their owner
    get a free minor general [D], else go to the dispersed box."""
    s = ctx.s
    for space in list(s["minors"].get(seat, [])):
        if cus_of(s, seat, space) == 0 or generals_at(s, seat, space):
            ctx.emit("MinorGeneralRemoved", {"seat": seat, "space": space, "rule": "R-5"})
    for space in sorted(s["cus"]):
        if cus_of(s, seat, space) == 0 or has_general(s, seat, space) \
                or s["garrisons"].get(space) == seat:
            continue
        if free_minor_generals(ctx.pack, s, seat) > 0:
            ctx.emit("MinorGeneralPlaced", {"seat": seat, "space": space, "rule": "R-4.2"})
        else:
            ctx.emit("CUsDispersed", {"seat": seat, "space": space,
                                      "cus": dict(s["cus"][space][seat]), "rule": "R-4.2"})
