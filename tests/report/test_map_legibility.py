"""The mailed map reads at its mailed width, and army boxes cover no name or symbol
(issue 24 item 15).

Measured on the SVG each picture is drawn from (tests/report/svgboxes.py: every text's
ink box as cairo draws it, every shape's box), at the scale the PNG is drawn: 1000 px
wide for the mailed picture, :data:`pbem.report.raster.ZOOM_WIDTH` for the map the
zoom is cut from.
"""
from __future__ import annotations

import math
import random
import re
import statistics
from collections.abc import Iterable

import pytest

from pbem import rules
from pbem.pack.loader import load_pack
from pbem.pack.model import Pack
from pbem.report import snapshot
from pbem.report.mapview import MapOverlay, _Projection, render_map_svg
from pbem.report.overview import render_seat_map_svg
from pbem.rules.dice import Dice
from tests.report.svgboxes import (
    Box,
    Drawn,
    cap_height_px,
    inside,
    overlap,
    size_of,
    walk,
)

PLAYERS = {"north": "Kleitos", "east": "Peukestas", "south": "Nearchos", "west": "Aristonous"}
MAILED_WIDTH = 1000
#: the smallest cap height, in pixels of the mailed picture, of any word in it
MIN_CAP_PX = 9.0
#: pixels per map unit of the zoom (names 8.5 units -> 12.75 px)
ZOOM_PX_PER_UNIT = 1.5
#: classes of what is drawn over or under the map for the turn, not a space's symbol
TURN_MARKS = {"control", "siege", "battle", "army", "royal", "move", "seat-legend", "legend"}


@pytest.fixture(scope="module")
def pack() -> Pack:
    return load_pack(None)


def _position(pack: Pack, steps: int, seed: int) -> MapOverlay:
    """The overlay after ``steps`` random legal decisions of a game seeded ``seed``."""
    state, events = rules.new_game(pack, bytes([seed]) * 8, {})
    rng = random.Random(seed)
    for _ in range(steps):
        pending = rules.pending(state)
        if not pending:
            break
        d = pending[0]
        state, events = rules.apply(state, d.seat, rules.bot_orders(state, d.seat, rng),
                                    Dice(bytes([seed]) * 8, state.step))
    return snapshot.overlay(pack, state, events, f"g1 step {state.step}", PLAYERS)


#: the setup, then seeded random positions from early to late in a game
POSITIONS = [(0, 1), (6, 2), (15, 3), (27, 3), (40, 4), (60, 5), (80, 6), (110, 7)]


def _seat_with_forces(ov: MapOverlay) -> str:
    return next(seat for _s, seat, _l in ov.armies if seat in PLAYERS)


