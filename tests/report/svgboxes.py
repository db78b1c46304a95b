"""What an SVG map picture draws where, read from the SVG itself (issue 24 item 15).

Every ``<text>``, ``<rect>``, ``<circle>`` and ``<polygon>`` of a document with the box
its ink covers in the root's user units: shapes from their geometry (plus half the
stroke), texts measured with cairo's toy font API exactly as cairosvg draws them (the
font, size, weight and slant an element inherits; ``text-anchor`` as cairosvg aligns it:
``start`` at the pen, ``middle`` and ``end`` on the ink), at the scale the picture is
drawn (hinted glyph advances depend on it). ``translate(...) [scale(...)]`` transforms and nested
``<svg>`` viewports (``x``/``y``/``width``/``height``/``viewBox``, uniform scale) are
followed. Independent of the code that lays the map out: the tests measure what was
drawn, not what the layout meant to draw.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

import cairocffi as cairo

NS = "{http://www.w3.org/2000/svg}"
INHERITED = ("font-size", "font-weight", "font-style", "font-family", "text-anchor", "stroke", "stroke-width",
             "class")
Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class Drawn:
    """One drawn element: its tag (``text``, ``rect``, ...), its text, the classes of it
    and its ancestors, its ink ``box`` in root units, and for a text its font size in
    root units (``size``)."""

    tag: str
    text: str
    classes: frozenset[str]
    box: Box
    size: float = 0.0


@lru_cache(maxsize=8192)
def _extents(text: str, family: str, size_px: float, bold: bool, italic: bool) -> tuple[float, ...]:
    """cairo's text extents (x_bearing, y_bearing, width, height) in pixels of ``text``
    at ``size_px``, on an image surface as cairosvg draws."""
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, 4, 4)
    ctx = cairo.Context(surface)
    ctx.select_font_face(family, cairo.FONT_SLANT_ITALIC if italic else cairo.FONT_SLANT_NORMAL,
                         cairo.FONT_WEIGHT_BOLD if bold else cairo.FONT_WEIGHT_NORMAL)
    ctx.set_font_size(size_px)
    return tuple(ctx.text_extents(text)[:4])


def cap_height_px(size_px: float, family: str = "DejaVu Sans", bold: bool = False) -> float:
    """The height in pixels of a capital "H" drawn at ``size_px`` (the cap height)."""
    return _extents("H", family, size_px, bold, False)[3]


def _num(value: str | None, default: float = 0.0) -> float:
    if value is None:
        return default
    return float(re.sub(r"[a-z%]+$", "", value.strip()))


def _transform(value: str | None) -> tuple[float, float, float]:
    """(dx, dy, scale) of ``translate(dx, dy)`` optionally followed by ``scale(s)``."""
    if not value:
        return 0.0, 0.0, 1.0
    m = re.fullmatch(r"\s*translate\(\s*([-\d.e]+)[\s,]*([-\d.e]*)\s*\)\s*(?:scale\(\s*([-\d.e]+)\s*\))?\s*",
                     value)
    assert m, f"transform not understood: {value!r}"
    return float(m.group(1)), float(m.group(2) or 0), float(m.group(3) or 1)


def walk(svg: str, px_per_unit: float) -> Iterator[Drawn]:
    """Every drawn element of ``svg`` with its box in the root's user units; texts are
    measured as drawn at ``px_per_unit`` pixels per root unit."""
    root = ET.fromstring(svg)

    def visit(el: ET.Element, k: float, tx: float, ty: float, attrs: dict[str, str],
              classes: frozenset[str]) -> Iterator[Drawn]:
        tag = el.tag.removeprefix(NS)
        inherited = {**attrs, **{a: el.get(a) for a in INHERITED if el.get(a) is not None and a != "class"}}
        cls = classes | frozenset((el.get("class") or "").split())
        if tag == "svg" and el is not root:
            vx, vy, vw, _vh = (float(v) for v in el.get("viewBox", "").replace(",", " ").split())
            s = _num(el.get("width")) / vw
            ox, oy = tx + k * _num(el.get("x")), ty + k * _num(el.get("y"))
            k, tx, ty = k * s, ox - k * s * vx, oy - k * s * vy
        dx, dy, s = _transform(el.get("transform"))
        tx, ty, k = tx + k * dx, ty + k * dy, k * s
        half = _num(inherited.get("stroke-width"), 1.0) / 2 if inherited.get("stroke", "none") != "none" else 0.0

        def box(x0: float, y0: float, x1: float, y1: float, pad: float = half) -> Box:
            return (tx + k * (x0 - pad), ty + k * (y0 - pad), tx + k * (x1 + pad), ty + k * (y1 + pad))

        if tag == "text" and el.text:
            size = _num(inherited.get("font-size"), 16.0)
            family = inherited.get("font-family", "sans-serif").split(",")[0].strip("\"' ")
            bold = inherited.get("font-weight") in ("bold", "700", "800", "900")
            italic = inherited.get("font-style") == "italic"
            scale = px_per_unit * k  # pixels per this element's unit
            xb, yb, w, h = (v / scale for v in _extents(el.text, family, size * scale, bold, italic))
            x, y = _num(el.get("x")), _num(el.get("y"))
            anchor = inherited.get("text-anchor", "start")
            x0 = x + xb if anchor == "start" else x - w / 2 if anchor == "middle" else x - w
            yield Drawn("text", el.text, cls, box(x0, y + yb, x0 + w, y + yb + h), size * k)
        elif tag == "rect":
            x, y = _num(el.get("x")), _num(el.get("y"))
            yield Drawn("rect", "", cls, box(x, y, x + _num(el.get("width")), y + _num(el.get("height"))))
        elif tag == "circle":
            cx, cy, r = _num(el.get("cx")), _num(el.get("cy")), _num(el.get("r"))
            yield Drawn("circle", "", cls, box(cx - r, cy - r, cx + r, cy + r))
        elif tag == "polygon":
            pts = [float(v) for v in el.get("points", "").replace(",", " ").split()]
            xs, ys = pts[0::2], pts[1::2]
            yield Drawn("polygon", "", cls, box(min(xs), min(ys), max(xs), max(ys)))
        for child in el:
            if child.tag.removeprefix(NS) not in ("defs", "marker"):
                yield from visit(child, k, tx, ty, inherited, cls)

    yield from visit(root, 1.0, 0.0, 0.0, {"font-family": root.get("font-family", "sans-serif")}, frozenset())


def size_of(svg: str) -> tuple[float, float]:
    """The root's user-unit width and height (its viewBox)."""
    _x, _y, w, h = (float(v) for v in ET.fromstring(svg).get("viewBox", "").split())
    return w, h


def overlap(a: Box, b: Box) -> float:
    """The area two boxes share (0 when they only touch)."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def inside(box: Box, frame: Box) -> bool:
    """True when ``box`` lies within ``frame``."""
    return frame[0] <= box[0] and frame[1] <= box[1] and box[2] <= frame[2] and box[3] <= frame[3]
