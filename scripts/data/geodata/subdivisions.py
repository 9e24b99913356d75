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
    """{country: [(short code, {names in every language}, {its official name's forms})]} for
    subdivisions without a parent."""
    translations = catalogues("iso3166-2")
    result = collections.defaultdict(list)
    for sub in sorted(pycountry.subdivisions, key=lambda s: s.code):
        if getattr(sub, "parent_code", None):
            continue
        names = {sub.name} | {t.gettext(sub.name) for t in translations}
        names = {variant for name in names if name for variant in variants(name)}
        result[sub.country_code].append((sub.code.split("-", 1)[1], names, variants(sub.name)))
    return result


# Type words written as suffixes in Chinese, Japanese and Korean names ("新疆维吾尔自治区" is typed
# "新疆", "제주특별자치도" is "제주도" or "제주"), longest first.
CJK_SUFFIXES = sorted(["维吾尔自治区", "維吾爾自治區", "壮族自治区", "壯族自治區", "回族自治区", "回族自治區", "自治区", "自治區",
                       "特别行政区", "特別行政區", "省", "市", "県", "府", "都", "道",
                       "特別自治道", "特别自治道", "특별자치도", "특별자치시", "광역시", "특별시", "도"], key=len, reverse=True)


def is_cjk(character):
    """Han, kana or hangul."""
    code = ord(character)
    return 0x3040 <= code <= 0x30FF or 0x3400 <= code <= 0x9FFF or 0xAC00 <= code <= 0xD7AF or 0xF900 <= code <= 0xFAFF


def variants(name):
    """A name as written and the forms people type: both halves of ISO's "Catalunya [Cataluña]",
    and CJK names without their type suffix (a Korean province also with 도 after the bare name)."""
    found = {name}
    if "[" in name and name.endswith("]"):
        first, second = name[:-1].split("[", 1)
        found |= {first.strip(), second.strip()}
    if " " in name and all(is_cjk(c) for c in name.replace(" ", "")):
        found |= set(name.split())   # "新疆維吾爾自治區 新疆维吾尔自治区": traditional and simplified
    for form in list(found):
        for suffix in CJK_SUFFIXES:
            if form.endswith(suffix) and len(form) > len(suffix) + 1 and not form.isascii():
                bare = form[:-len(suffix)]
                found.add(bare)
                if suffix.endswith("도"):
                    found.add(bare + "도")
                break
    return {form for form in found if form}


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
    """{(country, admin1 code): (ISO short code, official names, other names)} for the regions
    [(country, code, name)] that join; other names include those of the Natural Earth unit of the
    same name."""
    subdivisions = subdivision_names()
    joined = {}
    for country, code, name in regions:
        candidates = subdivisions.get(country, [])
        wanted = keys(name)
        units = [unit for unit in unit_names.get(country, []) if any(wanted & keys(n) for n in unit)]
        # Several units naming the region among their alternates are its parts (Italy's provinces
        # list their region: "Tuscany|Toscane|Toskana"): the names they share are the region's.
        unit = set.intersection(*units) if units else set()
        for other in unit:
            wanted |= keys(other)
        # The subdivision most of whose names agree: one translation calls Tibet "Xinjiang".
        scored = sorted(((sum(1 for n in c[1] if wanted & keys(n)), c) for c in candidates), key=lambda p: -p[0])
        match = scored[0][1] if scored and scored[0][0] > 0 and (len(scored) == 1 or scored[1][0] < scored[0][0]) else None
        if match is None and code.isalpha():   # numeric codes differ between the two ("05" in SA)
            match = next((c for c in candidates if c[0] == code), None)
        if match or unit:
            joined[(country, code)] = (match[0] if match else None, match[2] if match else set(),
                                       (match[1] if match else set()) | unit)
    return joined
