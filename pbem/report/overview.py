"""The map picture a seat gets by mail (issue 24 item 15): an overview drawn for its
mailed width, its legend, and for the seat the game waits for a zoom on its forces.

The full map (:mod:`pbem.report.mapview`, the archive's SVG) names all 211 spaces; at
1000 px its names would be 3 px high. The overview is drawn for the mailed width
instead: every word on it has a cap height of at least 9 px there (:data:`NAME_PX`
font, DejaVu Sans), so it carries only the names that fit at that size, the 38
provinces and the 13 major cities, and draws the other spaces as their symbols. Its
army and royal-family boxes are as legible and cover no name it carries and no
space's symbol (:func:`pbem.report.mapview.place_turn`). The legends go under the map
as a strip (:func:`legend_strip`), so nothing covers the map. The zoom is the full map
at :data:`pbem.report.mapview.ZOOM_SCALE` pixels per unit (its names 12.75 px, cap
height 9.3 px), cut to :func:`zoom_window`: a fixed window where the seat has the most
armies and fronts.
"""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape

from pbem import i18n
from pbem.pack.model import Pack
from pbem.report.mapview import (
    DETAIL_STYLE,
    INDEPENDENT_GREEN,
    LAND,
    PATH_STYLE,
    Layer,
    MapOverlay,
    TurnStyle,
    _control_layer,
    _marks_layer,
    _owned_layer,
    _Projection,
    _seat_colour,
    _symbols_layer,
    map_layers,
    paths,
    per_pack,
    place_turn,
    province_point,
    sea_and_land,
    symbol_box,
    symbol_rows,
)
from pbem.report.placement import Box, Obstacles, free_spot, grown, text_box

MAILED_WIDTH = 1000
"""Pixels of the mailed picture's width (the HTML shows it at this width)."""
NAME_PX = 13.0
"""Font size in pixels of the words of the overview, its legend and the zoom's bar: a cap
height of 9.5 px (the zoom's own names are 12.75 px, :data:`pbem.report.mapview.ZOOM_SCALE`)."""
TITLE_PX = 18.0
ZOOM_HEIGHT_PX = 570
"""Pixels of the zoom's height (its width is the picture's)."""
CAPTION_PX = 24
"""Pixels of the bar naming the zoom."""
PROVINCE_INK = "#6b4a1f"
OVERVIEW_MARKS = ("o-turn", "o-labels", "o-top")
"""The overview's layers drawn over a zoomed picture's frame (the frame crosses no box)."""


def units_per_px(width: int) -> float:
    """SVG units of the map per pixel of a picture ``width`` pixels wide."""
    return _Projection().width / width


def _style(width: int) -> TurnStyle:
    u = units_per_px(width)
    proj = _Projection()
    return TurnStyle(army_font=NAME_PX * u, royal_font=NAME_PX * u, pad=3 * u, line=1.4 * u, gap=1.5 * u,
                     step=3 * u, reach=320 * u, scale=1 / u, frame=(0.0, 0.0, proj.width, proj.height),
                     margin=1.5 * u)


@dataclass(frozen=True)
class Name:
    """A name the overview carries: its text, baseline point, ``anchor``, whether it
    is a province's (else a major city's) and the ``box`` its ink and halo cover."""

    text: str
    x: float
    y: float
    anchor: str
    province: bool
    box: Box


@per_pack
def _symbols(pack: Pack) -> tuple[Box, ...]:
    proj = _Projection()
    return tuple(symbol_box(s, *proj(s.lon, s.lat)) for s in pack.spaces.values())


_NAMES: dict[tuple[int, int], tuple[Pack, tuple[Name, ...]]] = {}


