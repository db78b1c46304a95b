"""Card events that change markers (R-16): unrest (R-16.2); ``place_markers``
(``kind: independent | garrison``, ``count``, ``provinces`` or ``range``: #28 Lamian
War, #33 Rhodes Expels its Garrison, #34 Satrapies Redistributed, #37 Seuthes Rebels);
``remove_markers`` (``kind: independent``, ``count``, ``provinces``: #38 Freedom of the
Greeks); ``subjugate`` (``count``, ``range``: independent markers near the player's
army removed, #54 Subjugation of the Hill Tribes).

Orders: ``tyche: {card, use: event, markers: [Space, ...]}``, at most ``count`` spaces;
the markers not named are placed or removed by the engine [D] (:func:`fill`).
"""
from __future__ import annotations

from typing import Any

from pbem.pack.model import Card, Effect, Pack
from pbem.plural import count
from pbem.problems import Problem
from pbem.rules.cards.base import Primitive
from pbem.rules.cards.choice import pick_spaces
from pbem.rules.context import Ctx
from pbem.rules.core.board import adjacent_provinces, distances, info
from pbem.rules.core.garrisons import garrison_costs, legal_garrison_spaces
from pbem.rules.core.names import province_name
from pbem.rules.core.pack import chart_cell, chart_dice
from pbem.rules.core.pieces import army_spaces
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


# --- place_markers, remove_markers, subjugate --------------------------------------------

def _provinces(eff: Effect) -> list[str]:
    return [str(p) for p in eff.params.get("provinces", [])]


def marker_spaces(pack: Pack, s: State, seat: str, eff: Effect) -> list[str]:
    """The spaces the marker event ``eff`` may act on now (R-16 [D]):

    - ``place_markers`` ``kind: independent``: spaces of ``provinces`` that unrest would
      turn independent (:func:`revolting_spaces`: no CUs, no independent army or marker;
      a garrison there is replaced);
    - ``place_markers`` ``kind: garrison``: where ``seat`` may place a Tyche garrison
      (R-8.3) within ``range`` MPs;
    - ``remove_markers``: independent markers in ``provinces``;
    - ``subjugate``: independent markers within ``range`` MPs (land 1, mountain/strait 2)
      of an army of ``seat`` (a general with CUs), its own space included."""
    if eff.primitive == "subjugate":
        near = distances(pack, set(army_spaces(s, seat)), int(eff.params["range"]),
                         garrison_costs(pack))
        return sorted(x for x in near if x in s["independent"])
    if eff.primitive == "remove_markers":
        provs = _provinces(eff)
        return sorted(x for x in s["independent"] if pack.spaces[x].province in provs)
    if eff.params.get("kind") == "garrison":
        return sorted(legal_garrison_spaces(pack, s, seat, int(eff.params["range"])))
    return sorted({x for p in _provinces(eff) for x in revolting_spaces(pack, s, p)})


def fill(s: State, seat: str, eff: Effect, named: list[str], legal: list[str]) -> list[str]:
    """The spaces the event acts on: the ``named`` ones still legal, then [D] the engine's
    choice up to ``count``: for independent markers placed, spaces with another player's
    garrison first, then vacant ones, the player's own garrisons last; otherwise by id."""
    out = [x for x in named if x in legal][:int(eff.params["count"])]
    rest = [x for x in legal if x not in out]
    if eff.primitive == "place_markers" and eff.params.get("kind") != "garrison":
        def rank(x: str) -> tuple[int, str]:
            owner = s["garrisons"].get(x)
            return (0 if owner not in (None, seat) else 1 if owner is None else 2, x)
        rest.sort(key=rank)
    return out + rest[:int(eff.params["count"]) - len(out)]


def _things(eff: Effect) -> tuple[str, str]:
    """What a marker event places or removes, one and many (issue 24 N7)."""
    if eff.primitive == "place_markers" and eff.params.get("kind") == "garrison":
        return ("garrison", "garrisons")
    return ("independent marker", "independent markers")


def _what(pack: Pack, eff: Effect) -> str:
    where = " or ".join(province_name(pack, p) for p in _provinces(eff))
    if eff.primitive == "subjugate":
        return (f"an independent marker within {count(int(eff.params['range']), 'MP')} of your army "
                "may be removed")
    if eff.primitive == "remove_markers":
        return f"an independent marker in {where} may be removed"
    if eff.params.get("kind") == "garrison":
        return f"your garrison may go (within {count(int(eff.params['range']), 'MP')}, R-8.3)"
    return f"an independent marker may go in {where} (no CUs, no marker there)"


def _check_markers(pack: Pack, s: State, seat: str, part: dict[str, Any], card: Card,
                   eff: Effect, where: str, rej: list[Problem], plan: dict[str, Any],
                   soft: bool) -> None:
    """``markers``: at most ``count`` spaces of :func:`marker_spaces` (``soft``: read
    only; what is no longer legal is replaced by the engine's choice when carried out)."""
    legal = None if soft else marker_spaces(pack, s, seat, eff)
    plan["markers"] = pick_spaces(pack, part, "markers", legal if legal is not None else
                                  list(pack.spaces), int(eff.params["count"]), where, rej,
                                  _what(pack, eff), _things(eff))


def _resolve_markers(ctx: Ctx, seat: str, card: Card, eff: Effect, plan: dict[str, Any]
                     ) -> bool:
    """Carry a marker event out on :func:`fill`'s spaces: garrisons placed
    (``GarrisonPlaced``); independent markers placed, replacing any garrison
    (``GarrisonRemoved``, ``IndependentMarkersPlaced``); independent markers removed,
    leaving the spaces vacant, a stronghold conquered (R-3.3)
    (``IndependentMarkersRemoved``)."""
    pack, s = ctx.pack, ctx.s
    spaces = fill(s, seat, eff, list(plan.get("markers") or []),
                  marker_spaces(pack, s, seat, eff))
    if eff.primitive in ("remove_markers", "subjugate"):
        ctx.emit("IndependentMarkersRemoved", {"seat": seat, "card": card.number,
                                               "spaces": spaces, "rule": "R-16"})
    elif eff.params.get("kind") == "garrison":
        for x in spaces:
            ctx.emit("GarrisonPlaced", {"seat": seat, "space": x, "rule": "R-8.3"})
    else:
        for x in spaces:
            if s["garrisons"].get(x):
                ctx.emit("GarrisonRemoved", {"seat": s["garrisons"][x], "space": x,
                                             "rule": "R-16", "why": card.name})
        ctx.emit("IndependentMarkersPlaced", {"spaces": spaces, "rule": "R-16",
                                              "card": card.number})
    return True


def _marker_choices(pack: Pack, s: State, seat: str, card: Card, eff: Effect
                    ) -> list[str] | None:
    return marker_spaces(pack, s, seat, eff) or None


def _marker_primitive(name: str) -> Primitive:
    return Primitive(name, "R-16", _resolve_markers, _check_markers, _marker_choices,
                     "marker_spaces", keys=("markers",))


PRIMITIVES: tuple[Primitive, ...] = (
    Primitive("unrest", "R-16.2", _resolve_unrest),
    _marker_primitive("place_markers"),
    _marker_primitive("remove_markers"),
    _marker_primitive("subjugate"),
)
"""The marker primitives the engine resolves (``marker_spaces``: where each marker
card of the hand may act now)."""
