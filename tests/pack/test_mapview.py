"""The map picture renders to SVG and PNG, with and without an overlay."""
from __future__ import annotations

import struct
import xml.etree.ElementTree as ET

import pytest

from pbem.pack.model import Pack
from pbem.report.mapview import MapOverlay, render_map_svg, svg_to_png

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == PNG_SIGNATURE and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def test_bare_map_is_valid_svg_with_every_space(pack: Pack) -> None:
    svg = render_map_svg(pack)
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
    texts = {t.text for t in root.iter("{http://www.w3.org/2000/svg}text")}
    for s in pack.spaces.values():
        assert s.name in texts
    assert "MACEDONIA" in texts and "Legend" in texts
    paths = list(root.iter("{http://www.w3.org/2000/svg}path"))
    assert len(paths) > 20  # the land outline


def test_png_bytes(pack: Pack) -> None:
    png = svg_to_png(render_map_svg(pack), width=800)
    width, height = png_size(png)
    assert width == 800 and 300 < height < 800
    assert len(png) > 20_000
    with pytest.raises(ValueError):
        svg_to_png("<svg/>", width=0)


def test_overlay_is_drawn_and_tolerates_unknown_ids(pack: Pack) -> None:
    ov = MapOverlay(
        space_owner={"memphis": "South", "pella": "North", "sparta": "independent", "nowhere": "East"},
        seat_colours={"South": "#123456"},
        stacks={"memphis": "Ptolemy 5", "atlantis": "Nobody 1"},
        arrows=(("memphis", "pelusium"), ("memphis", "atlantis")),
        battles=("pelusium", "atlantis"),
        title="Turn 2 (319 BC)",
    )
    svg = render_map_svg(pack, ov)
    ET.fromstring(svg)
    assert "Ptolemy 5" in svg and "Turn 2 (319 BC)" in svg and "Nobody 1" not in svg
    assert 'fill="#123456"' in svg
    assert svg.count('class="move"') == 1
    assert svg.count('class="battle"') == 1
    assert png_size(svg_to_png(svg, 600))[0] == 600


def test_empty_overlay_equals_no_overlay(pack: Pack) -> None:
    assert render_map_svg(pack, MapOverlay()) == render_map_svg(pack)


def test_space_names_do_not_overlap_and_army_boxes_leave_them_free(pack: Pack) -> None:
    """Map legibility (issue 13): the names are placed so that (almost) none covers
    another, and an army box leaves them free (issue 24: always; tests/report/
    test_map_legibility.py checks every box of random positions)."""
    from pbem.report.mapview import label_layout
    from pbem.report.placement import overlap

    layout = label_layout(pack)
    assert set(layout) == set(pack.spaces)
    boxes = list(layout.values())
    clashes = [(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1:] if overlap(a.box, b.box) > 4]
    assert len(clashes) <= len(boxes) // 40, clashes
    # an army on a lonely major city: its box leaves the city's name free
    sid = next(s for s, sp in pack.spaces.items() if sp.kind == "major_city")
    svg = render_map_svg(pack, MapOverlay(armies=((sid, "North", "Ptolemy 6"),)))
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    rect = next(g.find(f"{ns}rect") for g in root.iter(f"{ns}g") if g.get("class") == "army")
    box = (float(rect.get("x")), float(rect.get("y")),
           float(rect.get("x")) + float(rect.get("width")), float(rect.get("y")) + float(rect.get("height")))
    assert overlap(box, layout[sid].box) == 0


def test_a_seat_map_adds_a_zoom_on_its_forces(pack: Pack) -> None:
    """Issues 13 and 24: the mailed picture of a seat is the overview, its legend and,
    below, a fixed-scale zoom on the part of the map holding its armies and this turn's
    fronts, full width (so every name reads at mail size)."""
    from pbem.report.mapview import _Projection
    from pbem.report.overview import render_seat_map_svg, zoom_window

    ov = MapOverlay(armies=(("memphis", "south", "Ptolemy 6"), ("pella", "north", "Antipater 9")),
                    battles=("pelusium",), space_owner={"memphis": "south"}, seat_labels={"south": "south: Nearchos"})
    box = zoom_window(pack, ov, "south")
    assert box is not None
    proj = _Projection()
    x0, y0, x1, y1 = box
    for sid in ("memphis", "pelusium"):
        x, y = proj(pack.spaces[sid].lon, pack.spaces[sid].lat)
        assert x0 < x < x1 and y0 < y < y1
    px, py = proj(pack.spaces["pella"].lon, pack.spaces["pella"].lat)
    assert not (x0 < px < x1 and y0 < py < y1)  # another seat's army far away stays out
    assert (x1 - x0) < proj.width / 2  # a real zoom: names at least twice the overview's size
    svg = render_seat_map_svg(pack, ov, "south")
    root = ET.fromstring(svg)
    assert svg.count('class="inset"') == 1 and "Zoom: around south" in svg and "south: Nearchos" in svg
    alone = render_seat_map_svg(pack, ov, "south", zoom=False)
    assert png_size(svg_to_png(svg, 1000))[1] > png_size(svg_to_png(alone, 1000))[1] + 500
    assert root.tag.endswith("svg")
    # nothing of the seat on the map: the overview alone
    assert render_seat_map_svg(pack, ov, "west") == alone