def overview_names(pack: Pack, width: int = MAILED_WIDTH) -> tuple[Name, ...]:
    """The names of the overview drawn ``width`` pixels wide and where they go: each
    province's at the free place (no symbol, no name placed before) nearest the pack's
    label point (rings 2 px apart, out to 90 px), the most crowded first; then each
    major city's beside its symbol, at the first of eight places around it that is
    free. Computed once per pack and width."""
    hit = _NAMES.get((id(pack), width))
    if hit is not None and hit[0] is pack:
        return hit[1]
    u = units_per_px(width)
    size, halo = NAME_PX * u, 2.0 * u
    proj = _Projection()
    taken = Obstacles(_symbols(pack))
    out: list[Name] = []
    points = {pid: province_point(pack, pid, proj) for pid in pack.provinces}
    placed = [(pid, p) for pid, p in points.items() if p is not None]

    def crowd(at: tuple[float, float]) -> int:
        return sum(1 for _q, (x, y) in placed if abs(x - at[0]) < 110 * u and abs(y - at[1]) < 40 * u)

    for s in (s for s in pack.spaces.values() if s.kind == "major_city"):
        x, y = proj(s.lon, s.lat)
        sym = symbol_box(s, x, y)
        r = (sym[2] - sym[0]) / 2 + 2 * u
        cap = size * 0.73
        cands = [(x + r, y + cap / 2, "start"), (x - r, y + cap / 2, "end"), (x, y - r - 1 * u, "middle"),
                 (x, y + r + cap + 1 * u, "middle"), (x + r, y - r, "start"), (x + r, y + r + cap, "start"),
                 (x - r, y - r, "end"), (x - r, y + r + cap, "end")]
        boxes = [(c, text_box(s.name, c[0], c[1], size, scale=1 / u, anchor=c[2], bold=True, pad=halo))
                 for c in cands]
        free = next(((c, b) for c, b in boxes if taken.is_free(grown(b, u))), None)
        if free is None:  # nothing beside the symbol: the nearest free place around it
            probe = text_box(s.name, 0, 0, size, scale=1 / u, anchor="middle", bold=True, pad=halo + u)
            room, _ok = free_spot(taken, x, y, probe[2] - probe[0], probe[3] - probe[1], gap=r, step=2 * u,
                                  reach=120 * u, frame=(0.0, 0.0, proj.width, proj.height))
            box = grown(room, -u)
            free = ((box[0] + box[2]) / 2, box[1] - probe[1] - u, "middle"), box
        (tx, ty, anchor), box = free
        taken.add(box)
        out.append(Name(s.name, tx, ty, anchor, False, box))
    for pid, at in sorted(placed, key=lambda item: (-crowd(item[1]), item[0])):
        name = pack.provinces[pid].name
        probe = text_box(name, 0, 0, size, scale=1 / u, anchor="middle", bold=True, pad=halo + u)
        w, h = probe[2] - probe[0], probe[3] - probe[1]
        room, _free = free_spot(taken, at[0], at[1] - h / 2, w, h, gap=0.0, step=2 * u, reach=90 * u,
                                frame=(0.0, 0.0, proj.width, proj.height))
        box = grown(room, -u)  # a pixel kept free around it
        taken.add(box)
        out.append(Name(name, (box[0] + box[2]) / 2, room[1] - probe[1], "middle", True, box))
    result = tuple(out)
    _NAMES[(id(pack), width)] = (pack, result)
    return result


def _names_layer(pack: Pack, width: int) -> tuple[str, ...]:
    """The overview's names (:func:`overview_names`): a halo pass, then the text."""
    u = units_per_px(width)
    names = overview_names(pack, width)
    out = []
    for halo in (True, False):
        for province in (True, False):
            ink = PROVINCE_INK if province else "#111"
            paint = (f'fill="{LAND if province else "#ffffff"}" stroke="{LAND if province else "#ffffff"}" '
                     f'stroke-width="{4 * u:.2f}" stroke-linejoin="round"' if halo else f'fill="{ink}"')
            out.append(f'<g class="names" font-size="{NAME_PX * u:.2f}" font-weight="bold" {paint}>')
            out.extend(f'<text x="{n.x:.2f}" y="{n.y:.2f}" text-anchor="{n.anchor}">{escape(n.text)}</text>'
                       for n in names if n.province == province)
            out.append("</g>")
    return tuple(out)


