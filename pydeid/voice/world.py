"""WORLD analysis/synthesis on pyworld: F0 (dio+stonemask or harvest), envelope (cheaptrick), aperiodicity (d4c).

Every voice method here edits WORLD features and resynthesises; this module is the only place calling pyworld.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

F0_METHODS = ("dio", "harvest")
# the analysis options beyond the legacy three (f0_method, frame_period, fft_size): a plan or a pool records them
# only when they differ from these defaults, so the plans, pools and outputs of the default settings stay as before
EXTRA_DEFAULTS = {"f0_floor": 71.0, "f0_ceil": 800.0, "stonemask": True, "dio_speed": 1,
                  "dio_channels_in_octave": 2.0, "dio_allowed_range": 0.1, "cheaptrick_q1": -0.15,
                  "d4c_threshold": 0.85}


def _number(name, v, lo=None, hi=None, integer=False):
    ok = not isinstance(v, bool) and isinstance(v, (int, float)) and np.isfinite(v) and \
        (not integer or float(v).is_integer()) and (lo is None or v >= lo) and (hi is None or v <= hi)
    if not ok:
        what = "an integer" if integer else "a number"
        rng = f" in [{lo:g}, {hi:g}]" if lo is not None and hi is not None else \
            f" >= {lo:g}" if lo is not None else ""
        raise ValueError(f"{name} must be {what}{rng}, got {v!r}")


@dataclass(frozen=True)
class WorldConfig:
    f0_method: str = "dio"        # dio+stonemask (fast, default) or harvest (~15-40x slower; see bench/results/voice.md)
    frame_period: float = 5.0     # ms
    fft_size: int | None = None   # None: pyworld's default for the rate and f0_floor (1024 at 16 kHz)
    f0_floor: float = 71.0        # Hz, the F0 search range of dio/harvest only (the envelope's FFT size stays the
    f0_ceil: float = 800.0        # one of the default floor: cheaptrick and d4c must agree on it)
    stonemask: bool = True        # dio only: refine dio's F0 by StoneMask
    dio_speed: int = 1            # dio only: decimation of the signal it analyses (1..12; 1: none)
    dio_channels_in_octave: float = 2.0   # dio only: bands per octave
    dio_allowed_range: float = 0.1        # dio only: voicing threshold (lower: more frames unvoiced)
    cheaptrick_q1: float = -0.15  # cheaptrick's spectral recovery parameter
    d4c_threshold: float = 0.85   # d4c's own voiced/unvoiced decision (0: every F0-voiced frame stays voiced;
                                  # > 0: frames it finds aperiodic get aperiodicity 1, i.e. noise)

    def __post_init__(self):
        if self.f0_method not in F0_METHODS:
            raise ValueError(f"f0_method must be one of {F0_METHODS}, got {self.f0_method!r}")
        if isinstance(self.frame_period, bool) or not isinstance(self.frame_period, (int, float)) \
                or not self.frame_period > 0:
            raise ValueError("frame_period must be positive")
        if self.fft_size is not None:
            v = self.fft_size
            if isinstance(v, bool) or not isinstance(v, int) or v < 128 or v & (v - 1):
                raise ValueError(f"fft_size must be a power of two >= 128, got {v!r}")
        _number("f0_floor", self.f0_floor, 20.0, 1000.0)
        _number("f0_ceil", self.f0_ceil, 40.0, 2000.0)
        if self.f0_ceil <= self.f0_floor:
            raise ValueError(f"f0_ceil ({self.f0_ceil:g}) must be above f0_floor ({self.f0_floor:g})")
        if not isinstance(self.stonemask, bool):
            raise ValueError(f"stonemask must be true or false, got {self.stonemask!r}")
        _number("dio_speed", self.dio_speed, 1, 12, integer=True)
        _number("dio_channels_in_octave", self.dio_channels_in_octave, 1.0, 12.0)
        _number("dio_allowed_range", self.dio_allowed_range, 0.0, 1.0)
        _number("cheaptrick_q1", self.cheaptrick_q1, -1.0, 1.0)
        _number("d4c_threshold", self.d4c_threshold, 0.0, 1.0)
        if self.f0_method != "dio":
            for k in ("stonemask", "dio_speed", "dio_channels_in_octave", "dio_allowed_range"):
                if getattr(self, k) != EXTRA_DEFAULTS[k]:
                    raise ValueError(f"{k} applies to f0_method dio only")

    def extras(self) -> dict:
        """The options beyond (f0_method, frame_period, fft_size) that differ from their defaults."""
        return {k: getattr(self, k) for k, d in EXTRA_DEFAULTS.items() if getattr(self, k) != d}

    def to_dict(self) -> dict:
        """What a plan records: the legacy three always, the other options when not at their default."""
        return {"f0_method": self.f0_method, "frame_period": self.frame_period, "fft_size": self.fft_size,
                **self.extras()}


def f0_track(x: np.ndarray, sr: int, cfg: "WorldConfig") -> tuple[np.ndarray, np.ndarray]:
    """The F0 track (Hz, 0 = unvoiced) and its frame times (s) by cfg's estimator and options."""
    import pyworld as pw
    x = np.ascontiguousarray(x, dtype=np.float64)
    if cfg.f0_method == "dio":
        f0, t = pw.dio(x, sr, f0_floor=cfg.f0_floor, f0_ceil=cfg.f0_ceil, frame_period=cfg.frame_period,
                       channels_in_octave=cfg.dio_channels_in_octave, speed=int(cfg.dio_speed),
                       allowed_range=cfg.dio_allowed_range)
        if cfg.stonemask:
            f0 = pw.stonemask(x, f0, t, sr)
        return f0, t
    return pw.harvest(x, sr, f0_floor=cfg.f0_floor, f0_ceil=cfg.f0_ceil, frame_period=cfg.frame_period)


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
    else:
        f0, t = f0_track(x, sr, cfg)
    kw = {"fft_size": cfg.fft_size} if cfg.fft_size else {}
    # cheaptrick derives its FFT size from its f0_floor, d4c from the default floor: keep the default here, so that
    # another F0 search range neither changes the envelope's resolution nor mismatches the aperiodicity's
    sp = pw.cheaptrick(x, f0, t, sr, q1=cfg.cheaptrick_q1, f0_floor=EXTRA_DEFAULTS["f0_floor"], **kw)
    ap = pw.d4c(x, f0, t, sr, threshold=cfg.d4c_threshold, **kw)
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
