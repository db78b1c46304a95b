"""One-off: build pbem/data/successors/land.geojson from Natural Earth (public domain).

The land outline behind the map picture (pbem.report.mapview). Natural Earth's 1:110m
countries ship inside the geopandas 0.14.x wheel; this script reads that shapefile with
pyshp (a tool-only dependency, not a runtime one), clips every ring to the map's bounding
box, simplifies it (Douglas-Peucker) and writes a small GeoJSON MultiPolygon.

    pip download geopandas==0.14.4 --no-deps -d /tmp/gp
    cd /tmp/gp && unzip geopandas-0.14.4-py3-none-any.whl 'geopandas/datasets/naturalearth_lowres/*'
    pip install pyshp
    python tools/build_land_outline.py /tmp/gp/geopandas/datasets/naturalearth_lowres/naturalearth_lowres.shp
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

BBOX = (14.0, 21.0, 78.0, 47.5)  # lon_min, lat_min, lon_max, lat_max
TOLERANCE = 0.08  # degrees
OUT = Path(__file__).resolve().parents[1] / "pbem" / "data" / "successors" / "land.geojson"

Point = tuple[float, float]


def clip_ring(ring: list[Point], bbox: tuple[float, float, float, float]) -> list[Point]:
    """Sutherland-Hodgman clip of a closed ring against an axis-aligned box."""
    x0, y0, x1, y1 = bbox
    edges = [
        (lambda p: p[0] >= x0, lambda a, b: _cross_x(a, b, x0)),
        (lambda p: p[0] <= x1, lambda a, b: _cross_x(a, b, x1)),
        (lambda p: p[1] >= y0, lambda a, b: _cross_y(a, b, y0)),
        (lambda p: p[1] <= y1, lambda a, b: _cross_y(a, b, y1)),
    ]
    pts = ring[:-1] if ring and ring[0] == ring[-1] else ring
    for inside, cross in edges:
        if not pts:
            break
        out: list[Point] = []
        prev = pts[-1]
        for cur in pts:
            if inside(cur):
                if not inside(prev):
                    out.append(cross(prev, cur))
                out.append(cur)
            elif inside(prev):
                out.append(cross(prev, cur))
            prev = cur
        pts = out
    return pts


def _cross_x(a: Point, b: Point, x: float) -> Point:
    t = (x - a[0]) / (b[0] - a[0])
    return (x, a[1] + t * (b[1] - a[1]))


def _cross_y(a: Point, b: Point, y: float) -> Point:
    t = (y - a[1]) / (b[1] - a[1])
    return (a[0] + t * (b[0] - a[0]), y)


def simplify(pts: list[Point], tol: float) -> list[Point]:
    """Douglas-Peucker on an open polyline."""
    if len(pts) < 3:
        return pts
    (ax, ay), (bx, by) = pts[0], pts[-1]
    dx, dy = bx - ax, by - ay
    norm = (dx * dx + dy * dy) ** 0.5 or 1e-12
    best, idx = -1.0, 0
    for i in range(1, len(pts) - 1):
        px, py = pts[i]
        if dx == 0 and dy == 0:  # closed ring: distance to the shared end point
            d = ((px - ax) ** 2 + (py - ay) ** 2) ** 0.5
        else:
            d = abs(dy * px - dx * py + bx * ay - by * ax) / norm
        if d > best:
            best, idx = d, i
    if best <= tol:
        return [pts[0], pts[-1]]
    return simplify(pts[: idx + 1], tol)[:-1] + simplify(pts[idx:], tol)


def main(shp: str) -> None:
    import shapefile  # pyshp

    polys: list[list[list[list[float]]]] = []
    for shape in shapefile.Reader(shp).shapes():
        parts = list(shape.parts) + [len(shape.points)]
        for i in range(len(parts) - 1):
            ring = [tuple(p) for p in shape.points[parts[i]:parts[i + 1]]]
            clipped = clip_ring(ring, BBOX)
            if len(clipped) < 3:
                continue
            simple = simplify(clipped + [clipped[0]], TOLERANCE)
            coords = [[round(x, 2), round(y, 2)] for x, y in simple]
            if len(coords) >= 4:
                polys.append([coords])
    doc = {
        "type": "FeatureCollection",
        "features": [{
            "type": "Feature",
            "properties": {"source": "Natural Earth 1:110m countries (public domain), "
                           "clipped and simplified by tools/build_land_outline.py"},
            "geometry": {"type": "MultiPolygon", "coordinates": polys},
        }],
    }
    OUT.write_text(json.dumps(doc, separators=(",", ":")), encoding="utf-8")
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes, {len(polys)} polygons)")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else
         "/tmp/gp/geopandas/datasets/naturalearth_lowres/naturalearth_lowres.shp")
