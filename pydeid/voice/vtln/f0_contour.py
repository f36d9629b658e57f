"""The F0 contour's shape after the F0 mapping (an add-on of the VTLN plan: f0_smooth_frames).

The log-Gaussian mapping (f0_map) moves the log-F0 mean and std to the target's, but keeps the source's contour
shape: its micro-prosody, jitter and fast pitch movements, which a speaker verifier with VAD still sees in the
voiced frames. Smoothing log-F0 with a moving average of n frames inside each voiced run (the run's mean kept,
the run's edges padded with its own end values) removes the shape below that time scale and keeps the slower
intonation; an n longer than every run flattens each run to its mean.
"""

from __future__ import annotations

import numpy as np


def check_options(smooth_frames) -> None:
    if isinstance(smooth_frames, bool) or not isinstance(smooth_frames, int) or not 0 <= smooth_frames <= 10000:
        raise ValueError(f"f0_smooth_frames must be an integer in [0, 10000] (0: off), got {smooth_frames!r}")


def voiced_runs(f0: np.ndarray) -> list[tuple[int, int]]:
    """[start, end) of every run of consecutive voiced frames (f0 > 0)."""
    v = np.concatenate([[False], np.asarray(f0) > 0, [False]])
    edges = np.flatnonzero(v[1:] != v[:-1])
    return list(zip(edges[::2], edges[1::2]))


def smooth_contour(f0: np.ndarray, smooth_frames: int) -> np.ndarray:
    """f0 (Hz, 0 = unvoiced) with log-F0 smoothed inside each voiced run; unvoiced frames stay 0."""
    out = np.array(f0, dtype=float, copy=True)
    if smooth_frames <= 1:
        return out
    for a, b in voiced_runs(out):
        lf = np.log(out[a:b])
        if b - a <= smooth_frames:   # the whole run inside one window: its mean
            out[a:b] = np.exp(lf.mean())
            continue
        half = smooth_frames // 2
        padded = np.pad(lf, (half, smooth_frames - 1 - half), mode="edge")
        sm = np.convolve(padded, np.ones(smooth_frames) / smooth_frames, "valid")
        out[a:b] = np.exp(sm - sm.mean() + lf.mean())   # the run's mean log-F0 kept exactly
    return out
