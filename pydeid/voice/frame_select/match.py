"""Content matching of frame selection: for each source frame, the k nearest target-pool frames (squared Euclidean
distance of the normalised content features), voiced frames among the target's voiced frames and unvoiced
(including silence) among its unvoiced ones, as kNN-VC matches WavLM frames (Baas et al. 2023) but on CPU
features."""

from __future__ import annotations

import numpy as np

CHUNK = 2048   # source frames per distance block (bounds memory: CHUNK x pool frames floats)


def nearest(query: np.ndarray, base: np.ndarray, k: int) -> np.ndarray:
    """(len(query), k) indices into `base` of each query row's k nearest rows (fewer rows: all of them, repeated)."""
    n = len(base)
    if n == 0:
        raise ValueError("no target frames to choose from")
    k_eff = min(k, n)
    bb = np.einsum("ij,ij->i", base, base)
    out = np.empty((len(query), k), dtype=np.int64)
    for a in range(0, len(query), CHUNK):
        q = query[a:a + CHUNK]
        d = bb[None, :] - 2.0 * q @ base.T
        idx = np.argpartition(d, k_eff - 1, axis=1)[:, :k_eff] if k_eff < n else np.tile(np.arange(n), (len(q), 1))
        if k_eff < k:   # too few frames: repeat the nearest ones so every frame averages k entries
            idx = np.concatenate([idx, np.repeat(idx[:, :1], k - k_eff, axis=1)], axis=1)
        out[a:a + CHUNK] = idx
    return out


def select(src_content: np.ndarray, src_voiced: np.ndarray, tgt_content: np.ndarray, tgt_voiced: np.ndarray,
           k: int) -> np.ndarray:
    """(T, k) indices into the target frames: voiced source frames matched among voiced target frames, unvoiced
    among unvoiced (the whole target when it has none of the kind)."""
    out = np.empty((len(src_content), k), dtype=np.int64)
    for want in (True, False):
        rows = np.flatnonzero(src_voiced == want)
        if not len(rows):
            continue
        cand = np.flatnonzero(tgt_voiced == want)
        if not len(cand):
            cand = np.arange(len(tgt_voiced))
        out[rows] = cand[nearest(src_content[rows], tgt_content[cand], k)]
    return out


__all__ = ["nearest", "select"]
