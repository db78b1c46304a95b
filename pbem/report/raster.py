"""The map picture as PNG, fast: static layers drawn once as rasters, the rest each turn.

The map (:func:`pbem.report.mapview.map_layers`) is a stack of layers; three depend on
the pack alone (the sea, land, province names and paths; the 424 space names, drawn
twice for their halo; the symbol legend) and cost about 80 % of drawing the whole SVG
with cairosvg. :func:`map_png` keeps each static layer as a premultiplied ARGB raster
(cairo image surface, one per pack and width), and per picture only draws the layers
that change (space colours and control halos, the turn's armies and moves, the players'
legend and the title) with cairosvg straight onto the picture, between the cached
rasters composited with cairo's OVER operator. OVER is associative, so the result equals
drawing the whole SVG up to rounding of 8-bit premultiplied values (tests check every
pixel within 2/255). The mailed overview (:mod:`pbem.report.overview`) is drawn the
same way from its own layers. The seat pictures of one decision (:class:`SeatMaps`)
share the overview and its legend, drawn and encoded once, and cut their zooms from
one drawing of the full map at the zoom's scale (issue 24 item 15).

The seats of one decision may read several languages (issue 28 item 6):
:class:`DecisionMaps` places the overview's boxes once for all of them and draws what
has no words once, each language adding its names, labels and title, and taking the
first language's palette. The zoom is composited and drawn only inside its window.

The rasterising is cairosvg's and cairo's (cairocffi, which cairosvg already uses) and
the PNG encoding Pillow's; nothing here draws pixels by hand. Code of our own:
:class:`_DrawOnto`, a three-line subclass that points cairosvg at an existing surface
instead of a new one (cairosvg has no public argument for that), and the drawing of the
turn's boxes and labels with the cairo calls cairosvg makes for them
(:func:`_draw_turn`, :func:`_draw_labels`: the same pixels, tested byte for byte,
without cairosvg's SVG tree and its stroke of every glyph outline in no colour).
"""
from __future__ import annotations

import io
import os
import re
from collections import OrderedDict
from collections.abc import Callable, Collection, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from threading import Lock
from xml.sax.saxutils import unescape

import cairocffi as cairo
import cairosvg.colors
import cairosvg.parser
import cairosvg.surface
from PIL import Image

from pbem.pack.model import Pack
from pbem.report.mapview import (
    Layer,
    MapOverlay,
    _Projection,
    map_layers,
    svg_document,
)
from pbem.report.overview import (
    CAPTION_PX,
    MAILED_WIDTH,
    NAME_PX,
    OVERVIEW_MARKS,
    ZOOM_HEIGHT_PX,
    caption,
    legend_strip,
    overview_layer_sets,
    seat_labels_key,
    zoom_layers,
    zoom_scale,
    zoom_width,
    zoom_window,
)
from pbem.report.placement import FAMILY

#: zlib level of the PNG. Issue 24 item 15, on the 64-colour pictures of a position after
#: 27 steps: the overview (1000 x 640 px) is 65 KB at level 3 in 13 ms, 56 KB at 6 in 17 ms
#: (52 KB at 9 in 119 ms); with the zoom (1000 x 1234 px) 146, 127 and 121 KB in 21, 42
#: and 337 ms. A decision encodes the overview once and a zoom for each seat to move
#: (most often one), where issue 14 encoded four seat pictures at level 3
PNG_COMPRESS_LEVEL = 6
#: colours of the mailed PNG (a palette picture; see :func:`_quantized`). Issue 24 item 15:
#: 64 colours look as 256 do side by side (the map's flat colours and their anti-aliased
#: edges), and the overview is 13 % smaller, the zoom 15 %
PNG_COLOURS = 64
#: threads that make the seats' pictures of one decision (:meth:`SeatMaps.pngs`)
PICTURE_THREADS = max(1, min(4, os.cpu_count() or 1))
_CACHE_SIZE = 16  # rasters: 3 static layers x 4 packs or widths, 2.2 MB each at 1000 px, 17 MB at the zoom's
#: the layers whose pixels are the same in every language (no place, general or card
#: name on them): their rasters are cached for the canonical pack and shared by its
#: copies in the seats' languages (:func:`pbem.pack.names.localized`, issue 28), so a
#: game with seats in three languages draws only the names layers three times
LANGUAGE_FREE = frozenset({"o-base", "symbols", "legend", "control", "spaces", "players"})
_rasters: OrderedDict[tuple[int, str, int], tuple[Pack, cairo.ImageSurface]] = OrderedDict()
_lock = Lock()


