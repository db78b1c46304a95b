"""The map picture: an SVG of a data pack's map, optionally with a turn's overlay.

Spaces are placed from their real latitude/longitude (equirectangular projection scaled
by cos of the map's middle latitude) over a land outline (``land.geojson`` of the pack,
Natural Earth, public domain). Paths are drawn by kind (land solid brown, mountain/strait
dark and thick, sea dashed blue, trans-Mediterranean dotted), spaces by kind (major city
square, minor city circle, stronghold hexagon, transit point small diamond), with a
legend. A :class:`MapOverlay` adds garrison colours, stack labels, move arrows, battle
marks and a title (the turn snapshot of the reports, ARCHITECTURE.md "Reports").
"""
from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TypeVar
from xml.sax.saxutils import escape

import cairosvg

from pbem.i18n import N_
from pbem.pack.model import Pack
from pbem.report.placement import Box, Obstacles, free_spot, nearest_free, overlap, text_box

T = TypeVar("T")

# View box in degrees: lon_min, lat_min, lon_max, lat_max.
VIEW = (17.5, 22.8, 75.5, 45.4)
SCALE = 44.0  # SVG user units per degree of latitude
# Piecewise horizontal scale: (from longitude, factor). The crowded Aegean is widened and
# the sparse Iranian plateau compressed, so every label stays readable.
LON_BANDS: tuple[tuple[float, float], ...] = ((VIEW[0], 1.3), (30.0, 1.0), (45.0, 0.7))
MARGIN_TOP = 40.0

SEA = "#cfe2ee"
LAND = "#f1e9d2"
COAST = "#b9a677"
PATH_STYLE: Mapping[str, str] = {
    "land": 'stroke="#8b6b3d" stroke-width="1.3"',
    "mountain_strait": 'stroke="#3d2b1f" stroke-width="2.2"',
    "sea": 'stroke="#2a6fb0" stroke-width="1.3" stroke-dasharray="6 4"',
    "trans_med": 'stroke="#173f80" stroke-width="1.6" stroke-dasharray="0.5 5" stroke-linecap="round"',
}
INDEPENDENT_GREEN = "#3f8f4a"
DEFAULT_SEAT_COLOURS = ("#c0392b", "#2c5aa0", "#d68910", "#7d3c98", "#1e8449", "#616a6b")


@dataclass(frozen=True)
class MapOverlay:
    """What a turn snapshot adds to the bare map (all fields optional).

    - ``space_owner``: space id -> seat name whose garrison is there, or
      ``"independent"`` for an independent marker (drawn green).
    - ``seat_colours``: seat name -> CSS colour; seats without one get a default colour.
    - ``stacks``: space id -> short label drawn in a box, e.g. ``"Ptolemy 5"``.
    - ``arrows``: moves as ``(from space id, to space id)`` pairs, drawn as arrows.
    - ``battles``: space ids where a battle was fought this turn (red mark).
    - ``title``: heading drawn at the top, e.g. ``"Turn 2 (319 BC), after North's move"``.
    Unknown space ids are ignored, so an overlay built from a stale state never breaks
    the picture.
    """

    space_owner: Mapping[str, str] = field(default_factory=dict)
    seat_colours: Mapping[str, str] = field(default_factory=dict)
    stacks: Mapping[str, str] = field(default_factory=dict)
    arrows: tuple[tuple[str, str], ...] = ()
    battles: tuple[str, ...] = ()
    title: str = ""
    province_owner: Mapping[str, str] = field(default_factory=dict)
    """province id -> seat controlling it (R-3.2): its spaces get a halo of that colour."""
    armies: tuple[tuple[str, str, str], ...] = ()
    """``(space id, seat or "independent", label)``: one coloured box per army, e.g.
    ``("memphis", "west", "Ptolemy 6")``; boxes are placed so they do not overlap."""
    moves: tuple[tuple[str, str, str], ...] = ()
    """``(from, to, seat)`` legs of this player-turn's moves, drawn in the seat's colour."""
    sieges: tuple[str, ...] = ()
    """Space ids besieged or assaulted this turn (dashed ring)."""
    royals: Mapping[str, str] = field(default_factory=dict)
    """space id -> names of the royal family members there (crown label)."""
    seat_labels: Mapping[str, str] = field(default_factory=dict)
    """seat -> legend text (``"north: Kleitos"``); non-empty draws the seat legend."""


class _Projection:
    """lon/lat degrees -> SVG x/y: equirectangular, x scaled by cos(middle latitude)
    and by the factor of its band in :data:`LON_BANDS`."""

    def __init__(self) -> None:
        _lon0, lat0, lon1, lat1 = VIEW
        self.kx = SCALE * math.cos(math.radians((lat0 + lat1) / 2))
        self.ky = SCALE
        self.width = self._x(lon1)
        self.height = (lat1 - lat0) * self.ky + MARGIN_TOP

    def _x(self, lon: float) -> float:
        x = 0.0
        for i, (start, factor) in enumerate(LON_BANDS):
            end = LON_BANDS[i + 1][0] if i + 1 < len(LON_BANDS) else math.inf
            if lon <= start:
                break
            x += (min(lon, end) - start) * factor
        return x * self.kx

    def __call__(self, lon: float, lat: float) -> tuple[float, float]:
        return (self._x(lon), (VIEW[3] - lat) * self.ky + MARGIN_TOP)


