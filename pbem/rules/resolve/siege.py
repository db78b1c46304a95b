"""Sieges and assaults (R-10, R-8.1 free rolls, R-11.4): assault limits per segment, the
assault table (X/Y), siege points needed, completion and lifting.

Siege points live in ``s["war"]["sieges"]`` (see :mod:`pbem.rules.core.events`); they
vanish when all the besieger's CUs leave the space (the ``ArmyMoved`` reducer lifts them;
:func:`pbem.rules.resolve.effects.lift_abandoned` after losses).
"""
from __future__ import annotations

from typing import Any

from pbem.pack.model import Pack
from pbem.rules.context import Ctx
from pbem.rules.core.armies import group_commander
from pbem.rules.core.pack import chart_dice, chart_read, const
from pbem.rules.core.pieces import cus_at
from pbem.rules.core.state import State, hand_of
from pbem.rules.core.units import assault_modifier
from pbem.rules.resolve.effects import lift_abandoned, lose_cus, note_attack
from pbem.rules.resolve.inside import besieged_royals_desert, suffer_as_losers
from pbem.rules.resolve.royals import capture_in_siege
from pbem.rules.resolve.surprises import find_play, play

LIMITS = {"surrender": "assaults_per_space_surrender", "tyche": "assaults_per_space_tyche",
          "movement": "assaults_per_space_movement"}


def siege_target(pack: Pack, s: State, seat: str, space: str) -> tuple[str | None, int]:
    """What ``seat`` may assault in ``space`` (R-10): ``("independent", points)`` for an
    independent marker (major city / stronghold / minor city), ``(owner, points)`` for
    another player's major city, else ``(None, 0)``."""
    kind = pack.spaces[space].kind
    need = {"major_city": "siege_points_major_city", "stronghold": "siege_points_stronghold",
            "minor_city": "siege_points_independent_minor"}
    if space in s["independent"] and kind in need:
        return "independent", int(const(pack, need[kind]))
    owner = s["garrisons"].get(space)
    if owner and owner != seat and kind == "major_city":
        return owner, int(const(pack, need[kind]))
    return None, 0


def may_complete(pack: Pack, s: State, seat: str, space: str) -> bool:
    """Whether one assault roll of ``seat`` in ``space`` (R-10) may complete the siege
    there: the points so far plus the most points the ``assault`` chart gives in the
    column of its CUs there (any die and modifier) reach the number needed."""
    target, need = siege_target(pack, s, seat, space)
    if target is None:
        return False
    sg = ((s.get("war") or {}).get("sieges") or {}).get(space) or {}
    have = int(sg.get("points", 0)) if sg.get("seat") == seat else 0
    chart = pack.charts.get("assault")
    if chart is None:
        return True
    cus = sum(cus_at(s, seat, space).values())
    best = 0
    for row in chart.rows:
        try:
            cell = chart.lookup(row, cus)
        except (KeyError, ValueError):
            return True
        best = max(best, int(str(cell).split("/")[0]))
    return have + best >= need


def min_assault_cus(pack: Pack, s: State) -> int:
    """CUs an assaulting army needs (R-10; option ``assault_min_cus`` of the game)."""
    return int((s.get("options") or {}).get("assault_min_cus")
               or const(pack, "assault_min_cus"))


def why_no_assault(pack: Pack, s: State, seat: str, space: str, segment: str,
                   used: dict[str, Any], commander: str | None) -> str | None:
    """None when ``seat`` may roll an assault in ``space`` now, else why (R-10):
    something to besiege, enough CUs (``surrender_free_roll_min_cus`` in the surrender
    segment), the per-segment limit, and the same general for both assaults."""
    name = pack.spaces[space].name
    target, _ = siege_target(pack, s, seat, space)
    if target is None:
        return f"there is nothing to besiege in {name} (an independent marker or another " \
               f"player's major city)"
    need = int(const(pack, "surrender_free_roll_min_cus")) if segment == "surrender" \
        else min_assault_cus(pack, s)
    have = sum(cus_at(s, seat, space).values())
    if have < need:
        return f"assaulting {name} needs {need} CUs, you have {have} there"
    n, who = used.get(space, (0, None))
    if n >= int(const(pack, LIMITS[segment])):
        return f"no more assaults on {name} in this segment"
    if who is not None and commander is not None and who != commander:
        return f"both assaults on {name} in a segment are by the same general"
    return None


