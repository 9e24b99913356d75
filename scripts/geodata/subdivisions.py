"""ISO 3166-2 first-level subdivisions joined to GeoNames admin1 regions, with their names in
every language iso-codes translates them into (pycountry ships iso-codes' catalogues), and the
names Natural Earth gives the same unit.

GeoNames and ISO name regions differently ("Bavaria" / "Bayern", "Anhui" / "Anhui Sheng"), and
GeoNames' admin1 codes are ISO codes only in some countries (US, GB, CH; numeric codes never
agree). A region joins the one subdivision that answers to its name in some language, with type
words ("Sheng", "Province", "Oblast'") set aside, else the one whose letter code is its own code.
"""
import collections
import gettext
import os
import unicodedata

import pycountry

TYPE_WORDS = {
    "province", "provincia", "region", "state", "sheng", "shi", "zizhiqu", "ken", "to", "fu", "do", "oblast",
    "kray", "krai", "respublika", "republic", "governorate", "district", "department", "departement",
    "departamento", "county", "prefecture", "municipality", "canton", "voivodeship", "wojewodztwo",
    "autonomous", "community", "special", "administrative", "capital", "territory", "city", "of", "the",
    "muhafazat", "ostan", "il", "eyalet", "wilayah", "wilaya", "emirate", "parish", "comunidad", "autonoma",
}


def fold(text):
    text = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in text if c.isalnum() or c == " ").split()


def keys(name):
    """A name's join keys: all its words, and its words without type words."""
    words = fold(name)
    core = [w for w in words if w not in TYPE_WORDS]
    return {"".join(words), "".join(core)} - {""}


def catalogues(domain):
    locales = os.path.join(os.path.dirname(pycountry.__file__), "locales")
    found = []
    for language in sorted(os.listdir(locales)):
        path = os.path.join(locales, language, "LC_MESSAGES", f"{domain}.mo")
        if os.path.exists(path):
            with open(path, "rb") as file:
                found.append(gettext.GNUTranslations(file))
    return found


def subdivision_names():
    """{country: [(short code, {names in every language})]} for subdivisions without a parent."""
    translations = catalogues("iso3166-2")
    result = collections.defaultdict(list)
    for sub in sorted(pycountry.subdivisions, key=lambda s: s.code):
        if getattr(sub, "parent_code", None):
            continue
        names = {sub.name} | {t.gettext(sub.name) for t in translations}
        result[sub.country_code].append((sub.code.split("-", 1)[1], {n for n in names if n}))
    return result


def natural_earth_names(line_records, country_of_a3):
    """{country: [{names of one admin-1 unit}]} from the name fields on each side of Natural Earth's
    admin-1 lines: its name, English and other alternates, and its name in the local script
    ("Niedersachsen", "Lower Saxony"; "Sverdlovsk", "Свердловская область")."""
    units = collections.defaultdict(set)
    for record in line_records:
        country = country_of_a3.get(record["adm0_a3"])
        for side in ("l", "r"):
            name = record[f"name_{side}"]
            if country and name:
                others = record[f"name_alt_{side}"].split("|") + [record[f"name_loc_{side}"]]
                units[(country, name)].update({name, *(o.strip() for o in others if o.strip())})
    result = collections.defaultdict(list)
    for (country, _), names in sorted(units.items()):
        result[country].append(names)
    return result


def join(regions, unit_names):
    """{(country, admin1 code): (ISO short code, names)} for the regions [(country, code, name)] that
    join, the names including those of the Natural Earth unit of the same name."""
    subdivisions = subdivision_names()
    joined = {}
    for country, code, name in regions:
        candidates = subdivisions.get(country, [])
        wanted = keys(name)
        units = [unit for unit in unit_names.get(country, []) if any(wanted & keys(n) for n in unit)]
        unit = units[0] if len(units) == 1 else set()
        for other in unit:
            wanted |= keys(other)
        matches = [c for c in candidates if any(wanted & keys(n) for n in c[1])]
        match = matches[0] if len(matches) == 1 else None
        if match is None and code.isalpha():   # numeric codes differ between the two ("05" in SA)
            match = next((c for c in candidates if c[0] == code), None)
        if match or unit:
            joined[(country, code)] = (match[0] if match else None, (match[1] if match else set()) | unit)
    return joined
