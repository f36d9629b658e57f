"""SanText and SanText+ (seed 003, Yue et al. 2021): word-level sanitisation with (U)MLDP guarantees.

SanText replaces every token x by y drawn with the exponential mechanism over embedding distances,
    Pr[M(x) = y] = C_x exp(-eps/2 * d_euc(phi(x), phi(y)))                      (eq. 1)
and satisfies eps*d(x, x')-LDP (Theorem 1). SanText+ marks the w fraction of least frequent words as sensitive
(V_S = V_P); a sensitive word is sampled from V_P by eq. 1; a non-sensitive word is kept with probability 1 - p and
otherwise sampled from V_P by eq. 2 (eq. 1 restricted to V_P). Theorem 2: (V_S, V_P, eps, eps0 = ln 1/p)-UMLDP.

Probability matrices are precomputed once (|V| x |V|, or |V_S| x |V_P| and |V_N| x |V_P|), cached on disk keyed by a
hash of the vocabulary, the embeddings, eps (and p, w for SanText+), and turned into cumulative tables so sampling
a whole corpus is one `searchsorted` per distinct input word.
"""

from __future__ import annotations

import hashlib
import logging
import math
import os
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np

log = logging.getLogger(__name__)


def pairwise_euclidean(a: np.ndarray, b: np.ndarray, chunk: int = 2048) -> np.ndarray:
    a = a.astype(np.float64)
    b = b.astype(np.float64)
    bb = (b * b).sum(1)
    out = np.empty((len(a), len(b)), dtype=np.float64)
    for i in range(0, len(a), chunk):
        x = a[i:i + chunk]
        d2 = (x * x).sum(1)[:, None] + bb[None, :] - 2.0 * x @ b.T
        np.maximum(d2, 0.0, out=d2)
        out[i:i + chunk] = np.sqrt(d2)
    return out


def exp_mechanism_matrix(src: np.ndarray, dst: np.ndarray, epsilon: float) -> np.ndarray:
    """Row-stochastic matrix of eq. (1): rows = inputs, columns = outputs."""
    logits = -0.5 * epsilon * pairwise_euclidean(src, dst)
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    p /= p.sum(axis=1, keepdims=True)
    return p


def sensitive_split(vocab: Sequence[str], freq: Counter, w: float) -> tuple[list[int], list[int]]:
    """Indices of V_S (the w fraction of least frequent words) and V_N (the rest), by corpus frequency."""
    order = sorted(range(len(vocab)), key=lambda i: (freq.get(vocab[i], 0), vocab[i]))
    n_s = int(math.ceil(w * len(vocab)))
    n_s = min(max(n_s, 1 if w > 0 else 0), len(vocab))
    return sorted(order[:n_s]), sorted(order[n_s:])


@dataclass
class SanTextConfig:
    epsilon: float = 3.0
    plus: bool = False
    p: float = 0.3      # SanText+: probability that a non-sensitive word is sanitised
    w: float = 0.9      # SanText+: fraction of least frequent words deemed sensitive
    seed: int = 0