def roll_assault(ctx: Ctx, seat: str, space: str, segment: str,
                 modifier: int = 0, pledges: dict[str, list[int]] | None = None) -> None:
    """One assault roll (R-10): an attack when it targets a player's major city (R-11.4);
    2d6 + modifier (+ ``helepolis_assault_modifier`` when the army includes the Helepolis,
    listed under ``modifiers`` of ``AssaultRolled``; clamped to the chart's rows) against
    the ``assault`` chart, column = besieging CUs, cell ``X/Y`` = siege points / besieging
    CUs lost. Completes the siege
    when the points reach the number needed (:func:`complete_siege`). ``pledges``: the
    surprise cards each seat named for the comparison of legitimacy a siege point
    brings (R-4.3, R-8.5)."""
    pack, s = ctx.pack, ctx.s
    target, _need = siege_target(pack, s, seat, space)
    if target != "independent":
        note_attack(ctx, seat, target, "assault")
    extra, parts = assault_modifier(pack, s, seat, space)
    modifier += extra
    dice = list(ctx.roll(chart_dice(pack, "assault")[0], f"assault on {pack.spaces[space].name}", "R-10"))
    row = sum(dice) + modifier
    cus = sum(cus_at(s, seat, space).values())
    cell, rec = chart_read(pack, "assault", row, cus)
    x, y = (int(v) for v in str(cell).split("/"))
    ctx.emit("AssaultRolled", {"seat": seat, "space": space, "dice": dice,
                               "modifier": modifier, "modifiers": parts, "read": rec,
                               "points": x, "lost": y, "segment": segment, "rule": "R-10"})
    if y:
        lose_cus(ctx, seat, space, y, "R-10", "assault losses")
    if x:
        score_points(ctx, seat, space, x, segment, pledges)
    lift_abandoned(ctx)


def score_points(ctx: Ctx, seat: str, space: str, points: int, segment: str,
                 pledges: dict[str, list[int]] | None = None, card: int | None = None
                 ) -> None:
    """R-10: ``seat`` scores ``points`` siege points in ``space`` (an assault, or the
    surprise card ``card``, R-8.5): ``SiegePointsScored``; the royal CUs besieged there
    may desert (R-4.3); the siege completes when the points reach the number needed."""
    target, need = siege_target(ctx.pack, ctx.s, seat, space)
    have = (ctx.s.get("war") or {}).get("sieges", {}).get(space)
    before = have["points"] if have and have["seat"] == seat else 0
    ctx.emit("SiegePointsScored", {"space": space, "seat": seat, "points": points,
                                   "total": before + points, "needed": need,
                                   "rule": "R-10", **({"card": card} if card else {})})
    besieged_royals_desert(ctx, seat, space, pledges)  # before the siege completes
    if before + points >= need and target is not None:
        complete_siege(ctx, seat, space, target, segment)


def conducts_siege(pack: Pack, s: State, seat: str, space: str) -> bool:
    """True when ``seat`` conducts a siege in ``space`` (R-10): its CUs stand where it
    has something to besiege (:func:`siege_target`)."""
    return siege_target(pack, s, seat, space)[0] is not None and \
        sum(cus_at(s, seat, space).values()) > 0


