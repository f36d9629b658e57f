"""A linear BIO tagger for the NER column of the utility tables: one SGD classifier (modified Huber loss) over hashed
features of each token and its neighbours (word, lower case, shape, affixes, the previous and next two words),
BIO repaired into spans (a stray I- opens a span). It trains in seconds on the whole SNIPS training set, so the NER
column gets every row and every seed; the flair BiLSTM-CRF of pydeid train-ner stays the tagger of the project's
own NER tables (it costs ~43 s of CPU per cell at 700 sentences and 6 epochs, and is undertrained there: measured
in egs/snips/s5/RESULTS.md).
"""

from __future__ import annotations

import functools
import re
from typing import Sequence

from pydeid.io.conll import Sentence, bio_to_spans


@functools.lru_cache(maxsize=65536)
def _shape(t: str) -> str:
    s = re.sub(r"[A-Z]", "A", t)
    s = re.sub(r"[a-z]", "a", s)
    s = re.sub(r"[0-9]", "9", s)
    return re.sub(r"(.)\1+", r"\1\1", s)


def token_features(toks: Sequence[str], i: int) -> list[str]:
    t = toks[i]
    lo = t.lower()
    f = [f"w={lo}", f"shape={_shape(t)}", f"p3={lo[:3]}", f"s3={lo[-3:]}", f"s2={lo[-2:]}",
         f"title={t[:1].isupper()}", f"digit={any(c.isdigit() for c in t)}", "bias"]
    for k in (-2, -1, 1, 2):
        j = i + k
        w = toks[j].lower() if 0 <= j < len(toks) else ("<s>" if j < 0 else "</s>")
        f.append(f"w{k}={w}")
        if abs(k) == 1:
            f.append(f"w{k}|w={w}|{lo}")
            if 0 <= j < len(toks):
                f.append(f"shape{k}={_shape(toks[j])}")
    return f


class LinearTagger:
    def __init__(self, seed: int = 0, alpha: float = 1e-5, max_iter: int = 15):
        self.seed = seed
        self.alpha = alpha
        self.max_iter = max_iter

    def fit(self, sents: Sequence[Sentence]) -> "LinearTagger":
        from sklearn.feature_extraction import FeatureHasher
        from sklearn.linear_model import SGDClassifier
        self.hasher = FeatureHasher(n_features=2 ** 20, input_type="string", alternate_sign=False)
        X = self.hasher.transform(token_features(s.tokens, i) for s in sents for i in range(len(s.tokens)))
        y = [g for s in sents for g in s.tags]
        self.clf = SGDClassifier(loss="modified_huber", alpha=self.alpha, max_iter=self.max_iter, tol=None,
                                 random_state=self.seed).fit(X, y)
        return self

    def predict(self, token_lists: Sequence[Sequence[str]]) -> list[list[tuple[int, int, str]]]:
        feats = [token_features(t, i) for t in token_lists for i in range(len(t))]
        tags = list(self.clf.predict(self.hasher.transform(feats))) if feats else []
        out, k = [], 0
        for t in token_lists:
            out.append(bio_to_spans(tags[k:k + len(t)]))
            k += len(t)
        return out


def span_f1(gold: Sequence[Sentence], pred: Sequence[list]) -> dict:
    """Exact-match span micro F1 (and macro over types) with pydeid.text.metrics."""
    from pydeid.text.metrics import macro_f1, span_prf
    res = span_prf([s.spans() for s in gold], [list(p) for p in pred])
    return {"micro_f1": res["ALL"].exact[2] if "ALL" in res else 0.0, "macro_f1": macro_f1(res, "exact")}
