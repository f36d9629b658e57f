"""Entity value pools: surrogate names, cities and companies drawn from a seeded Faker, plus curated lists.

Pools are large (hundreds of values per type) so that an NER model cannot memorise the fillers: most test
values never occur in training. Every value is a list of plain alphabetic words that espeak reads as words
(accents folded to ASCII, no hyphens, apostrophes or abbreviations).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from pydeid.text.fold import fold

LOCALES = ["en_US", "en_GB", "de_DE", "fr_FR", "it_IT", "es_ES", "nl_NL", "sv_SE", "en_IE", "da_DK"]
# it_IT's city() draws from a set (order depends on PYTHONHASHSEED): names only from it_IT
CITY_LOCALES = [x for x in LOCALES if x != "it_IT"]
_WORD = re.compile(r"^[A-Z][a-z]{1,13}$")

# Real places and fairs, for realism next to Faker's invented town names.
REAL_CITIES = """Hanover Hamburg Berlin Munich Frankfurt Cologne Stuttgart Dresden Leipzig Bremen Essen Bonn Kiel
Mainz Nuremberg Heidelberg Freiburg Augsburg Rostock London Manchester Liverpool Leeds Glasgow Edinburgh Dublin
Bristol Oxford Cambridge Brighton Paris Lyon Marseille Toulouse Nice Bordeaux Lille Strasbourg Madrid Barcelona
Seville Valencia Bilbao Lisbon Porto Rome Milan Turin Naples Florence Venice Bologna Genoa Vienna Salzburg Graz
Zurich Geneva Basel Bern Amsterdam Rotterdam Utrecht Brussels Antwerp Ghent Copenhagen Stockholm Oslo Helsinki
Warsaw Krakow Prague Budapest Athens Istanbul Chicago Boston Denver Houston Seattle Atlanta Toronto Montreal
Vancouver Sydney Melbourne Tokyo Osaka Singapore Shanghai""".split()
MULTI_CITIES = [["New", "York"], ["San", "Francisco"], ["Los", "Angeles"], ["Bad", "Homburg"],
                ["Hong", "Kong"], ["Buenos", "Aires"], ["Saint", "Petersburg"], ["Tel", "Aviv"]]
COUNTRIES = """Germany France Spain Italy Portugal Austria Switzerland Belgium Holland Denmark Sweden Norway Finland
Poland Hungary Greece Turkey Ireland Scotland England Canada Mexico Brazil Argentina Japan China India Australia
Egypt Morocco""".split()
FAIRS = """Cebit Drupa Medica Interpack Bauma Ambiente Photokina Anuga Agritechnica Automechanika Electronica
Productronica Intersolar Biofach Inorgenta Ispo Analytica Didacta Compamed Laser Euroshop Heimtextil Tendence
Cemat Domotex Hannovermesse Fruitlogistica Intermodellbau""".split()
ORG_SUFFIX = """Systems Industries Consulting Group Software Electronics Logistics Partners Holding Motors Chemicals
Engineering Media Textiles Foods Pharma Instruments Robotics Optics Insurance Bank Publishing Travel Airlines
Construction Energy Solutions Technologies Trading Design Networks""".split()
ORG_WORDS = """Northwind Blue River Summit Alpine Silver Oak Pioneer Atlas Horizon Granite Cedar Falcon Orion
Meridian Harbor Crystal Evergreen Redwood Beacon Sterling Vertex Nova Polar Delta Zenith Aurora Cobalt Phoenix
Sunrise Lakeside Golden Eagle Westfield Eastgate Bridgewater Kingsley Lighthouse""".split()


def _words(value: str, max_words: int = 2) -> list[str] | None:
    w = fold(value).split()
    if not w or len(w) > max_words or not all(_WORD.match(x) for x in w):
        return None
    return w


@dataclass
class Pools:
    first_m: list[str]
    first_f: list[str]
    last: list[str]
    cities: list[list[str]]
    countries: list[str]
    companies: list[list[str]]
    fairs: list[str]


def _collect(gen, n: int, max_words: int = 1, tries: int = 20) -> list:
    out, seen = [], set()
    for _ in range(n * tries):
        w = _words(gen(), max_words)
        if w is None:
            continue
        key = " ".join(w)
        if key in seen:
            continue
        seen.add(key)
        out.append(w if max_words > 1 else w[0])
        if len(out) >= n:
            break
    return out


def build_pools(seed: int, n_names: int = 600, n_cities: int = 300, n_companies: int = 250) -> Pools:
    """Seeded entity pools (same seed -> same pools)."""
    from faker import Faker
    fk = Faker(LOCALES)
    fk.seed_instance(seed)
    rng = random.Random(f"pools-{seed}")

    def pick(method, locales=LOCALES):
        def g():
            loc = rng.choice(locales)
            return getattr(fk[loc], method)()
        return g

    first_m = _collect(pick("first_name_male"), n_names // 2)
    first_f = _collect(pick("first_name_female"), n_names // 2)
    last = _collect(pick("last_name"), n_names)
    cities = _collect(pick("city", CITY_LOCALES), n_cities, max_words=2)
    cities += [[c] for c in REAL_CITIES] + MULTI_CITIES
    companies: list[list[str]] = []
    for _ in range(n_companies):
        r = rng.random()
        if r < 0.4:
            companies.append([rng.choice(last), rng.choice(ORG_SUFFIX)])
        elif r < 0.65:
            companies.append([rng.choice(ORG_WORDS), rng.choice(ORG_SUFFIX)])
        elif r < 0.8:
            companies.append([rng.choice(last), "and", rng.choice(last)])
        elif r < 0.9:
            companies.append([rng.choice(ORG_WORDS), rng.choice(last), rng.choice(ORG_SUFFIX)])
        else:
            companies.append([rng.choice(last)])
    # de-duplicate, keep order
    seen, uniq = set(), []
    for c in companies:
        if " ".join(c) not in seen:
            seen.add(" ".join(c))
            uniq.append(c)
    return Pools(first_m, first_f, last, cities, list(COUNTRIES), uniq, list(FAIRS))
