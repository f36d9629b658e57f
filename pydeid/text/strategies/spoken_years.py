"""Spoken years redrawn as whole years: "nineteen ninety four" -> "nineteen eighty seven", "twenty twenty one" ->
"twenty fifteen", "two thousand and five" -> "two thousand and eleven", "May of ninety five" -> "May of eighty
eight". Redrawn word by word, a spoken year became "sixty eighty seven" or "eighteen seventy eight" for 1994: no
year at all, or one of another era, which a reader (and a discriminator) notices. The new year lies near the
original, spoken in the original's style, and holds no word of the original ("nineteen ninety four" -> "two
thousand two", not "nineteen eighty seven": the leak rule of every surrogate)."""

from __future__ import annotations

from typing import Sequence

from ..lexicon import DIGIT_CLASS, DIGIT_WORDS, MONTHS, TEEN_CLASS, TEEN_WORDS, TENS_CLASS, TENS_WORDS
from ..wordforms import match_case

_CENTURIES = {"eighteen": 18, "nineteen": 19, "twenty": 20}
_ZERO = ("oh", "o")


def _two_digits(low: Sequence[str], i: int) -> tuple[int, int] | None:
    """(value 10-99, words used) of a spoken two-digit number at i: a teen, or a tens word and a digit."""
    if i >= len(low):
        return None
    w = low[i]
    if w in TEEN_WORDS:
        return TEEN_WORDS[w], 1
    if w in TENS_WORDS:
        if i + 1 < len(low) and low[i + 1] in DIGIT_WORDS and DIGIT_WORDS[low[i + 1]] > 0 and low[i + 1] not in _ZERO:
            return TENS_WORDS[w] + DIGIT_WORDS[low[i + 1]], 2
        return TENS_WORDS[w], 1
    return None


def _at(low: Sequence[str], i: int, month_before: bool):
    """(year, end, style) of a spoken year starting at i, or None."""
    w = low[i]
    if w in _CENTURIES and i + 1 < len(low):
        c, nxt = _CENTURIES[w], low[i + 1]
        if nxt == "hundred":
            return c * 100, i + 2, "century"
        if nxt in _ZERO and i + 2 < len(low) and low[i + 2] in DIGIT_WORDS and DIGIT_WORDS[low[i + 2]] > 0:
            return c * 100 + DIGIT_WORDS[low[i + 2]], i + 3, "century"
        two = _two_digits(low, i + 1)
        if two and (i + 1 + two[1] >= len(low) or low[i + 1 + two[1]] not in DIGIT_WORDS):
            return c * 100 + two[0], i + 1 + two[1], "century"
    if w == "two" and i + 1 < len(low) and low[i + 1] == "thousand":
        j = i + 2
        if j < len(low) and low[j] == "and":
            j += 1
        two = _two_digits(low, j)
        if two:
            return 2000 + two[0], j + two[1], "thousand"
        if j < len(low) and low[j] in DIGIT_WORDS and DIGIT_WORDS[low[j]] > 0:
            return 2000 + DIGIT_WORDS[low[j]], j + 1, "thousand"
        return 2000, i + 2, "thousand"
    if month_before and i > 0 and low[i - 1] in ("of", "in") and w in TENS_WORDS:
        two = _two_digits(low, i)
        if two and i + two[1] == len(low):
            return 1900 + two[0], i + two[1], "short"          # "May of ninety five"
    return None


def spoken_year_spans(toks: Sequence[str]) -> list[tuple[int, int, int, str]]:
    """(start, end, year, style) of each spoken year of a date span, style "century" ("nineteen ninety four"),
    "thousand" ("two thousand and five") or "short" ("of ninety five" after a month)."""
    low = [t.lower() for t in toks]
    month = False
    out, i = [], 0
    while i < len(low):
        month = month or low[i] in MONTHS
        got = _at(low, i, month)
        if got and 1800 <= got[0] <= 2099 and got[1] - i >= 2 - (got[2] == "short"):
            out.append((i, got[1], got[0], got[2]))
            i = got[1]
        else:
            i += 1
    return out


def _say_two(n: int) -> list[str]:
    if n < 10:
        return ["oh", DIGIT_CLASS[n]]
    if n < 20:
        return [TEEN_CLASS[n - 10]]
    return [TENS_CLASS[n // 10 - 2]] + ([DIGIT_CLASS[n % 10]] if n % 10 else [])


def say_year(year: int, style: str, template: Sequence[str] = ()) -> list[str]:
    """`year` spoken in `style` ("thousand" keeps an "and" when the template has one)."""
    if style == "thousand" and year >= 2000:
        rest = year - 2000
        if not rest:
            return ["two", "thousand"]
        amp = ["and"] if "and" in [t.lower() for t in template] else []
        return ["two", "thousand"] + amp + (_say_two(rest) if rest >= 10 else [DIGIT_CLASS[rest]])
    if style == "short":
        return _say_two(year % 100)
    c, r = divmod(year, 100)
    if c == 20 and r < 10:          # 2005 is "two thousand five", not "twenty oh five"
        return ["two", "thousand"] + ([DIGIT_CLASS[r]] if r else [])
    century = {18: "eighteen", 19: "nineteen", 20: "twenty"}[c]
    return [century, "hundred"] if r == 0 else [century] + _say_two(r)


def redraw_year(toks: Sequence[str], year: int, style: str, rng, avoid=frozenset()) -> list[str] | None:
    """Another year near `year` (1800-2099; a short year 1920-1999), spoken in `style` or, from 2000, as "two
    thousand ...", sharing no word with `avoid` (the words of the original span and of the sentence's other
    entities: no original word comes back, in place or moved), in the case of the original words. The nearest
    such years are preferred (within ten years, else thirty); None when there is none (the caller redraws word by
    word)."""
    from ..lexicon import identifying
    lo, hi = (1920, 1999) if style == "short" else (1800, 2099)
    avoid = {w.lower() for w in avoid}
    for window in (10, 30):
        choices = []
        for y in range(max(lo, year - window), min(hi, year + window) + 1):
            if y == year:
                continue
            for st in {style, "thousand" if y >= 2000 and style != "short" else style}:
                words = say_year(y, st, toks)
                if not identifying(words) & avoid:
                    choices.append(words)
        if choices:
            new = choices[int(rng.integers(len(choices)))]
            if toks and toks[0][:1].isupper() and not toks[0].isupper():
                new = [new[0].capitalize()] + new[1:]        # a year at a sentence start
            return match_case(toks, new)
    return None


__all__ = ["redraw_year", "say_year", "spoken_year_spans"]
