"""Span edges: a detected span neither begins nor ends with a function word unless the word is part of the name.

The rule (applied last, to every detector's span; docs/detection.md):
- a function word ("the", "a", "of", "in", "over", "and", "at", "for", "on", "to" ...) at the END of a span leaves
  it;
- at the START it leaves it too, except "the": the article of a date or time stays ("the day after tomorrow", "the
  afternoon": the mini corpus's gold counts it, and in voice-assistant commands the `article` filter already takes
  it off), and the "the" of a place whose name begins with it in the gazetteer ("The Hague", "the Bronx", "the
  Netherlands") or of a capitalised "The" inside a sentence before an organisation or place ("a table at The Pump
  Room") stays; "the" before any other name leaves it; spans a tagger trained on the corpus found (flair) keep the
  convention it learned;
- a relative date or a duration is kept whole without its preposition ("for two hours" -> "two hours", "over the
  weekend" -> "the weekend", "the day after tomorrow" stays whole), except the "in" of "in a month", "in two
  hours": it is what makes a duration a date (a month from now), and SNIPS's gold counts it. They keep the types
  DATE (days and longer) and TIME (parts of a day, hours) the detectors give: no new sub-type, since a surrogate
  date or time replaces them as well;
- a party size is a count, not a time: "a table for two at noon" -> TIME "noon" (a bare count after "for", "of" or
  "party", alone or before "at"/"on", in a sentence about a booking, is dropped from a DATE/TIME span).
Inner function words stay ("Bank of England", "the end of the month").
"""

from __future__ import annotations

import functools
import re
from typing import Sequence

from .spans import Span

FUNCTION_WORDS = {"the", "a", "an", "of", "in", "over", "and", "at", "for", "on", "to", "or", "by", "from", "with",
                  "into", "during", "within", "around", "about", "as", "but", "so", "um", "uh", "er", "erm", "like",
                  "than", "until", "till", "through", "throughout", "upon", "across", "via", ",", ";", ":", "-"}
_UNITS = {"second", "seconds", "minute", "minutes", "min", "mins", "hour", "hours", "hr", "hrs", "day", "days",
          "week", "weeks", "fortnight", "fortnights", "month", "months", "year", "years", "decade", "decades",
          "quarter", "half"}   # "a quarter past ten", "a half hour"
_COUNT_WORDS = {"one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
                "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"}
_AMOUNT_WORDS = _COUNT_WORDS | {"a", "an", "couple", "few", "several", "half", "of", "and", "thirty", "forty", "fifty",
                                "sixty", "ninety", "hundred", "next", "coming", "more"}
_SCALE_WORDS = {"hundred", "thousand", "million", "billion", "grand", "dozen"}
_PARTY_CUES = {"for", "of", "party"}
_BOOKING = {"table", "tables", "reservation", "reservations", "reserve", "book", "booking", "party", "seats", "seat",
            "people", "persons", "guests"}


_ORDINAL_WORDS = {"first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
                  "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth",
                  "eighteenth", "nineteenth", "twentieth", "thirtieth"}


def _ordinal(tok: str) -> bool:
    low = tok.lower()
    return low in _ORDINAL_WORDS or low.split("-")[-1] in _ORDINAL_WORDS or bool(re.fullmatch(r"\d{1,2}(st|nd|rd|th)",
                                                                                                    low))


_LOWER_TITLES = {"mr", "mrs", "ms", "miss", "dr", "mister", "misses", "missus", "doctor", "professor"}


def _is_title(tokens: Sequence[str], i: int) -> bool:
    from .gazetteer import NAME_TITLES
    t = tokens[i]
    return t in NAME_TITLES or t in ("Doctor", "Professor", "Prof", "Prof.") or t in _LOWER_TITLES


@functools.lru_cache(maxsize=1)
def _the_places() -> frozenset:
    """Lower-cased place names that begin with "the" ("the hague", "the bronx"), from the gazetteer."""
    try:
        from .gazetteer import place_names
        return frozenset(k for k in place_names()[0] if k[0] == "the")
    except ImportError:
        return frozenset({("the", "hague"), ("the", "bronx"), ("the", "netherlands")})


def _count(tok: str) -> bool:
    low = tok.lower()
    return low in _COUNT_WORDS or (low.isdigit() and len(low) <= 2)


