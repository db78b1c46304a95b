"""Royal-family labels go to the free place nearest their space (issue 24 item H, the
mailed overview): :func:`pbem.report.placement.nearest_free` slides a box along every
side of a ring, where :func:`pbem.report.placement.free_spot` tries three slides."""
from __future__ import annotations

import math
import re

from pbem.report.mapview import MapOverlay, place_turn
from pbem.report.overview import _style
from pbem.report.placement import Box, Obstacles, free_spot, nearest_free

X, Y = 1000.0, 500.0
FRAME = (0.0, 0.0, 2000.0, 1000.0)


def _leader(box: Box) -> float:
    """Distance from (X, Y) to the nearest point of ``box``."""
    return math.hypot(X - min(max(X, box[0]), box[2]), Y - min(max(Y, box[1]), box[3]))


def _walls(w: float, gap: float) -> list[Box]:
    """Obstacles around (X, Y) that leave one near place for a ``w``-wide box: above the
    point, its right end at most 5 units right of it and its left end against a post;
    right of the point, below it and every corner ``gap`` or more away are taken."""
    return [(X - 4, Y - 4, X + 4, Y + 4),  # the space's symbol
            (X + 5, Y - 400, X + 400, Y + 400),  # everything right of the point
            (X - 700, Y + 5, X + 5, Y + 400),  # everything below it
            (X - w - 30, Y - 200, X - w - 0.05, Y + 5)]  # a post: the box's left end must be right of it


def test_nearest_free_slides_a_wide_box_to_the_near_free_place_free_spot_misses() -> None:
    w, h, gap, step = 557.0, 36.0, 11.9, 5.75
    obstacles = Obstacles(_walls(w, gap))
    box, ok = nearest_free(obstacles, X, Y, w, h, gap=gap, step=step, frame=FRAME, reach=613.0)
    assert ok and obstacles.is_free(box)
    assert _leader(box) <= gap + 0.01, box
    old, _ok = free_spot(obstacles, X, Y, w, h, gap=gap, step=step, frame=FRAME, reach=613.0)
    assert _leader(old) > 150, old  # its slides are all taken: a corner far up-left


def test_nearest_free_falls_back_to_free_spots_answer_when_nothing_is_free() -> None:
    obstacles = Obstacles([(0.0, 0.0, 2000.0, 1000.0)])
    args = dict(gap=12.0, step=6.0, frame=FRAME, reach=300.0)
    assert nearest_free(obstacles, X, Y, 100.0, 20.0, **args) == free_spot(obstacles, X, Y, 100.0, 20.0, **args)
    assert nearest_free(obstacles, X, Y, 100.0, 20.0, **args)[1] is False


def test_the_overviews_royal_label_goes_to_the_near_free_place() -> None:
    """Through :func:`pbem.report.mapview.place_turn` with the overview's style (the
    case of the random position, 130 steps of seed 12, where Alexander IV, Alexander's
    Body and Philip III at Assur were labelled 256 units away with a free place 178
    away): the royal label takes the one free place just above its space."""
    style = _style(1000)
    ov = MapOverlay(royals={"assur": "Alexander IV, Alexander's Body, Philip III"})
    xy = {"assur": (X, Y)}
    _marks, (alone,) = place_turn([ov], xy, Obstacles(), style)
    rect_w = float(re.search(r'<rect x="[\d.]+" y="[\d.]+" width="([\d.]+)"', alone.frame).group(1))
    w = rect_w + style.line + 2 * style.margin  # the room the box is searched with
    gap = style.gap + 9.0
    _marks, (placed,) = place_turn([ov], xy, Obstacles(_walls(w, gap)), style)
    x1, y1, x2, y2 = map(float, re.search(r'<line x1="([\d.]+)" y1="([\d.]+)" x2="([\d.]+)" y2="([\d.]+)"',
                                          placed.frame).groups())
    assert (x1, y1) == (X, Y)
    assert math.hypot(x2 - x1, y2 - y1) < 2 * gap, placed.frame
    assert y2 < Y  # above the space
