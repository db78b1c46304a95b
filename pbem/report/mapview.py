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
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TypeVar
from xml.sax.saxutils import escape

from pbem.pack.model import Pack

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


def svg_document(elements: tuple[str, ...] | list[str]) -> str:
    """An SVG document (the map's size, font and arrow marker) holding ``elements``."""
    proj = _Projection()
    w, h = proj.width, proj.height
    return "\n".join([
        (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w:.0f} {h:.0f}" '
         f'width="{w:.0f}" height="{h:.0f}" font-family="DejaVu Sans, Arial, sans-serif">'),
        ("<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" "
         "markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" "
         "fill=\"#b03a2e\"/></marker></defs>"),
        *elements, "</svg>"])


def map_layers(pack: Pack, overlay: MapOverlay | None = None) -> list[Layer]:
    """The map of ``pack`` with ``overlay`` as layers, bottom to top: ``base`` (sea,
    land, province names, paths; static), ``control`` (the control halos), ``symbols``
    (every space's symbol unowned, with its rings; static), ``spaces`` (the owned
    spaces' symbols in their owners' colours, over the unowned ones), ``labels`` (the
    hostile-tribe and treasure marks and the space names; static), ``turn`` (stacks,
    moves, battles, sieges, royals, army boxes), ``legend`` (static), ``players`` (the
    players' legend: the same all game long) and ``top`` (the title). :func:`render_map_svg` is their concatenation."""
    ov = overlay or MapOverlay()
    proj = _Projection()
    xy = {sid: proj(s.lon, s.lat) for sid, s in pack.spaces.items()}
    control: list[str] = []
    _control_layer(control, ov, pack, xy)
    owned: list[str] = []
    _owned_layer(owned, ov, pack, xy)
    turn: list[str] = []
    _overlay(turn, ov, xy)
    _turn_layer(turn, ov, xy, avoid=[lab.box for lab in label_layout(pack).values()])
    players: list[str] = []
    _seat_legend(players, ov, proj)
    title = ov.title or f"Successors: the empire of Alexander, 323 BC ({pack.name} pack)"
    size = 30 if ov.seat_labels else 20
    top = [f'<text x="14" y="{size + 6}" font-size="{size}" font-weight="bold" fill="#2d2a26" '
           f'stroke="#ffffff" stroke-width="0.6">{escape(title)}</text>']
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
    hashable for :func:`functools.lru_cache`); at most 4 packs, the oldest dropped."""
    cache: dict[int, tuple[Pack, T]] = {}

    def cached(pack: Pack) -> T:
        hit = cache.get(id(pack))
        if hit is None or hit[0] is not pack:
            if len(cache) >= 4:
                cache.pop(next(iter(cache)))
            hit = cache[id(pack)] = (pack, fn(pack))
        return hit[1]
    return cached


@per_pack
def _base_layer(pack: Pack) -> tuple[str, ...]:
    """Sea, land, province names (under everything else) and paths."""
    proj = _Projection()
    w, h = proj.width, proj.height
    xy = {sid: proj(s.lon, s.lat) for sid, s in pack.spaces.items()}
    out = [f'<rect x="0" y="0" width="{w:.0f}" height="{h:.0f}" fill="{SEA}"/>']
    out.append(f'<g fill="{LAND}" stroke="{LAND}" stroke-width="0.8" stroke-linejoin="round">')
    out.extend(f'<path d="{d}"/>' for d in _land_paths(_pack_dir_name(pack)))
    out.append("</g>")
    out.append('<g font-size="15" font-weight="bold" fill="#8d6e3f" fill-opacity="0.55" '
               'text-anchor="middle" letter-spacing="1.5">')
    for pid, prov in pack.provinces.items():
        pts = [xy[s.id] for s in pack.spaces_of(pid)]
        if not pts:
            continue
        if prov.label is not None:
            cx, cy = proj(prov.label[1], prov.label[0])
        else:
            cx = sum(p[0] for p in pts) / len(pts)
            cy = sum(p[1] for p in pts) / len(pts) + 16
        out.append(f'<text x="{cx:.1f}" y="{cy:.1f}">{escape(prov.name.upper())}</text>')
    out.append("</g>")
    out.append('<g fill="none">')
    for p in pack.paths:
        if p.a in xy and p.b in xy:
            (x1, y1), (x2, y2) = xy[p.a], xy[p.b]
            out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" {PATH_STYLE[p.kind]}/>')
    out.append("</g>")
    return tuple(out)


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
    out = ["<g>"]
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
    out.append("<g>")
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
    out = ["<g>"]
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
        attrs = ('fill="#ffffff" stroke="#ffffff" stroke-width="2.4" stroke-opacity="0.85"'
                 if halo else 'fill="#222"')
        out.append(f'<g font-size="{LABEL_FONT}" {attrs}>')
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
#: average advance of a DejaVu Sans character, in ems (regular; bold is wider)
_EM = {"regular": 0.57, "bold": 0.64}


@dataclass(frozen=True)
class Label:
    """Where a space's name is drawn: the text's anchor point (``x``, ``y`` baseline),
    its ``anchor`` (SVG text-anchor ``start``/``middle``/``end``) and the ``box`` it
    covers, ``(x0, y0, x1, y1)`` in SVG units."""

    x: float
    y: float
    anchor: str
    box: tuple[float, float, float, float]


def _marker_radius(space: object) -> float:
    kind = getattr(space, "kind", "")
    r = {"major_city": 7.0, "stronghold": 7.5, "transit": 4.0}.get(kind, 5.0)
    if getattr(space, "hostile_tribes", False):
        r = 10.0
    elif getattr(space, "hellespont", False):
        r = 9.0
    elif getattr(space, "port", False) and kind != "transit":
        r = max(r, 7.5)
    return r


_LAYOUTS: dict[int, tuple[Pack, dict[str, Label]]] = {}


def label_layout(pack: Pack) -> dict[str, Label]:
    """Where every space's name goes (static: it depends on the pack alone, so it is
    computed once per pack). A greedy placement of our own, written for this map: the
    spaces are taken most crowded first (major cities before the rest), and each name
    goes to the first of eight places around its symbol (right, left, above, below,
    then the diagonals) that covers no name placed before and no other space's symbol,
    else to the place that covers least; so names do not sit on one another and army
    boxes, which avoid these boxes (:func:`_turn_layer`), do not cover them."""
    hit = _LAYOUTS.get(id(pack))
    if hit is not None and hit[0] is pack:
        return hit[1]
    proj = _Projection()
    xy = {sid: proj(s.lon, s.lat) for sid, s in pack.spaces.items()}
    symbols = {sid: (x - _marker_radius(sp), y - _marker_radius(sp), x + _marker_radius(sp), y + _marker_radius(sp))
               for (sid, sp), (x, y) in zip(pack.spaces.items(), xy.values(), strict=True)}

    def crowd(sid: str) -> int:
        x, y = xy[sid]
        return sum(1 for o, (a, b) in xy.items() if o != sid and abs(a - x) < 70 and abs(b - y) < 24)

    order = sorted(pack.spaces, key=lambda sid: (pack.spaces[sid].kind != "major_city", -crowd(sid), sid))
    placed: list[tuple[float, float, float, float]] = []
    out: dict[str, Label] = {}
    for sid in order:
        sp = pack.spaces[sid]
        x, y = xy[sid]
        major = sp.kind == "major_city"
        font = MAJOR_FONT if major else LABEL_FONT
        w = _EM["bold" if major else "regular"] * font * len(sp.name) + 2
        h = font * 0.95
        r = _marker_radius(sp) + 1.5
        d = r * 0.75
        cands = [(x + r, y + h * 0.35, "start"), (x - r, y + h * 0.35, "end"),
                 (x, y - r - 1.5, "middle"), (x, y + r + h - 1, "middle"),
                 (x + d, y - d, "start"), (x + d, y + d + h * 0.7, "start"),
                 (x - d, y - d, "end"), (x - d, y + d + h * 0.7, "end")]
        best, best_cost = None, math.inf
        others = [b for o, b in symbols.items() if o != sid]
        for i, (tx, ty, anchor) in enumerate(cands):
            x0 = tx if anchor == "start" else tx - w if anchor == "end" else tx - w / 2
            box = (x0, ty - h * 0.8, x0 + w, ty + h * 0.2)
            cost = (3 * sum(_box_overlaps(box, p) for p in placed)
                    + 2 * sum(_box_overlaps(box, b) for b in others) + i * 0.5)
            if cost < best_cost:
                best, best_cost = Label(tx, ty, anchor, box), cost
            if cost < 4:
                break
        assert best is not None
        out[sid] = best
        placed.append(best.box)
    _LAYOUTS[id(pack)] = (pack, out)
    return out


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


@lru_cache(maxsize=1)
def _legend_layer() -> tuple[str, ...]:
    """The legend of the symbols (the same on every map)."""
    out: list[str] = []
    x0, y0 = _Projection()(17.9, 27.3)
    rows: list[tuple[str, str]] = [
        (_marker("major_city", 0, 0, "#fff"), "major city"),
        (('<rect x="-6" y="-6" width="12" height="12" fill="#fff" stroke="#111" stroke-width="1.6"/>'
         '<circle r="2.4" fill="#d4a017"/>'), "treasure city"),
        (_marker("minor_city", 0, 0, "#fff"), "minor city"),
        (_marker("minor_city", 0, 0, INDEPENDENT_GREEN), "independent space"),
        (_marker("stronghold", 0, 0, INDEPENDENT_GREEN), "stronghold"),
        (_marker("stronghold", 0, 0, INDEPENDENT_GREEN)
         + f'<polygon points="{_hexagon(0, 0, 9.5)}" fill="none" stroke="#c0392b" stroke-width="1.5"/>',
         "hostile tribes"),
        (_marker("transit", 0, 0, "#777"), "transit point"),
        ('<circle r="6.6" fill="none" stroke="#2a6fb0" stroke-width="1.2"/>'
         + _marker("minor_city", 0, 0, "#fff"), "port"),
        ('<circle r="8" fill="none" stroke="#d4a017" stroke-width="2"/>'
         + _marker("minor_city", 0, 0, "#fff"), "Hellespont port"),
        (f'<line x1="-12" x2="12" {PATH_STYLE["land"]}/>', "land path (1 MP)"),
        (f'<line x1="-12" x2="12" {PATH_STYLE["mountain_strait"]}/>', "mountain/strait (2 MPs)"),
        (f'<line x1="-12" x2="12" {PATH_STYLE["sea"]}/>', "sea path (ports)"),
        (f'<line x1="-12" x2="12" {PATH_STYLE["trans_med"]}/>', "trans-Mediterranean"),
    ]
    per_col = (len(rows) + 1) // 2
    height = 21 * per_col + 36
    out.append(f'<g transform="translate({x0:.1f},{y0:.1f})">'
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


def _box_overlaps(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


ARMY_FONT = 17.0


def _turn_layer(out: list[str], ov: MapOverlay, xy: Mapping[str, tuple[float, float]],
                avoid: list[tuple[float, float, float, float]] | None = None) -> None:
    """This turn's moves (seat-coloured arrows), battles (red cross), sieges (dashed
    ring), royal family (crown labels) and army boxes (seat colour, commander and
    strength), placed greedily so boxes cover neither each other nor, where there is
    room, the boxes of ``avoid`` (the space names, :func:`label_layout`)."""
    for sid in ov.sieges:
        if sid in xy:
            x, y = xy[sid]
            out.append(f'<circle class="siege" cx="{x:.1f}" cy="{y:.1f}" r="16" fill="none" stroke="#7b241c" '
                       'stroke-width="4" stroke-dasharray="6 4"/>')
    for sid in ov.battles:
        if sid in xy:
            x, y = xy[sid]
            cross = (f'<line x1="{x - 14:.1f}" y1="{y - 14:.1f}" x2="{x + 14:.1f}" y2="{y + 14:.1f}"/>'
                     f'<line x1="{x - 14:.1f}" y1="{y + 14:.1f}" x2="{x + 14:.1f}" y2="{y - 14:.1f}"/>')
            out.append(f'<g class="battle" stroke-linecap="round"><g stroke="#fff" stroke-width="8">{cross}</g>'
                       f'<g stroke="#d01c1c" stroke-width="4.5">{cross}</g></g>')
    placed: list[tuple[float, float, float, float]] = [
        (xy[s][0] - 9, xy[s][1] - 9, xy[s][0] + 9, xy[s][1] + 9) for s, _o, _l in ov.armies if s in xy]
    placed += [(xy[s][0] - 16, xy[s][1] - 16, xy[s][0] + 16, xy[s][1] + 16)
               for s in (*ov.battles, *ov.sieges) if s in xy]
    soft = list(avoid or [])  # names: avoided, but a box may cover one when nothing else fits
    for sid, names in ov.royals.items():
        if sid not in xy:
            continue
        x, y = xy[sid]
        text = "\u265b " + names
        w = 0.58 * 13 * len(text) + 8
        box = _place(placed, x, y, w, 19, prefer_below=True, soft=soft)
        placed.append(box)
        out.append(f'<g class="royal"><line x1="{x:.1f}" y1="{y:.1f}" x2="{(box[0] + box[2]) / 2:.1f}" '
                   f'y2="{(box[1] + box[3]) / 2:.1f}" stroke="#6c3483" stroke-width="1.2"/>'
                   f'<rect x="{box[0]:.1f}" y="{box[1]:.1f}" width="{w:.1f}" height="19" rx="9" fill="#f5eef8" '
                   f'stroke="#6c3483" stroke-width="1.5"/><text x="{box[0] + 5:.1f}" y="{box[1] + 14:.1f}" '
                   f'font-size="13" font-style="italic" fill="#4a235a">{escape(text)}</text></g>')
    for sid, seat, label in ov.armies:
        if sid not in xy:
            continue
        x, y = xy[sid]
        colour = _seat_colour(ov, seat)
        w, h = 0.62 * ARMY_FONT * len(label) + 12, ARMY_FONT + 8
        box = _place(placed, x, y, w, h, soft=soft)
        placed.append(box)
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        out.append(f'<g class="army"><line x1="{x:.1f}" y1="{y:.1f}" x2="{cx:.1f}" y2="{cy:.1f}" stroke="#111" '
                   f'stroke-width="2"/><rect x="{box[0]:.1f}" y="{box[1]:.1f}" width="{w:.1f}" height="{h:.1f}" '
                   f'rx="4" fill="{colour}" stroke="#111" stroke-width="1.5"/>'
                   f'<text x="{cx:.1f}" y="{box[1] + h - 7:.1f}" font-size="{ARMY_FONT:.0f}" font-weight="bold" '
                   f'text-anchor="middle" fill="{_text_on(colour)}">{escape(label)}</text></g>')

    moves: list[str] = []
    colours = {seat: _seat_colour(ov, seat) for _a, _b, seat in ov.moves}
    if colours:
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
    out.extend(moves)


def _text_on(colour: str) -> str:
    """Black or white, whichever reads better on ``colour`` (``#rrggbb``)."""
    try:
        r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    except ValueError:
        return "#ffffff"
    return "#111111" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


def _place(placed: list[tuple[float, float, float, float]], x: float, y: float, w: float, h: float,
           prefer_below: bool = False, soft: list[tuple[float, float, float, float]] | None = None
           ) -> tuple[float, float, float, float]:
    """The box ``(x0, y0, x1, y1)`` of size ``w``×``h`` near (x, y) that overlaps the
    boxes already ``placed`` least, then the ``soft`` boxes (space names) least, then
    lies nearest: candidates around the point at two distances (a leader line joins
    box and space); the first candidate that overlaps nothing wins."""
    cands = []
    for gap in (12.0, 30.0):
        cands += [(x - w / 2, y - gap - h), (x - w / 2, y + gap), (x + gap, y - h / 2), (x - gap - w, y - h / 2),
                  (x + gap, y - gap - h), (x - gap - w, y - gap - h), (x + gap, y + gap), (x - gap - w, y + gap)]
    cands += [(x - w / 2, y - 2 * 12.0 - 2 * h), (x - w / 2, y + 2 * 12.0 + h)]
    if prefer_below:
        cands[0], cands[1] = cands[1], cands[0]
    # only boxes within reach of some candidate can overlap one: filter them once (the
    # same result as testing all, 20x fewer tests with 424 space names; issue 14)
    rx, ry = w + 31.0, 2 * h + 31.0
    near_placed = [p for p in placed if p[0] < x + rx and p[2] > x - rx and p[1] < y + ry and p[3] > y - ry]
    near_soft = [p for p in soft or () if p[0] < x + rx and p[2] > x - rx and p[1] < y + ry and p[3] > y - ry]
    best, best_cost = None, math.inf
    for i, (bx, by) in enumerate(cands):
        box = (bx, by, bx + w, by + h)
        hard = sum(_box_overlaps(box, p) for p in near_placed)
        names = sum(_box_overlaps(box, p) for p in near_soft)
        cost = 4 * hard + names + i * 2.0
        if cost < best_cost:
            best, best_cost = box, cost
        if hard < 1 and names < 1:
            break
    assert best is not None
    return best


def _seat_legend(out: list[str], ov: MapOverlay, proj: _Projection) -> None:
    """The seats' colours and players, plus the turn symbols (R-3.2 control halo, moves,
    battles, sieges, royal family); drawn only when ``seat_labels`` is set."""
    if not ov.seat_labels:
        return
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


def svg_to_png(svg: str, width: int = 1600) -> bytes:
    """Rasterise an SVG document to PNG bytes ``width`` pixels wide (height keeps the
    aspect ratio), with cairosvg (needs the system library libcairo2). Raises
    ``ValueError`` for a non-positive width."""
    if width <= 0:
        raise ValueError(f"width must be positive, got {width}")
    import cairosvg

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


#: the zoomed inset of a seat's map (issue 13): smallest crop, in SVG units, and the
#: margin kept around the seat's forces and this turn's fronts
INSET_MIN = (640.0, 380.0)
INSET_PAD = 70.0


def focus_box(pack: Pack, overlay: MapOverlay, seat: str) -> tuple[float, float, float, float] | None:
    """The part of the map a seat most needs to read, ``(x0, y0, x1, y1)`` in SVG units:
    the spaces of its armies and garrisons (R-3.2), and this turn's fronts (moves,
    battles, sieges, R-9), padded and at least :data:`INSET_MIN`; None when the seat has
    nothing on the map."""
    proj = _Projection()
    xy = {sid: proj(s.lon, s.lat) for sid, s in pack.spaces.items()}
    spaces = [s for s, owner, _l in overlay.armies if owner == seat]
    if not spaces:
        spaces = [s for s, owner in overlay.space_owner.items() if owner == seat]
    fronts = [*overlay.battles, *overlay.sieges, *(x for a, b, _s in overlay.moves for x in (a, b))]
    pts = [xy[s] for s in (*spaces, *fronts) if s in xy]
    if not spaces or not pts:
        return None
    x0 = min(p[0] for p in pts) - INSET_PAD
    x1 = max(p[0] for p in pts) + INSET_PAD
    y0 = min(p[1] for p in pts) - INSET_PAD
    y1 = max(p[1] for p in pts) + INSET_PAD
    w, h = max(x1 - x0, INSET_MIN[0]), max(y1 - y0, INSET_MIN[1])
    w, h = max(w, h * INSET_MIN[0] / INSET_MIN[1]), max(h, w * INSET_MIN[1] / INSET_MIN[0])  # keep the shape
    w, h = min(w, proj.width), min(h, proj.height)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    bx = min(max(cx - w / 2, 0.0), proj.width - w)
    by = min(max(cy - h / 2, 0.0), proj.height - h)
    return (bx, by, bx + w, by + h)


def render_seat_map_svg(pack: Pack, overlay: MapOverlay, seat: str) -> str:
    """The map one seat gets by mail (issue 13): the whole map, and below it the same
    picture zoomed on :func:`focus_box` (the seat's forces and this turn's fronts), full
    width, so the names of the spaces around them read at mail size; a frame on the
    overview shows where the inset is. Without anything of the seat on the map, the
    whole map alone (:func:`render_map_svg`)."""
    full = render_map_svg(pack, overlay)
    box = focus_box(pack, overlay, seat)
    if box is None:
        return full
    proj = _Projection()
    w, h = proj.width, proj.height
    x0, y0, x1, y1 = box
    ih = w * (y1 - y0) / (x1 - x0)
    inner = full[full.index(">") + 1: full.rindex("</svg>")]
    frame = (f'<rect x="{x0:.1f}" y="{y0:.1f}" width="{x1 - x0:.1f}" height="{y1 - y0:.1f}" fill="none" '
             'stroke="#111" stroke-width="3" stroke-dasharray="10 6"/>')
    caption = f"Zoom: around {seat}'s forces and this turn's fronts (dashed frame above)"
    return "\n".join([
        (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w:.0f} {h + ih + 36:.0f}" width="{w:.0f}" '
         f'height="{h + ih + 36:.0f}" font-family="DejaVu Sans, Arial, sans-serif">'),
        f'<g class="overview">{inner}{frame}</g>',
        f'<rect x="0" y="{h:.1f}" width="{w:.0f}" height="36" fill="#2d2a26"/>',
        f'<text x="14" y="{h + 25:.1f}" font-size="20" font-weight="bold" fill="#ffffff">{escape(caption)}</text>',
        (f'<svg class="inset" x="0" y="{h + 36:.1f}" width="{w:.0f}" height="{ih:.1f}" '
         f'viewBox="{x0:.1f} {y0:.1f} {x1 - x0:.1f} {y1 - y0:.1f}" preserveAspectRatio="xMidYMid meet">{inner}</svg>'),
        "</svg>",
    ])