def surprise_siege_points(ctx: Ctx, seat: str, space: str, pledged: list[int] | None,
                          segment: str) -> None:
    """R-8.5 Treachery (``siege_points: count``): in a siege ``seat`` conducts in
    ``space``, the first ``siege`` card it pledged there (a move's ``surprise`` list, or
    ``surrender.surprise``) is played: it scores the card's ``count`` siege points
    (:func:`score_points`). Nothing when there is no siege there (the card stays)."""
    if not conducts_siege(ctx.pack, ctx.s, seat, space):
        return
    got = find_play(ctx, seat, "siege", [n for n in pledged or []
                                         if n in hand_of(ctx.s, seat)], space)
    if got is None or got[1] != "orders":
        return
    eff = play(ctx, seat, got[0], "siege", space, "orders")
    score_points(ctx, seat, space, int(eff.params.get("count", 1)), segment,
                 {seat: list(pledged or [])}, card=got[0])
    lift_abandoned(ctx)


def complete_siege(ctx: Ctx, seat: str, space: str, target: str, segment: str) -> None:
    """R-10: the members of the royal family held in the city pass to the besieger
    (R-12.3); the units inside suffer as battle losers; remove the points and the
    marker; the besieger puts his own garrison only when the siege finished in his
    surrender segment."""
    if target != "independent":  # units inside suffer as battle losers
        capture_in_siege(ctx, seat, space, target)  # the members held there
        suffer_as_losers(ctx, space)
    ctx.emit("SiegeCompleted", {"space": space, "seat": seat, "marker": target,
                                "segment": segment, "rule": "R-10"})
    if segment == "surrender" and ctx.pack.spaces[space].kind != "transit":
        ctx.emit("GarrisonPlaced", {"seat": seat, "space": space, "rule": "R-10"})


def _used(ctx: Ctx, segment: str) -> dict[str, Any]:
    key = f"_assaults_{segment}_{ctx.s['step']}"
    if not hasattr(ctx, "war_used"):
        ctx.war_used = {}  # type: ignore[attr-defined]
    return ctx.war_used.setdefault(key, {})  # type: ignore[attr-defined]


def assault_after_move(ctx: Ctx, seat: str, space: str, count: int, segment: str,
                       group: dict, pledges: dict[str, list[int]] | None = None) -> None:
    """Up to ``count`` assault rolls by the army that just moved into ``space`` (R-10);
    a refused roll is recorded as ``AssaultCancelled`` (validation turns it into a
    rejection). Once a roll completes the siege, the rolls left are not made: a
    ``Note`` says so (the dice decided it, issue 24.1). ``pledges``: see
    :func:`roll_assault`."""

    cmd = group_commander(ctx.pack, ctx.s, seat, group)
    used = _used(ctx, segment)
    for k in range(count):
        if k and siege_target(ctx.pack, ctx.s, seat, space)[0] is None:  # issue 24.1
            ctx.emit("Note", {"seat": seat, "rule": "R-10", "text": (
                f"the siege of {ctx.pack.spaces[space].name} is complete: the order's "
                "further assaults there are not rolled")})
            return
        why = why_no_assault(ctx.pack, ctx.s, seat, space, segment, used, cmd)
        if why:
            ctx.emit("AssaultCancelled", {"seat": seat, "space": space, "why": why,
                                          "rule": "R-10"})
            return
        n, _who = used.get(space, (0, None))
        used[space] = (n + 1, cmd)
        roll_assault(ctx, seat, space, segment, pledges=pledges)


def surrender_assaults(ctx: Ctx, seat: str, spaces: list[str],
                       pledges: dict[str, list[int]] | None = None) -> None:
    """R-8.1: one free assault/subjugation roll per listed space (an army of at least
    ``surrender_free_roll_min_cus`` CUs); success lets the player put his marker.
    ``pledges``: ``{space: [card]}``, the surprise cards ``surrender.surprise`` names
    for each space (R-8.5: a prestige card for the comparisons its siege points bring)."""
    used = _used(ctx, "surrender")
    for x in spaces:
        why = why_no_assault(ctx.pack, ctx.s, seat, x, "surrender", used, None)
        if why:
            ctx.emit("AssaultCancelled", {"seat": seat, "space": x, "why": why,
                                          "rule": "R-8.1"})
            continue
        used[x] = (used.get(x, (0, None))[0] + 1, None)
        roll_assault(ctx, seat, x, "surrender",
                     pledges={seat: list((pledges or {}).get(x, []))})
