"""Helpers shared by the voice tests (imported by module name: pytest puts this folder on sys.path)."""

from __future__ import annotations

import numpy as np


def spectral_centroid(wav: np.ndarray, sr: int = 16000) -> float:
    """Mean spectral centroid (Hz) of the frames within 30 dB of the loudest one."""
    frames = np.lib.stride_tricks.sliding_window_view(np.asarray(wav, np.float64), 512)[::160] * np.hanning(512)
    S = np.abs(np.fft.rfft(frames, axis=1)) ** 2
    f = np.fft.rfftfreq(512, 1 / sr)
    e = S.sum(1)
    keep = e > e.max() * 1e-3
    return float(((S[keep] @ f) / S[keep].sum(1)).mean())


def median_f0(wav: np.ndarray, sr: int = 16000) -> float:
    from pydeid.voice.world import WorldConfig, analyze
    f0 = analyze(wav, sr, WorldConfig()).f0
    return float(np.exp(np.median(np.log(f0[f0 > 0]))))
