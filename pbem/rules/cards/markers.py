"""Card events that change markers: unrest (R-16.2)."""
from __future__ import annotations

from pbem.pack.model import Card, Effect, Pack
from pbem.rules.cards.base import Primitive
from pbem.rules.context import Ctx
from pbem.rules.core.board import adjacent_provinces, info
from pbem.rules.core.pack import chart_cell, chart_dice
from pbem.rules.core.state import State


def revolting_spaces(pack: Pack, s: State, province: str) -> list[str]:
    """Spaces of ``province`` unrest would turn independent (R-16.2 [D]): non-transit
    spaces with no CUs and no independent marker (a garrison there is replaced)."""
    out = []
    for x in info(pack).province_spaces.get(province, ()):
        if pack.spaces[x].kind == "transit" or x in s["independent"]:
            continue
        if any(sum(c.values()) for c in s["cus"].get(x, {}).values()):
            continue
        if any(a["space"] == x for a in s["indep_armies"].values()):
            continue
        out.append(x)
    return sorted(out)


def preferred(prefs: list[str], allowed: list[str]) -> str | None:
    """The first province of the player's ``prefs`` that is in ``allowed``, or None."""
    return next((p for p in prefs if p in allowed), None)


def resolve_unrest(ctx: Ctx, seat: str, card: Card, prefs: list[str] | None) -> None:
    """R-16.2: roll 2d6 on the unrest chart; on a two-province result the first province
    of the player's ``prefs`` (``tyche.unrest``, in order of preference) that the result
    names, else the first listed [D]. In that province every non-transit space without
    CUs or an independent marker gets an independent marker, replacing any garrison [D];
    when no such space is left, unrest spreads to an adjacent province of the player's
    choice: the first of ``prefs`` adjacent to it, else [D] the adjacent province with the
    most such spaces (ties by id; none when no adjacent province has one). Events:
    DiceRolled, UnrestStruck, GarrisonRemoved, IndependentMarkersPlaced."""
    pack, s = ctx.pack, ctx.s
    prefs = list(prefs or [])
    chart = pack.charts["unrest"]
    roll = ctx.roll(chart_dice(ctx.pack, "unrest")[0], f"unrest ({card.name})", "R-16.2")
    provinces = chart_cell(chart, sum(roll))
    provinces = [provinces] if isinstance(provinces, str) else list(provinces)
    target = preferred(prefs, provinces) or provinces[0]
    spread = None
    if not revolting_spaces(pack, s, target):
        near = adjacent_provinces(pack, target)
        spread = preferred(prefs, near)
        able = [p for p in near if revolting_spaces(pack, s, p)]
        if spread is None and able:
            spread = max(able, key=lambda p: (len(revolting_spaces(pack, s, p)),
                                              [-ord(c) for c in p]))
    where = spread or target
    spaces = revolting_spaces(pack, s, where)
    ctx.emit("UnrestStruck", {"seat": seat, "card": card.number, "roll": list(roll),
                              "provinces": provinces, "province": target,
                              "spread_to": spread, "spaces": spaces, "rule": "R-16.2"})
    for x in spaces:
        owner = s["garrisons"].get(x)
        if owner:
            ctx.emit("GarrisonRemoved", {"seat": owner, "space": x, "rule": "R-16.2",
                                         "why": "unrest"})
    if spaces:
        ctx.emit("IndependentMarkersPlaced", {"spaces": spaces, "rule": "R-16.2"})


def _resolve_unrest(ctx: Ctx, seat: str, card: Card, eff: Effect, plan: dict) -> bool:
    if "unrest" not in ctx.pack.charts:
        return False
    resolve_unrest(ctx, seat, card, plan.get("unrest"))
    return True


PRIMITIVES: tuple[Primitive, ...] = (
    Primitive("unrest", "R-16.2", _resolve_unrest),
)
"""The marker primitives the engine resolves."""