class _DrawOnto(cairosvg.surface.PNGSurface):
    """cairosvg's PNG surface, drawing onto ``target`` (an ARGB32 image surface of the
    size the document has at ``width`` pixels, or a recording surface, whose size is
    then that picture's) instead of a fresh surface."""

    def __init__(self, target: cairo.Surface, svg: str, width: int):
        self._target = target
        super().__init__(cairosvg.parser.Tree(bytestring=svg.encode("utf-8")), None, 96, output_width=width)

    def _create_surface(self, width: float, height: float) -> tuple[cairo.Surface, int, int]:
        if isinstance(self._target, cairo.ImageSurface):
            return self._target, self._target.get_width(), self._target.get_height()
        return (self._target, *picture_size(round(width)))


def picture_size(width: int) -> tuple[int, int]:
    """(width, height) in pixels of the map drawn ``width`` pixels wide: the SVG's
    aspect ratio, the height rounded as cairosvg rounds it. Raises ValueError for a
    non-positive width."""
    if width <= 0:
        raise ValueError(f"width must be positive, got {width}")
    probe = cairosvg.parser.Tree(bytestring=svg_document([]).encode())
    w, h = float(probe["width"]), float(probe["height"])
    return width, round(h * width / w)


def _draw(target: cairo.Surface, layer: Layer, width: int) -> None:
    if layer.elements:
        _DrawOnto(target, svg_document(layer.elements), width)


#: a box label as :func:`pbem.report.mapview.place_turn` writes it
_LABEL = re.compile(r'<text x="([-\d.]+)" y="([-\d.]+)" font-size="([\d.]+)"( font-weight="bold")?'
                    r'( font-style="italic")? text-anchor="middle" fill="(#[0-9a-fA-F]{3,6})">([^<]*)</text>')


def _draw_text(ctx: cairo.Context, m: re.Match[str], advances: dict[tuple[str, ...], float]) -> None:
    """One box label (a match of :data:`_LABEL`) drawn as cairosvg draws a ``<text>``:
    the font, then a letter at a time ``move_to`` its pen (the text's x for the first,
    then the previous pen plus that letter's x advance), ``rel_move_to`` the
    ``text-anchor`` offset (``middle``: half the whole text's ink width and its x
    bearing) and ``show_text``. ``advances``: the letters' advances measured so far on
    this context (the same font, size and scale: the same advance)."""
    x, y, size = float(m.group(1)), float(m.group(2)), float(m.group(3))
    text = re.sub(" +", " ", unescape(m.group(7))).lstrip(" ")
    ctx.set_source_rgba(*cairosvg.colors.color(m.group(6)))
    ctx.select_font_face(FAMILY, cairo.FONT_SLANT_ITALIC if m.group(5) else cairo.FONT_SLANT_NORMAL,
                         cairo.FONT_WEIGHT_BOLD if m.group(4) else cairo.FONT_WEIGHT_NORMAL)
    ctx.set_font_size(size)
    x_bearing, _y_bearing, ink, _h = ctx.text_extents(text)[:4]
    align = -(ink / 2 + x_bearing)
    for letter in text:
        key = (m.group(3), m.group(4) or "", m.group(5) or "", letter)
        if key not in advances:
            advances[key] = ctx.text_extents(letter)[4]
        # cairosvg's rel_move_to(0, 0) and rotate(0) change nothing and are left out
        ctx.move_to(x, y)
        ctx.rel_move_to(align, 0)
        if not letter.isspace():
            ctx.show_text(letter)
        x += advances[key]


def _draw_labels(target: cairo.Surface, layer: Layer, width: int) -> None:
    """Draw the box labels of ``layer`` (the overview's ``o-labels``) onto ``target``
    with the cairo calls cairosvg makes for them (:func:`_draw_text`), so the same
    pixels, without parsing the SVG into cairosvg's tree, which was most of their cost
    (issue 28 item 6: 3.5 ms against 15 ms for 25 labels); the document's scale and
    clip come from cairosvg itself (an empty document drawn first). Raises ValueError
    for an element that is not such a label."""
    elements = "".join(e for e in layer.elements)
    found = list(_LABEL.finditer(elements))
    if _LABEL.sub("", re.sub(r"</?g[^>]*>", "", elements)).strip():
        raise ValueError(f"not only box labels in layer {layer.name}")
    if not found:
        return
    ctx = _DrawOnto(target, svg_document([]), width).context
    advances: dict[tuple[str, ...], float] = {}
    for m in found:
        _draw_text(ctx, m, advances)


#: an army or royal-family box as :func:`pbem.report.mapview.place_turn` writes it:
#: its leader line, its rectangle and, but for a decision in several languages, its label
_BOX = re.compile(r'<g class="(?:army|royal)"><line x1="([-\d.]+)" y1="([-\d.]+)" x2="([-\d.]+)" y2="([-\d.]+)" '
                  r'stroke="(#[0-9a-fA-F]{3,6})" stroke-width="([\d.]+)"/><rect x="([-\d.]+)" y="([-\d.]+)" '
                  r'width="([\d.]+)" height="([\d.]+)" rx="([\d.]+)" fill="(#[0-9a-fA-F]{3,6})" '
                  r'stroke="(#[0-9a-fA-F]{3,6})" stroke-width="([\d.]+)"/>(<text [^>]*>[^<]*</text>)?</g>')
