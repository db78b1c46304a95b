"""Where the map's words and boxes go: text measured as it is drawn, boxes placed where
they cover nothing (issue 24 item 15).

cairosvg draws every ``<text>`` with cairo's toy font API (the first family of
``font-family``, its weight and slant; ``text-anchor`` ``middle``/``end`` align the
ink, ``start`` the pen). :func:`text_box` asks the same API, on an image surface at
the scale the picture is drawn (hinted glyph advances depend on it), for the ink box a
text will have: so a layout made from it is the one drawn, not an estimate.
:class:`Obstacles` holds what a new box must not cover (a grid of cells, so a test
looks at the few boxes near it) and :func:`free_spot` finds the nearest place around a
point where a box covers none of them (:func:`nearest_free` searches more finely, for
the royal family's wide labels).
"""
from __future__ import annotations

import math
from collections.abc import Iterable
from functools import lru_cache
from threading import Lock

import cairocffi as cairo

Box = tuple[float, float, float, float]
"""``(x0, y0, x1, y1)`` in SVG user units, y down."""

FAMILY = "DejaVu Sans"
"""The map's font (every SVG of the map names it first, so cairosvg draws with it)."""

_lock = Lock()
_surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, 4, 4)


@lru_cache(maxsize=8192)
def _extents(text: str, size_px: float, bold: bool, italic: bool) -> tuple[float, float, float, float]:
    """cairo's (x_bearing, y_bearing, width, height) of ``text`` at ``size_px``, in pixels."""
    with _lock:
        ctx = cairo.Context(_surface)
        ctx.select_font_face(FAMILY, cairo.FONT_SLANT_ITALIC if italic else cairo.FONT_SLANT_NORMAL,
                             cairo.FONT_WEIGHT_BOLD if bold else cairo.FONT_WEIGHT_NORMAL)
        ctx.set_font_size(size_px)
        xb, yb, w, h = ctx.text_extents(text)[:4]
    return xb, yb, w, h


def text_box(text: str, x: float, y: float, size: float, *, scale: float, anchor: str = "start",
             bold: bool = False, italic: bool = False, pad: float = 0.0) -> Box:
    """The ink box of ``text`` drawn at ``(x, y)`` (the baseline) in units of ``size``
    (font size in SVG units) with SVG ``text-anchor`` ``anchor``, when the picture is
    drawn at ``scale`` pixels per unit, grown by ``pad`` units on every side (a halo's
    half stroke). Raises ValueError for a non-positive scale or size."""
    if scale <= 0 or size <= 0:
        raise ValueError(f"scale and size must be positive, got {scale}, {size}")
    xb, yb, w, h = (v / scale for v in _extents(text, round(size * scale, 3), bold, italic))
    x0 = x + xb if anchor == "start" else x - w / 2 if anchor == "middle" else x - w
    return (x0 - pad, y + yb - pad, x0 + w + pad, y + yb + h + pad)


def cap_height(size: float, *, scale: float, bold: bool = False) -> float:
    """The height of a capital "H" at font ``size`` (SVG units) in pixels, drawn at
    ``scale`` pixels per unit: the measure of a word's legibility (issue 24 item 15)."""
    return _extents("H", round(size * scale, 3), bold, False)[3]