def overview_layers(pack: Pack, overlay: MapOverlay, width: int = MAILED_WIDTH) -> list[Layer]:
    """The overview drawn ``width`` pixels wide as layers, bottom to top (see
    :func:`pbem.report.mapview.map_layers` for ``control``, ``symbols`` and
    ``spaces``, which are the full map's): ``o-base`` (sea, land, paths; static),
    ``o-names`` (hostile-tribe and treasure marks, the names of :func:`overview_names`;
    static), ``o-turn`` (moves, battles, sieges, army and royal-family boxes with
    :data:`NAME_PX` text), ``o-labels`` (empty here: see :func:`overview_layer_sets`)
    and ``o-top`` (the title). :func:`overview_layer_sets` of the one pair."""
    return overview_layer_sets([(pack, overlay)], width)[0]


def overview_layer_sets(variants: Sequence[tuple[Pack, MapOverlay]], width: int = MAILED_WIDTH) -> list[list[Layer]]:
    """The overview of one position in several languages: for each ``(pack, overlay)``
    of ``variants`` (the pack in a language, :func:`pbem.pack.names.localized`, and
    the overlay built from it) its layers as :func:`overview_layers` names them. The
    turn's boxes are placed once for all of them (:func:`pbem.report.mapview.place_turn`):
    clear of every variant's names and title, each as wide as its widest label, so
    ``o-base``, ``control``, ``symbols``, ``spaces`` and ``o-turn`` (the marks and the
    boxes' leader lines and rectangles) are the same in every variant and only
    ``o-names``, ``o-labels`` (the boxes' labels, drawn after every box, so a leader
    line crossing another box passes under its label) and ``o-top`` are the
    variant's (issue 28 item 6: one decision's pictures in three languages draw the
    turn once). With one variant the layout is the one it has alone, each label drawn
    with its box in ``o-turn`` (the picture as before issue 28 item 6). Raises
    ValueError for no variant or overlays of different positions."""
    if not variants:
        raise ValueError("no variant to draw")
    u = units_per_px(width)
    proj = _Projection()
    pack, overlay = variants[0]
    xy = {sid: proj(s.lon, s.lat) for sid, s in pack.spaces.items()}
    control: list[str] = []
    _control_layer(control, overlay, pack, xy)
    owned: list[str] = []
    _owned_layer(owned, overlay, pack, xy)
    titles = [ov.title or f"Successors ({p.name} pack)" for p, ov in variants]
    obstacles = Obstacles([*_symbols(pack), *(n.box for p, _ov in variants for n in overview_names(p, width))])
    for title in dict.fromkeys(titles):
        obstacles.add(text_box(title, 8 * u, 8 * u + TITLE_PX * u * 0.76, TITLE_PX * u, scale=1 / u, bold=True,
                               pad=3 * u))
    marks, boxes = place_turn([ov for _p, ov in variants], xy, obstacles, _style(width))
    alone = len(variants) == 1  # each box's label right after its frame, as the full map draws them
    turn = Layer("o-turn", False, (*marks, *(f'<g class="{b.kind}">{b.frame}{b.texts[0] if alone else ""}</g>'
                                             for b in boxes)))
    shared = [Layer("o-base", True, _crisp_coast(pack) + paths(pack)), Layer("control", False, tuple(control)),
              Layer("symbols", True, _symbols_layer(pack)), Layer("spaces", False, tuple(owned))]
    out = []
    for i, ((p, _ov), title) in enumerate(zip(variants, titles, strict=True)):
        top = (f'<text x="{8 * u:.2f}" y="{8 * u + TITLE_PX * u * 0.76:.2f}" font-size="{TITLE_PX * u:.2f}" '
               f'font-weight="bold" fill="#2d2a26">{escape(title)}</text>')
        out.append([*shared, Layer("o-names", True, _marks_layer(p) + _names_layer(p, width)), turn,
                    Layer("o-labels", False, () if alone else tuple(f'<g class="{b.kind}">{b.texts[i]}</g>'
                                                                    for b in boxes)),
                    Layer("o-top", False, (top,))])
    return out