#: the bezier handle of a quarter circle, as cairosvg's rounded rectangle has it
_ARC_TO_BEZIER = 4 * (2 ** .5 - 1) / 3


def _box_parts(m: re.Match[str]) -> tuple[tuple[float, ...], tuple[float, ...], re.Match[str] | None]:
    """The leader line ``(x1, y1, x2, y2, width)``, the rectangle ``(x, y, w, h, rx,
    stroke width)`` and the label (a :data:`_LABEL` match or None) of a :data:`_BOX`
    match, the numbers as cairosvg reads them. Raises ValueError for a label not
    understood."""
    label = None
    if m.group(15):
        label = _LABEL.fullmatch(m.group(15))
        if label is None:
            raise ValueError(f"a box label not understood: {m.group(15)}")
    return (tuple(float(m.group(i)) for i in (1, 2, 3, 4, 6)), tuple(float(m.group(i)) for i in (7, 8, 9, 10, 11, 14)),
            label)


def _draw_frame(ctx: cairo.Context, m: re.Match[str], line: tuple[float, ...], rect: tuple[float, ...]) -> None:
    """A box's leader line stroked and its rounded rectangle (cairosvg's path: lines and
    quarter-circle beziers) filled and stroked, as cairosvg draws them."""
    color = cairosvg.colors.color
    x1, y1, x2, y2, line_w = line
    ctx.move_to(x1, y1)
    ctx.line_to(x2, y2)
    ctx.set_line_width(line_w)
    ctx.set_source_rgba(*color(m.group(5)))
    ctx.stroke()
    x, y, w, h, r, edge_w = rect
    rx, ry = min(r, w / 2), min(r, h / 2)
    c1, c2 = _ARC_TO_BEZIER * rx, _ARC_TO_BEZIER * ry
    ctx.new_path()
    ctx.move_to(x + rx, y)
    ctx.rel_line_to(w - 2 * rx, 0)
    ctx.rel_curve_to(c1, 0, rx, c2, rx, ry)
    ctx.rel_line_to(0, h - 2 * ry)
    ctx.rel_curve_to(0, c2, c1 - rx, ry, -rx, ry)
    ctx.rel_line_to(-w + 2 * rx, 0)
    ctx.rel_curve_to(-c1, 0, -rx, -c2, -rx, -ry)
    ctx.rel_line_to(0, -h + 2 * ry)
    ctx.rel_curve_to(0, -c2, rx - c1, -ry, rx, -ry)
    ctx.close_path()
    ctx.set_source_rgba(*color(m.group(12)))
    ctx.fill_preserve()
    ctx.set_line_width(edge_w)
    ctx.set_source_rgba(*color(m.group(13)))
    ctx.stroke()


