"""Truecasing of lower-case (ASR-style) text for a tagger trained on cased text, from word frequencies that ship in
the default install.

spaCy's en_core_web_md keeps its 514k vector keys in the frequency order of the corpus the vectors were trained on
(the 20k rows first, then the pruned keys, each in rank order), and the keys are case-sensitive: "John" ranks 344,
"john" 20,151; "Tomorrow" 6,080, "tomorrow" 1,468. A lower-case token is written in the form that is more frequent
by a clear margin ("bruno mars" -> "Bruno Mars", "cnn" -> "CNN", "tomorrow" stays), so the NER sees the casing it
was trained on. Words the table does not know stay as they are. Pipelines without vectors (en_core_web_sm) cannot
be truecased this way: `Truecaser.from_vocab` returns None for them.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

# a cased form must be this many times more frequent (rank this many times smaller) than the lower-case form
MARGIN = 2.0


class Truecaser:
    def __init__(self, keys: np.ndarray, hash_string, margin: float = MARGIN):
        order = np.argsort(keys, kind="stable")
        self._keys = keys[order]
        self._rank = order.astype(np.int64)       # position in the frequency-ordered key table
        self._hash = hash_string
        self.margin = margin
        self._cache: dict[str, str] = {}

    @classmethod
    def from_vocab(cls, vocab, margin: float = MARGIN) -> "Truecaser | None":
        vec = vocab.vectors
        if vec is None or not len(getattr(vec, "key2row", {}) or {}):
            return None
        from spacy.strings import hash_string
        keys = np.fromiter(vec.key2row.keys(), dtype=np.uint64, count=len(vec.key2row))
        return cls(keys, hash_string, margin)

    def rank(self, word: str) -> int | None:
        """Frequency rank of the exact (case-sensitive) form, None when unknown."""
        h = np.uint64(self._hash(word))
        i = int(np.searchsorted(self._keys, h))
        if i < len(self._keys) and self._keys[i] == h:
            return int(self._rank[i])
        return None

    def word(self, w: str) -> str:
        """The most frequent casing of a lower-case word, when it beats the lower-case form by the margin."""
        if w in self._cache:
            return self._cache[w]
        out = w
        if w.islower() and any(c.isalpha() for c in w):
            low = self.rank(w)
            best, best_rank = w, low
            for form in (w[:1].upper() + w[1:], w.upper()):
                r = self.rank(form)
                if r is not None and (best_rank is None or r * self.margin < best_rank) and \
                        (low is None or r * self.margin < low):
                    best, best_rank = form, r
            out = best
        self._cache[w] = out
        return out

    def truecase(self, tokens: Sequence[str]) -> list[str]:
        return [self.word(t) for t in tokens]


_PRONOUN_I = {"I", "I'm", "I'll", "I've", "I'd", "I.", "I,"}


def is_lower_case(tokens: Sequence[str]) -> bool:
    """Text written without casing: no upper-case letter after the first word (ASR output; typed commands that
    capitalise only their first word, "Add morten harket to this is puccini"), the pronoun "I" aside."""
    return not any(c.isupper() for t in tokens[1:] if t not in _PRONOUN_I for c in t)
