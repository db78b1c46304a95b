"""The fast map PNG (cached static layers, pbem.report.raster) has the pixels of the
whole SVG drawn by cairosvg, within 2/255 per channel."""
from __future__ import annotations

import io
import random

import pytest
from PIL import Image, ImageChops, ImageStat

from pbem import rules
from pbem.pack.loader import load_pack
from pbem.pack.model import Pack
from pbem.report import raster, snapshot
from pbem.report.mapview import (
    MapOverlay,
    map_layers,
    render_map_svg,
    svg_document,
    svg_to_png,
)
from pbem.report.overview import (
    CAPTION_PX,
    ZOOM_HEIGHT_PX,
    render_seat_map_svg,
    zoom_layers,
    zoom_scale,
    zoom_width,
    zoom_window,
)
from pbem.rules.dice import Dice

PLAYERS = {"north": "Kleitos", "east": "Peukestas", "south": "Nearchos", "west": "Aristonous"}


@pytest.fixture(scope="module")
def pack() -> Pack:
    return load_pack(None)


def _position(pack: Pack, steps: int, seed: int) -> MapOverlay:
    state, events = rules.new_game(pack, bytes([seed]) * 8, {})
    rng = random.Random(seed)
    for _ in range(steps):
        pending = rules.pending(state)
        if not pending:
            break
        d = pending[0]
        state, events = rules.apply(state, d.seat, rules.bot_orders(state, d.seat, rng),
                                    Dice(bytes([seed]) * 8, state.step))
    # one of each turn mark, whatever the random game did
    extra = [rules.Event("ArmyMoved", {"seat": "north", "path": ["pella", "amphipolis", "philippi"]}),
             rules.Event("BattleFought", {"space": "memphis"}), rules.Event("AssaultMade", {"space": "tyre"})]
    return snapshot.overlay(pack, state, [*events, *extra], f"test step {state.step}", PLAYERS)


def _max_difference(a: Image.Image, b: Image.Image) -> int:
    assert a.size == b.size and a.mode == b.mode == "RGBA"
    return max(hi for _lo, hi in ImageChops.difference(a, b).getextrema())


def _whole(pack: Pack, ov: MapOverlay | None, width: int) -> Image.Image:
    return Image.open(io.BytesIO(svg_to_png(render_map_svg(pack, ov), width))).convert("RGBA")


@pytest.mark.parametrize(("steps", "seed", "width"), [(0, 1, 1000), (27, 3, 1000), (60, 5, 1000), (12, 7, 640)])
def test_cached_layers_draw_the_pixels_of_the_whole_svg(pack: Pack, steps: int, seed: int, width: int) -> None:
    ov = _position(pack, steps, seed)
    fast = raster.surface_image(raster.map_surface(pack, ov, width))
    assert _max_difference(fast, _whole(pack, ov, width)) <= 2
    # and drawn again from the cache (the static rasters are reused, not redrawn)
    cached = len(raster._rasters)
    assert _max_difference(raster.surface_image(raster.map_surface(pack, ov, width)), fast) == 0
    assert len(raster._rasters) == cached


def test_the_bare_map_too(pack: Pack) -> None:
    assert _max_difference(raster.surface_image(raster.map_surface(pack, None)), _whole(pack, None, 1000)) <= 2


def test_the_comparison_can_fail(pack: Pack) -> None:
    """Another position's picture is far from this one's: the check above has teeth."""
    a = raster.surface_image(raster.map_surface(pack, _position(pack, 27, 3)))
    b = raster.surface_image(raster.map_surface(pack, _position(pack, 0, 1)))
    assert _max_difference(a, b) > 100


def test_static_layers_depend_on_the_pack_alone(pack: Pack) -> None:
    one, two = map_layers(pack, _position(pack, 0, 1)), map_layers(pack, _position(pack, 27, 3))
    for a, b in zip(one, two, strict=True):
        assert a.name == b.name and a.static == b.static
        if a.static:
            assert a.elements == b.elements
    assert [layer.name for layer in one if layer.static] == ["base", "symbols", "labels", "legend"]


def test_png_is_a_palette_picture_of_the_width_that_looks_like_the_surface(pack: Pack) -> None:
    ov = _position(pack, 27, 3)
    data = raster.map_png(pack, ov, width=1000)
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG" and image.mode == "P" and image.size == raster.picture_size(1000)
    exact = raster.surface_image(raster.map_surface(pack, ov, 1000)).convert("RGB")
    assert max(ImageStat.Stat(ImageChops.difference(image.convert("RGB"), exact)).mean) < 2
    with pytest.raises(ValueError):
        raster.map_png(pack, None, width=0)


