"""Named days: holidays and observances are dates ("Pioneer Day", "National Maritime Day", "All Souls' Day",
"Orthodox Good Friday", "Christmas Eve", "mother's day", "lincoln's day").

  cased text   a run of capitalised words (not only the sentence-initial one) that ends in Day, Eve or Birthday,
               or that ends in a weekday ("Good Friday", "Black Friday", "Ash Wednesday");
  any case     a possessive before "day" ("mother 's day", "valentine's day", "st patrick's day").

A birthday of a person in lower case ("mary's birthday") is left to the name detectors: it names a person first.
"""

from __future__ import annotations

from typing import Sequence

from .gazetteer import CREATIVE_WORDS
from .lexicon import WEEKDAYS

_ENDS = {"Day", "Eve", "Birthday", "Day's"}
_GLUE = {"of", "the", "'s", "’s", "'", "&"}
_WEEKDAYS = {w.capitalize() for w in WEEKDAYS}


def _capital(t: str) -> bool:
    return t[:1].isupper() and any(c.isalpha() for c in t)


def holiday_spans(tokens: Sequence[str]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    n = len(tokens)
    for j, t in enumerate(tokens):
        if t in _ENDS or t in _WEEKDAYS:
            a = j
            while a > 0 and (_capital(tokens[a - 1]) or tokens[a - 1] in _GLUE and a > 1 and
                             (_capital(tokens[a - 2]) or tokens[a - 2].endswith(("'s", "’s", "s")))):
                a -= 1
            while a < j and tokens[a] in _GLUE:
                a += 1
            # a weekday alone is the grammars' date; a sentence-initial capital alone says nothing ("Happy Day")
            # ... and a named day before "playlist", "album" ... is a title ("my Throwback Thursday playlist")
            title = j + 1 < n and tokens[j + 1].lower() in CREATIVE_WORDS
            if a < j and not (a == 0 and j - a == 1) and not title:
                out.append((a, j + 1))
        elif t.lower() == "day" and j > 0:
            prev = tokens[j - 1].lower()
            if prev.endswith(("'s", "’s", "s'")) and len(prev) > 3:
                a = j - 1
            elif prev in ("'s", "’s", "'") and j > 1:
                a = j - 2
            else:
                continue
            while a > 0 and tokens[a - 1].lower() in ("st", "st.", "saint", "all"):
                a -= 1
            out.append((a, j + 1))
    # keep the longest of overlapping spans
    out.sort(key=lambda x: (x[0], -(x[1] - x[0])))
    kept: list[tuple[int, int]] = []
    for a, b in out:
        if kept and a < kept[-1][1]:
            continue
        kept.append((a, b))
    return [k for k in kept if k[1] <= n]
