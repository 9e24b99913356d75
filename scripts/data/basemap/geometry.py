"""Geometry for the offline basemap: simplification, rounding, and clipping to tiles.

Standard library only; the same input always gives the same output.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from natural_earth import contains, read_shape_file, signed_area  # noqa: E402


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


def rounded(points, decimals):
    """Rounds and drops points that became duplicates of their neighbour."""
    result = []
    for lon, lat in points:
        point = [round(lon, decimals), round(lat, decimals)]
        if decimals == 0:
            point = [int(point[0]), int(point[1])]
        if not result or result[-1] != point:
            result.append(point)
    return result


def polygons(path, tolerance, min_area):
    """Outer rings with their holes (lakes, in Natural Earth's land), simplified, as lists of
    rings of (lon, lat): outer counter-clockwise, holes clockwise, as GeoJSON wants."""
    found = []
    for parts in read_shape_file(path):
        outers, holes = [], []
        for part in parts:
            ring = simplify(part, tolerance)
            if len(ring) < 4 or abs(signed_area(ring)) < min_area:
                continue
            (outers if signed_area(ring) < 0 else holes).append(ring)
        shells = [[list(reversed(outer))] for outer in outers]
        for hole in holes:
            for shell in shells:
                if contains(shell[0], hole[0]):
                    shell.append(list(reversed(hole)))
                    break
        found.extend(shells)
    return found


def polylines(path, tolerance, keep=lambda record: True, records=None):
    """Every part of a polyline file whose record passes `keep`, simplified."""
    found = []
    for index, parts in enumerate(read_shape_file(path)):
        if records is not None and not keep(records[index]):
            continue
        for part in parts:
            line = simplify(part, tolerance)
            if len(line) >= 2:
                found.append(line)
    return found


def clip_ring(ring, box):
    """Sutherland-Hodgman: the part of a closed ring inside box (west, south, east, north)."""
    west, south, east, north = box
    edges = [
        (lambda p: p[0] >= west, lambda a, b: (west, a[1] + (b[1] - a[1]) * (west - a[0]) / (b[0] - a[0]))),
        (lambda p: p[0] <= east, lambda a, b: (east, a[1] + (b[1] - a[1]) * (east - a[0]) / (b[0] - a[0]))),
        (lambda p: p[1] >= south, lambda a, b: (a[0] + (b[0] - a[0]) * (south - a[1]) / (b[1] - a[1]), south)),
        (lambda p: p[1] <= north, lambda a, b: (a[0] + (b[0] - a[0]) * (north - a[1]) / (b[1] - a[1]), north)),
    ]
    points = ring[:-1] if len(ring) > 1 and ring[0] == ring[-1] else ring
    for inside, cross in edges:
        if not points:
            break
        result = []
        previous = points[-1]
        for point in points:
            if inside(point):
                if not inside(previous):
                    result.append(cross(previous, point))
                result.append(point)
            elif inside(previous):
                result.append(cross(previous, point))
            previous = point
        points = result
    return points + points[:1] if len(points) >= 3 else []


def clip_line(line, box):
    """The pieces of a polyline inside box, cutting each segment at the box's edges."""
    west, south, east, north = box
    pieces, current = [], []
    for a, b in zip(line, line[1:]):
        segment = clip_segment(a, b, box)
        if segment is None:
            if len(current) >= 2:
                pieces.append(current)
            current = []
            continue
        start, end = segment
        if current and current[-1] == start:
            current.append(end)
        else:
            if len(current) >= 2:
                pieces.append(current)
            current = [start, end]
    if len(current) >= 2:
        pieces.append(current)
    return pieces


def clip_segment(a, b, box):
    """Liang-Barsky: the part of segment a-b inside box, or None."""
    west, south, east, north = box
    (x0, y0), (x1, y1) = a, b
    dx, dy = x1 - x0, y1 - y0
    low, high = 0.0, 1.0
    for p, q in ((-dx, x0 - west), (dx, east - x0), (-dy, y0 - south), (dy, north - y0)):
        if p == 0:
            if q < 0:
                return None
            continue
        t = q / p
        if p < 0:
            low = max(low, t)
        else:
            high = min(high, t)
        if low > high:
            return None
    start = a if low == 0 else (x0 + low * dx, y0 + low * dy)
    end = b if high == 1 else (x0 + high * dx, y0 + high * dy)
    return tuple(start), tuple(end)


def bounds(points):
    lons = [p[0] for p in points]
    lats = [p[1] for p in points]
    return min(lons), min(lats), max(lons), max(lats)


def overlaps(a, b):
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]
