"""Soft phonetic classes for VTLN (issue 19): each voiced frame's class as a posterior over the source's k-means
classes instead of the nearest centroid.

With hard assignment, a frame near the border of two classes switches between their warping factors and, with the
class-mean replacement (pydeid.voice.vtln.class_residual), between their (paired) target class spectra: a frame
mis-assigned to the class of another phone gets that phone's target spectrum, moving its formants. With posteriors,
the frame's warping factor and its source and target class spectra are the posterior-weighted means over the
classes, so a frame between two classes gets a mixture and the output changes smoothly along the frame's cepstra.

The posterior of class c for a frame with squared cepstral distances d_c to the centroids is

    p_c = exp(-(d_c - min d) / (tau * s)) / sum_c' exp(-(d_c' - min d) / (tau * s))

where s is the mean over the utterance's voiced frames of the nearest-centroid distance (the scale of a typical
within-class distance, so that the temperature tau is unit-free) and tau = class_temperature. tau -> 0 is the
nearest centroid (exactly: the other classes' weights underflow to 0); large tau tends to the uniform mixture.
"""

from __future__ import annotations

import numpy as np


def class_posteriors(dist: np.ndarray, temperature: float) -> np.ndarray:
    """(n, k) posteriors of the module docstring from (n, k) squared distances; temperature 0 gives the one-hot
    nearest class."""
    dist = np.asarray(dist, dtype=np.float64)
    if dist.ndim != 2 or dist.shape[1] < 1:
        raise ValueError("dist must be an (n frames, k classes) array")
    if temperature < 0:
        raise ValueError(f"class temperature must be >= 0, got {temperature}")
    n, k = dist.shape
    nearest = dist.argmin(axis=1)
    if temperature == 0 or n == 0:
        out = np.zeros((n, k))
        out[np.arange(n), nearest] = 1.0
        return out
    excess = dist - dist[np.arange(n), nearest][:, None]
    scale = float(dist[np.arange(n), nearest].mean())
    if scale <= 0:
        scale = 1.0
    with np.errstate(under="ignore"):
        w = np.exp(-excess / (temperature * scale))
    return w / w.sum(axis=1, keepdims=True)