def _parts(pack: Pack, drawn: Iterable[Drawn]) -> tuple[list[Drawn], list[Drawn], list[Drawn]]:
    """(names, symbols, boxes) of a map drawn in map units: the texts that are a space's
    or a province's name, the shapes centred on a space (its symbol, rings and marks),
    and the rectangles of army and royal-family boxes."""
    proj = _Projection()
    cells: dict[tuple[int, int], list[tuple[float, float]]] = {}
    for x, y in (proj(s.lon, s.lat) for s in pack.spaces.values()):
        cells.setdefault((int(x // 4), int(y // 4)), []).append((x, y))

    def on_a_space(box: Box) -> bool:
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        near = (p for i in (-1, 0, 1) for j in (-1, 0, 1) for p in cells.get((int(cx // 4) + i, int(cy // 4) + j), ()))
        return any(abs(cx - x) < 0.6 and abs(cy - y) < 0.6 for x, y in near)
    words = {s.name.lower() for s in pack.spaces.values()} | {p.name.lower() for p in pack.provinces.values()}
    names, symbols, boxes = [], [], []
    for d in drawn:
        if d.classes & {"army", "royal"}:
            if d.tag == "rect":
                boxes.append(d)
        elif d.classes & TURN_MARKS:
            continue
        elif d.tag == "text" and d.text.lower() in words:
            names.append(d)
        elif d.tag != "text" and d.box[2] - d.box[0] < 30 and on_a_space(d.box):
            symbols.append(d)  # a symbol, its rings or marks (not the sea or a legend panel)
    return names, symbols, boxes


def _covered(boxes: list[Drawn], others: list[Drawn], what: str) -> list[str]:
    return [f"{what} {o.text or o.tag} {tuple(round(v) for v in o.box)} under box {tuple(round(v) for v in b.box)}"
            for b in boxes for o in others if overlap(b.box, o.box) > 0]


def _clashes(pack: Pack, svg: str, px_per_unit: float, frame: Box, province_names: bool) -> list[str]:
    names, symbols, boxes = _parts(pack, walk(svg, px_per_unit))
    spaces = {s.name for s in pack.spaces.values()}
    if not province_names:  # the full map's big faint province names lie under everything
        names = [n for n in names if n.text in spaces]
    assert symbols and names
    out = _covered(boxes, names, "name") + _covered(boxes, symbols, "symbol")
    out += [f"boxes {a.box} and {b.box} overlap" for i, a in enumerate(boxes) for b in boxes[i + 1:]
            if overlap(a.box, b.box) > 0]
    out += [f"box {b.box} leaves the map" for b in boxes if not inside(b.box, frame)]
    return out


@pytest.mark.parametrize(("steps", "seed"), POSITIONS)
def test_army_boxes_cover_no_name_and_no_symbol_on_the_map_the_zoom_is_cut_from(pack: Pack, steps: int,
                                                                               seed: int) -> None:
    """The full map (the archive's SVG; the zoom of the mailed picture is cut from it):
    no army or royal-family box covers a space's name, a space's symbol or another box,
    in the setup and in random positions (issue 24 item 15: boxes covered Sardis and
    Dascylium)."""
    ov = _position(pack, steps, seed)
    assert ov.armies
    svg = render_map_svg(pack, ov)
    w, h = size_of(svg)
    assert _clashes(pack, svg, ZOOM_PX_PER_UNIT, (0, 0, w, h), province_names=False) == []


def _overview(pack: Pack, ov: MapOverlay, seat: str) -> tuple[str, list[Drawn], float]:
    """The mailed picture of ``seat``: its SVG, what its overview part draws (the whole
    picture when it has no separate overview), and its pixels per unit at 1000 px."""
    svg = render_seat_map_svg(pack, ov, seat)
    k = MAILED_WIDTH / size_of(svg)[0]
    drawn = list(walk(svg, k))
    over = [d for d in drawn if "overview" in d.classes] or drawn
    return svg, over, k


@pytest.mark.parametrize(("steps", "seed"), POSITIONS)
def test_army_boxes_cover_no_name_and_no_symbol_on_the_mailed_overview(pack: Pack, steps: int, seed: int) -> None:
    """The overview at the top of the mailed picture: no box covers a name it carries
    (spaces' and provinces'), a space's symbol, another box, or leaves the map."""
    ov = _position(pack, steps, seed)
    _svg, over, _k = _overview(pack, ov, _seat_with_forces(ov))
    proj = _Projection()
    names, symbols, boxes = _parts(pack, over)
    assert boxes and names and symbols
    clashes = _covered(boxes, names, "name") + _covered(boxes, symbols, "symbol")
    clashes += [f"boxes {a.box} and {b.box} overlap" for i, a in enumerate(boxes) for b in boxes[i + 1:]
                if overlap(a.box, b.box) > 0]
    clashes += [f"box {b.box} leaves the map" for b in boxes if not inside(b.box, (0, 0, proj.width, proj.height))]
    assert clashes == []


@pytest.mark.parametrize(("steps", "seed"), [(0, 1), (27, 3), (80, 6)])
def test_every_word_of_the_mailed_picture_reads_at_its_mailed_width(pack: Pack, steps: int, seed: int) -> None:
    """Every text of every seat's mailed picture, overview and zoom, has a cap height of
    at least 9 px when the picture is 1000 px wide (issue 24 item 15: the overview's
    names were about 3 px high)."""
    ov = _position(pack, steps, seed)
    small = set()
    for seat in PLAYERS:
        svg = render_seat_map_svg(pack, ov, seat)
        k = MAILED_WIDTH / size_of(svg)[0]
        for d in walk(svg, k):
            if d.tag == "text":
                cap = cap_height_px(d.size * k)
                if cap < MIN_CAP_PX:
                    small.add(f"{d.text!r} {cap:.1f} px")
    assert not small, sorted(small)[:20]


def test_the_overview_carries_every_province_and_major_city_and_they_cover_nothing(pack: Pack) -> None:
    """The names the overview carries (the decision documented in docs/reports.md): every
    province and every major city, none covering another or a space's symbol; the other
    space names are left to the zoom."""
    ov = _position(pack, 27, 3)
    _svg, over, _k = _overview(pack, ov, _seat_with_forces(ov))
    names, symbols, _boxes = _parts(pack, over)
    shown = {n.text.lower() for n in names}
    assert {p.name.lower() for p in pack.provinces.values()} <= shown
    assert {s.name.lower() for s in pack.spaces.values() if s.kind == "major_city"} <= shown
    clashes = [(a.text, b.text) for i, a in enumerate(names) for b in names[i + 1:]
               if a.text != b.text and overlap(a.box, b.box) > 0]  # (a name is drawn twice: halo, text)
    clashes += [(a.text, s.box) for a in names for s in symbols if overlap(a.box, s.box) > 0]
    assert clashes == []


def test_royal_family_labels_stay_near_their_spaces_on_the_mailed_overview(pack: Pack) -> None:
    """Issue 24 item H (the second hand-played game): the royal family's labels on the
    overview were placed after every army box, so they landed far from their spaces
    (a leader twice the armies' on the median, up to 560 units) and read as another
    space's. Measured on the leader lines the SVG draws from each space to its box: the
    royal labels' median is no longer than the army boxes', and the longest royal leader
    is under half the longest army leader.

    Session 7: the stricter order check (issue 24 item 1) changed the random games, and
    at 130 steps of seed 12 the label of Alexander IV, Alexander's Body and Philip III
    (290 px wide) went 256 units from Assur, with a free place 178 units away: the
    search's three slides a side missed it. The placement was at fault, not the
    position, so the fix is in the placement (royal labels use
    :func:`pbem.report.placement.nearest_free`, docs/reports.md) and this assertion is
    unchanged (it now measures 189 against 406 and a median of 33 against 72; with the
    royal labels placed after the army boxes it still fails, 281 against 361)."""
    lengths: dict[str, list[float]] = {"royal": [], "army": []}
    for steps, seed in [*POSITIONS, (50, 9), (90, 11), (130, 12)]:
        ov = _position(pack, steps, seed)
        svg, _over, _k = _overview(pack, ov, _seat_with_forces(ov))
        for kind, out in lengths.items():
            for m in re.finditer(rf'<g class="{kind}"><line x1="([\d.]+)" y1="([\d.]+)" x2="([\d.]+)" '
                                 r'y2="([\d.]+)"', svg):
                x1, y1, x2, y2 = map(float, m.groups())
                out.append(math.hypot(x1 - x2, y1 - y2))
    royal, army = lengths["royal"], lengths["army"]
    assert len(royal) > 20 and len(army) > 100
    assert statistics.median(royal) <= statistics.median(army), (statistics.median(royal), statistics.median(army))
    assert max(royal) < max(army) / 2, (max(royal), max(army))
