"""Replacement pools: the corpus frequency of each entity type's words and whole entities (value dissociation).

Seed 004 §3.3.2: "we opt for using the set of all expressions with the same label in the corpus itself. We select a
sensitive word from the set with a probability proportional to its relative frequency of occurrence in the source."
A pool is also the replacement policy pi(t) of seed 000, so the DP accounting reads its probabilities from here.
"""

from __future__ import annotations

from collections import Counter
from typing import Hashable, Iterable, Sequence

import numpy as np

from pydeid.io.conll import Sentence


# Types whose values are always generated (random digits, a generated address), never drawn from a pool: a
# phone number, card, id, pin, e-mail or amount of one utterance must never be written into another.
GENERATED_TYPES = frozenset({"NUM", "AMOUNT", "EMAIL", "PHONE", "ID", "CARD", "PIN"})
# seed 004 A.1 categories whose values are generated (credentials, addresses, IP/MAC, amounts, ages)
GENERATED_TYPES |= frozenset({"CREDENTIAL", "ADDRESS", "IP", "MAC", "TRANSACTION", "AGE"})
# identifiers (pydeid/text/identifiers): shape-keeping generated surrogates
GENERATED_TYPES |= frozenset({"URL", "POSTCODE", "ACCOUNT", "PLATE"})


def is_word(tok: str) -> bool:
    return any(c.isalnum() for c in tok)


class Sampler:
    """Draw items with given weights through a cumulative table (one searchsorted per draw or batch)."""

    def __init__(self, counts: Counter):
        items = sorted(counts, key=lambda k: (-counts[k], str(k)))  # deterministic order
        self.items: list = items
        self.index = {k: i for i, k in enumerate(items)}
        w = np.array([counts[k] for k in items], dtype=np.float64)
        self.total = float(w.sum())
        self.probs = w / self.total if self.total > 0 else w
        self.cum = np.cumsum(self.probs)
        if len(self.cum):
            self.cum[-1] = 1.0

    def __len__(self) -> int:
        return len(self.items)

    def prob(self, item: Hashable) -> float:
        i = self.index.get(item)
        return 0.0 if i is None else float(self.probs[i])

    def as_dict(self) -> dict:
        return {k: float(p) for k, p in zip(self.items, self.probs)}

    def draw(self, rng: np.random.Generator, n: int | None = None):
        if not self.items:
            raise ValueError("empty pool")
        if n is None:
            return self.items[int(np.searchsorted(self.cum, rng.random(), side="right").clip(max=len(self.items) - 1))]
        idx = np.searchsorted(self.cum, rng.random(n), side="right").clip(max=len(self.items) - 1)
        return [self.items[i] for i in idx]

    def draw_excluding(self, rng: np.random.Generator, excluded: set, tries: int = 64, key=None):
        """A draw from the pool restricted to items not in `excluded` (None when nothing is left); with `key`,
        an item is excluded when key(item) is in `excluded` (e.g. lower-cased, to compare case-insensitively)."""
        key = key or (lambda x: x)
        return self.draw_where(rng, lambda x: key(x) not in excluded, tries)

    def draw_where(self, rng: np.random.Generator, allowed, tries: int = 64):
        """A draw from the pool restricted to the items for which allowed(item) is true, with their relative
        frequencies (None when no item is allowed)."""
        if not self.items:
            return None
        for _ in range(tries):
            x = self.draw(rng)
            if allowed(x):
                return x
        rest = [(k, p) for k, p in zip(self.items, self.probs) if allowed(k)]
        if not rest:
            return None
        w = np.array([p for _, p in rest])
        return rest[int(rng.choice(len(rest), p=w / w.sum()))][0]


def _is_category(typ: str) -> bool:
    from .categories.surrogates import is_category
    return is_category(typ)


class PoolError(ValueError):
    pass


class Pools:
    """Per-type word and entity frequencies of a tagged corpus. A pool of type T holds only spans tagged T (gold, or
    detected with type T); generated types (GENERATED_TYPES: numbers, identifiers, e-mails, amounts) have no pool."""

    def __init__(self, sentences: Iterable[Sentence] = ()):
        self.word_counts: dict[str, Counter] = {}
        self.entity_counts: dict[str, Counter] = {}
        for s in sentences:
            self.add(s.tokens, s.spans())
        self._samplers: dict[tuple[str, str], Sampler] = {}

    def add(self, tokens: Sequence[str], spans) -> None:
        for a, b, typ in spans:
            if typ in GENERATED_TYPES:
                continue
            wc = self.word_counts.setdefault(typ, Counter())
            for t in tokens[a:b]:
                if is_word(t):      # punctuation inside an entity is no surrogate
                    wc[t] += 1
            self.entity_counts.setdefault(typ, Counter())[tuple(tokens[a:b])] += 1

    @property
    def types(self) -> list[str]:
        return sorted(self.word_counts)

    def sampler(self, kind: str, typ: str) -> Sampler:
        key = (kind, typ)
        if key not in self._samplers:
            src = {"word": self.word_counts, "entity": self.entity_counts}[kind]
            if typ in GENERATED_TYPES:
                raise PoolError(f"{typ} values are always generated, never drawn from a pool")
            if (typ not in src or not src[typ]) and _is_category(typ):
                # a sensitive category (HEALTH, BELIEF ...) the corpus never shows in this role: an empty pool, so
                # the strategies' category fallback generates a same-category value (never a PoolError mid-corpus)
                self._samplers[key] = Sampler(Counter())
                return self._samplers[key]
            if typ not in src or not src[typ]:
                raise PoolError(f"the replacement pool has no {typ} {kind} (give a --pool-conll with {typ} "
                                f"entities, or choose another strategy for {typ})")
            self._samplers[key] = Sampler(src[typ])
        return self._samplers[key]
