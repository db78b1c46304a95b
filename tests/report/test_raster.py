"""The fast map PNG (cached static layers, pbem.report.raster) has the pixels of the
whole SVG drawn by cairosvg, within 2/255 per channel."""
from __future__ import annotations

import io
import random

import pytest
from PIL import Image, ImageChops

from pbem import rules
from pbem.pack.loader import load_pack
from pbem.pack.model import Pack
from pbem.report import raster, snapshot
from pbem.report.mapview import MapOverlay, map_layers, render_map_svg, svg_to_png
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
    from PIL import ImageStat

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
    """The per-seat picture (overview + zoomed inset, issue 13) made from the cached
    rasters looks like its SVG drawn whole: same size within a pixel of rounding, mean
    difference under 6/255 per channel (the inset is a downscaled crop, not drawn at its
    own scale), and a different seat's picture differs far more."""
    from PIL import ImageStat

    from pbem.report.mapview import render_seat_map_svg
    ov = _position(pack, 27, 3)
    fast = Image.open(io.BytesIO(raster.seat_map_png(pack, ov, seat))).convert("RGB")
    whole = Image.open(io.BytesIO(svg_to_png(render_seat_map_svg(pack, ov, seat), width=1000))).convert("RGB")
    assert fast.size[0] == whole.size[0] == 1000 and abs(fast.size[1] - whole.size[1]) <= 1
    h = min(fast.size[1], whole.size[1])

    def mean_diff(a: Image.Image, b: Image.Image) -> float:
        return max(ImageStat.Stat(ImageChops.difference(a.crop((0, 0, 1000, h)), b.crop((0, 0, 1000, h)))).mean)
    assert mean_diff(fast, whole) < 6
    other = "east" if seat != "east" else "west"
    elsewhere = Image.open(io.BytesIO(raster.seat_map_png(pack, ov, other))).convert("RGB")
    if elsewhere.size == fast.size:  # an inset of the same height: it must show another place
        assert mean_diff(elsewhere, whole) > 2 * mean_diff(fast, whole)


def test_one_decisions_seat_maps_share_the_drawing_and_equal_each_seat_drawn_alone(pack: Pack) -> None:
    """SeatMaps (issue 14) draws the layers and each width once for the four seats, and
    each seat's picture is byte for byte the one seat_map_png draws for it alone."""
    ov = _position(pack, 27, 3)
    maps = raster.SeatMaps(pack, ov)
    seats = ("north", "east", "south", "west")
    shared = maps.pngs(seats)  # the seats' pictures made on threads
    assert shared == {s: raster.seat_map_png(pack, ov, s) for s in seats}
    assert len(set(shared.values())) > 1  # the seats' zooms differ
    assert set(maps._surfaces) <= {1000, *raster.INSET_WIDTHS}
    with pytest.raises(ValueError):
        raster.SeatMaps(pack, ov, width=0)


def test_recorded_layers_replay_the_direct_drawing(pack: Pack) -> None:
    """SeatMaps records the changing layers once and replays them at each width (issue
    14): at the mailed width the pixels are those drawn directly, within 2/255 (the replay
    is composited as one layer, like the cached rasters); at the zoom's width the
    picture differs only where glyphs are hinted at the recorded width (few pixels, mean
    under 1/255), and a seat picture's colours are the overview's palette."""
    from PIL import ImageStat

    ov = _position(pack, 60, 5)
    maps = raster.SeatMaps(pack, ov)
    assert _max_difference(raster.surface_image(maps.surface(1000)),
                           raster.surface_image(raster.map_surface(pack, ov, 1000))) <= 2
    big = raster.INSET_WIDTHS[-1]
    replayed = raster.surface_image(maps.surface(big)).convert("RGB")
    direct = raster.surface_image(raster.map_surface(pack, ov, big)).convert("RGB")
    assert max(ImageStat.Stat(ImageChops.difference(replayed, direct)).mean) < 1
    other = raster.surface_image(raster.map_surface(pack, _position(pack, 27, 3), big)).convert("RGB")
    assert max(ImageStat.Stat(ImageChops.difference(other, direct)).mean) > 1  # the check has teeth
    picture = Image.open(io.BytesIO(maps.png("north")))
    assert picture.mode == "P" and picture.getpalette() == maps.overview().getpalette()