@per_pack
def _crisp_coast(pack: Pack) -> tuple[str, ...]:
    """The sea and land drawn without anti-aliasing: at the overview's scale the coast's
    steps do not show, and its picture is 10 KB smaller (issue 24 item 15)."""
    return tuple(e.replace("<g ", '<g shape-rendering="crispEdges" ', 1) if e.startswith("<g ") else e
                 for e in sea_and_land(pack))


def zoom_layers(pack: Pack, overlay: MapOverlay, windows: Sequence[Box] | None = None) -> list[Layer]:
    """The layers of the full map the zooms are cut from: :func:`pbem.report.mapview.map_layers`
    without its legends and title (the picture's legend strip has them); with
    ``windows`` (:func:`zoom_window` of each zoom), only the boxes that reach into one
    are drawn (cairosvg's drawing of the turn is most of a zoom's cost)."""
    return [layer for layer in map_layers(pack, overlay, within=windows)
            if layer.name not in ("legend", "players", "top")]


def _legend_items(overlay: MapOverlay, language: str = i18n.DEFAULT) -> list[tuple[str, str]]:
    """(symbol SVG drawn around 0,0 in pixels, text in ``language``) of each legend entry."""
    _ = i18n.translations(language).gettext
    items = [((f'<rect x="-8" y="-7" width="16" height="14" rx="3" fill="{_seat_colour(overlay, seat)}" '
              'stroke="#111"/>'), text) for seat, text in overlay.seat_labels.items()]
    items.append((f'<rect x="-8" y="-7" width="16" height="14" rx="3" fill="{INDEPENDENT_GREEN}" stroke="#111"/>',
                  _("independent")))
    items += [
        ('<circle r="8" fill="#777" fill-opacity="0.4"/>', _("halo: province controlled")),
        (('<line x1="-9" y1="0" x2="8" y2="0" stroke="#111" stroke-width="5"/>'
         '<line x1="-9" y1="0" x2="8" y2="0" stroke="#c0392b" stroke-width="3"/>'), _("move this turn")),
        (('<g stroke="#d01c1c" stroke-width="3"><line x1="-6" y1="-6" x2="6" y2="6"/>'
         '<line x1="-6" y1="6" x2="6" y2="-6"/></g>'), _("battle")),
        ('<circle r="7" fill="none" stroke="#7b241c" stroke-width="2.5" stroke-dasharray="4 2"/>',
         _("siege / assault")),
        ('<rect x="-8" y="-7" width="16" height="14" rx="6" fill="#f5eef8" stroke="#6c3483"/>', _("royal family")),
        *((sym, _(text)) for sym, text in symbol_rows()),
        (f'<line x1="-9" x2="9" {PATH_STYLE["land"]}/>', _("land path, 1 MP")),
        (f'<line x1="-9" x2="9" {PATH_STYLE["mountain_strait"]}/>', _("mountain or strait, 2 MPs")),
        (f'<line x1="-9" x2="9" {PATH_STYLE["sea"]}/>', _("sea path")),
        (f'<line x1="-9" x2="9" {PATH_STYLE["trans_med"]}/>', _("trans-Mediterranean")),
    ]
    return items


