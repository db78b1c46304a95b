"""What happens to units inside a major city (R-5; rulebook 13.6; R-4.3, R-10): the sally
(coming out past an enemy is a battle), the units inside suffering as losers when a
siege completes, and besieged royal CUs deserting.
"""
from __future__ import annotations

from pbem.rules.context import Ctx
from pbem.rules.core.armies import side_legitimacy
from pbem.rules.core.pieces import (
    INDEP,
    capacity,
    enemy_of,
    generals_at,
    inside_cus,
    inside_generals,
    inside_rec,
    wholly_inside,
)
from pbem.rules.resolve.combat import battle, defeat
from pbem.rules.resolve.effects import note_attack
from pbem.rules.resolve.surprises import prestige_moment

RULE = "R-5"


def sally(ctx: Ctx, seat: str, space: str) -> str:
    """R-5 (rulebook 13.6) sally: every unit of ``seat`` inside the major city ``space``
    comes out (``UnitsCameOut``, ``Sallied``) and, another faction's units standing
    outside, fights a battle as the attacker (an attack, R-11.4), ``came_from`` being
    the city itself. A tie sends the survivors back inside (``UnitsWentInside``);
    they always fit, having come from there, but CUs over the capacity would stay
    outside [D]. Returns the battle result."""

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


def suffer_as_losers(ctx: Ctx, space: str, rule: str = "R-10") -> None:
    """R-10: when a siege of a major city completes, the units inside suffer as battle
    losers (:func:`pbem.rules.combat.defeat`)."""
    rec = inside_rec(ctx.s, space)
    if rec and wholly_inside(ctx.s, rec["seat"], space):
        defeat(ctx, rec["seat"], space, rule)


def besieged_royals_desert(ctx: Ctx, seat: str, space: str,
                           pledges: dict[str, list[int]] | None = None) -> None:
    """R-4.3 last sentence: when ``seat`` scores a siege point against the major city
    ``space``, the royal CUs besieged inside it desert if their side has less
    legitimacy (faction LP + commander's prestige, holy ground for the besieged, as in
    :func:`pbem.rules.combat.side_legitimacy`): ``BesiegedRoyalCUsDeserted``, they join
    the besieging army in the space [D]. Equal legitimacy: nobody deserts. Before the
    comparison either side may play a prestige surprise card that changes it (R-8.5;
    ``pledges``: the cards each seat named for it)."""

    rec = inside_rec(ctx.s, space)
    if seat == INDEP or not rec or rec["seat"] == seat or ctx.pack.spaces[
            space].kind != "major_city":
        return
    n = rec["cus"].get("royal", 0)
    if not n or not sum(ctx.s["cus"].get(space, {}).get(seat, {}).values()):
        return  # no royal CUs inside, or no besieging army left to join
    them = rec["seat"]
    prestige_moment(ctx, space, {seat: False, them: True},
                    lambda v: v[them] < v[seat], pledges)  # Orator's Gift
    lb = side_legitimacy(ctx.pack, ctx.s, seat, space, False)
    ld = side_legitimacy(ctx.pack, ctx.s, them, space, True)
    if ld >= lb:
        return
    ctx.emit("BesiegedRoyalCUsDeserted", {"from": them, "to": seat, "space": space,
                                          "count": n, "legitimacy": {seat: lb, them: ld},
                                          "rule": "R-4.3"})