class SanText:
    def __init__(self, vocab: Sequence[str], vectors: np.ndarray, freq: Counter, cfg: SanTextConfig,
                 cache_dir: str | os.PathLike | None = None):
        if len(vocab) != len(vectors):
            raise ValueError("one vector per vocabulary word is needed")
        self.vocab = list(vocab)
        self.index = {w: i for i, w in enumerate(self.vocab)}
        self.cfg = cfg
        self.freq = freq
        vectors = np.asarray(vectors, dtype=np.float32)
        if cfg.plus:
            self.s_idx, self.n_idx = sensitive_split(self.vocab, freq, cfg.w)
        else:
            self.s_idx, self.n_idx = list(range(len(self.vocab))), []
        self.p_idx = list(self.s_idx)            # V_P = V_S
        self.is_sensitive = np.zeros(len(self.vocab), dtype=bool)
        self.is_sensitive[self.s_idx] = True
        self.cache_key = self._key(vectors)
        cached = Path(cache_dir) / f"santext-{self.cache_key}.npz" if cache_dir else None
        if cached is not None and cached.exists():
            z = np.load(cached)
            self.cum_s, self.cum_n = z["cum_s"], z["cum_n"]
            self.cache_hit = True
        else:
            dst = vectors[self.p_idx]
            ps = exp_mechanism_matrix(vectors[self.s_idx], dst, cfg.epsilon)
            pn = exp_mechanism_matrix(vectors[self.n_idx], dst, cfg.epsilon) if self.n_idx else np.zeros((0, len(dst)))
            self.cum_s = self._cum(ps)
            self.cum_n = self._cum(pn)
            self.cache_hit = False
            if cached is not None:
                cached.parent.mkdir(parents=True, exist_ok=True)
                tmp = cached.with_suffix(".tmp.npz")
                np.savez(tmp, cum_s=self.cum_s, cum_n=self.cum_n)
                os.replace(tmp, cached)
        # row of each vocabulary word inside cum_s / cum_n
        self.row = np.empty(len(self.vocab), dtype=np.int64)
        self.row[self.s_idx] = np.arange(len(self.s_idx))
        self.row[self.n_idx] = np.arange(len(self.n_idx))
        self.rng = np.random.default_rng(cfg.seed)

    def reseed(self, seed: int) -> None:
        """Restart the draws from `seed` (the tables do not depend on it: one build serves every seed)."""
        self.cfg.seed = seed
        self.rng = np.random.default_rng(seed)

    def _key(self, vectors: np.ndarray) -> str:
        h = hashlib.sha256()
        h.update("\n".join(self.vocab).encode("utf-8"))
        h.update(np.ascontiguousarray(vectors).tobytes())
        h.update(repr((self.cfg.epsilon, self.cfg.plus, self.cfg.w if self.cfg.plus else None)).encode())
        h.update(np.asarray(self.s_idx, dtype=np.int64).tobytes())
        return h.hexdigest()[:24]

    @staticmethod
    def _cum(p: np.ndarray) -> np.ndarray:
        c = np.cumsum(p, axis=1)
        if c.size:
            c[:, -1] = 1.0
        return c

    def prob_matrix(self, sensitive: bool = True) -> np.ndarray:
        """The row-stochastic matrix over V_P (recovered from the cumulative table)."""
        c = self.cum_s if sensitive else self.cum_n
        return np.diff(np.concatenate([np.zeros((len(c), 1)), c], axis=1), axis=1)

    def sample_ids(self, ids: np.ndarray) -> np.ndarray:
        """Sanitise vocabulary ids (vectorised: one searchsorted per distinct input word)."""
        ids = np.asarray(ids, dtype=np.int64)
        out = ids.copy()
        u = self.rng.random(len(ids))
        p_idx = np.asarray(self.p_idx)
        sens = self.is_sensitive[ids]
        if self.cfg.plus and (~sens).any():
            coin = self.rng.random(len(ids)) < self.cfg.p
            move_n = (~sens) & coin
        else:
            move_n = np.zeros(len(ids), dtype=bool)
        for mask, table in ((sens, self.cum_s), (move_n, self.cum_n)):
            pos = np.nonzero(mask)[0]
            if not len(pos):
                continue
            rows = self.row[ids[pos]]
            order = np.argsort(rows, kind="stable")
            rows_sorted = rows[order]
            bounds = np.flatnonzero(np.diff(rows_sorted)) + 1
            for grp in np.split(np.arange(len(rows_sorted)), bounds):
                r = rows_sorted[grp[0]]
                k = pos[order[grp]]
                j = np.searchsorted(table[r], u[k], side="right").clip(max=table.shape[1] - 1)
                out[k] = p_idx[j]
        return out

    def sanitize(self, tokens: Sequence[str]) -> list[str]:
        """Tokens outside the vocabulary (no vector) are kept and counted by the caller."""
        ids = np.array([self.index.get(t, -1) for t in tokens], dtype=np.int64)
        known = ids >= 0
        out = list(tokens)
        if known.any():
            new = self.sample_ids(ids[known])
            for k, i in zip(np.nonzero(known)[0], new):
                out[k] = self.vocab[i]
        return out

    def privacy_stats(self, runs: int = 100, words: Sequence[str] | None = None) -> dict:
        """N_x (probability of no replacement), S_x (distinct outputs of x), S_y (distinct inputs reaching y),
        estimated by sanitising each word `runs` times as in seed 003 §5.5; exact N_x from the matrix too."""
        ids = np.array([self.index[w] for w in (words or self.vocab)], dtype=np.int64)
        rep = np.repeat(ids, runs)
        out = self.sample_ids(rep).reshape(len(ids), runs)
        n_x = (out == ids[:, None]).mean(axis=1)
        s_x = np.array([len(np.unique(r)) for r in out])
        y_in: dict[int, set] = {}
        for x, row in zip(ids, out):
            for y in np.unique(row):
                y_in.setdefault(int(y), set()).add(int(x))
        s_y = np.array([len(v) for v in y_in.values()])
        exact = []
        ps = self.prob_matrix(True)
        pn = self.prob_matrix(False) if self.n_idx else None
        pcol = {v: j for j, v in enumerate(self.p_idx)}
        for x in ids:
            if self.is_sensitive[x]:
                exact.append(ps[self.row[x], pcol[x]])
            else:
                exact.append(1 - self.cfg.p + self.cfg.p * pn[self.row[x], pcol[x]] if x in pcol else 1 - self.cfg.p)
        exact = np.array(exact)

        def summ(a):
            return {"median": float(np.median(a)), "mean": float(np.mean(a))} if len(a) else {}
        return {"runs": runs, "words": len(ids), "N_x": summ(n_x), "N_x_exact": summ(exact), "S_x": summ(s_x),
                "S_y": summ(s_y), "V": len(self.vocab), "V_S": len(self.s_idx), "V_N": len(self.n_idx),
                "guarantee": self.guarantee()}

    def guarantee(self) -> str:
        if self.cfg.plus:
            e0 = math.inf if self.cfg.p == 0 else math.log(1 / self.cfg.p)
            return (f"SanText+: (V_S, V_P, eps={self.cfg.epsilon}, eps0=ln(1/p)={e0:.4g})-UMLDP (Theorem 2), "
                    f"|V_S|={len(self.s_idx)} of {len(self.vocab)} (w={self.cfg.w})")
        return f"SanText: eps*d(x,x')-MLDP with eps={self.cfg.epsilon} (Theorem 1)"


def corpus_vectors(token_lists: list[list[str]], dim: int = 100, seed: int = 0, epochs: int = 10,
                   vectors_path: str | None = None) -> tuple[list[str], np.ndarray]:
    """Vocabulary and vectors: a local KeyedVectors/word2vec file, or gensim Word2Vec trained on the text."""
    if vectors_path:
        from gensim.models import KeyedVectors
        p = Path(vectors_path)
        kv = (KeyedVectors.load_word2vec_format(str(p), binary=p.suffix == ".bin") if p.suffix in (".txt", ".bin")
              else KeyedVectors.load(str(p)))
    else:
        from gensim.models import Word2Vec
        kv = Word2Vec(sentences=token_lists, vector_size=dim, window=5, min_count=1, sg=1, seed=seed, workers=1,
                      epochs=epochs).wv
    words = sorted({t for toks in token_lists for t in toks if t in kv.key_to_index})
    return words, np.stack([kv[w] for w in words]) if words else np.zeros((0, dim), dtype=np.float32)
