"""Builds the web client's offline basemap from Natural Earth shapefiles.

Usage: build.py <natural-earth-dir> <output.json>

Reads land polygons and country borders at 1:50m and first-level (state, province)
boundary lines at 1:10m, simplifies them for country-to-region zoom, rounds coordinates
and writes one compact GeoJSON FeatureCollection. Standard library only; the same input
always gives the same bytes.
"""
import json
import struct
import sys

# About 1 km: finer than a pixel at the zoom levels the map allows without tiles.
DECIMALS = 2
LAND_TOLERANCE = 0.01
BORDER_TOLERANCE = 0.01
ADMIN1_TOLERANCE = 0.03
# Polygons smaller than this (square degrees) are specks below a pixel at country zoom.
MIN_RING_AREA = 0.0005


def read_shapes(path):
    """Yields each record's parts (lists of (lon, lat)) from a polygon or polyline .shp file."""
    with open(path, "rb") as file:
        data = file.read()
    offset = 100
    while offset < len(data):
        _, words = struct.unpack(">ii", data[offset:offset + 8])
        content = data[offset + 8:offset + 8 + words * 2]
        offset += 8 + words * 2
        (shape_type,) = struct.unpack("<i", content[:4])
        if shape_type == 0:
            continue
        if shape_type not in (3, 5):
            raise ValueError(f"{path}: shape type {shape_type} is not a polyline or polygon")
        part_count, point_count = struct.unpack("<ii", content[36:44])
        starts = list(struct.unpack(f"<{part_count}i", content[44:44 + 4 * part_count]))
        base = 44 + 4 * part_count
        points = [struct.unpack("<dd", content[base + 16 * i:base + 16 * i + 16]) for i in range(point_count)]
        ends = starts[1:] + [point_count]
        yield [points[start:end] for start, end in zip(starts, ends)]


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


def signed_area(ring):
    """Shoelace area: negative for clockwise rings, which shapefiles use for outer rings."""
    return sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in zip(ring, ring[1:] + ring[:1])) / 2


def contains(ring, point):
    """Even-odd point-in-polygon test."""
    x, y = point
    inside = False
    for (x1, y1), (x2, y2) in zip(ring, ring[1:] + ring[:1]):
        if (y1 > y) != (y2 > y) and x < (x2 - x1) * (y - y1) / (y2 - y1) + x1:
            inside = not inside
    return inside


def land_polygons(path):
    """Outer rings with their holes, as GeoJSON polygon coordinate lists (outer CCW, holes CW)."""
    polygons = []
    for parts in read_shapes(path):
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
    for parts in read_shapes(path):
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
