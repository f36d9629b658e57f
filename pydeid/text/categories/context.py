"""Shared helpers of the category rules: token normalisation, phrase matching, spoken cardinals, and the
"statement about a person" test ("I am ...", "my wife is a ...", "he identifies as ...")."""

from __future__ import annotations

import re
from typing import Sequence

from ..lexicon import DIGIT_WORDS, TEEN_WORDS, TENS_WORDS
from .lexicons import COPULAS, FILLERS, POSSESSIVES, SELF_VERBS, SUBJECTS

SUBJ_COPULA = frozenset({"i'm", "im", "he's", "she's", "we're", "they're", "you're", "hes", "shes", "theyre",
                         "youre"})
MODALS = frozenset({"will", "'ll", "i'll", "he'll", "she'll", "we'll", "they'll", "you'll", "to", "would", "'d",
                    "could", "might", "must", "should", "can"})
HAVE = frozenset({"have", "has", "'ve", "i've", "we've", "they've", "you've", "had", "'s", "he's", "she's"})
# who a possessive noun phrase may be about ("my wife is", "his age is", "my background is")
PERSON_NOUNS = frozenset("""
wife husband son daughter mother mum mom mommy mummy father dad daddy brother sister partner boyfriend girlfriend
friend cousin uncle aunt auntie grandmother grandfather grandma gran granny grandad granddad grandpa grandson
granddaughter grandparents parents family kids children child baby boss colleague neighbour neighbor nephew niece
fiance fiancee fiancé spouse stepson stepdaughter stepfather stepmother flatmate roommate mate sibling twin
brother-in-law sister-in-law mother-in-law father-in-law self age religion faith background ethnicity heritage
origin orientation status job profession occupation career
""".split())
_SPOKEN_NUM = set(DIGIT_WORDS) | set(TEEN_WORDS) | set(TENS_WORDS) | {"hundred", "thousand"}
_TRAIL = ".,;:!?\"()"


def norm(tok: str) -> str:
    t = tok.lower().replace("’", "'")
    if len(t) > 1:
        t = t.rstrip(_TRAIL) or t
        t = t.lstrip("\"(") or t
    return t


def norm_tokens(tokens: Sequence[str]) -> list[str]:
    return [norm(t) for t in tokens]


class Lexicon:
    """A set of phrases (space-separated words) matched on normalised tokens, longest first; hyphenated entries
    also match their spaced form ("non-binary" == "non binary")."""

    def __init__(self, phrases):
        self.phrases = set()
        for p in phrases:
            self.phrases.add(p)
            self.phrases.add(p.replace("-", " "))
        self.max = max((len(p.split()) for p in self.phrases), default=1)

    def __contains__(self, phrase: str) -> bool:
        return phrase in self.phrases

    def match(self, low: Sequence[str], i: int) -> int:
        """Length in tokens of the longest phrase starting at i (0: none)."""
        for n in range(min(self.max, len(low) - i), 0, -1):
            if " ".join(low[i:i + n]) in self.phrases:
                return n
        return 0

    def ends_at(self, low: Sequence[str], k: int) -> int:
        """Length of the longest phrase ending at token k (inclusive), 0: none."""
        for n in range(min(self.max, k + 1), 0, -1):
            if " ".join(low[k - n + 1:k + 1]) in self.phrases:
                return n
        return 0


_FILLERS = Lexicon(FILLERS)
_SELF = Lexicon(SELF_VERBS)


def skip_back(low: Sequence[str], i: int, extra=frozenset()) -> int:
    """Index of the last token before i that is not a filler word ("a", "very", "happily", ...)."""
    k = i - 1
    while k >= 0 and (low[k] in extra or _FILLERS.ends_at(low, k)):
        k -= max(1, _FILLERS.ends_at(low, k)) if low[k] not in extra else 1
    return k


def is_statement_before(low: Sequence[str], i: int, extra_fillers=frozenset()) -> bool:
    """True when the words before token i say something about a person: "I am (a) X", "I'm X", "he's X",
    "my wife is (a) X", "I've been X", "I'll be X", "are you X", "she identifies as X", "raised X"."""
    k = skip_back(low, i, extra_fillers)
    if k < 0:
        return False
    w = low[k]
    if w in SUBJ_COPULA:
        return True
    if w.endswith("'s") and w[:-2] in PERSON_NOUNS and any(low[q] in POSSESSIVES for q in range(max(0, k - 3), k)):
        return True                                               # "my mother's Ghanaian", "his dad's a nurse"
    if _SELF.ends_at(low, k):
        return True
    if w in SUBJECTS and k > 0 and low[k - 1] in COPULAS:        # "are you married", "is he retired"
        return True
    if w not in COPULAS:
        return False
    j = skip_back(low, k)                                         # "I have always been", "I'm still"
    if j < 0:
        return False
    prev = low[j]
    if prev in SUBJECTS or prev in SUBJ_COPULA:
        return True
    if w == "been" and prev in HAVE:                              # "I have been", "my son has been"
        return True
    if w == "be" and prev in MODALS:                              # "I'll be", "he will be", "I used to be"
        before = low[j - 1] if j > 0 else ""
        return prev.endswith("'ll") or before in SUBJECTS or before in SUBJ_COPULA or \
            prev == "to" and j > 1 and low[j - 2] in SUBJECTS
    # a possessive noun phrase about a person: "my wife is", "his older brother was", "my age is"
    for q in range(j, max(-1, j - 3), -1):
        if low[q] in POSSESSIVES:
            return any(low[r] in PERSON_NOUNS or low[r].rstrip("s") in PERSON_NOUNS for r in range(q + 1, k))
    return False


def parse_cardinal(low: Sequence[str], i: int, allow_zero: bool = False) -> tuple[int, int] | None:
    """A spoken cardinal ("forty five", "one hundred and two", "a hundred", "twelve hundred", "two hundred
    thousand") or a written one ("45", "1,200") starting at i: (end_exclusive, value), or None."""
    n = len(low)
    if i >= n:
        return None
    w = low[i]
    if re.fullmatch(r"\d{1,3}(,\d{3})+|\d+", w):
        return i + 1, int(w.replace(",", ""))
    total, cur, last, j = 0, 0, None, i
    while j < n:
        w = low[j]
        nxt = low[j + 1] if j + 1 < n else ""
        if w in DIGIT_WORDS and (w not in ("oh", "o", "nought", "zero") or allow_zero and last is None):
            if last in ("digit", "teen"):
                break
            cur += DIGIT_WORDS[w]
            last = "digit"
        elif w in TEEN_WORDS:
            if last in ("digit", "teen", "tens"):
                break
            cur += TEEN_WORDS[w]
            last = "teen"
        elif w in TENS_WORDS:
            if last in ("digit", "teen", "tens"):
                break
            cur += TENS_WORDS[w]
            last = "tens"
        elif w == "hundred":
            if last not in ("digit", "teen", "tens", "a"):
                break
            cur = (cur or 1) * 100
            last = "hundred"
        elif w in ("thousand", "million"):
            if last not in ("digit", "teen", "tens", "a", "hundred"):
                break
            total += (cur or 1) * (1000 if w == "thousand" else 10 ** 6)
            cur = 0
            last = "scale"
        elif w == "and" and last in ("hundred", "scale") and nxt in _SPOKEN_NUM:
            last = "and"
        elif w == "a" and j == i and nxt in ("hundred", "thousand"):
            last = "a"
        else:
            break
        j += 1
    if j == i or last in ("and", "a"):
        return None
    return j, total + cur
