"""Builds the web client's offline basemap from Natural Earth shapefiles.

Usage: build.py <natural-earth-dir> <output.json>

Reads land polygons and country borders at 1:50m and first-level (state, province)
boundary lines at 1:10m, simplifies them for country-to-region zoom, rounds coordinates
and writes one compact GeoJSON FeatureCollection. Standard library only; the same input
always gives the same bytes.
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from natural_earth import contains, read_shape_file, signed_area  # noqa: E402

# About 1 km: finer than a pixel at the zoom levels the map allows without tiles.
DECIMALS = 2
LAND_TOLERANCE = 0.01
BORDER_TOLERANCE = 0.01
ADMIN1_TOLERANCE = 0.03
# Polygons smaller than this (square degrees) are specks below a pixel at country zoom.
MIN_RING_AREA = 0.0005


def simplify(points, tolerance):
    """Douglas-Peucker, iterative, keeping both ends."""
    if len(points) < 3:
        return points
    keep = [False] * len(points)
    keep[0] = keep[-1] = True
    stack = [(0, len(points) - 1)]
    while stack:
        first, last = stack.pop()
        (ax, ay), (bx, by) = points[first], points[last]
        dx, dy = bx - ax, by - ay
        length_sq = dx * dx + dy * dy
        farthest, index = -1.0, None
        for i in range(first + 1, last):
            px, py = points[i]
            if length_sq == 0:
                distance = (px - ax) ** 2 + (py - ay) ** 2
            else:
                t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length_sq))
                distance = (px - ax - t * dx) ** 2 + (py - ay - t * dy) ** 2
            if distance > farthest:
                farthest, index = distance, i
        if index is not None and farthest > tolerance * tolerance:
            keep[index] = True
            stack.append((first, index))
            stack.append((index, last))
    return [point for point, kept in zip(points, keep) if kept]


def rounded(points):
    """Rounds to DECIMALS and drops points that became duplicates of their neighbour."""
    result = []
    for lon, lat in points:
        point = [round(lon, DECIMALS), round(lat, DECIMALS)]
        if not result or result[-1] != point:
            result.append(point)
    return result


def land_polygons(path):
    """Outer rings with their holes, as GeoJSON polygon coordinate lists (outer CCW, holes CW)."""
    polygons = []
    for parts in read_shape_file(path):
        outers, holes = [], []
        for part in parts:
            ring = rounded(simplify(part, LAND_TOLERANCE))
            if len(ring) < 4 or abs(signed_area(ring)) < MIN_RING_AREA:
                continue
            (outers if signed_area(ring) < 0 else holes).append(ring)
        shells = [[list(reversed(outer))] for outer in outers]
        for hole in holes:
            for shell in shells:
                if contains(shell[0], hole[0]):
                    shell.append(list(reversed(hole)))
                    break
        polygons.extend(shells)
    return polygons


def lines(path, tolerance):
    """Every part of a polyline file, simplified and rounded."""
    result = []
    for parts in read_shape_file(path):
        for part in parts:
            line = rounded(simplify(part, tolerance))
            if len(line) >= 2:
                result.append(line)
    return result


def main(source, output):
    features = [
        {"type": "Feature", "properties": {"kind": "land"},
         "geometry": {"type": "MultiPolygon", "coordinates": land_polygons(f"{source}/50m/ne_50m_land.shp")}},
        {"type": "Feature", "properties": {"kind": "admin1"},
         "geometry": {"type": "MultiLineString",
                      "coordinates": lines(f"{source}/10m/ne_10m_admin_1_states_provinces_lines.shp", ADMIN1_TOLERANCE)}},
        {"type": "Feature", "properties": {"kind": "border"},
         "geometry": {"type": "MultiLineString",
                      "coordinates": lines(f"{source}/50m/ne_50m_admin_0_boundary_lines_land.shp", BORDER_TOLERANCE)}},
    ]
    collection = {
        "type": "FeatureCollection",
        "attribution": "Made with Natural Earth. Free vector and raster map data @ naturalearthdata.com.",
        "features": features,
    }
    with open(output, "w", encoding="utf-8") as file:
        json.dump(collection, file, separators=(",", ":"))
        file.write("\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
