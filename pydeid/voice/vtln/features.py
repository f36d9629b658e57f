"""The VTLN building blocks that the conversion (core) and its add-ons (class_residual, phone_classes,
unvoiced_classes, speaker_subspace) share: cepstral basis, level-normalised log envelopes, speech frames, warped
class spectra, the k-means speaker model and its class-by-class alignment to a target. Nothing here imports the
conversion or an add-on, so the add-ons sit between this module and the core without an import cycle."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..common import log_f0_stats
from ..warping import bilinear, bin_omegas, warp_log_envelope

N_CEPS = 24
MAX_ALPHA = 0.4     # |warping factor| after the jitter offset (a bilinear warp needs |alpha| < 1)


@dataclass
class SpeakerModel:
    centroids: np.ndarray      # (k, N_CEPS) cepstral centroids, for assigning frames to classes
    class_spectra: np.ndarray  # (k, F) mean level-normalised log envelopes
    class_weights: np.ndarray  # (k,) share of frames per class
    log_f0: tuple[float, float]
    n_frames: int = 0
    unvoiced_spectra: np.ndarray | None = None   # phone classes: (pydeid.voice.vtln.unvoiced_classes.K, F)
    unvoiced_levels: np.ndarray | None = None    # and their levels relative to the speech frames'

    def to_arrays(self, prefix: str) -> dict[str, np.ndarray]:
        out = {f"{prefix}/centroids": self.centroids, f"{prefix}/class_spectra": self.class_spectra,
               f"{prefix}/class_weights": self.class_weights, f"{prefix}/log_f0": np.array(self.log_f0),
               f"{prefix}/n_frames": np.array(self.n_frames)}
        if self.unvoiced_spectra is not None:
            out[f"{prefix}/unvoiced_spectra"] = self.unvoiced_spectra
            out[f"{prefix}/unvoiced_levels"] = self.unvoiced_levels
        return out

    @classmethod
    def from_arrays(cls, arrays, prefix: str) -> "SpeakerModel":
        lf = arrays[f"{prefix}/log_f0"]
        names = arrays.files if hasattr(arrays, "files") else arrays
        uv = [arrays[f"{prefix}/unvoiced_{n}"] if f"{prefix}/unvoiced_spectra" in names else None
              for n in ("spectra", "levels")]
        return cls(arrays[f"{prefix}/centroids"], arrays[f"{prefix}/class_spectra"],
                   arrays[f"{prefix}/class_weights"], (float(lf[0]), float(lf[1])),
                   int(arrays[f"{prefix}/n_frames"]), *uv)


def dct_basis(n_bins: int, n_ceps: int = N_CEPS) -> np.ndarray:
    k = np.arange(1, n_ceps + 1)[None, :]       # c0 (level) is excluded: classes are about spectral shape
    n = np.arange(n_bins)[:, None]
    return np.cos(np.pi * k * (n + 0.5) / n_bins) * np.sqrt(2.0 / n_bins)


def normalised_log(sp: np.ndarray) -> np.ndarray:
    lg = np.log(np.maximum(sp, 1e-30))
    return lg - lg.mean(axis=1, keepdims=True)


def speech_frames(feats, min_rel_db: float = -40.0) -> np.ndarray:
    """Voiced frames whose energy is within min_rel_db of the utterance's loudest frame."""
    e = 10 * np.log10(np.maximum(feats.sp.mean(axis=1), 1e-30))
    return feats.voiced & (e > e.max() + min_rel_db)


def speaker_model(feature_iter, k: int = 8, seed: int = 0, max_frames: int = 10000) -> SpeakerModel:
    """Class spectra and log-F0 statistics of one speaker from WorldFeatures (an iterable: only the speech frames'
    normalised log envelopes (float32) and voiced F0 values are kept, so memory stays small)."""
    from scipy.cluster.vq import kmeans2
    logs, f0s = [], []
    for f in feature_iter:
        logs.append(normalised_log(f.sp[speech_frames(f)]).astype(np.float32))
        f0s.append(f.f0[f.f0 > 0])
    L = np.concatenate(logs) if logs else np.zeros((0, 1), np.float32)
    if len(L) < 2 * k:
        raise ValueError(f"only {len(L)} voiced speech frames: too few for {k} classes")
    rng = np.random.default_rng(seed)
    if len(L) > max_frames:
        L = L[np.sort(rng.choice(len(L), max_frames, replace=False))]
    L = L.astype(np.float64)
    C = L @ dct_basis(L.shape[1])
    centroids, labels = kmeans2(C, k, minit="++", seed=rng, iter=20)
    counts = np.bincount(labels, minlength=k).astype(np.float64)
    spectra = np.stack([L[labels == j].mean(axis=0) if counts[j] else L.mean(axis=0) for j in range(k)])
    return SpeakerModel(centroids, spectra, counts / counts.sum(), log_f0_stats(f0s), int(len(L)))


def warp_candidates(spectra: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """(A, k, F): every class spectrum warped by every grid factor, re-normalised in level."""
    k, F = spectra.shape
    omega = bin_omegas(F)
    read = bilinear(omega[None, :], -np.repeat(grid, k)[:, None])          # (A*k, F) inverse warps
    w = warp_log_envelope(np.tile(spectra, (len(grid), 1)), read).reshape(len(grid), k, F)
    return w - w.mean(axis=2, keepdims=True)


def align(source: SpeakerModel, target: SpeakerModel, grid: np.ndarray, max_dev: float = 0.1) -> dict:
    """Per-source-class warping factors towards `target` (see module docstring) and the global factor."""
    from scipy.optimize import linear_sum_assignment
    ms = (source.class_weights[:, None] * source.class_spectra).sum(0, keepdims=True)
    mt = (target.class_weights[:, None] * target.class_spectra).sum(0, keepdims=True)
    mt = mt - mt.mean()
    g = ((warp_candidates(ms, grid)[:, 0, :] - mt) ** 2).mean(axis=1)
    a0 = int(g.argmin())
    W = warp_candidates(source.class_spectra, grid)                       # (A, k, F)
    d = ((W[:, :, None, :] - target.class_spectra[None, None, :, :]) ** 2).mean(axis=3)   # (A, k, k)
    rows, cols = linear_sum_assignment(d[a0])
    near = np.abs(grid - grid[a0]) <= max_dev + 1e-9
    dp = d[:, rows, cols]                                                  # (A, k): each class vs its pair
    dp[~near] = np.inf
    alphas = np.empty(len(rows))
    alphas[rows] = grid[dp.argmin(axis=0)]
    return {"alphas": alphas, "pairs": cols.astype(int), "global_alpha": float(grid[a0]),
            "distance": float(d[a0, rows, cols].mean())}


def voiced_smooth(x: np.ndarray, voiced: np.ndarray, n: int) -> np.ndarray:
    """Moving average over n frames of the rows of x, counting voiced frames only (rows of unvoiced frames are
    returned as they are)."""
    if n <= 1:
        return x
    w = voiced.astype(np.float64)
    kern = np.ones(n)
    num = np.apply_along_axis(lambda c: np.convolve(c, kern, "same"), 0, x * w[:, None])
    den = np.convolve(w, kern, "same")
    out = x.copy()
    v = voiced & (den > 0)
    out[v] = num[v] / den[v, None]
    return out


__all__ = ["N_CEPS", "MAX_ALPHA", "SpeakerModel", "dct_basis", "normalised_log", "speech_frames", "speaker_model",
           "warp_candidates", "align", "voiced_smooth"]