def overlap(a: Box, b: Box) -> float:
    """The area two boxes share (0 when they only touch)."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def grown(box: Box, by: float) -> Box:
    """``box`` grown by ``by`` units on every side."""
    return (box[0] - by, box[1] - by, box[2] + by, box[3] + by)


class Obstacles:
    """Boxes a new box must not cover, kept in a grid of ``cell``-unit squares.

    Cheap to copy (:meth:`copy`): the grid's lists are copied only when written."""

    def __init__(self, boxes: Iterable[Box] = (), cell: float = 48.0):
        self.cell = cell
        self._grid: dict[tuple[int, int], list[Box]] = {}
        self._shared: set[tuple[int, int]] = set()
        for box in boxes:
            self.add(box)

    def _cells(self, box: Box) -> Iterable[tuple[int, int]]:
        c = self.cell
        for i in range(math.floor(box[0] / c), math.floor(box[2] / c) + 1):
            for j in range(math.floor(box[1] / c), math.floor(box[3] / c) + 1):
                yield i, j

    def add(self, box: Box) -> None:
        """Add ``box`` to what must stay uncovered."""
        for key in self._cells(box):
            if key in self._shared:
                self._grid[key] = list(self._grid[key])
                self._shared.discard(key)
            self._grid.setdefault(key, []).append(box)

    def covered(self, box: Box) -> float:
        """The area of ``box`` over the obstacles (an area covered twice counts twice)."""
        seen: set[Box] = set()
        total = 0.0
        for key in self._cells(box):
            for o in self._grid.get(key, ()):
                if o not in seen:
                    seen.add(o)
                    total += overlap(box, o)
        return total

    def is_free(self, box: Box) -> bool:
        """True when ``box`` covers no obstacle (stops at the first it covers)."""
        x0, y0, x1, y1 = box
        c = self.cell
        grid = self._grid
        for i in range(math.floor(x0 / c), math.floor(x1 / c) + 1):
            for j in range(math.floor(y0 / c), math.floor(y1 / c) + 1):
                for o in grid.get((i, j), ()):
                    if o[0] < x1 and x0 < o[2] and o[1] < y1 and y0 < o[3]:
                        return False
        return True

    def near(self, box: Box) -> list[Box]:
        """The obstacles in the cells ``box`` reaches (each once; some may not touch it)."""
        seen: dict[Box, None] = {}
        for key in self._cells(box):
            for o in self._grid.get(key, ()):
                seen.setdefault(o)
        return list(seen)

    def copy(self) -> Obstacles:
        """An independent copy (adding to one does not change the other)."""
        new = Obstacles(cell=self.cell)
        new._grid = dict(self._grid)
        new._shared = set(self._grid)
        self._shared = set(self._grid)
        return new


def free_spot(obstacles: Obstacles, x: float, y: float, w: float, h: float, *, gap: float, step: float,
              frame: Box, reach: float) -> tuple[Box, bool]:
    """The box of ``w`` x ``h`` units nearest the point ``(x, y)`` (a space) that covers
    no obstacle and lies within ``frame``: candidates on rings ``gap``, ``gap + step``,
    ... units from the point (the rings spread out as they go: ``step`` grows by one
    for every 40 steps of distance), out to ``reach``; on each ring above, below, right, left,
    the four corners, then slid halfway along each side. Returns ``(box, True)``, or the
    candidate covering least and ``(box, False)`` when none within ``reach`` is free.
    Raises ValueError for a non-positive size or step."""
    if w <= 0 or h <= 0 or step <= 0:
        raise ValueError(f"size and step must be positive, got {w} x {h}, step {step}")
    inside: list[Box] = []
    d = gap
    while d <= reach:
        cands = [(x - w / 2, y - d - h), (x - w / 2, y + d), (x + d, y - h / 2), (x - d - w, y - h / 2),
                 (x + d * 0.7, y - d * 0.7 - h), (x - d * 0.7 - w, y - d * 0.7 - h),
                 (x + d * 0.7, y + d * 0.7), (x - d * 0.7 - w, y + d * 0.7),
                 (x - w / 4, y - d - h), (x - 3 * w / 4, y - d - h), (x - w / 4, y + d), (x - 3 * w / 4, y + d),
                 (x + d, y - h), (x + d, y), (x - d - w, y - h), (x - d - w, y)]
        for bx, by in cands:
            box = (bx, by, bx + w, by + h)
            if box[0] < frame[0] or box[1] < frame[1] or box[2] > frame[2] or box[3] > frame[3]:
                continue
            if obstacles.is_free(box):
                return box, True
            inside.append(box)
        d += step * (1 + d / (40 * step))  # finer near the space, coarser far from it
    if not inside:  # nothing inside the frame at all: against the point, clamped
        bx = min(max(x - w / 2, frame[0]), frame[2] - w)
        by = min(max(y + gap, frame[1]), frame[3] - h)
        return (bx, by, bx + w, by + h), False
    return min(inside, key=obstacles.covered), False


