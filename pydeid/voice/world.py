"""WORLD analysis/synthesis on pyworld: F0 (dio+stonemask or harvest), envelope (cheaptrick), aperiodicity (d4c).

Every voice method here edits WORLD features and resynthesises; this module is the only place calling pyworld.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

F0_METHODS = ("dio", "harvest")


@dataclass(frozen=True)
class WorldConfig:
    f0_method: str = "dio"        # dio+stonemask (fast, default) or harvest (~15-40x slower; see bench/results/voice.md)
    frame_period: float = 5.0     # ms
    fft_size: int | None = None   # None: pyworld's default for the rate and f0_floor (1024 at 16 kHz)
    f0_floor: float = 71.0
    f0_ceil: float = 800.0

    def __post_init__(self):
        if self.f0_method not in F0_METHODS:
            raise ValueError(f"f0_method must be one of {F0_METHODS}, got {self.f0_method!r}")
        if self.frame_period <= 0:
            raise ValueError("frame_period must be positive")


@dataclass
class WorldFeatures:
    f0: np.ndarray   # (T,) Hz, 0 = unvoiced
    sp: np.ndarray   # (T, fft_size//2+1) power spectral envelope
    ap: np.ndarray   # (T, fft_size//2+1) aperiodicity in [0, 1]
    sr: int
    frame_period: float
    n_samples: int   # length of the analysed waveform

    @property
    def voiced(self) -> np.ndarray:
        return self.f0 > 0


def analyze(wav: np.ndarray, sr: int, cfg: WorldConfig = WorldConfig(), f0: np.ndarray | None = None) -> WorldFeatures:
    """WORLD analysis. `f0`: this waveform's F0 track as cfg's estimator gives it (e.g. kept from computing the
    speaker's log-F0 statistics), reused instead of estimated again; the features are then the same."""
    import pyworld as pw
    x = np.ascontiguousarray(wav, dtype=np.float64)
    if f0 is not None:
        f0 = np.ascontiguousarray(f0, dtype=np.float64)
        t = np.arange(len(f0)) * cfg.frame_period / 1000.0
    elif cfg.f0_method == "dio":
        f0, t = pw.dio(x, sr, f0_floor=cfg.f0_floor, f0_ceil=cfg.f0_ceil, frame_period=cfg.frame_period)
        f0 = pw.stonemask(x, f0, t, sr)
    else:
        f0, t = pw.harvest(x, sr, f0_floor=cfg.f0_floor, f0_ceil=cfg.f0_ceil, frame_period=cfg.frame_period)
    kw = {"fft_size": cfg.fft_size} if cfg.fft_size else {}
    sp = pw.cheaptrick(x, f0, t, sr, f0_floor=cfg.f0_floor, **kw)
    ap = pw.d4c(x, f0, t, sr, **kw)
    return WorldFeatures(f0=f0, sp=sp, ap=ap, sr=sr, frame_period=cfg.frame_period, n_samples=len(x))


def synthesize(feats: WorldFeatures, f0: np.ndarray | None = None, sp: np.ndarray | None = None,
               ap: np.ndarray | None = None) -> np.ndarray:
    """Resynthesise (optionally with replaced f0/sp/ap); the result has exactly feats.n_samples samples."""
    import pyworld as pw
    f0 = feats.f0 if f0 is None else f0
    sp = feats.sp if sp is None else sp
    ap = feats.ap if ap is None else ap
    y = pw.synthesize(np.ascontiguousarray(f0, dtype=np.float64), np.ascontiguousarray(sp, dtype=np.float64),
                      np.ascontiguousarray(ap, dtype=np.float64), feats.sr, feats.frame_period)
    return fit_length(y, feats.n_samples)


def fit_length(y: np.ndarray, n: int) -> np.ndarray:
    if len(y) >= n:
        return y[:n]
    return np.concatenate([y, np.zeros(n - len(y), dtype=y.dtype)])


def finalize(y: np.ndarray, x: np.ndarray, peak_cap: float = 0.99) -> np.ndarray:
    """Same length as x, finite, float32, peak scaled to the input's peak (never above peak_cap).

    Why the input's peak: the converted voice keeps the loudness range of the original recording, so a masking or
    ASR stage downstream sees comparable levels; the cap keeps 16-bit output free of clipping.
    """
    y = fit_length(np.asarray(y, dtype=np.float64), len(x))
    if not np.all(np.isfinite(y)):
        y = np.nan_to_num(y, nan=0.0, posinf=0.0, neginf=0.0)
    peak_y = float(np.max(np.abs(y))) if len(y) else 0.0
    target = min(float(np.max(np.abs(x))) if len(x) else 0.0, peak_cap)
    if peak_y > 0 and target > 0:
        y = y * (target / peak_y)
    return y.astype(np.float32)
