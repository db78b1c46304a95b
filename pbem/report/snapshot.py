"""The map snapshot attached to reports: control colours, armies, this step's moves.

Drawn by :mod:`pbem.report.mapview` from the data pack's coordinates; PNG for mail.
"""
from __future__ import annotations

from collections.abc import Sequence

from pbem import rules
from pbem.pack.model import Pack
from pbem.report.mapview import MapOverlay, render_map_svg, svg_to_png

SEAT_COLOURS = {"north": "#c0392b", "east": "#2471a3", "south": "#d4ac0d", "west": "#7d3c98",
                "independent": "#2e8b57"}


def overlay(pack: Pack, state: rules.GameState, events: Sequence[rules.Event], title: str) -> MapOverlay:
    """Build the map overlay from the public view and the step's events."""
    view = rules.view(state, None)
    owner = dict(view.get("garrisons", {}))
    for space in view.get("independent", []):
        owner.setdefault(space, "independent")
    stacks = {}
    for a in view.get("armies", []):
        n = sum(a.get("cus", {}).values())
        label = f"{a.get('commander') or a.get('seat')} {n}"
        stacks[a["space"]] = (stacks[a["space"]] + "; " + label) if a["space"] in stacks else label
    arrows = []
    for e in events:
        if e.kind in ("ArmyMoved",) and e.data.get("path"):
            path = list(e.data["path"])
            arrows.extend(zip(path, path[1:]))
    battles = tuple(e.data.get("space") for e in events if e.kind in ("BattleFought",) and e.data.get("space"))
    return MapOverlay(space_owner=owner, seat_colours=SEAT_COLOURS, stacks=stacks, arrows=tuple(arrows),
                      battles=battles, title=title)


def svg(pack: Pack, state: rules.GameState, events: Sequence[rules.Event], title: str) -> str:
    """The snapshot as SVG text (archive)."""
    return render_map_svg(pack, overlay(pack, state, events, title))


def png(pack: Pack, state: rules.GameState, events: Sequence[rules.Event], title: str, width: int = 1000) -> bytes:
    """The snapshot as PNG bytes (mail attachment)."""
    return svg_to_png(svg(pack, state, events, title), width=width)
