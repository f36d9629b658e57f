"""Frequency-warping functions on normalised frequency [0, pi] and vectorised warping of spectral envelopes.

Convention: a warping function w maps a source frequency to where it lands in the output (a formant at omega moves
to w(omega)). Applying w to an envelope therefore reads the source at w^-1(nu) for each output bin nu.
All functions map 0 -> 0 and pi -> pi and are monotonic for the parameter ranges used here.
"""

from __future__ import annotations

import numpy as np


def bilinear(omega: np.ndarray, alpha) -> np.ndarray:
    """First-order all-pass (bilinear) warp; alpha > 0 moves formants up, the inverse is bilinear(., -alpha).

    `alpha` may be an array broadcasting against `omega` (e.g. (T, 1) per frame against (F,) bins).
    """
    alpha = np.asarray(alpha, dtype=np.float64)
    return omega + 2.0 * np.arctan2(alpha * np.sin(omega), 1.0 - alpha * np.cos(omega))


def quadratic(omega: np.ndarray, beta) -> np.ndarray:
    """omega + beta * (omega/pi - (omega/pi)^2): monotonic for |beta| < pi; beta > 0 moves formants up."""
    u = omega / np.pi
    return omega + beta * (u - u * u)


def voicemask_warp(omega: np.ndarray, alpha: float, beta: float) -> np.ndarray:
    """VoiceMask (Qian et al.): the quadratic warp applied after the bilinear warp."""
    return quadratic(bilinear(omega, alpha), beta)


def distortion_strength(warp_values: np.ndarray, omega: np.ndarray) -> np.ndarray:
    """Integral over [0, pi] of |w(omega) - omega| (trapezoid; works on the last axis, so batches of warps)."""
    return np.trapezoid(np.abs(warp_values - omega), omega, axis=-1)


def bin_omegas(n_bins: int) -> np.ndarray:
    return np.linspace(0.0, np.pi, n_bins)


def invert_on_grid(warp_values: np.ndarray, omega: np.ndarray) -> np.ndarray:
    """Numerical inverse of one monotonic warp sampled on `omega`: returns w^-1(omega)."""
    return np.interp(omega, warp_values, omega)


def warp_log_envelope(log_sp: np.ndarray, read_omega: np.ndarray) -> np.ndarray:
    """Output bin k takes the (linearly interpolated) log envelope at source frequency read_omega[..., k].

    read_omega is (F,) for one warp shared by all frames, or (T, F) for a per-frame warp; no Python loop over
    frames either way (fancy indexing on the flattened envelope).
    """
    T, F = log_sp.shape
    pos = np.clip(read_omega, 0.0, np.pi) * ((F - 1) / np.pi)
    i0 = np.minimum(np.floor(pos).astype(np.int64), F - 2)
    frac = pos - i0
    if pos.ndim == 1:
        return log_sp[:, i0] * (1.0 - frac) + log_sp[:, i0 + 1] * frac
    rows = np.arange(T)[:, None] * F
    flat = log_sp.reshape(-1)
    return flat[rows + i0] * (1.0 - frac) + flat[rows + i0 + 1] * frac


def warp_envelope(sp: np.ndarray, read_omega: np.ndarray) -> np.ndarray:
    """Warp a power envelope in the log domain (interpolating log power keeps formant shapes and positivity)."""
    log_sp = np.log(np.maximum(sp, 1e-30))
    return np.exp(warp_log_envelope(log_sp, read_omega))