def _duration(low: Sequence[str], i: int, end: int) -> bool:
    """low[i:end] begins with an amount of time ("a month", "two hours", "a couple of days", "half an hour")."""
    j = i
    while j < end and (low[j] in _AMOUNT_WORDS or low[j].isdigit()):
        j += 1
    return j > i and j < end and low[j] in _UNITS


def _keeps_the(tokens: Sequence[str], low: Sequence[str], s: Span) -> bool:
    if "flair" in s.detectors:
        return True
    if s.type in ("ORG", "LOC") and tokens[s.start] == "The" and s.start > 0:
        return True                                   # "a table at The Pump Room" (_mend_edges joined it)
    if s.type == "DATE" and s.end - s.start > 1:
        if _ordinal(tokens[s.start + 1]):
            return True                               # "on the fifth"
    names = _the_places()
    return any(tuple(low[s.start:s.start + n]) in names for n in range(2, min(5, s.end - s.start) + 1))


def trim_edges(tokens: Sequence[str], spans: list[Span]) -> list[Span]:
    """The spans with the function words at their edges removed (the rule above); a span left empty is dropped."""
    # a state code "IN", "OR" is no function word; lower-case text has none
    low = [t.lower() if not (len(t) > 1 and t.isupper()) else t for t in tokens]
    spans = _join_preposition(low, sorted(spans, key=lambda s: s.start))
    out: list[Span] = []
    for k, s in enumerate(spans):
        a, b = s.start, s.end
        # only the outer edges of touching spans of one kind are edges ("the first of" + "November": one date)
        glued_left = k > 0 and _same_kind(spans[k - 1], s) and spans[k - 1].end == s.start
        glued_right = k + 1 < len(spans) and _same_kind(s, spans[k + 1]) and spans[k + 1].start == s.end
        while b > a and not glued_right and low[b - 1] in FUNCTION_WORDS:
            b -= 1
        while a < b and not glued_left and low[a] in FUNCTION_WORDS:
            if low[a] == "the" and (s.type in ("DATE", "TIME") and b > a + 1 or
                                    _keeps_the(tokens, low, Span(a, b, s.type, s.detectors))):
                break
            if low[a] in ("a", "an") and a + 1 < b and low[a + 1] in _SCALE_WORDS:
                break                        # "a thousand pounds", "a hundred euros": the "a" is the number one
            if s.type in ("DATE", "TIME") and (low[a] in ("a", "an") and _duration(low, a, b) or
                                               low[a] == "in" and _duration(low, a + 1, b)):
                break
            a += 1
        if s.type in ("DATE", "TIME"):
            a, b = _drop_party_size(low, a, b) if _BOOKING.intersection(low) else (a, b)
        if b > a:
            out.append(Span(a, b, s.type, set(s.detectors)) if (a, b) != (s.start, s.end) else s)
    return out


def _same_kind(p: Span, s: Span) -> bool:
    return p.type == s.type or {p.type, s.type} == {"DATE", "TIME"}


def _join_preposition(low: Sequence[str], spans: list[Span]) -> list[Span]:
    """A span made only of function words right before another of the same type is its preposition or article
    (one detector took "in" or "the", another "three days" or "hague"), a person span made only of a form of
    address right before another person span is its title ("Mr" + "D ."): they become one span, trimmed next."""
    out: list[Span] = []
    for s in spans:
        p = out[-1] if out else None
        if p is not None and p.end == s.start and p.type == s.type and (
                all(w in FUNCTION_WORDS for w in low[p.start:p.end]) or
                s.type == "PER" and all(_is_title(low, i) for i in range(p.start, p.end))):   # "Mr" + "D ."
            out[-1] = Span(p.start, s.end, s.type, p.detectors | s.detectors)
            continue
        out.append(s)
    return out


def _drop_party_size(low: Sequence[str], a: int, b: int) -> tuple[int, int]:
    """'for two at noon' -> 'noon'; a span that is only 'two' after 'for' -> empty."""
    if a < b and _count(low[a]) and a > 0 and low[a - 1] in _PARTY_CUES:
        if b == a + 1:
            return a, a
        if low[a + 1] in ("at", "on", ",") and a + 2 < b:
            return a + 2, b
    return a, b