@lru_cache(maxsize=4)
def _land_paths(pack_name: str) -> tuple[str, ...]:
    """SVG path data of the land outline (empty if the pack ships no land.geojson)."""
    node = resources.files("pbem.data") / pack_name / "land.geojson"
    try:
        doc = json.loads(node.read_text(encoding="utf-8"))
    except (FileNotFoundError, OSError, ValueError):
        return ()
    proj = _Projection()
    out = []
    for feat in doc.get("features", []):
        geom = feat.get("geometry") or {}
        polys = geom.get("coordinates", [])
        if geom.get("type") == "Polygon":
            polys = [polys]
        for poly in polys:
            d = []
            for ring in poly:
                pts = [proj(lon, lat) for lon, lat in ring]
                d.append("M" + " L".join(f"{x:.1f},{y:.1f}" for x, y in pts) + " Z")
            out.append(" ".join(d))
    return tuple(out)


def _hexagon(x: float, y: float, r: float) -> str:
    pts = [(x + r * math.cos(math.radians(60 * i)), y + r * math.sin(math.radians(60 * i)))
           for i in range(6)]
    return " ".join(f"{a:.1f},{b:.1f}" for a, b in pts)


def _marker(kind: str, x: float, y: float, fill: str, extra: str = "") -> str:
    """One space symbol (see module docstring)."""
    if kind == "major_city":
        return (f'<rect x="{x - 6:.1f}" y="{y - 6:.1f}" width="12" height="12" fill="{fill}" '
                f'stroke="#111" stroke-width="1.6" {extra}/>')
    if kind == "stronghold":
        return (f'<polygon points="{_hexagon(x, y, 7)}" fill="{fill}" stroke="#111" '
                f'stroke-width="1.3" {extra}/>')
    if kind == "transit":
        return (f'<polygon points="{x:.1f},{y - 3.5:.1f} {x + 3.5:.1f},{y:.1f} {x:.1f},{y + 3.5:.1f} '
                f'{x - 3.5:.1f},{y:.1f}" fill="#777" stroke="none" {extra}/>')
    return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4.6" fill="{fill}" stroke="#111" stroke-width="1.1" {extra}/>'


def _seat_colour(overlay: MapOverlay, seat: str) -> str:
    if seat == "independent":
        return INDEPENDENT_GREEN
    if seat in overlay.seat_colours:
        return overlay.seat_colours[seat]
    seats = sorted({s for s in overlay.space_owner.values() if s != "independent"})
    i = seats.index(seat) if seat in seats else 0
    return DEFAULT_SEAT_COLOURS[i % len(DEFAULT_SEAT_COLOURS)]


@dataclass(frozen=True)
class Layer:
    """One layer of the map picture, bottom to top: its SVG elements and whether it
    depends on the pack alone (``static``: the same for every turn, so a raster of it
    can be drawn once and reused, :mod:`pbem.report.raster`)."""

    name: str
    static: bool
    elements: tuple[str, ...]


def svg_document(elements: tuple[str, ...] | list[str], height: float | None = None) -> str:
    """An SVG document (the map's size, font and arrow marker) holding ``elements``;
    ``height``: another height in map units (the map's width kept)."""
    proj = _Projection()
    w, h = proj.width, proj.height if height is None else height
    return "\n".join([
        (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w:.0f} {h:.0f}" '
         f'width="{w:.0f}" height="{h:.0f}" font-family="DejaVu Sans, Arial, sans-serif">'),
        ("<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" "
         "markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" "
         "fill=\"#b03a2e\"/></marker></defs>"),
        *elements, "</svg>"])


def map_layers(pack: Pack, overlay: MapOverlay | None = None, within: Sequence[Box] | None = None) -> list[Layer]:
    """The map of ``pack`` with ``overlay`` as layers, bottom to top: ``base`` (sea,
    land, province names, paths; static), ``control`` (the control halos), ``symbols``
    (every space's symbol unowned, with its rings; static), ``spaces`` (the owned
    spaces' symbols in their owners' colours, over the unowned ones), ``labels`` (the
    hostile-tribe and treasure marks and the space names; static), ``turn`` (stacks,
    moves, battles, sieges, royals, army boxes), ``legend`` (static), ``players`` (the
    players' legend: the same all game long) and ``top`` (the title). :func:`render_map_svg` is their concatenation.
    Army and royal-family boxes cover no space's name or symbol, no legend and no
    title (:func:`turn_layer`, issue 24 item 15). ``within``: draw only the boxes that
    reach into one of these boxes (the zooms cut from the map; every box is placed as
    on the whole map)."""
    ov = overlay or MapOverlay()
    proj = _Projection()
    xy = {sid: proj(s.lon, s.lat) for sid, s in pack.spaces.items()}
    control: list[str] = []
    _control_layer(control, ov, pack, xy)
    owned: list[str] = []
    _owned_layer(owned, ov, pack, xy)
    title = ov.title or f"Successors: the empire of Alexander, 323 BC ({pack.name} pack)"
    size = 30 if ov.seat_labels else 20
    top = [(f'<text x="14" y="{size + 6}" font-size="{size}" font-weight="bold" fill="#2d2a26" '
            f'stroke="#ffffff" stroke-width="0.6">{escape(title)}</text>')]
    obstacles = _detail_obstacles(pack).copy()
    obstacles.add(text_box(title, 14, size + 6, size, scale=ZOOM_SCALE, bold=True, pad=2))
    players: list[str] = []
    legend_box = _seat_legend(players, ov, proj)
    if legend_box is not None:
        obstacles.add(legend_box)
    turn: list[str] = []
    _overlay(turn, ov, xy)
    turn_layer(turn, ov, xy, obstacles, DETAIL_STYLE, within)
    return [Layer("base", True, _base_layer(pack)), Layer("control", False, tuple(control)),
            Layer("symbols", True, _symbols_layer(pack)), Layer("spaces", False, tuple(owned)),
            Layer("labels", True, _marks_layer(pack) + _labels_layer(pack)), Layer("turn", False, tuple(turn)),
            Layer("legend", True, _legend_layer()), Layer("players", False, tuple(players)),
            Layer("top", False, tuple(top))]


