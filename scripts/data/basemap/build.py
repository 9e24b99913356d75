"""Builds the web client's offline basemap: geometry by zoom level and place, names by language.

Usage: build.py <natural-earth-dir> <output-dir> <gazetteer-dir>

Output (all JSON; the web client loads what the view needs):
  index.json               what exists: detail tiles, languages, the zoom where detail starts
  world.json               zoom below 4: 1:110m land (lakes are holes), borders, rivers, big cities
  detail/<x>-<y>.json      zoom 4 and up, one per 15° square with land: 1:50m land, borders and
                           rivers, 1:10m first-level boundaries, the other cities
  labels/<lang>/countries.json, labels/<lang>/regions.json   names in one language
  labels/<lang>/cities.json  [lon, lat, name]: the cities whose name in this language differs
Geometry files are GeoJSON FeatureCollections (feature kinds land, border, admin1, river) with a
"cities" list: [lon, lat, min zoom, name, capital]. Label lists are [lon, lat, min zoom, name].
The same input always gives the same bytes.
"""
import json
import os
import shutil
import sys
import zipfile

import geometry
import labels

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from natural_earth import read_dbf  # noqa: E402

TILE = 15
DETAIL_FROM_ZOOM = 4
# Degrees by which a square's land overlaps its neighbours' (about 2 km; see the detail loop).
LAND_OVERLAP = 0.02
ATTRIBUTION = "Made with Natural Earth. Free vector and raster map data @ naturalearthdata.com."


def write(path, value):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as file:
        json.dump(value, file, separators=(",", ":"), ensure_ascii=False)
        file.write("\n")


def collection(features, cities):
    return {"type": "FeatureCollection", "attribution": ATTRIBUTION, "features": features, "cities": cities}


def multipolygon(kind, rings_list, decimals):
    polygons = [[geometry.rounded(ring, decimals) for ring in polygon] for polygon in rings_list]
    polygons = [[ring for ring in polygon if len(ring) >= 4] for polygon in polygons]
    return {"type": "Feature", "properties": {"kind": kind},
            "geometry": {"type": "MultiPolygon", "coordinates": [p for p in polygons if p]}}


def multiline(kind, lines, decimals):
    lines = [geometry.rounded(line, decimals) for line in lines]
    return {"type": "Feature", "properties": {"kind": kind},
            "geometry": {"type": "MultiLineString", "coordinates": [line for line in lines if len(line) >= 2]}}


def records(path):
    with open(path, "rb") as file:
        return read_dbf(file.read())


def clipped_polygons(polygons, box):
    """Each polygon's part inside the box (outer and holes clipped alike)."""
    result = []
    for polygon in polygons:
        if not geometry.overlaps(geometry.bounds(polygon[0]), box):
            continue
        outer = geometry.clip_ring(polygon[0], box)
        if not outer:
            continue
        holes = [clipped for clipped in (geometry.clip_ring(hole, box) for hole in polygon[1:]) if clipped]
        result.append([outer, *holes])
    return result


def clipped_lines(lines, box):
    return [piece for line in lines if geometry.overlaps(geometry.bounds(line), box)
            for piece in geometry.clip_line(line, box)]


def main(source, output, gazetteer):
    ne = lambda scale, name: os.path.join(source, scale, f"ne_{scale}_{name}")  # noqa: E731
    places = records(ne("10m", "populated_places_simple") + ".dbf")
    city_labels = labels.cities(places)

    for folder in ("detail", "labels"):
        shutil.rmtree(os.path.join(output, folder), ignore_errors=True)
    stale = os.path.join(output, "natural-earth.json")
    if os.path.exists(stale):
        os.remove(stale)

    # The world at a glance: what the first paint needs.
    world = [
        multipolygon("land", geometry.polygons(ne("110m", "land") + ".shp", 0.05, 0.05), 2),
        multiline("border", geometry.polylines(ne("110m", "admin_0_boundary_lines_land") + ".shp", 0.05), 2),
        multiline("river", geometry.polylines(ne("110m", "rivers_lake_centerlines") + ".shp", 0.05), 2),
    ]
    write(os.path.join(output, "world.json"),
          collection(world, [c for c in city_labels if c[2] < DETAIL_FROM_ZOOM]))

    # Detail by 15° square.
    land = geometry.polygons(ne("50m", "land") + ".shp", 0.01, 0.0005)
    borders = geometry.polylines(ne("50m", "admin_0_boundary_lines_land") + ".shp", 0.01)
    admin1 = geometry.polylines(ne("10m", "admin_1_states_provinces_lines") + ".shp", 0.02)
    rivers = geometry.polylines(ne("50m", "rivers_lake_centerlines") + ".shp", 0.01)
    tiles = []
    for x in range(360 // TILE):
        for y in range(180 // TILE):
            west, north = -180 + x * TILE, 90 - y * TILE
            box = (west, north - TILE, west + TILE, north)
            # Land reaches a little past the square: two squares' land overlaps instead of meeting
            # edge to edge, where anti-aliasing would leave a hairline of sea between them.
            tile_land = clipped_polygons(land, (box[0] - LAND_OVERLAP, box[1] - LAND_OVERLAP,
                                                box[2] + LAND_OVERLAP, box[3] + LAND_OVERLAP))
            if not tile_land:
                continue
            features = [multipolygon("land", tile_land, 2),
                        multiline("border", clipped_lines(borders, box), 2),
                        multiline("admin1", clipped_lines(admin1, box), 2),
                        multiline("river", clipped_lines(rivers, box), 2)]
            cities = [c for c in city_labels if c[2] >= DETAIL_FROM_ZOOM
                      and box[0] <= c[0] < box[2] and box[1] <= c[1] < box[3]]
            write(os.path.join(output, "detail", f"{x}-{y}.json"), collection(features, cities))
            tiles.append(f"{x}-{y}")

    # Names by language.
    with zipfile.ZipFile(labels.countries_zip()) as archive:
        country_records = read_dbf(archive.read("ne_10m_admin_0_countries_deu.dbf"))
    region_rows = labels.read_regions(os.path.join(gazetteer, "admin1.tsv.gz"))
    unit_names = labels.subdivisions.natural_earth_names(
        records(ne("10m", "admin_1_states_provinces_lines") + ".dbf"),
        {r["ADM0_A3"]: r["ISO_A2_EH"] for r in country_records if len(r["ISO_A2_EH"]) == 2})
    region_names = labels.RegionNames(region_rows, unit_names)
    city_names = labels.CityNames(places)
    for language in labels.LANGUAGES:
        write(os.path.join(output, "labels", language, "countries.json"), labels.countries(country_records, language))
        write(os.path.join(output, "labels", language, "regions.json"), labels.regions(region_rows, region_names, language))
        write(os.path.join(output, "labels", language, "cities.json"), city_names.names(language))

    write(os.path.join(output, "index.json"), {
        "attribution": ATTRIBUTION, "tileDegrees": TILE, "detailFromZoom": DETAIL_FROM_ZOOM,
        "tiles": tiles, "languages": labels.LANGUAGES,
    })


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3])
