"""A word n-gram language model in ARPA format, built from training transcripts (for pocketsphinx decoding).

Interpolated Kneser-Ney (Chen & Goodman 1998, one discount per order, D = n1 / (n1 + 2 n2) from the
count-of-counts, clipped to [0.1, 0.9]): the highest order uses raw counts, lower orders continuation counts
(the number of distinct left contexts). The model is written the way SRILM writes `-interpolate` models: every
listed n-gram carries its fully interpolated probability and every context its interpolation weight as backoff
weight, so the ARPA back-off rule p(w|h) = bow(h) p(w|h') reproduces the interpolated model exactly.

The vocabulary is closed: the words of the training transcripts plus <s> and </s> (pocketsphinx maps words
outside its dictionary to nothing, so they must get pronunciations: see pydeid.asr.pocketsphinx_decode).
Only training transcripts go in: a language model that saw the test transcripts measures nothing.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from typing import Iterable

BOS, EOS = "<s>", "</s>"


def _discount(counts: Counter) -> float:
    coc = Counter(c for c in counts.values() if c <= 2)
    n1, n2 = coc.get(1, 0), coc.get(2, 0)
    d = n1 / (n1 + 2 * n2) if n1 + n2 else 0.5
    return min(0.9, max(0.1, d))


class NgramLM:
    """Interpolated Kneser-Ney n-gram model over whitespace-tokenised sentences."""

    def __init__(self, sentences: Iterable[str], order: int = 3):
        if order < 1:
            raise ValueError(f"order must be >= 1, got {order}")
        self.order = order
        sents = [s.split() for s in sentences]
        sents = [s for s in sents if s]
        if not sents:
            raise ValueError("no training sentences")
        self.vocab = sorted({w for s in sents for w in s})
        # raw counts of the highest order, continuation counts of the lower ones
        raw: list[Counter] = [Counter() for _ in range(order + 1)]
        for s in sents:
            toks = [BOS] + s + [EOS]
            for n in range(1, order + 1):
                for i in range(len(toks) - n + 1):
                    g = tuple(toks[i:i + n])
                    raw[n][g] += 1
        self.counts: list[Counter] = [Counter() for _ in range(order + 1)]
        self.counts[order] = raw[order]
        for n in range(1, order):
            cont = Counter()
            for g in raw[n + 1]:
                cont[g[1:]] += 1
            # n-grams that start a sentence have no left context: their raw count stands in
            for g, c in raw[n].items():
                if g[0] == BOS:
                    cont[g] = c
            self.counts[n] = cont
        self.counts[1].pop((BOS,), None)
        for w in self.vocab + [EOS]:
            self.counts[1].setdefault((w,), 0)
        self.discounts = [0.0] + [_discount(self.counts[n]) for n in range(1, order + 1)]
        self.prob: list[dict] = [dict() for _ in range(order + 1)]
        self.bow: list[dict] = [dict() for _ in range(order + 1)]
        self._estimate()

    def _estimate(self) -> None:
        # unigrams: discounted continuation counts, the freed mass spread uniformly over the vocabulary
        c1 = self.counts[1]
        total = sum(c1.values())
        d = self.discounts[1]
        nonzero = sum(1 for c in c1.values() if c > 0)
        uni_gamma = d * nonzero / total
        v = len(c1)
        for g, c in c1.items():
            self.prob[1][g] = max(c - d, 0) / total + uni_gamma / v
        for n in range(2, self.order + 1):
            d = self.discounts[n]
            by_ctx: dict[tuple, list] = defaultdict(list)
            for g, c in self.counts[n].items():
                by_ctx[g[:-1]].append((g, c))
            for h, items in by_ctx.items():
                tot = sum(c for _, c in items)
                gamma = d * len(items) / tot
                self.bow[n - 1][h] = gamma
                for g, c in items:
                    self.prob[n][g] = max(c - d, 0) / tot + gamma * self._p(g[1:])
        self.prob[1][(BOS,)] = 0.0  # listed with log10 -99, as SRILM does: never predicted

    def _p(self, g: tuple) -> float:
        """Interpolated probability of the last word of g given the rest (back-off through listed contexts)."""
        n = len(g)
        if n == 1:
            return self.prob[1].get(g, 0.0)
        if g in self.prob[n]:
            return self.prob[n][g]
        return self.bow[n - 1].get(g[:-1], 1.0) * self._p(g[1:])

    def logprob(self, sentence: str) -> float:
        """log10 probability of a sentence including </s> (test helper; OOV words give -inf)."""
        toks = [BOS] + sentence.split() + [EOS]
        lp = 0.0
        for i in range(1, len(toks)):
            g = tuple(toks[max(0, i - self.order + 1):i + 1])
            p = self._p(g)
            lp += math.log10(p) if p > 0 else float("-inf")
        return lp

    def to_arpa(self) -> str:
        lines = ["", "\\data\\"]
        for n in range(1, self.order + 1):
            lines.append(f"ngram {n}={len(self.prob[n])}")
        for n in range(1, self.order + 1):
            lines += ["", f"\\{n}-grams:"]
            for g in sorted(self.prob[n]):
                p = self.prob[n][g]
                lp = math.log10(p) if p > 0 else -99.0
                row = f"{lp:.6f}\t{' '.join(g)}"
                if n < self.order and g in self.bow[n]:
                    row += f"\t{math.log10(self.bow[n][g]):.6f}"
                lines.append(row)
        lines += ["", "\\end\\", ""]
        return "\n".join(lines)