def render_map_svg(pack: Pack, overlay: MapOverlay | None = None) -> str:
    """Return an SVG document (UTF-8 text) of ``pack``'s map.

    Without ``overlay`` the map shows the start-of-game markers: independent spaces and
    strongholds green. With an overlay, garrison owners colour the spaces and stacks,
    arrows, battles and a title are drawn on top. Raises nothing for unknown ids in the
    overlay (they are skipped)."""
    return svg_document([e for layer in map_layers(pack, overlay) for e in layer.elements])


def per_pack(fn: Callable[[Pack], T]) -> Callable[[Pack], T]:
    """Cache ``fn(pack)`` per pack object (a Pack holds mapping proxies, so it is not
    hashable for :func:`functools.lru_cache`); at most 8 packs, the oldest dropped (a
    pack in three languages is three: :func:`pbem.pack.names.localized`)."""
    cache: dict[int, tuple[Pack, T]] = {}

    def cached(pack: Pack) -> T:
        hit = cache.get(id(pack))
        if hit is None or hit[0] is not pack:
            if len(cache) >= 8:
                cache.pop(next(iter(cache)))
            hit = cache[id(pack)] = (pack, fn(pack))
        return hit[1]
    return cached


@per_pack
def _base_layer(pack: Pack) -> tuple[str, ...]:
    """Sea, land, province names (under everything else) and paths."""
    proj = _Projection()
    out = list(sea_and_land(pack))
    out.append('<g font-size="15" font-weight="bold" fill="#8d6e3f" fill-opacity="0.55" '
               'text-anchor="middle" letter-spacing="1.5">')
    for pid, prov in pack.provinces.items():
        at = province_point(pack, pid, proj)
        if at is not None:
            out.append(f'<text x="{at[0]:.1f}" y="{at[1]:.1f}">{escape(prov.name.upper())}</text>')
    out.append("</g>")
    out.extend(paths(pack))
    return tuple(out)


@per_pack
def sea_and_land(pack: Pack) -> tuple[str, ...]:
    """The sea and the land outline (SVG elements, the bottom of every map picture)."""
    proj = _Projection()
    out = [f'<rect x="0" y="0" width="{proj.width:.0f}" height="{proj.height:.0f}" fill="{SEA}"/>']
    out.append(f'<g fill="{LAND}" stroke="{LAND}" stroke-width="0.8" stroke-linejoin="round">')
    out.extend(f'<path d="{d}"/>' for d in _land_paths(_pack_dir_name(pack)))
    out.append("</g>")
    return tuple(out)


@per_pack
def paths(pack: Pack) -> tuple[str, ...]:
    """The paths between spaces, styled by kind (:data:`PATH_STYLE`; SVG elements)."""
    proj = _Projection()
    xy = {sid: proj(s.lon, s.lat) for sid, s in pack.spaces.items()}
    out = ['<g fill="none">']
    for p in pack.paths:
        if p.a in xy and p.b in xy:
            (x1, y1), (x2, y2) = xy[p.a], xy[p.b]
            out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" {PATH_STYLE[p.kind]}/>')
    out.append("</g>")
    return tuple(out)


def province_point(pack: Pack, pid: str, proj: _Projection) -> tuple[float, float] | None:
    """Where a province's name is written: the pack's ``label`` point, else a little
    below the middle of its spaces; None for a province without spaces."""
    prov = pack.provinces[pid]
    pts = [proj(s.lon, s.lat) for s in pack.spaces_of(pid)]
    if not pts:
        return None
    if prov.label is not None:
        return proj(prov.label[1], prov.label[0])
    return sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts) + 16


def _neutral_fill(space: object) -> str:
    """A space's symbol colour with no owner: green for independent spaces and
    strongholds, white otherwise."""
    return INDEPENDENT_GREEN if getattr(space, "independent", False) or getattr(space, "kind", "") == "stronghold" \
        else "#ffffff"


@per_pack
def _symbols_layer(pack: Pack) -> tuple[str, ...]:
    """Every space's symbol as it is with no owner, with its port and Hellespont rings
    (static: :func:`_owned_layer` paints the owned spaces' symbols over these)."""
    proj = _Projection()
    out = ['<g class="symbols">']
    for s in pack.spaces.values():
        x, y = proj(s.lon, s.lat)
        if s.hellespont:
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="8" fill="none" stroke="#d4a017" stroke-width="2"/>')
        if s.port and s.kind != "transit":
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="6.6" fill="none" stroke="#2a6fb0" stroke-width="1.2"/>')
        out.append(_marker(s.kind, x, y, _neutral_fill(s)))
    out.append("</g>")
    return tuple(out)


def _owned_layer(out: list[str], ov: MapOverlay, pack: Pack, xy: Mapping[str, tuple[float, float]]) -> None:
    """The symbol of each space whose owner colours it differently from the neutral
    symbol under it (:func:`_symbols_layer`), in its owner's colour."""
    out.append('<g class="spaces">')
    for sid, s in pack.spaces.items():
        owner = ov.space_owner.get(sid)
        if owner is None or s.kind == "transit":
            continue
        fill = _seat_colour(ov, owner)
        if fill != _neutral_fill(s):
            x, y = xy[sid]
            out.append(_marker(s.kind, x, y, fill))
    out.append("</g>")


