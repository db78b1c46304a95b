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
pixel within 2/255).

The rasterising is cairosvg's and cairo's (cairocffi, which cairosvg already uses) and
the PNG encoding Pillow's; nothing here draws pixels by hand. The only code of our own
is :class:`_DrawOnto`, a three-line subclass that points cairosvg at an existing
surface instead of a new one (cairosvg has no public argument for that).
"""
from __future__ import annotations

import io
from collections import OrderedDict
from threading import Lock

import cairocffi as cairo
import cairosvg.parser
import cairosvg.surface
from PIL import Image

from pbem.pack.model import Pack
from pbem.report.mapview import Layer, MapOverlay, _Projection, focus_box, map_layers, svg_document

#: zlib level of the PNG (Pillow's default is 6: level 9 saves 3 % for 2.5x the time)
PNG_COMPRESS_LEVEL = 6
_CACHE_SIZE = 12  # rasters: 3 static layers x 4 packs or widths, 2.2 MB each at 1000 px
_rasters: OrderedDict[tuple[int, str, int], tuple[Pack, cairo.ImageSurface]] = OrderedDict()
_lock = Lock()


class _DrawOnto(cairosvg.surface.PNGSurface):
    """cairosvg's PNG surface, drawing onto ``target`` (an ARGB32 image surface of the
    size the document has at ``width`` pixels) instead of a fresh surface."""

    def __init__(self, target: cairo.ImageSurface, svg: str, width: int):
        self._target = target
        super().__init__(cairosvg.parser.Tree(bytestring=svg.encode("utf-8")), None, 96, output_width=width)

    def _create_surface(self, width: float, height: float) -> tuple[cairo.ImageSurface, int, int]:
        return self._target, self._target.get_width(), self._target.get_height()


def picture_size(width: int) -> tuple[int, int]:
    """(width, height) in pixels of the map drawn ``width`` pixels wide: the SVG's
    aspect ratio, the height rounded as cairosvg rounds it. Raises ValueError for a
    non-positive width."""
    if width <= 0:
        raise ValueError(f"width must be positive, got {width}")
    probe = cairosvg.parser.Tree(bytestring=svg_document([]).encode())
    w, h = float(probe["width"]), float(probe["height"])
    return width, int(round(h * width / w))


def _draw(target: cairo.ImageSurface, layer: Layer, width: int) -> None:
    if layer.elements:
        _DrawOnto(target, svg_document(layer.elements), width)


def _static_raster(pack: Pack, layer: Layer, width: int) -> cairo.ImageSurface:
    """The cached raster of a static layer (drawn on first use)."""
    key = (id(pack), layer.name, width)
    with _lock:
        hit = _rasters.get(key)
        if hit is not None and hit[0] is pack:
            _rasters.move_to_end(key)
            return hit[1]
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, *picture_size(width))
    _draw(surface, layer, width)
    surface.flush()
    with _lock:
        _rasters[key] = (pack, surface)
        while len(_rasters) > _CACHE_SIZE:
            _rasters.popitem(last=False)
    return surface


def map_surface(pack: Pack, overlay: MapOverlay | None = None, width: int = 1000) -> cairo.ImageSurface:
    """The map of ``pack`` with ``overlay`` drawn ``width`` pixels wide, as a cairo
    ARGB32 image surface (premultiplied). Raises ValueError for a non-positive width."""
    target = cairo.ImageSurface(cairo.FORMAT_ARGB32, *picture_size(width))
    ctx = cairo.Context(target)
    for layer in map_layers(pack, overlay):
        if layer.static:
            ctx.set_source_surface(_static_raster(pack, layer, width), 0, 0)
            ctx.paint()
        else:
            _draw(target, layer, width)
    target.flush()
    return target


def surface_image(surface: cairo.ImageSurface) -> Image.Image:
    """A cairo ARGB32 surface as a Pillow RGBA image (un-premultiplied)."""
    size = (surface.get_width(), surface.get_height())
    return Image.frombuffer("RGBA", size, bytes(surface.get_data()), "raw", "BGRa", surface.get_stride(), 1)


def map_png(pack: Pack, overlay: MapOverlay | None = None, width: int = 1000) -> bytes:
    """The map of ``pack`` with ``overlay`` as PNG bytes ``width`` pixels wide (RGB: the
    sea covers every pixel). Raises ValueError for a non-positive width."""
    image = surface_image(map_surface(pack, overlay, width)).convert("RGB")
    out = io.BytesIO()
    image.save(out, "PNG", compress_level=PNG_COMPRESS_LEVEL)
    return out.getvalue()


#: widths the map is drawn at for a seat's zoomed inset (few, so their static rasters stay
#: cached: 3 layers x 2 widths beside the 3 of the mailed width)
INSET_WIDTHS = (2000, 3000)


def seat_map_png(pack: Pack, overlay: MapOverlay, seat: str, width: int = 1000) -> bytes:
    """The picture :func:`pbem.report.mapview.render_seat_map_svg` describes (the whole
    map, a caption bar, then the map zoomed on :func:`~pbem.report.mapview.focus_box`
    full width, a dashed frame on the overview where the zoom is), as PNG bytes
    ``width`` pixels wide, made from the cached rasters: the overview is :func:`map_surface`
    at ``width``, the inset a crop of :func:`map_surface` at the smallest of
    :data:`INSET_WIDTHS` that needs no enlarging (or the largest), scaled down by cairo.
    The whole map alone when the seat has nothing on it. Issue 13 (legible map), issue 14
    (speed). Raises ValueError for a non-positive width."""
    box = focus_box(pack, overlay, seat)
    if box is None:
        return map_png(pack, overlay, width)
    svg_w = _Projection().width
    x0, y0, x1, y1 = box
    k = width / svg_w  # pixels per SVG unit in the mailed picture
    over_w, over_h = picture_size(width)
    bar = int(round(36 * k))
    inset_h = int(round(width * (y1 - y0) / (x1 - x0)))
    need = width * svg_w / (x1 - x0)
    big_w = next((w for w in INSET_WIDTHS if w >= need), INSET_WIDTHS[-1])
    big = map_surface(pack, overlay, big_w)
    kb = big_w / svg_w
    out = cairo.ImageSurface(cairo.FORMAT_ARGB32, width, over_h + bar + inset_h)
    ctx = cairo.Context(out)
    ctx.set_source_surface(map_surface(pack, overlay, width), 0, 0)
    ctx.paint()
    ctx.set_source_rgb(0x11 / 255, 0x11 / 255, 0x11 / 255)  # the frame: where the zoom is
    ctx.set_line_width(3 * k)
    ctx.set_dash([10 * k, 6 * k])
    ctx.rectangle(x0 * k, y0 * k, (x1 - x0) * k, (y1 - y0) * k)
    ctx.stroke()
    ctx.set_dash([])
    ctx.set_source_rgb(0x2d / 255, 0x2a / 255, 0x26 / 255)
    ctx.rectangle(0, over_h, width, bar)
    ctx.fill()
    ctx.set_source_rgb(1, 1, 1)
    ctx.select_font_face("DejaVu Sans", cairo.FONT_SLANT_NORMAL, cairo.FONT_WEIGHT_BOLD)
    ctx.set_font_size(20 * k)
    ctx.move_to(14 * k, over_h + 25 * k)
    ctx.show_text(f"Zoom: around {seat}'s forces and this turn's fronts (dashed frame above)")
    ctx.save()
    ctx.rectangle(0, over_h + bar, width, inset_h)
    ctx.clip()
    ctx.translate(0, over_h + bar)
    scale = width / ((x1 - x0) * kb)
    ctx.scale(scale, scale)
    ctx.set_source_surface(big, -x0 * kb, -y0 * kb)
    ctx.get_source().set_filter(cairo.FILTER_GOOD)
    ctx.paint()
    ctx.restore()
    out.flush()
    image = surface_image(out).convert("RGB")
    buf = io.BytesIO()
    image.save(buf, "PNG", compress_level=PNG_COMPRESS_LEVEL)
    return buf.getvalue()
