"""Intent classification as a utility task (seed 000 table 2 "ID accuracy"; seed 002's train-on-transformed protocol).

Data: CoNLL files whose sentences carry a `# intent = <label>` comment (../shared/data/text_snips, text_slurp).
Model: a linear classifier (scikit-learn SGDClassifier, modified Huber loss, L2) over TF-IDF word 1-2-grams and
character 2-5-grams inside word boundaries. Chosen by measurement (RESULTS.md of egs/snips/s5): it trains in well
under a second per model on 2,100 sentences and reaches 97-98 % on SNIPS original text, where a flair model costs
about 13 s per epoch on the same data on this machine; the seed draws SGD's shuffling, so runs differ by seed even
on untransformed data, as in seed 000's ten runs.
Accuracy is reported with a 95 % interval from a bootstrap over test sentences.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np

from pydeid.io.conll import Sentence, read_conll
from pydeid.io.errors import FormatError


def intent_of(s: Sentence) -> str | None:
    for c in s.comments:
        key, sep, val = c.partition("=")
        if sep and key.strip() == "intent" and val.strip():
            return val.strip()
    return None


def read_intents(path: str | Path) -> list[Sentence]:
    """Sentences of a CoNLL file; every sentence must carry a `# intent = ...` comment (FormatError naming the
    file and the sentence otherwise). The original-slot column is dropped (it would name the originals)."""
    sents = read_conll(path)
    if not sents:
        raise FormatError(path, None, "no sentence")
    out = []
    for k, s in enumerate(sents):
        if intent_of(s) is None:
            raise FormatError(path, None, f"sentence {k + 1} ({s.id or 'no id'}) has no '# intent = <label>' comment")
        if not s.tokens:
            raise FormatError(path, None, f"sentence {k + 1} ({s.id or 'no id'}) has no token")
        out.append(Sentence(list(s.tokens), list(s.tags), s.id, [], list(s.comments)))
    return out


def split_by_intent(sents: Sequence[Sentence], test_fraction: float = 0.3, salt: str = "pydeid") \
        -> tuple[list[Sentence], list[Sentence]]:
    """Deterministic stratified split (for a corpus that ships one split only, e.g. SLURP devel): within each
    intent, sentences are ordered by a hash of their id and the first round(test_fraction * n) go to test; an
    intent with fewer than 3 sentences stays in training only (it cannot be both learnt and tested)."""
    if not 0.0 < test_fraction < 1.0:
        raise ValueError(f"test fraction must lie in (0, 1), got {test_fraction}")
    by: dict[str, list[Sentence]] = {}
    for k, s in enumerate(sents):
        by.setdefault(intent_of(s), []).append(s)
    train, test = [], []
    for lab in sorted(by):
        group = sorted(by[lab], key=lambda s: hashlib.sha1(f"{salt}:{s.id}".encode()).hexdigest())
        n_test = int(round(test_fraction * len(group))) if len(group) >= 3 else 0
        test.extend(group[:n_test])
        train.extend(group[n_test:])
    order = {id(s): k for k, s in enumerate(sents)}
    return sorted(train, key=lambda s: order[id(s)]), sorted(test, key=lambda s: order[id(s)])


def bootstrap_accuracy(correct: np.ndarray, n: int = 1000, seed: int = 0) -> tuple[float, float]:
    """95 % percentile interval of the accuracy over test sentences resampled with replacement."""
    correct = np.asarray(correct, dtype=np.float64)
    if not len(correct):
        return float("nan"), float("nan")
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(correct), size=(n, len(correct)))
    acc = correct[idx].mean(axis=1)
    return float(np.percentile(acc, 2.5)), float(np.percentile(acc, 97.5))


@dataclass
class IntentConfig:
    word_ngrams: tuple = (1, 2)
    char_ngrams: tuple = (2, 5)
    alpha: float = 1e-4
    max_iter: int = 50
    lowercase: bool = True


class IntentClassifier:
    """TF-IDF (word + char n-grams) -> SGDClassifier. fit(token lists, labels); predict(token lists)."""

    def __init__(self, cfg: IntentConfig | None = None, seed: int = 0):
        self.cfg = cfg or IntentConfig()
        self.seed = seed
        self.model = None

    def _pipeline(self):
        from sklearn.linear_model import SGDClassifier
        from sklearn.pipeline import FeatureUnion, make_pipeline
        from sklearn.feature_extraction.text import TfidfVectorizer
        c = self.cfg
        feats = FeatureUnion([
            ("word", TfidfVectorizer(analyzer="word", ngram_range=tuple(c.word_ngrams), lowercase=c.lowercase,
                                     token_pattern=r"\S+", sublinear_tf=True)),
            ("char", TfidfVectorizer(analyzer="char_wb", ngram_range=tuple(c.char_ngrams), lowercase=c.lowercase,
                                     sublinear_tf=True)),
        ])
        clf = SGDClassifier(loss="modified_huber", alpha=c.alpha, max_iter=c.max_iter, tol=None,
                            random_state=self.seed)
        return make_pipeline(feats, clf)

    def fit(self, token_lists: Sequence[Sequence[str]], labels: Sequence[str]) -> "IntentClassifier":
        if len(set(labels)) < 2:
            raise ValueError("intent classification needs at least two intents in the training data")
        self.model = self._pipeline().fit([" ".join(t) for t in token_lists], list(labels))
        return self

    def predict(self, token_lists: Sequence[Sequence[str]]) -> list[str]:
        return list(self.model.predict([" ".join(t) for t in token_lists]))


def evaluate_intents(clf: IntentClassifier, sents: Sequence[Sentence], boot_seed: int = 0) -> dict:
    gold = [intent_of(s) for s in sents]
    pred = clf.predict([s.tokens for s in sents])
    correct = np.array([g == p for g, p in zip(gold, pred)], dtype=bool)
    lo, hi = bootstrap_accuracy(correct, seed=boot_seed)
    return {"accuracy": float(correct.mean()), "ci95": [lo, hi], "n": int(len(correct)),
            "correct": int(correct.sum())}