@per_pack
def _marks_layer(pack: Pack) -> tuple[str, ...]:
    """The marks drawn over a space's symbol: hostile tribes (a red hexagon) and
    treasure cities (a gold dot); static."""
    proj = _Projection()
    out = ['<g class="marks">']
    for s in pack.spaces.values():
        x, y = proj(s.lon, s.lat)
        if s.hostile_tribes:
            out.append(f'<polygon points="{_hexagon(x, y, 9.5)}" fill="none" stroke="#c0392b" stroke-width="1.5"/>')
        if s.treasure_city:
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2.4" fill="#d4a017"/>')
    out.append("</g>")
    return tuple(out)


@per_pack
def _labels_layer(pack: Pack) -> tuple[str, ...]:
    """The space names: a white halo pass, then the text (cairosvg ignores paint-order);
    each placed beside its space where it covers no other label or symbol
    (:func:`label_layout`)."""
    out: list[str] = []
    layout = label_layout(pack)
    for halo in (True, False):
        attrs = (f'fill="#ffffff" stroke="#ffffff" stroke-width="{2 * HALO:.1f}" stroke-opacity="0.85"'
                 if halo else 'fill="#222"')
        out.append(f'<g class="names" font-size="{LABEL_FONT}" {attrs}>')
        for sid, s in pack.spaces.items():
            lab = layout[sid]
            style = ' font-style="italic"' if s.kind == "transit" else ""
            if s.kind == "transit" and not halo:
                style += ' fill="#555"'
            if s.kind == "major_city":
                style = f' font-weight="bold" font-size="{MAJOR_FONT}"'
            anchor = f' text-anchor="{lab.anchor}"' if lab.anchor != "start" else ""
            out.append(f'<text x="{lab.x:.1f}" y="{lab.y:.1f}"{anchor}{style}>{escape(s.name)}</text>')
        out.append("</g>")
    return tuple(out)


LABEL_FONT = 8.5
MAJOR_FONT = 10.0
HALO = 1.2
"""Half the width of the white halo drawn under every name, in SVG units."""
ZOOM_SCALE = 1.5
"""Pixels per SVG unit of the zoom of the mailed picture (issue 24 item 15): the space
names (:data:`LABEL_FONT`) are 12.75 px there, a cap height of 9.3 px. The full map's
layout is measured at this scale (:func:`label_layout`)."""


@dataclass(frozen=True)
class Label:
    """Where a space's name is drawn: the text's anchor point (``x``, ``y`` baseline),
    its ``anchor`` (SVG text-anchor ``start``/``middle``/``end``) and the ``box`` its
    ink and halo cover, ``(x0, y0, x1, y1)`` in SVG units."""

    x: float
    y: float
    anchor: str
    box: tuple[float, float, float, float]


def symbol_box(space: object, x: float, y: float) -> Box:
    """The box a space's symbol covers at ``(x, y)`` with its rings and marks, strokes
    included (:func:`_marker`, :func:`_symbols_layer`, :func:`_marks_layer`)."""
    kind = getattr(space, "kind", "")
    rx, ry = {"major_city": (6.8, 6.8), "stronghold": (7.65, 6.71), "transit": (3.5, 3.5)}.get(kind, (5.15, 5.15))
    if getattr(space, "port", False) and kind != "transit":
        rx, ry = max(rx, 7.2), max(ry, 7.2)
    if getattr(space, "hellespont", False):
        rx, ry = max(rx, 9.0), max(ry, 9.0)
    if getattr(space, "hostile_tribes", False):
        rx, ry = max(rx, 10.25), max(ry, 8.98)
    return (x - rx, y - ry, x + rx, y + ry)


_LAYOUTS: dict[int, tuple[Pack, dict[str, Label]]] = {}


def label_layout(pack: Pack) -> dict[str, Label]:
    """Where every space's name goes (static: it depends on the pack alone, so it is
    computed once per pack). A greedy placement of our own, written for this map: the
    spaces are taken most crowded first (major cities before the rest), and each name
    goes to the first of eight places around its symbol (right, left, above, below,
    then the diagonals) that covers no name placed before and no other space's symbol,
    else to the place that covers least; each name's box is its ink as cairo draws it
    at :data:`ZOOM_SCALE` (:func:`pbem.report.placement.text_box`) with its halo, so
    army boxes, which avoid these boxes (:func:`turn_layer`), do not cover them."""
    hit = _LAYOUTS.get(id(pack))
    if hit is not None and hit[0] is pack:
        return hit[1]
    proj = _Projection()
    xy = {sid: proj(s.lon, s.lat) for sid, s in pack.spaces.items()}
    symbols = {sid: symbol_box(sp, *xy[sid]) for sid, sp in pack.spaces.items()}

    def crowd(sid: str) -> int:
        x, y = xy[sid]
        return sum(1 for o, (a, b) in xy.items() if o != sid and abs(a - x) < 70 and abs(b - y) < 24)

    order = sorted(pack.spaces, key=lambda sid: (pack.spaces[sid].kind != "major_city", -crowd(sid), sid))
    placed = Obstacles()
    out: dict[str, Label] = {}
    for sid in order:
        sp = pack.spaces[sid]
        x, y = xy[sid]
        major = sp.kind == "major_city"
        font = MAJOR_FONT if major else LABEL_FONT
        sym = symbols[sid]
        rx, ry = (sym[2] - sym[0]) / 2 + 1.0, (sym[3] - sym[1]) / 2 + 1.0
        h = font * 0.72
        d = max(rx, ry) * 0.75
        cands = [(x + rx, y + h / 2, "start"), (x - rx, y + h / 2, "end"),
                 (x, y - ry - 1.5, "middle"), (x, y + ry + h + 1.5, "middle"),
                 (x + d, y - d, "start"), (x + d, y + d + h, "start"),
                 (x - d, y - d, "end"), (x - d, y + d + h, "end")]
        others = Obstacles(b for o, b in symbols.items() if o != sid)
        best, best_cost = None, math.inf
        for i, (tx, ty, anchor) in enumerate(cands):
            box = text_box(sp.name, tx, ty, font, scale=ZOOM_SCALE, anchor=anchor, bold=major,
                           italic=sp.kind == "transit", pad=HALO)
            cost = 3 * placed.covered(box) + 2 * others.covered(box) + i * 0.5
            if cost < best_cost:
                best, best_cost = Label(tx, ty, anchor, box), cost
            if cost < 4:
                break
        assert best is not None
        out[sid] = best
        placed.add(best.box)
    _LAYOUTS[id(pack)] = (pack, out)
    return out