def _draw_turn(target: cairo.Surface, layer: Layer, width: int) -> None:
    """Draw a turn layer (the overview's ``o-turn``, the full map's ``turn``) onto
    ``target`` with the pixels cairosvg draws for it, faster (issue 28 item 6): its
    marks (sieges, battles, moves) by cairosvg, then its boxes with the cairo calls
    cairosvg makes for them (:func:`_draw_frame`, :func:`_draw_text`), each label held
    back until a later box's frame would touch it: cairo draws a run of labels after a
    run of frames in half the time it draws them interleaved (18 ms against 10 ms for
    30 boxes), and drawings that touch no common pixel give the same pixels in either
    order. A layer whose boxes are not all at its end, as
    :func:`pbem.report.mapview.place_turn` puts them, is drawn by cairosvg whole."""
    elements = layer.elements
    first = next((i for i, e in enumerate(elements) if _BOX.fullmatch(e)), len(elements))
    boxes = [_BOX.fullmatch(e) for e in elements[first:]]
    if not all(boxes):
        _draw(target, layer, width)
        return
    if first:
        _DrawOnto(target, svg_document(elements[:first]), width)
    if not boxes:
        return
    ctx = _DrawOnto(target, svg_document([]), width).context
    ctx.set_miter_limit(4)  # cairosvg's default
    room = 3 / ctx.get_matrix().xx  # three pixels in map units: beyond any anti-aliased edge
    advances: dict[tuple[str, ...], float] = {}
    held: list[tuple[re.Match[str], tuple[float, float, float, float]]] = []

    def touch(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
        return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
    for m in boxes:
        assert m is not None
        line, rect, label = _box_parts(m)
        x1, y1, x2, y2, line_w = line
        x, y, w, h, _r, edge_w = rect
        pad = max(line_w, edge_w) / 2 + room
        frame = (min(x1, x2, x) - pad, min(y1, y2, y) - pad, max(x1, x2, x + w) + pad, max(y1, y2, y + h) + pad)
        if any(touch(frame, ink) for _label, ink in held):
            for held_label, _ink in held:
                _draw_text(ctx, held_label, advances)
            held = []
        _draw_frame(ctx, m, line, rect)
        if label is not None:
            ctx.select_font_face(FAMILY, cairo.FONT_SLANT_ITALIC if label.group(5) else cairo.FONT_SLANT_NORMAL,
                                 cairo.FONT_WEIGHT_BOLD if label.group(4) else cairo.FONT_WEIGHT_NORMAL)
            ctx.set_font_size(float(label.group(3)))
            text = re.sub(" +", " ", unescape(label.group(7))).lstrip(" ")
            xb, yb, ink_w, ink_h = ctx.text_extents(text)[:4]
            lx, ly = float(label.group(1)) - ink_w / 2, float(label.group(2)) + yb  # anchored in the middle
            held.append((label, (lx - room, ly - room, lx + ink_w + room, ly + ink_h + room)))
    for held_label, _ink in held:
        _draw_text(ctx, held_label, advances)


def _cached_raster(cache: OrderedDict, key: tuple, pack: Pack, layer: Layer, width: int,
                   full: Callable[[OrderedDict], bool]) -> cairo.ImageSurface:
    """``layer`` drawn ``width`` pixels wide, from ``cache`` under ``key`` (an LRU: drawn
    on a miss, the oldest entries dropped while ``full(cache)``). The entry keeps the
    pack, so a key whose ``id(pack)`` was reused by another pack misses."""
    with _lock:
        hit = cache.get(key)
        if hit is not None and hit[0] is pack:
            cache.move_to_end(key)
            return hit[1]
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, *picture_size(width))
    _draw(surface, layer, width)
    surface.flush()
    with _lock:
        cache[key] = (pack, surface)
        while len(cache) > 1 and full(cache):
            cache.popitem(last=False)
    return surface


def _cache_pack(pack: Pack, layer: Layer) -> Pack:
    """The pack a layer's raster is cached for: the canonical one for a layer without
    names (:data:`LANGUAGE_FREE`), else ``pack`` itself (one raster per language)."""
    return pack.canonical or pack if layer.name in LANGUAGE_FREE else pack


def _static_raster(pack: Pack, layer: Layer, width: int) -> cairo.ImageSurface:
    """The cached raster of a static layer (drawn on first use; at most
    :data:`_CACHE_SIZE` kept; a layer without names shared by every language)."""
    pack = _cache_pack(pack, layer)
    return _cached_raster(_rasters, (id(pack), layer.name, width), pack, layer, width,
                          lambda c: len(c) > _CACHE_SIZE)


#: changing layers that stay the same for many decisions (the spaces' colours change only
#: when a garrison or the control of a province does; the players' legend never within a
#: game): their rasters are cached by their content, like the static layers by the pack
#: (issue 14: the spaces were 38 ms of the 58 of a picture)
SLOW_CHANGING = frozenset({"control", "spaces", "players"})
#: the most bytes the content-keyed rasters keep (a 1000 px raster is 2.2 MB, 3000 px 19 MB)
CONTENT_CACHE_BYTES = 256 * 2**20
_content: OrderedDict[tuple[int, str, int, tuple[str, ...]], tuple[Pack, cairo.ImageSurface]] = OrderedDict()


def _content_raster(pack: Pack, layer: Layer, width: int) -> cairo.ImageSurface:
    """The raster of a changing layer, cached by its elements (drawn on a miss; the
    oldest dropped beyond :data:`CONTENT_CACHE_BYTES`). The key holds the elements
    themselves, so a hit is an equal layer, never a hash collision."""
    pack = _cache_pack(pack, layer)
    return _cached_raster(_content, (id(pack), layer.name, width, layer.elements), pack, layer, width,
                          lambda c: sum(v[1].get_stride() * v[1].get_height() for v in c.values())
                          > CONTENT_CACHE_BYTES)


def _paint(target: cairo.ImageSurface, pack: Pack, layers: Sequence[Layer], width: int) -> None:
    """Paint ``layers`` of ``pack``'s map drawn ``width`` pixels wide onto ``target``,
    in order: the static ones from the cache, the slow-changing ones from the content
    cache, the box labels by :func:`_draw_labels`, the rest drawn by cairosvg straight
    onto it."""
    ctx = cairo.Context(target)
    for layer in layers:
        if layer.static:
            ctx.set_source_surface(_static_raster(pack, layer, width), 0, 0)
            ctx.paint()
        elif layer.name in SLOW_CHANGING:
            ctx.set_source_surface(_content_raster(pack, layer, width), 0, 0)
            ctx.paint()
        elif layer.name == "o-labels":
            _draw_labels(target, layer, width)
        elif layer.name in ("o-turn", "turn"):
            _draw_turn(target, layer, width)
        else:
            _draw(target, layer, width)