def legend_strip(overlay: MapOverlay, width: int = MAILED_WIDTH,
                 language: str = i18n.DEFAULT) -> tuple[tuple[str, ...], float]:
    """The legend under the overview, in map units (``width`` pixels of picture wide):
    the seats' colours and players, the turn's marks, the symbols and paths (their
    words in ``language``, issue 28), laid out left to right in rows, text
    :data:`NAME_PX`. Returns (SVG elements drawn from y = 0, height in units)."""
    u = units_per_px(width)
    proj = _Projection()
    row_h, left, gap = 22 * u, 8 * u, 18 * u
    out = [""]  # the background, once the height is known
    x, y = left, 6 * u
    for sym, text in _legend_items(overlay, language):
        ink = text_box(text, 0, 0, NAME_PX * u, scale=1 / u)
        w = 22 * u + ink[2] + gap
        if x + w > proj.width and x > left:
            x, y = left, y + row_h
        out.append(f'<g transform="translate({x + 9 * u:.2f},{y + row_h / 2:.2f}) scale({u:.5f})">{sym}</g>'
                   f'<text x="{x + 22 * u:.2f}" y="{y + row_h / 2 + NAME_PX * u * 0.36:.2f}" '
                   f'font-size="{NAME_PX * u:.2f}" fill="#2d2a26">{escape(text)}</text>')
        x += w
    height = y + row_h + 6 * u
    out[0] = (f'<rect x="0" y="0" width="{proj.width:.2f}" height="{height:.2f}" fill="#fffdf5"/>'
              f'<line x1="0" y1="{u:.2f}" x2="{proj.width:.2f}" y2="{u:.2f}" stroke="#8d6e3f" '
              f'stroke-width="{2 * u:.2f}"/>')
    return tuple(out), height


def zoom_window(pack: Pack, overlay: MapOverlay, seat: str, width: int = MAILED_WIDTH) -> Box | None:
    """The part of the full map the zoom of ``seat``'s picture shows, ``(x0, y0, x1, y1)``
    in map units: a window of ``width`` x :data:`ZOOM_HEIGHT_PX` pixels at
    :data:`pbem.report.mapview.ZOOM_SCALE` (about 667 x 380 units), placed where it holds
    the most of the seat's armies (3 each), this turn's fronts (moves, battles, sieges:
    2 each, R-9) and, for a seat without armies, its garrisons (1 each, R-3.2); ties go
    to the window nearest the middle of them. None when the seat has nothing on the map."""
    proj = _Projection()
    k = zoom_scale(width)
    zw, zh = width / k, ZOOM_HEIGHT_PX / k
    xy = {sid: proj(s.lon, s.lat) for sid, s in pack.spaces.items()}
    armies = [xy[s] for s, owner, _l in overlay.armies if owner == seat and s in xy]
    weighted = [(p, 3.0) for p in armies]
    if not armies:
        weighted = [(xy[s], 1.0) for s, owner in overlay.space_owner.items() if owner == seat and s in xy]
    if not weighted:
        return None
    weighted += [(xy[s], 2.0) for s in (*overlay.battles, *overlay.sieges,
                                        *(x for a, b, _s in overlay.moves for x in (a, b))) if s in xy]
    mx = sum(p[0] * w for p, w in weighted) / sum(w for _p, w in weighted)
    my = sum(p[1] * w for p, w in weighted) / sum(w for _p, w in weighted)

    def window(cx: float, cy: float) -> Box:
        x0 = min(max(cx - zw / 2, 0.0), proj.width - zw)
        y0 = min(max(cy - zh / 2, 0.0), proj.height - zh)
        return (x0, y0, x0 + zw, y0 + zh)

    margin = 30.0
    best, best_key = None, None
    for cx, cy in [(mx, my), *(p for p, _w in weighted)]:
        box = window(cx, cy)
        held = sum(w for (x, y), w in weighted
                   if box[0] + margin <= x <= box[2] - margin and box[1] + margin <= y <= box[3] - margin)
        key = (-held, (box[0] + zw / 2 - mx) ** 2 + (box[1] + zh / 2 - my) ** 2)
        if best_key is None or key < best_key:
            best, best_key = box, key
    assert best is not None
    x0, y0 = math.floor(best[0] * k) / k, math.floor(best[1] * k) / k  # on whole pixels of the zoom's map
    return (x0, y0, x0 + zw, y0 + zh)


def zoom_width(width: int = MAILED_WIDTH) -> int:
    """Pixels of the full map the zoom of a ``width``-pixel picture is cut from (the
    map at :data:`pbem.report.mapview.ZOOM_SCALE`)."""
    return round(_Projection().width * DETAIL_STYLE.scale * width / MAILED_WIDTH)


def zoom_scale(width: int = MAILED_WIDTH) -> float:
    """Pixels per map unit of that map (:func:`zoom_width` over the map's width)."""
    return zoom_width(width) / _Projection().width