@per_pack
def _detail_obstacles(pack: Pack) -> Obstacles:
    """What a box on the full map must not cover, the same every turn: every space's
    name (:func:`label_layout`) and symbol (:func:`symbol_box`), and the symbol legend."""
    proj = _Projection()
    boxes = [lab.box for lab in label_layout(pack).values()]
    boxes += [symbol_box(s, *proj(s.lon, s.lat)) for s in pack.spaces.values()]
    boxes.append(_legend_box())
    return Obstacles(boxes)


def _pack_dir_name(pack: Pack) -> str:
    """The pbem.data sub-directory holding the land outline (the built-in pack's)."""
    return "successors"


def _overlay(out: list[str], ov: MapOverlay, xy: Mapping[str, tuple[float, float]]) -> None:
    out.append('<g fill="none" stroke="#b03a2e" stroke-width="2.4" marker-end="url(#arrow)">')
    for a, b in ov.arrows:
        if a in xy and b in xy:
            (x1, y1), (x2, y2) = xy[a], xy[b]
            dx, dy = x2 - x1, y2 - y1
            n = math.hypot(dx, dy) or 1.0
            out.append(f'<line class="move" x1="{x1 + dx / n * 6:.1f}" y1="{y1 + dy / n * 6:.1f}" '
                       f'x2="{x2 - dx / n * 8:.1f}" y2="{y2 - dy / n * 8:.1f}"/>')
    out.append("</g>")
    for sid, label in ov.stacks.items():
        if sid in xy:
            x, y = xy[sid]
            owner = ov.space_owner.get(sid)
            colour = _seat_colour(ov, owner) if owner else "#333333"
            tw = 6.2 * len(label) + 8
            out.append(f'<g><rect x="{x - tw / 2:.1f}" y="{y - 25:.1f}" width="{tw:.1f}" height="15" rx="3" '
                       f'fill="#fffdf5" stroke="{colour}" stroke-width="1.6"/>'
                       f'<text x="{x:.1f}" y="{y - 14:.1f}" font-size="10.5" text-anchor="middle" '
                       f'fill="#111">{escape(label)}</text></g>')


LEGEND_AT = (17.9, 27.3)
"""(lon, lat) of the symbol legend's top left corner on the full map."""
_LEGEND_ROWS = 13