def map_surface(pack: Pack, overlay: MapOverlay | None = None, width: int = 1000,
                layers: list[Layer] | None = None,
                window: tuple[int, int, int, int] | None = None) -> cairo.ImageSurface:
    """The map of ``pack`` with ``overlay`` drawn ``width`` pixels wide, as a cairo
    ARGB32 image surface (premultiplied). ``layers``: the layers to draw (default
    :func:`map_layers` of the pack and overlay, the full map; the overview's are
    :func:`pbem.report.overview.overview_layers`); the static ones come from the
    cache, the slow-changing ones from the content cache, the rest are drawn by
    cairosvg straight onto the picture. ``window``: ``(x, y, w, h)`` in pixels, the
    part of that picture to make (the same pixels as a crop of the whole, only they
    are composited and drawn). Raises ValueError for a non-positive width."""
    if window is None:
        target = cairo.ImageSurface(cairo.FORMAT_ARGB32, *picture_size(width))
    else:
        picture_size(width)
        x, y, w, h = window
        target = cairo.ImageSurface(cairo.FORMAT_ARGB32, w, h)
        target.set_device_offset(-x, -y)
    _paint(target, pack, layers if layers is not None else map_layers(pack, overlay), width)
    target.flush()
    target.set_device_offset(0, 0)  # a window's pixels start at 0, 0 where it is painted
    return target


def _copy(surface: cairo.ImageSurface) -> cairo.ImageSurface:
    """A new surface with the pixels of ``surface``, to draw more onto."""
    out = cairo.ImageSurface(cairo.FORMAT_ARGB32, surface.get_width(), surface.get_height())
    ctx = cairo.Context(out)
    ctx.set_operator(cairo.OPERATOR_SOURCE)
    ctx.set_source_surface(surface, 0, 0)
    ctx.paint()
    out.flush()
    return out


def surface_image(surface: cairo.ImageSurface) -> Image.Image:
    """A cairo ARGB32 surface as a Pillow RGBA image (un-premultiplied)."""
    size = (surface.get_width(), surface.get_height())
    return Image.frombuffer("RGBA", size, bytes(surface.get_data()), "raw", "BGRa", surface.get_stride(), 1)


def map_png(pack: Pack, overlay: MapOverlay | None = None, width: int = 1000) -> bytes:
    """The map of ``pack`` with ``overlay`` as PNG bytes ``width`` pixels wide (RGB: the
    sea covers every pixel). Raises ValueError for a non-positive width."""
    return _png(map_surface(pack, overlay, width))


def _rgb(surface: cairo.ImageSurface) -> Image.Image:
    """An opaque cairo ARGB32 surface as a Pillow RGB image, read straight from cairo's
    bytes (premultiplied and straight colours are the same where alpha is 255)."""
    return Image.frombuffer("RGB", (surface.get_width(), surface.get_height()), surface.get_data(),
                            "raw", "BGRX", surface.get_stride(), 1)


def _quantized(surface: cairo.ImageSurface, palette: Image.Image | None = None) -> Image.Image:
    """The opaque ``surface`` as a :data:`PNG_COLOURS`-colour picture: Pillow's fast octree quantiser,
    no dithering; or, given ``palette`` (a "P" picture), each pixel the nearest of its
    colours.

    Issue 14: a map is a few flat colours and their anti-aliased edges, so 256 colours
    keep it as it looks (mean difference about 1/255 a channel; a side-by-side check
    shows no difference) while the file is 3.5 times smaller than RGB (about 70 KB
    against 240 KB at 1000 px) and quantising plus encoding takes half the time. The
    seat pictures of one decision take the overview's palette (:class:`SeatMaps`): they
    show the same map, and mapping to a known palette is 1.3 ms against 8 ms for the
    octree of a 1000 x 1153 picture (and nearer: mean difference 0.8/255 against 0.9)."""
    image = _rgb(surface)
    if palette is None:
        return image.quantize(PNG_COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    return image.quantize(palette=palette, dither=Image.Dither.NONE)


def _encoded(image: Image.Image) -> bytes:
    """``image`` as PNG bytes at :data:`PNG_COMPRESS_LEVEL`."""
    out = io.BytesIO()
    image.save(out, "PNG", compress_level=PNG_COMPRESS_LEVEL)
    return out.getvalue()


def _png(surface: cairo.ImageSurface, palette: Image.Image | None = None) -> bytes:
    """The opaque ``surface`` as a 256-colour PNG (:func:`_quantized`)."""
    return _encoded(_quantized(surface, palette))


def _strip_surface(overlay: MapOverlay, width: int, language: str = "en") -> cairo.ImageSurface:
    """The legend strip (:func:`pbem.report.overview.legend_strip`) drawn ``width``
    pixels wide, its words in ``language``, cached by what it shows (the same all game
    long)."""
    key = (seat_labels_key(overlay), width, language)
    with _lock:
        hit = _strips.get(key)
        if hit is not None:
            _strips.move_to_end(key)
            return hit
    elements, height_units = legend_strip(overlay, width, language)
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, width, round(height_units * width / _Projection().width))
    _DrawOnto(surface, svg_document(elements, height=height_units), width)
    surface.flush()
    with _lock:
        _strips[key] = surface
        while len(_strips) > 12:  # a game's languages, a few games
            _strips.popitem(last=False)
    return surface


