"""Readers for the Natural Earth shapefiles the data builds use (standard library only).

Shared by `make geodata` (scripts/data/geodata) and `make basemap` (scripts/data/basemap).
"""
import struct


def read_shapes(data):
    """Yields each record's parts (lists of (lon, lat)) from the bytes of a polygon or polyline .shp file."""
    offset = 100
    while offset < len(data):
        _, words = struct.unpack(">ii", data[offset:offset + 8])
        content = data[offset + 8:offset + 8 + words * 2]
        offset += 8 + words * 2
        (shape_type,) = struct.unpack("<i", content[:4])
        if shape_type == 0:
            yield []
            continue
        if shape_type not in (3, 5):
            raise ValueError(f"shape type {shape_type} is not a polyline or polygon")
        part_count, point_count = struct.unpack("<ii", content[36:44])
        starts = list(struct.unpack(f"<{part_count}i", content[44:44 + 4 * part_count]))
        base = 44 + 4 * part_count
        flat = struct.unpack(f"<{2 * point_count}d", content[base:base + 16 * point_count])
        points = list(zip(flat[0::2], flat[1::2]))
        ends = starts[1:] + [point_count]
        yield [points[start:end] for start, end in zip(starts, ends)]


def read_shape_file(path):
    with open(path, "rb") as file:
        return list(read_shapes(file.read()))


def read_dbf(data):
    """The records of a .dbf file's bytes, as dicts of stripped text."""
    count, header_length, record_length = struct.unpack("<IHH", data[4:12])
    fields, offset = [], 32
    while data[offset] != 0x0D:
        descriptor = data[offset:offset + 32]
        fields.append((descriptor[:11].split(b"\0")[0].decode(), descriptor[16]))
        offset += 32
    records = []
    for index in range(count):
        start = header_length + index * record_length + 1
        record = {}
        for name, length in fields:
            record[name] = text(data[start:start + length]).replace("\0", "").strip()
            start += length
        records.append(record)
    return records


def text(raw):
    """A field's text: UTF-8, or Windows-1252 where a file is older (populated places: "København")."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("cp1252", "replace")


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