def _legend_box() -> Box:
    """The box the symbol legend covers (:func:`_legend_layer`)."""
    x0, y0 = _Projection()(*LEGEND_AT)
    return (x0, y0, x0 + 400, y0 + 21 * ((_LEGEND_ROWS + 1) // 2) + 36)


def symbol_rows() -> list[tuple[str, str]]:
    """The legend rows of the space symbols, ``[(svg at 0,0, label)]``: the same on the
    full map and the overview (:mod:`pbem.report.overview`); the labels in English,
    marked for the catalogues (the overview's legend says them in the seat's language)."""
    return [
        (_marker("major_city", 0, 0, "#fff"), N_("major city")),
        (('<rect x="-6" y="-6" width="12" height="12" fill="#fff" stroke="#111" stroke-width="1.6"/>'
         '<circle r="2.4" fill="#d4a017"/>'), N_("treasure city")),
        (_marker("minor_city", 0, 0, "#fff"), N_("minor city")),
        (_marker("minor_city", 0, 0, INDEPENDENT_GREEN), N_("independent space")),
        (_marker("stronghold", 0, 0, INDEPENDENT_GREEN), N_("stronghold")),
        (_marker("stronghold", 0, 0, INDEPENDENT_GREEN)
         + f'<polygon points="{_hexagon(0, 0, 9.5)}" fill="none" stroke="#c0392b" stroke-width="1.5"/>',
         N_("hostile tribes")),
        (_marker("transit", 0, 0, "#777"), N_("transit point")),
        ('<circle r="6.6" fill="none" stroke="#2a6fb0" stroke-width="1.2"/>'
         + _marker("minor_city", 0, 0, "#fff"), N_("port")),
        ('<circle r="8" fill="none" stroke="#d4a017" stroke-width="2"/>'
         + _marker("minor_city", 0, 0, "#fff"), N_("Hellespont port")),
    ]


@lru_cache(maxsize=1)
def _legend_layer() -> tuple[str, ...]:
    """The legend of the symbols (the same on every map)."""
    out: list[str] = []
    x0, y0 = _Projection()(*LEGEND_AT)
    rows: list[tuple[str, str]] = [
        *symbol_rows(),
        (f'<line x1="-12" x2="12" {PATH_STYLE["land"]}/>', "land path (1 MP)"),
        (f'<line x1="-12" x2="12" {PATH_STYLE["mountain_strait"]}/>', "mountain/strait (2 MPs)"),
        (f'<line x1="-12" x2="12" {PATH_STYLE["sea"]}/>', "sea path (ports)"),
        (f'<line x1="-12" x2="12" {PATH_STYLE["trans_med"]}/>', "trans-Mediterranean"),
    ]
    assert len(rows) == _LEGEND_ROWS
    per_col = (len(rows) + 1) // 2
    height = 21 * per_col + 36
    out.append(f'<g class="legend" transform="translate({x0:.1f},{y0:.1f})">'
               f'<rect x="0" y="0" width="400" height="{height}" rx="6" fill="#fffdf5" '
               f'fill-opacity="0.93" stroke="#8d6e3f"/>'
               f'<text x="12" y="20" font-size="13" font-weight="bold" fill="#2d2a26">Legend</text>')
    for i, (sym, text) in enumerate(rows):
        col, row = divmod(i, per_col)
        x, y = 24 + 195 * col, 40 + 21 * row
        out.append(f'<g transform="translate({x},{y})">{sym}</g>'
                   f'<text x="{x + 20}" y="{y + 4}" font-size="11" fill="#2d2a26">{escape(text)}</text>')
    out.append("</g>")
    return tuple(out)


def _control_layer(out: list[str], ov: MapOverlay, pack: Pack, xy: Mapping[str, tuple[float, float]]) -> None:
    """A translucent halo in the controller's colour under every space of a controlled
    province (R-3.2), so control reads at a glance even at mail size."""
    if not ov.province_owner:
        return
    out.append('<g class="control" fill-opacity="0.42" stroke="none">')
    for pid, seat in ov.province_owner.items():
        if not seat:
            continue
        colour = _seat_colour(ov, seat)
        for sp in pack.spaces_of(pid):
            if sp.id in xy and sp.kind != "transit":
                x, y = xy[sp.id]
                out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="17" fill="{colour}"/>')
    out.append("</g>")


@dataclass(frozen=True)
class TurnStyle:
    """The sizes of the turn's marks on one kind of picture, in SVG units: the font of
    the army boxes (``army_font``) and royal-family labels (``royal_font``), the
    padding inside a box, the leader line's width, and the search for a free place
    (:func:`pbem.report.placement.free_spot`): rings ``step`` apart out to ``reach``
    from the space, first ``gap`` beyond its symbol; ``scale`` is the pixels per unit
    the picture is drawn at (text is measured there); ``frame`` where boxes must stay."""

    army_font: float
    royal_font: float
    pad: float
    line: float
    gap: float
    step: float
    reach: float
    scale: float
    frame: Box
    margin: float = 1.0
    """Room kept free around a box (names and symbols do not touch it)."""


DETAIL_STYLE = TurnStyle(army_font=12.0, royal_font=10.0, pad=3.0, line=1.6, gap=3.0, step=5.0, reach=600.0,
                         scale=ZOOM_SCALE, frame=(0.0, 0.0, _Projection().width, _Projection().height))
"""The full map's turn marks (the archive's SVG and the zoom of the mailed picture,
where the army labels are 18 px)."""


@dataclass(frozen=True)
class PlacedBox:
    """An army or royal-family box of the turn placed on a picture (:func:`place_turn`):
    its ``kind`` (``army`` or ``royal``, the SVG class), its ``frame`` (the leader line
    and the rectangle, SVG elements without a group), its label as a ``<text>`` element
    in each of the overlays it was placed for (``texts``, in their order) and ``reach``,
    the box that holds box and leader line (SVG units)."""

    kind: str
    frame: str
    texts: tuple[str, ...]
    reach: Box


def _same_position(ovs: Sequence[MapOverlay]) -> None:
    """Raise ValueError unless every overlay of ``ovs`` shows the same armies and royal
    family at the same spaces (their labels may differ: one overlay per language)."""
    first = ovs[0]
    for ov in ovs[1:]:
        if ([(s, seat) for s, seat, _l in ov.armies] != [(s, seat) for s, seat, _l in first.armies]
                or list(ov.royals) != list(first.royals)):
            raise ValueError("the overlays do not show the same position")


def place_turn(ovs: Sequence[MapOverlay], xy: Mapping[str, tuple[float, float]], obstacles: Obstacles,
               style: TurnStyle) -> tuple[list[str], list[PlacedBox]]:
    """This turn's marks and boxes, placed once for the overlays ``ovs`` of one position
    in several languages (the first gives the marks and colours; their armies and royal
    family must be the same, only the labels differ; ValueError otherwise): returns the
    marks (sieges, battles, then moves; SVG elements, the same in every language) and
    the boxes in drawing order, each sized for the widest of its labels, so it stands
    at the same place and holds its label in every language (issue 28 item 6). Each box
    goes to the free place nearest its space (:func:`pbem.report.placement.free_spot`)
    that covers none of ``obstacles`` (the caller's: names, symbols, legends, title),
    no battle or siege mark and no box placed before; they are added to
    ``obstacles``."""
    _same_position(ovs)
    ov = ovs[0]
    marks: list[str] = []
    for sid in ov.sieges:
        if sid in xy:
            x, y = xy[sid]
            marks.append(f'<circle class="siege" cx="{x:.1f}" cy="{y:.1f}" r="16" fill="none" stroke="#7b241c" '
                         'stroke-width="4" stroke-dasharray="6 4"/>')
            obstacles.add((x - 18, y - 18, x + 18, y + 18))
    for sid in ov.battles:
        if sid in xy:
            x, y = xy[sid]
            cross = (f'<line x1="{x - 14:.1f}" y1="{y - 14:.1f}" x2="{x + 14:.1f}" y2="{y + 14:.1f}"/>'
                     f'<line x1="{x - 14:.1f}" y1="{y + 14:.1f}" x2="{x + 14:.1f}" y2="{y - 14:.1f}"/>')
            marks.append(f'<g class="battle" stroke-linecap="round"><g stroke="#fff" stroke-width="8">{cross}</g>'
                         f'<g stroke="#d01c1c" stroke-width="4.5">{cross}</g></g>')
            obstacles.add((x - 18, y - 18, x + 18, y + 18))
    boxes: list[PlacedBox] = []
    for sid in ov.royals:  # first: few, and far from their space they read as another's (item H)
        if sid in xy:
            boxes.append(_boxed(obstacles, style, xy[sid], ["\u265b " + o.royals[sid] for o in ovs], "royal",
                                style.royal_font, "#f5eef8", "#6c3483", "#4a235a", italic=True, nearest=True))
    for i, (sid, seat, _label) in enumerate(ov.armies):
        if sid in xy:
            colour = _seat_colour(ov, seat)
            boxes.append(_boxed(obstacles, style, xy[sid], [o.armies[i][2] for o in ovs], "army", style.army_font,
                                colour, "#111", _text_on(colour), bold=True))
    marks.extend(_moves(ov, xy))
    return marks, boxes


def reaches(box: PlacedBox, within: Sequence[Box] | None) -> bool:
    """Whether ``box`` is drawn on a picture cut to ``within`` (None: the whole map)."""
    return within is None or any(overlap(box.reach, w) > 0 for w in within)


def turn_layer(out: list[str], ov: MapOverlay, xy: Mapping[str, tuple[float, float]], obstacles: Obstacles,
               style: TurnStyle, within: Sequence[Box] | None = None) -> None:
    """This turn's moves (seat-coloured arrows), battles (red cross), sieges (dashed
    ring), army boxes (seat colour, commander and strength) and royal family (crown
    labels), appended to ``out``, each box a group of class ``army`` or ``royal`` with
    its leader line, rectangle and label (:func:`place_turn`, for ``ov`` alone). Issue
    24 item 15: a box never covers a space's name or symbol. ``within``: see
    :func:`map_layers`."""
    marks, boxes = place_turn([ov], xy, obstacles, style)
    out.extend(marks)
    out.extend(f'<g class="{b.kind}">{b.frame}{b.texts[0]}</g>' for b in boxes if reaches(b, within))


def _boxed(obstacles: Obstacles, style: TurnStyle, at: tuple[float, float], labels: Sequence[str], kind: str,
           font: float, fill: str, edge: str, ink: str, bold: bool = False, italic: bool = False,
           nearest: bool = False) -> PlacedBox:
    """One box placed near ``at`` where it covers no obstacle (then added to them), as
    wide as the widest of ``labels`` (one per language) and as high as the tallest,
    with its leader line; with ``nearest``, at the free place nearest ``at``
    (:func:`pbem.report.placement.nearest_free`, the royal family's labels), else at
    the first of :func:`pbem.report.placement.free_spot`'s places that is free."""
    x, y = at
    widths = [text_box(label, 0, 0, font, scale=style.scale, anchor="middle", bold=bold, italic=italic)
              for label in labels]
    line_box = text_box("Hgy", 0, 0, font, scale=style.scale, bold=bold, italic=italic)
    # a label's ink may reach into half the padding above and below the line ("Hgy");
    # beyond that (an accented capital, "É", "Й") the box grows to hold it
    slack = style.pad * 0.35
    rise = max(0.0, line_box[1] - slack - min(b[1] for b in widths))
    drop = max(0.0, max(b[3] for b in widths) - line_box[3] - slack)
    w = max(b[2] - b[0] for b in widths) + 2 * style.pad + style.line
    h = line_box[3] - line_box[1] + rise + drop + 2 * style.pad * 0.7 + style.line
    m = style.margin
    search = nearest_free if nearest else free_spot
    room, _free = search(obstacles, x, y, w + 2 * m, h + 2 * m, gap=style.gap + 9.0, step=style.step,
                         frame=style.frame, reach=style.reach)
    obstacles.add(room)
    box = (room[0] + m, room[1] + m, room[2] - m, room[3] - m)
    half = style.line / 2  # the drawn rectangle's stroke stays inside the box
    cx = (box[0] + box[2]) / 2
    near_x, near_y = min(max(x, box[0]), box[2]), min(max(y, box[1]), box[3])
    baseline = box[1] + half + style.pad * 0.7 + rise - line_box[1]
    weight = ' font-weight="bold"' if bold else ""
    slant = ' font-style="italic"' if italic else ""
    reach = (min(room[0], x - 1), min(room[1], y - 1), max(room[2], x + 1), max(room[3], y + 1))
    frame = (f'<line x1="{x:.1f}" y1="{y:.1f}" x2="{near_x:.1f}" y2="{near_y:.1f}" stroke="{edge}" '
             f'stroke-width="{style.line:.2f}"/><rect x="{box[0] + half:.2f}" y="{box[1] + half:.2f}" '
             f'width="{box[2] - box[0] - style.line:.2f}" height="{box[3] - box[1] - style.line:.2f}" '
             f'rx="{font / 4:.1f}" fill="{fill}" stroke="{edge}" stroke-width="{style.line:.2f}"/>')
    texts = tuple(f'<text x="{cx:.2f}" y="{baseline:.2f}" font-size="{font:.2f}"{weight}{slant} text-anchor="middle" '
                  f'fill="{ink}">{escape(label)}</text>' for label in labels)
    return PlacedBox(kind, frame, texts, reach)


def _moves(ov: MapOverlay, xy: Mapping[str, tuple[float, float]]) -> list[str]:
    """This player-turn's moves as arrows in the mover's colour (SVG elements)."""
    moves: list[str] = []
    colours = {seat: _seat_colour(ov, seat) for _a, _b, seat in ov.moves}
    if not colours:
        return moves
    moves.append("<defs>" + "".join(
        f'<marker id="arrow-{i}" viewBox="0 0 10 10" refX="7" refY="5" markerWidth="4" markerHeight="4" '
        f'orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="{c}" stroke="#111" stroke-width="0.8"/></marker>'
        for i, c in enumerate(colours.values())) + "</defs>")
    ids = {seat: i for i, seat in enumerate(colours)}
    for a, b, seat in ov.moves:
        if a in xy and b in xy and a != b:
            (x1, y1), (x2, y2) = xy[a], xy[b]
            dx, dy = x2 - x1, y2 - y1
            n = math.hypot(dx, dy) or 1.0
            pts = (f'x1="{x1 + dx / n * 7:.1f}" y1="{y1 + dy / n * 7:.1f}" '
                   f'x2="{x2 - dx / n * 12:.1f}" y2="{y2 - dy / n * 12:.1f}"')
            moves.append(f'<line class="move" {pts} stroke="#111" stroke-width="8.5" stroke-linecap="round" '
                         'stroke-opacity="0.85"/>')
            moves.append(f'<line class="move" {pts} stroke="{colours[seat]}" stroke-width="5.5" '
                         f'stroke-linecap="round" marker-end="url(#arrow-{ids[seat]})"/>')
    return moves


def _text_on(colour: str) -> str:
    """Black or white, whichever reads better on ``colour`` (``#rrggbb``)."""
    try:
        r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    except ValueError:
        return "#ffffff"
    return "#111111" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


def _seat_legend(out: list[str], ov: MapOverlay, proj: _Projection) -> Box | None:
    """The seats' colours and players, plus the turn symbols (R-3.2 control halo, moves,
    battles, sieges, royal family); drawn only when ``seat_labels`` is set. Returns the
    box it covers (None when not drawn)."""
    if not ov.seat_labels:
        return None
    rows = [(f'<rect x="-11" y="-9" width="22" height="18" rx="4" fill="{_seat_colour(ov, seat)}" stroke="#111"/>',
             text) for seat, text in ov.seat_labels.items()]
    rows.append((f'<rect x="-11" y="-9" width="22" height="18" rx="4" fill="{INDEPENDENT_GREEN}" stroke="#111"/>',
                 "independent"))
    rows += [
        ('<circle r="11" fill="#777" fill-opacity="0.35"/>', "halo: province controlled"),
        (('<line x1="-12" y1="0" x2="10" y2="0" stroke="#111" stroke-width="6"/>'
         '<line x1="-12" y1="0" x2="10" y2="0" stroke="#c0392b" stroke-width="4"/>'), "move this turn"),
        (('<g stroke="#d01c1c" stroke-width="3.5"><line x1="-8" y1="-8" x2="8" y2="8"/>'
         '<line x1="-8" y1="8" x2="8" y2="-8"/></g>'), "battle"),
        ('<circle r="9" fill="none" stroke="#7b241c" stroke-width="3" stroke-dasharray="5 3"/>', "siege / assault"),
        ('<text x="-7" y="6" font-size="16" fill="#4a235a">\u265b</text>', "royal family"),
    ]
    height = 26 * len(rows) + 40
    x0, y0 = proj(37.2, 30.0)[0], proj.height - height - 6
    out.append(f'<g class="seat-legend" transform="translate({x0:.1f},{y0:.1f})">'
               f'<rect x="0" y="0" width="330" height="{height}" rx="6" fill="#fffdf5" fill-opacity="0.95" '
               f'stroke="#8d6e3f" stroke-width="1.5"/>'
               f'<text x="14" y="26" font-size="18" font-weight="bold" fill="#2d2a26">Players</text>')
    for i, (sym, text) in enumerate(rows):
        y = 48 + 26 * i
        out.append(f'<g transform="translate(30,{y})">{sym}</g>'
                   f'<text x="52" y="{y + 6}" font-size="17" fill="#2d2a26">{escape(text)}</text>')
    out.append("</g>")
    return (x0, y0, x0 + 330, y0 + height)


def svg_to_png(svg: str, width: int = 1600) -> bytes:
    """Rasterise an SVG document to PNG bytes ``width`` pixels wide (height keeps the
    aspect ratio), with cairosvg (needs the system library libcairo2). Raises
    ``ValueError`` for a non-positive width."""
    if width <= 0:
        raise ValueError(f"width must be positive, got {width}")
    return cairosvg.svg2png(bytestring=svg.encode("utf-8"), output_width=width)


def write_map_files(pack: Pack, out_prefix: Path, width: int = 1600) -> tuple[Path, Path]:
    """Write the bare map of ``pack`` as ``OUT_PREFIX.svg`` and ``OUT_PREFIX.png``
    (``width`` pixels wide) — ``pbem data map``. Returns the two paths. Raises
    ``ValueError`` for a non-positive width, OSError when a file cannot be written."""
    svg = render_map_svg(pack)
    svg_path = out_prefix.with_name(out_prefix.name + ".svg")
    png_path = out_prefix.with_name(out_prefix.name + ".png")
    png = svg_to_png(svg, width)
    svg_path.write_text(svg, encoding="utf-8")
    png_path.write_bytes(png)
    return svg_path, png_path
