"""Shared helpers: per-key seeded random generators (independent of job split and order)."""

from __future__ import annotations

import hashlib

import numpy as np


def rng_for(seed: int, *keys: str) -> np.random.Generator:
    """A generator determined by the global seed and string keys (e.g. an utterance id), not by Python's hash."""
    h = hashlib.sha256(("\x1f".join([str(int(seed)), *map(str, keys)])).encode("utf-8")).digest()
    return np.random.default_rng(int.from_bytes(h[:8], "little"))


def log_f0_stats(f0s) -> tuple[float, float]:
    """Mean and std of log F0 over the voiced frames of one or several F0 tracks."""
    v = np.concatenate([np.asarray(f)[np.asarray(f) > 0] for f in f0s]) if len(f0s) else np.zeros(0)
    if len(v) < 2:
        raise ValueError("not enough voiced frames to estimate log-F0 statistics")
    lf = np.log(v)
    return float(lf.mean()), float(max(lf.std(), 1e-3))


def convert_log_f0(f0: np.ndarray, source: tuple[float, float], target: tuple[float, float]) -> np.ndarray:
    """Log-Gaussian normalised F0 conversion on voiced frames; unvoiced frames stay 0."""
    out = np.zeros_like(f0)
    v = f0 > 0
    out[v] = np.exp((np.log(f0[v]) - source[0]) / source[1] * target[1] + target[0])
    return out
