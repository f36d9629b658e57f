"""Word forms shared by the replacement strategies and the surrogate generators: the case of a span, and the
classes a spelled letter or a number word is redrawn within. Low level on purpose: the strategies package,
generate.py and categories/surrogates.py all build on it, and it imports none of them (no import cycle)."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from .lexicon import (DIGIT_CLASS, DIGIT_WORDS, MONTHS, ORDINAL_WORDS, TEEN_CLASS, TEEN_WORDS, TENS_CLASS, TENS_WORDS,
                      WEEKDAYS)


def _ordinal_value(w: str) -> int:
    from .lexicon import ORDINALS
    tens, _, unit = w.rpartition("-")
    return ORDINALS.get(unit, 0) + {"twenty": 20, "thirty": 30}.get(tens, 0)


def text_case(tokens: Sequence[str]) -> str:
    """The case of all letters of `tokens`: lower, upper (at least two letters: "I" alone is no capitals text) or
    mixed."""
    letters = [c for c in "".join(tokens) if c.isalpha()]
    if letters and all(c.islower() for c in letters):
        return "lower"
    if len(letters) > 1 and all(c.isupper() for c in letters):
        return "upper"
    return "mixed"


def match_case(orig: Sequence[str], repl: Sequence[str]) -> list[str]:
    """Lower-case a replacement when the original was lower-case (ASR-style text), upper-case it when the original
    was in capitals, so case does not reveal it; otherwise surrogates keep their own case (a pool word keeps the case
    it had in the corpus)."""
    case = text_case(orig)
    if case == "lower":
        return [r.lower() for r in repl]
    if case == "upper":
        return [r.upper() for r in repl]
    return list(repl)


def spelled_letters(t: str) -> int:
    """How many letters a spelled token holds ("k": 1, "K-O-W": 3; 0: not spelled letters)."""
    parts = t.split("-")
    return len(parts) if all(len(p) == 1 and p.isalpha() for p in parts) else 0


def other_letter(c: str, rng: np.random.Generator) -> str:
    """A letter other than `c`, in its case (a spelled letter redrawn in place, as a digit is)."""
    new = "abcdefghijklmnopqrstuvwxyz"[(ord(c.lower()) - 97 + int(rng.integers(1, 26))) % 26]
    return new.upper() if c.isupper() else new


# an ordinal is redrawn among the days every month has ("the thirty-second", "the thirtieth of February" never)
_ORDINAL_CLASS = sorted(w for w in ORDINAL_WORDS if _ordinal_value(w) <= 28)
_CLASSES = [
    ("digit", DIGIT_WORDS, DIGIT_CLASS),
    ("teen", TEEN_WORDS, TEEN_CLASS),
    ("tens", TENS_WORDS, TENS_CLASS),
    ("ordinal", ORDINAL_WORDS, _ORDINAL_CLASS),
    ("month", MONTHS, [m.capitalize() for m in MONTHS]),
    ("weekday", WEEKDAYS, [w.capitalize() for w in WEEKDAYS]),
]


def number_class(tok: str) -> tuple[str, list[str] | int] | None:
    """The class a number-like token is redrawn from: a word list, or the length of a written digit string."""
    low = tok.lower()
    for name, members, out in _CLASSES:
        if low in members:
            return name, out
    nd = sum(c.isdigit() for c in tok)
    if nd:
        return "digits", nd
    return None


def weighted_choice(words: Sequence[str], rng: np.random.Generator, counts=None) -> str:
    """One of `words`, uniformly, or with `counts` (lower-cased word -> how often the corpus's entities say it) by
    count + 1: a business corpus that says "Tuesday" fifty times and "Sunday" never gets few "Sunday"s back."""
    if not counts:
        return words[int(rng.integers(len(words)))]
    w = np.array([counts.get(x.lower(), 0) + 1.0 for x in words])
    return words[int(rng.choice(len(words), p=w / w.sum()))]


def random_same_class(tok: str, rng: np.random.Generator, avoid: bool = False, counts=None) -> str | None:
    """Another member of `tok`'s class (number_class); months and weekdays by `counts` when given
    (weighted_choice), everything else uniformly."""
    cls = number_class(tok)
    if cls is None:
        return None
    name, out = cls
    for _ in range(32):
        if name == "digits":
            new = "".join(str(int(rng.integers(10))) if c.isdigit() else c for c in tok)
        else:
            new = weighted_choice(out, rng, counts if name in ("month", "weekday") else None)
            new = match_case([tok], [new])[0]
        if not avoid or new.lower() != tok.lower():
            return new
    return new