def _nearest_open(lo: float, hi: float, want: float, blocked: Iterable[tuple[float, float]]) -> float | None:
    """The point of ``[lo, hi]`` nearest ``want`` outside every open interval of
    ``blocked``, or None when they cover it all."""
    if lo > hi:
        return None
    spans = sorted((a, b) for a, b in blocked if b > lo and a < hi)
    free: list[tuple[float, float]] = []
    at = lo
    for a, b in spans:
        if a >= at:
            free.append((at, a))
        at = max(at, b)
    if at <= hi:
        free.append((at, hi))
    best = None
    for a, b in free:
        p = min(max(want, a), b)
        if best is None or abs(p - want) < abs(best - want):
            best = p
    return best


def nearest_free(obstacles: Obstacles, x: float, y: float, w: float, h: float, *, gap: float, step: float,
                 frame: Box, reach: float) -> tuple[Box, bool]:
    """Like :func:`free_spot`, but looking at many more places on each ring: on the ring
    ``d`` units from ``(x, y)`` (``d`` = ``gap``, then rings as :func:`free_spot`'s, out
    to ``reach``) the ``w`` x ``h`` box stands above or below the point at any slide
    along its width, beside it at any slide along its height (the free slide nearest
    the side's middle, worked out from the obstacles), or with a corner towards the
    point on the quarter circles (tried every ``h / 2`` units of arc); in that order:
    above, below, right, left, the corners. So a wide box (a royal family of three,
    290 px on the overview) finds the free place nearest its space where
    :func:`free_spot`'s three slides a side miss it (issue 24 item H: a royal label 256
    units from Assur, with a free place 178 from it). Still a sampling: a slot the box
    fits with no room to spare between two rings or two corner tries is missed.
    Returns ``(box, True)``, or :func:`free_spot`'s answer when none within ``reach``
    is free. Raises ValueError for a non-positive size or step."""
    if w <= 0 or h <= 0 or step <= 0:
        raise ValueError(f"size and step must be positive, got {w} x {h}, step {step}")
    spacing = h / 2
    d = gap
    while d <= reach:
        cands: list[tuple[float, float]] = []
        for by in (y - d - h, y + d):  # above, below: slid along the width
            if frame[1] <= by and by + h <= frame[3]:
                near = obstacles.near((x - w, by, x + w, by + h))
                bx = _nearest_open(max(x - w, frame[0]), min(x, frame[2] - w), x - w / 2,
                                   ((o[0] - w, o[2]) for o in near if o[1] < by + h and by < o[3]))
                if bx is not None:
                    cands.append((bx, by))
        for bx in (x + d, x - d - w):  # right, left: slid along the height
            if frame[0] <= bx and bx + w <= frame[2]:
                near = obstacles.near((bx, y - h, bx + w, y + h))
                by = _nearest_open(max(y - h, frame[1]), min(y, frame[3] - h), y - h / 2,
                                   ((o[1] - h, o[3]) for o in near if o[0] < bx + w and bx < o[2]))
                if by is not None:
                    cands.append((bx, by))
        arc = math.ceil(math.pi / 2 * d / spacing)
        for i in range(1, arc):  # the corners: the box's corner on the quarter circle
            a = math.pi / 2 * i / arc
            dx, dy = d * math.cos(a), d * math.sin(a)
            cands += [(x + dx, y - dy - h), (x - dx - w, y - dy - h), (x + dx, y + dy), (x - dx - w, y + dy)]
        for bx, by in cands:
            box = (bx, by, bx + w, by + h)
            if box[0] < frame[0] or box[1] < frame[1] or box[2] > frame[2] or box[3] > frame[3]:
                continue
            if obstacles.is_free(box):
                return box, True
        d += step * (1 + d / (40 * step))
    return free_spot(obstacles, x, y, w, h, gap=gap, step=step, frame=frame, reach=reach)