def caption(seat: str, language: str = i18n.DEFAULT) -> str:
    """The words on the bar above a seat's zoom, in ``language``."""
    return i18n.translations(language).gettext(
        "Zoom: around %(seat)s's forces and this turn's fronts (dashed frame above)") % {"seat": seat}


def render_seat_map_svg(pack: Pack, overlay: MapOverlay, seat: str | None = None, width: int = MAILED_WIDTH,
                        zoom: bool = True) -> str:
    """The picture ``seat`` gets by mail as one SVG document in map units (drawn
    ``width`` pixels wide it is the mailed PNG, :mod:`pbem.report.raster`): the
    overview (class ``overview``), the legend strip (class ``legend-strip``) and, with
    ``zoom`` and the seat on the map, a bar and the zoom (a nested ``svg`` of class
    ``inset``: the full map cut to :func:`zoom_window`, a dashed frame on the overview
    showing where)."""
    u = units_per_px(width)
    proj = _Projection()
    w, h = proj.width, proj.height
    layers = overview_layers(pack, overlay, width)
    strip, strip_h = legend_strip(overlay, width, pack.language)
    box = zoom_window(pack, overlay, seat, width) if seat and zoom else None
    over_h = round(h / u) * u  # every part starts on a whole pixel, as in the PNG
    strip_h = round(strip_h / u) * u
    under = [e for layer in layers if layer.name not in OVERVIEW_MARKS for e in layer.elements]
    marks = [e for layer in layers if layer.name in OVERVIEW_MARKS for e in layer.elements]
    parts = [f'<g class="overview">{"".join(under)}']
    total = over_h + strip_h
    if box is not None:  # under the turn's marks: the frame crosses no box
        x0, y0, x1, y1 = box
        parts.append(f'<rect x="{x0:.2f}" y="{y0:.2f}" width="{x1 - x0:.2f}" height="{y1 - y0:.2f}" fill="none" '
                     f'stroke="#111" stroke-width="{3 * u:.2f}" stroke-dasharray="{10 * u:.2f} {6 * u:.2f}"/>')
    parts.append(f'{"".join(marks)}</g>')
    parts.append(f'<g class="legend-strip" transform="translate(0,{over_h:.4f})">{"".join(strip)}</g>')
    if box is not None:
        x0, y0, x1, y1 = box
        bar = CAPTION_PX * u
        inset_h = ZOOM_HEIGHT_PX * u
        inner = "".join(e for layer in zoom_layers(pack, overlay, [box]) for e in layer.elements)
        parts.append(f'<rect x="0" y="{total:.4f}" width="{w:.2f}" height="{bar:.4f}" fill="#2d2a26"/>'
                     f'<text x="{8 * u:.2f}" y="{total + bar / 2 + NAME_PX * u * 0.36:.2f}" '
                     f'font-size="{NAME_PX * u:.2f}" font-weight="bold" fill="#ffffff">'
                     f'{escape(caption(seat, pack.language))}</text>')
        parts.append(f'<svg class="inset" x="0" y="{total + bar:.4f}" width="{w:.4f}" height="{inset_h:.4f}" '
                     f'viewBox="{x0:.4f} {y0:.4f} {x1 - x0:.4f} {y1 - y0:.4f}" '
                     f'preserveAspectRatio="xMidYMid meet">{inner}</svg>')
        total += bar + inset_h
    return "\n".join([
        (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w:.4f} {total:.4f}" width="{w:.4f}" '
         f'height="{total:.4f}" font-family="DejaVu Sans, Arial, sans-serif">'),
        ("<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" "
         "markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" "
         "fill=\"#b03a2e\"/></marker></defs>"),
        *parts, "</svg>"])


def seat_labels_key(overlay: MapOverlay) -> tuple[tuple[str, str], ...]:
    """What the legend strip depends on (the seats' legend texts and colours)."""
    seats: Mapping[str, str] = overlay.seat_labels
    return tuple((s, f"{t}|{_seat_colour(overlay, s)}") for s, t in seats.items())
