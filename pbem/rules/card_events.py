"""Card events built from the pack's effect primitives (R-16). Implemented so far:
``unrest`` (R-16.2) and ``bring_special_unit`` (R-4.1, :mod:`pbem.rules.units`). Every
other primitive is recorded as skipped (``CardEventSkipped``) until rules core II
resolves it.
"""
from __future__ import annotations

from typing import Any

from pbem.pack.model import Card, Chart, Pack
from pbem.rules.constants import chart_dice
from pbem.rules.context import Ctx
from pbem.rules.mapinfo import info

State = dict[str, Any]
SUPPORTED = frozenset({"unrest", "bring_special_unit"})


def chart_cell(chart: Chart, total: int, column: str = "result") -> Any:
    """The cell of ``chart`` in the row holding ``total`` (rows ``"7"`` or ``"2-4"``,
    ``"12+"``) and ``column``. Raises KeyError naming the chart when no row matches."""
    for row in chart.rows:
        r = str(row)
        if r.endswith("+") and total >= int(r[:-1]):
            return chart.cells[row][column]
        lo, _, hi = r.partition("-")
        if lo.lstrip("-").isdigit() and int(lo) <= total <= int(hi or lo):
            return chart.cells[row][column]
    raise KeyError(f"chart {chart.id!r} has no row for {total}")


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


def adjacent_provinces(pack: Pack, province: str) -> list[str]:
    """Provinces joined to ``province`` by a land or mountain/strait path."""
    mi = info(pack)
    out: set[str] = set()
    for x in mi.province_spaces.get(province, ()):
        for y, kind in mi.adjacent.get(x, ()):
            p = pack.spaces[y].province
            if kind in ("land", "mountain_strait") and p != province:
                out.add(p)
    return sorted(out)


def resolve_unrest(ctx: Ctx, seat: str, card: Card, choice: str | None) -> None:
    """R-16.2: roll 2d6 on the unrest chart; on a two-province result the player's
    ``choice`` (else the first listed) [D]. In that province every non-transit space
    without CUs or an independent marker gets an independent marker, replacing any
    garrison [D]; when no such space is left, unrest spreads to the adjacent province
    with the most such spaces (ties by id) [D]. Events: DiceRolled, UnrestStruck,
    GarrisonRemoved, IndependentMarkersPlaced."""
    pack, s = ctx.pack, ctx.s
    chart = pack.charts["unrest"]
    roll = ctx.roll(chart_dice(ctx.pack, "unrest")[0], f"unrest ({card.name})", "R-16.2")
    provinces = chart_cell(chart, sum(roll))
    provinces = [provinces] if isinstance(provinces, str) else list(provinces)
    target = choice if choice in provinces else provinces[0]
    spread = None
    if not revolting_spaces(pack, s, target):
        near = [p for p in adjacent_provinces(pack, target) if revolting_spaces(pack, s, p)]
        if near:
            spread = max(near, key=lambda p: (len(revolting_spaces(pack, s, p)),
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


def resolve_event(ctx: Ctx, seat: str, card: Card, plan: dict[str, Any]) -> None:
    """Resolve ``card``'s effects in order; unsupported primitives are recorded as one
    ``CardEventSkipped`` (R-16)."""
    skipped = []
    for eff in card.effects:
        if eff.primitive == "unrest" and "unrest" in ctx.pack.charts:
            resolve_unrest(ctx, seat, card, plan.get("unrest"))
        elif eff.primitive == "bring_special_unit":  # R-4.1 [L]
            from pbem.rules.units import bring_special_unit
            bring_special_unit(ctx, seat, card, eff, plan.get("special"))
        else:
            skipped.append(eff.primitive)
    if skipped or not card.effects:
        ctx.emit("CardEventSkipped", {"seat": seat, "card": card.number, "name": card.name,
                                      "effects": skipped, "rule": "R-16",
                                      "why": "card events are not yet resolved by the "
                                             "engine [D]"})