@pytest.mark.parametrize("seat", ["north", "south"])
def test_the_seat_picture_is_the_seat_svg_drawn(pack: Pack, seat: str) -> None:
    """The mailed picture (overview, legend strip, zoom; issues 13 and 24) made from the
    cached rasters looks like its SVG drawn whole: the same size, mean difference under
    4/255 per channel (the PNG has 64 colours; the overview's static layers are cached
    rasters, the zoom an exact crop of the map drawn at the zoom's scale), and a
    different seat's picture differs far more."""
    ov = _position(pack, 27, 3)
    fast = Image.open(io.BytesIO(raster.seat_map_png(pack, ov, seat))).convert("RGB")
    whole = Image.open(io.BytesIO(svg_to_png(render_seat_map_svg(pack, ov, seat), width=1000))).convert("RGB")
    assert fast.size[0] == whole.size[0] == 1000 and abs(fast.size[1] - whole.size[1]) <= 1
    h = min(fast.size[1], whole.size[1])

    def mean_diff(a: Image.Image, b: Image.Image) -> float:
        return max(ImageStat.Stat(ImageChops.difference(a.crop((0, 0, 1000, h)), b.crop((0, 0, 1000, h)))).mean)
    assert mean_diff(fast, whole) < 4
    other = "east" if seat != "east" else "west"
    elsewhere = Image.open(io.BytesIO(raster.seat_map_png(pack, ov, other))).convert("RGB")
    if elsewhere.size == fast.size:  # a zoom of the same height: it must show another place
        assert mean_diff(elsewhere, whole) > 2 * mean_diff(fast, whole)


def test_one_decisions_seat_maps_share_the_drawing_and_equal_each_seat_drawn_alone(pack: Pack) -> None:
    """SeatMaps (issues 14, 24) draws the overview once and the zoom's map once: the
    seats asked to move get their zoom, byte for byte what seat_map_png draws for each
    alone; every other seat gets the one overview picture, which is seat_map_png
    without a zoom."""
    ov = _position(pack, 27, 3)
    maps = raster.SeatMaps(pack, ov)
    seats = ("north", "east", "south", "west")
    shared = maps.pngs(seats, zoom={"north", "south"})  # the zoomed pictures made on threads
    assert {s: shared[s] for s in ("north", "south")} == {s: raster.seat_map_png(pack, ov, s)
                                                          for s in ("north", "south")}
    assert shared["east"] == shared["west"] == raster.seat_map_png(pack, ov, "east", zoom=False)
    assert len({shared["north"], shared["south"], shared["east"]}) == 3
    with pytest.raises(ValueError):
        raster.SeatMaps(pack, ov, width=0)


def test_the_zoom_is_an_exact_crop_of_the_map_at_the_zoom_scale(pack: Pack) -> None:
    """The zoom under the overview is the full map drawn at the zoom's scale (the same
    pixels, within 2/255, as cairosvg drawing it whole), cut on whole pixels: nothing
    is resampled, so its names are as sharp as drawn; only the window is composited
    and drawn (issue 28 item 6), with the same pixels as the crop of the whole map
    made from the cached rasters; the picture has 64 colours, the overview's palette."""
    ov = _position(pack, 60, 5)
    maps = raster.SeatMaps(pack, ov)
    big = zoom_width()
    window = zoom_window(pack, ov, "north")
    assert window is not None
    layers = zoom_layers(pack, ov, [window])
    x0, y0, _x1, _y1 = window
    kz = zoom_scale()
    crop = (round(x0 * kz), round(y0 * kz), round(x0 * kz) + 1000, round(y0 * kz) + ZOOM_HEIGHT_PX)
    drawn = raster.surface_image(maps.zoom_surface(window))
    assert drawn.size == (1000, ZOOM_HEIGHT_PX)
    full = raster.surface_image(raster.map_surface(pack, ov, big, layers=layers)).crop(crop)
    assert _max_difference(drawn, full) == 0
    whole = Image.open(io.BytesIO(svg_to_png(svg_document([e for layer in layers for e in layer.elements]), big)))
    assert _max_difference(drawn, whole.convert("RGBA").crop(crop)) <= 2
    picture = Image.open(io.BytesIO(maps.png("north")))
    assert picture.mode == "P" and len(picture.getpalette()) // 3 <= raster.PNG_COLOURS
    top = maps.overview_surface().get_height() + CAPTION_PX
    zoom = picture.convert("RGB").crop((0, top, 1000, top + ZOOM_HEIGHT_PX))
    assert max(ImageStat.Stat(ImageChops.difference(zoom, drawn.convert("RGB"))).mean) < 4  # only the 64 colours differ