_strips: OrderedDict[tuple, cairo.ImageSurface] = OrderedDict()


def seat_map_png(pack: Pack, overlay: MapOverlay, seat: str | None, width: int = 1000, zoom: bool = True) -> bytes:
    """The picture :func:`pbem.report.overview.render_seat_map_svg` describes as PNG
    bytes ``width`` pixels wide, made from the cached rasters: the overview
    (:func:`map_surface` of :func:`~pbem.report.overview.overview_layers`), the legend
    strip, and with ``zoom`` and the seat on the map a bar and the zoom, an exact crop
    (no resampling) of the full map drawn at :func:`~pbem.report.overview.zoom_width`.
    Issue 13 (legible map), 14 (speed), 24 item 15 (legible overview, small mail).
    Raises ValueError for a non-positive width."""
    return SeatMaps(pack, overlay, width).png(seat, zoom=zoom)


def _shared_prefix(sets: Sequence[Sequence[Layer]]) -> int:
    """How many layers, from the bottom, every one of ``sets`` has the same."""
    n = 0
    while all(n < len(layers) for layers in sets) and all(layers[n] == sets[0][n] for layers in sets[1:]):
        n += 1
    return n


#: pixels drawn around a zoom's window and cut off: cairo clips the turn's lines and
#: shapes that cross the surface's edge before rasterising them, which changed a pixel
#: or two near the edge (up to 44/255) against the crop of the whole map; with 8 px
#: 2 pixels of 88 pictures still differed, with 64 px none (issue 28 item 6)
ZOOM_EDGE_PX = 64


class DecisionMaps:
    """The seats' pictures of one decision in every language among them (issue 28 item
    6), sharing what does not depend on the language: the turn's boxes are placed once
    for every language (:func:`pbem.report.overview.overview_layer_sets`), the
    overview's layers under the names (sea, land, control, symbols, owned spaces) are
    composited once and the turn's marks and box frames drawn once; each language adds
    its names (a cached raster), its box labels and title, and is quantised to the
    palette of the first language's overview (mapping to a known palette, not a new
    octree), then encoded. Each language's zooms are its own (:meth:`SeatMaps.png`).

    ``variants``: ``{language: (pack, overlay)}``, the pack in that language
    (:func:`pbem.pack.names.localized`) and the overlay of the position built from it;
    the first gives the palette. ``width``: pixels of the mailed picture. Not
    thread-safe (one decision, one thread). Raises ValueError for no variant or a
    non-positive width."""

    def __init__(self, variants: Mapping[str, tuple[Pack, MapOverlay]], width: int = 1000):
        picture_size(width)  # the width is checked here
        if not variants:
            raise ValueError("no language to draw")
        self.width = width
        self.variants = dict(variants)
        self.languages = list(self.variants)
        self._layers: dict[str, list[Layer]] | None = None
        self._shared: dict[bool, tuple[int, cairo.ImageSurface]] = {}
        self._maps: dict[str, SeatMaps] = {}

    def map(self, language: str) -> SeatMaps:
        """The pictures of ``language`` (KeyError for a language not drawn)."""
        if language not in self._maps:
            pack, overlay = self.variants[language]
            self._maps[language] = SeatMaps(pack, overlay, self.width, decision=self, language=language)
        return self._maps[language]

    def layers(self, language: str) -> list[Layer]:
        """The overview's layers in ``language`` (placed for every language, once)."""
        if self._layers is None:
            sets = overview_layer_sets(list(self.variants.values()), self.width)
            self._layers = dict(zip(self.languages, sets, strict=True))
        return self._layers[language]

    def part(self, language: str, marks: bool) -> cairo.ImageSurface:
        """The overview's map under the turn's marks (``marks`` false) or the marks,
        labels and title on a transparent surface (``marks`` true), in ``language``:
        the layers every language has the same are drawn once, then copied and the
        language's own drawn over them (the same operations in the same order as
        drawing them all onto one surface, so the same pixels)."""
        sets = [[layer for layer in self.layers(lang) if (layer.name in OVERVIEW_MARKS) == marks]
                for lang in self.languages]
        if marks not in self._shared:
            n = _shared_prefix(sets)
            surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, *picture_size(self.width))
            _paint(surface, self.variants[self.languages[0]][0], sets[0][:n], self.width)
            surface.flush()
            self._shared[marks] = (n, surface)
        n, shared = self._shared[marks]
        rest = sets[self.languages.index(language)][n:]
        if not rest:
            return shared
        out = _copy(shared)
        _paint(out, self.variants[language][0], rest, self.width)
        out.flush()
        return out

    def palette(self, language: str) -> Image.Image | None:
        """The palette ``language``'s pictures take: None for the first language (its
        overview's own, :func:`_quantized`), else the first language's overview."""
        first = self.languages[0]
        return None if language == first else self.map(first).palette()

    def pngs(self, seats: Mapping[str, str], zoom: Collection[str] = ()) -> dict[str, bytes]:
        """``seat -> PNG bytes`` for ``seats`` (``{seat: language}``, each language one
        of the variants): each language's seats as :meth:`SeatMaps.pngs` makes them."""
        out: dict[str, bytes] = {}
        for language in self.languages:
            group = [s for s, lang in seats.items() if lang == language]
            if group:
                out.update(self.map(language).pngs(group, zoom=zoom))
        return {s: out[s] for s in seats}


class SeatMaps:
    """Every seat's picture of one decision (:func:`seat_map_png`), sharing the work:
    the overview and its legend are drawn and encoded once (every seat without a zoom
    gets the same PNG), each zoom is drawn once and only where it is cut from the full
    map, and each zoomed picture takes the overview's palette.

    ``pack``, ``overlay``: as for :func:`map_surface`; ``width``: pixels of the mailed
    picture; ``decision``: the :class:`DecisionMaps` whose ``language`` these are (the
    parts shared with the decision's other languages come from it; None: a decision of
    this language alone). Not thread-safe (one decision, one thread). Raises
    ValueError for a non-positive width."""

    def __init__(self, pack: Pack, overlay: MapOverlay, width: int = 1000, decision: DecisionMaps | None = None,
                 language: str = ""):
        picture_size(width)  # the width is checked here
        if decision is None:
            decision = DecisionMaps({language: (pack, overlay)}, width)
            decision._maps[language] = self
        self.pack, self.overlay, self.width = pack, overlay, width
        self.decision, self.language = decision, language
        self._overview: cairo.ImageSurface | None = None
        self._split: tuple[cairo.ImageSurface, cairo.ImageSurface, cairo.ImageSurface] | None = None
        self._windows: list[tuple[float, float, float, float]] = []
        self._zoom_layers: list[Layer] = []
        self._zooms: dict[tuple[float, float, float, float], cairo.ImageSurface] = {}
        self._palette: Image.Image | None = None
        self._overview_png: bytes | None = None

    def overview_surface(self) -> cairo.ImageSurface:
        """The overview and its legend strip, ``width`` pixels wide (drawn on first use)."""
        if self._overview is None:
            self._overview = self._compose()
        return self._overview

    def _parts(self) -> tuple[cairo.ImageSurface, cairo.ImageSurface, cairo.ImageSurface]:
        """The overview's map under its turn marks, the turn marks, labels and title on a
        transparent surface, and the legend strip (drawn on first use): a zoomed
        picture's frame goes between the first two, so no box is crossed by it."""
        if self._split is None:
            self._split = (self.decision.part(self.language, marks=False),
                           self.decision.part(self.language, marks=True),
                           _strip_surface(self.overlay, self.width, self.pack.language))
        return self._split

    def _compose(self, frame: tuple[float, float, float, float] | None = None) -> cairo.ImageSurface:
        """The overview and its legend as one surface, with ``frame`` (a zoom window,
        map units) drawn as a dashed rectangle under the turn marks."""
        under, marks, strip = self._parts()
        out = cairo.ImageSurface(cairo.FORMAT_ARGB32, self.width, under.get_height() + strip.get_height())
        ctx = cairo.Context(out)
        ctx.set_source_surface(under, 0, 0)
        ctx.paint()
        if frame is not None:
            k = self.width / _Projection().width
            x0, y0, x1, y1 = frame
            ctx.set_source_rgb(0x11 / 255, 0x11 / 255, 0x11 / 255)  # the frame: where the zoom is
            ctx.set_line_width(3)
            ctx.set_dash([10, 6])
            ctx.rectangle(x0 * k, y0 * k, (x1 - x0) * k, (y1 - y0) * k)
            ctx.stroke()
            ctx.set_dash([])
        ctx.set_source_surface(marks, 0, 0)
        ctx.paint()
        ctx.set_source_surface(strip, 0, under.get_height())
        ctx.paint()
        out.flush()
        return out

    def zoom_surface(self, window: tuple[float, float, float, float]) -> cairo.ImageSurface:
        """The zoom of ``window`` (map units, :func:`~pbem.report.overview.zoom_window`):
        the full map without legends at :func:`~pbem.report.overview.zoom_width`, cut
        on whole pixels to ``width`` x :data:`~pbem.report.overview.ZOOM_HEIGHT_PX`
        (scaled to the width) from the window's corner, its boxes drawn where they
        reach into one of the windows asked for. Only that part is composited and
        drawn (drawn on first use)."""
        if window not in self._zooms:
            if window not in self._windows:
                self._windows.append(window)
                self._zoom_layers = zoom_layers(self.pack, self.overlay, self._windows)
            kz = zoom_scale(self.width)
            w, h, e = self.width, round(ZOOM_HEIGHT_PX * self.width / MAILED_WIDTH), ZOOM_EDGE_PX
            drawn = map_surface(self.pack, self.overlay, zoom_width(self.width), layers=self._zoom_layers,
                                window=(round(window[0] * kz) - e, round(window[1] * kz) - e, w + 2 * e, h + 2 * e))
            cut = cairo.ImageSurface(cairo.FORMAT_ARGB32, w, h)
            ctx = cairo.Context(cut)
            ctx.set_operator(cairo.OPERATOR_SOURCE)
            ctx.set_source_surface(drawn, -e, -e)
            ctx.paint()
            cut.flush()
            self._zooms[window] = cut
        return self._zooms[window]

    def palette(self) -> Image.Image:
        """The overview quantised to :data:`PNG_COLOURS` colours (:func:`_quantized`):
        its palette is every picture's; in a decision's later language, the first
        language's palette (:meth:`DecisionMaps.palette`)."""
        if self._palette is None:
            self._palette = _quantized(self.overview_surface(), self.decision.palette(self.language))
        return self._palette

    def overview_png(self) -> bytes:
        """The overview and its legend as PNG, encoded once."""
        if self._overview_png is None:
            self._overview_png = _encoded(self.palette())
        return self._overview_png

    def pngs(self, seats: Sequence[str], zoom: Collection[str] = ()) -> dict[str, bytes]:
        """``seat -> PNG bytes`` for ``seats``: the seats in ``zoom`` with their zoom
        (:meth:`png`), the others the overview's PNG. The shared surfaces are made
        first, in this thread (cairosvg holds the GIL); the zoomed pictures' crops,
        colours and PNG encoding, which run in cairo's and Pillow's C code, on up to
        :data:`PICTURE_THREADS` threads."""
        windows = {s: zoom_window(self.pack, self.overlay, s, self.width) for s in seats if s in zoom}
        zoomed = [s for s, box in windows.items() if box is not None]
        self.palette()
        for box in windows.values():
            if box is not None and box not in self._windows:
                self._windows.append(box)
        if zoomed:
            self._zoom_layers = zoom_layers(self.pack, self.overlay, self._windows)
            for s in zoomed:
                self.zoom_surface(windows[s])
        out = {s: self.overview_png() for s in seats if s not in zoomed}
        workers = min(PICTURE_THREADS, len(zoomed))
        if workers <= 1:
            out.update({s: self.png(s) for s in zoomed})
        else:
            with ThreadPoolExecutor(max_workers=workers) as pool:
                out.update(zip(zoomed, pool.map(self.png, zoomed), strict=True))
        return {s: out[s] for s in seats}

    def png(self, seat: str | None, zoom: bool = True) -> bytes:
        """``seat``'s picture as PNG bytes (see :func:`seat_map_png`)."""
        box = zoom_window(self.pack, self.overlay, seat, self.width) if seat and zoom else None
        if box is None:
            return self.overview_png()
        width = self.width
        over = self._compose(frame=box)
        bar = round(CAPTION_PX * width / MAILED_WIDTH)
        inset_h = round(ZOOM_HEIGHT_PX * width / MAILED_WIDTH)
        out = cairo.ImageSurface(cairo.FORMAT_ARGB32, width, over.get_height() + bar + inset_h)
        ctx = cairo.Context(out)
        ctx.set_source_surface(over, 0, 0)
        ctx.paint()
        top = over.get_height()
        ctx.set_source_rgb(0x2d / 255, 0x2a / 255, 0x26 / 255)
        ctx.rectangle(0, top, width, bar)
        ctx.fill()
        ctx.set_source_rgb(1, 1, 1)
        ctx.select_font_face("DejaVu Sans", cairo.FONT_SLANT_NORMAL, cairo.FONT_WEIGHT_BOLD)
        ctx.set_font_size(NAME_PX * width / MAILED_WIDTH)
        ctx.move_to(8, top + bar / 2 + NAME_PX * 0.36)
        ctx.show_text(caption(seat or "", self.pack.language))
        # an exact crop: whole pixels of the map drawn at the zoom's scale, no resampling
        ctx.set_source_surface(self.zoom_surface(box), 0, top + bar)
        ctx.paint()
        out.flush()
        return _png(out, self.palette())
