"""VoiceMask (Qian et al. 2017/2018): random frequency warping of the WORLD envelope plus a pitch shift.

The warp is the composition quadratic(bilinear(omega, alpha), beta). Per utterance (strategy 3, as in seed 004
section 4.1.2) |alpha| is drawn uniformly in `alpha_range` with a random sign, then beta uniformly among the values
of a grid over `beta_range` whose composed warp has a distortion strength (integral of |w(omega) - omega| over
[0, pi]) inside `distortion_band`. Pitch: F0 multiplied by 2^(s/12) with s drawn uniformly in
`pitch_semitones_range`, signed like the net formant shift (formants down -> pitch down) so that the converted
voice stays plausible (`pitch_mode: shift`, the default). `pitch_mode: target` instead maps the source speaker's
log-F0 mean/std onto those of a target speaker drawn from a pool (log-Gaussian normalised conversion, as the
COMPRISE tool's VoiceMask does): the source's own F0 level and range, which a semitone shift keeps, are removed.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .common import convert_log_f0
from .method import VoiceMethod
from .target_modes import MODES as TARGET_SELECTIONS
from .warping import bin_omegas, distortion_strength, invert_on_grid, voicemask_warp, warp_envelope
from .world import WorldConfig, analyze, finalize, synthesize


DEFAULT_FRAME_PERIOD = 10.0


@dataclass(frozen=True)
class VoiceMaskParams:
    """What the builder produces (no target-speaker data is needed: VoiceMask draws its parameters)."""
    alpha_range: tuple[float, float] = (0.08, 0.10)
    beta_range: tuple[float, float] = (-2.0, 2.0)
    beta_step: float = 0.001
    distortion_band: tuple[float, float] = (0.32, 0.40)
    pitch_semitones_range: tuple[float, float] = (2.0, 4.0)
    pitch_mode: str = "shift"     # shift: F0 x 2^(s/12); target: source log-F0 stats -> a pool speaker's


PITCH_MODES = ("shift", "target")


def build_voicemask(**overrides) -> VoiceMaskParams:
    """Builder of seed 004 A.6 for VoiceMask: validated parameter ranges."""
    p = VoiceMaskParams(**{k: tuple(v) if isinstance(v, list) else v for k, v in overrides.items()})
    if p.pitch_mode not in PITCH_MODES:
        raise ValueError(f"pitch_mode must be one of {', '.join(PITCH_MODES)}: {p.pitch_mode!r}")
    if not (0 <= p.alpha_range[0] <= p.alpha_range[1] < 1):
        raise ValueError(f"alpha_range must lie in [0, 1): {p.alpha_range}")
    if not (-np.pi < p.beta_range[0] <= p.beta_range[1] < np.pi):
        raise ValueError(f"beta_range must lie in (-pi, pi) to keep the warp monotonic: {p.beta_range}")
    return p


def draw_voicemask(params: VoiceMaskParams, rng: np.random.Generator) -> dict:
    """Draw one utterance's (alpha, beta, pitch_ratio); vectorised over the beta grid."""
    lo, hi = params.alpha_range
    alpha = float(rng.uniform(lo, hi)) * (1.0 if rng.random() < 0.5 else -1.0)
    omega = bin_omegas(257)
    betas = np.arange(params.beta_range[0], params.beta_range[1] + 1e-12, params.beta_step)
    warps = voicemask_warp(omega[None, :], alpha, betas[:, None])
    dist = distortion_strength(warps, omega)
    ok = np.flatnonzero((dist >= params.distortion_band[0]) & (dist <= params.distortion_band[1]))
    if len(ok):
        i = int(ok[rng.integers(len(ok))])
    else:  # band unreachable with this alpha: take the beta closest to the band
        i = int(np.argmin(np.abs(dist - np.mean(params.distortion_band))))
    beta = float(betas[i])
    # net formant direction: mean displacement of the warp (positive = formants up)
    direction = 1.0 if float(np.mean(warps[i] - omega)) >= 0 else -1.0
    semis = float(rng.uniform(*params.pitch_semitones_range)) * direction
    return {"alpha": alpha, "beta": beta, "pitch_ratio": float(2.0 ** (semis / 12.0)),
            "distortion": float(dist[i])}


class VoiceMaskTransformer:
    """fit() is a no-op kept for the common API (VoiceMask needs nothing from the source speaker)."""

    def __init__(self, params: VoiceMaskParams = VoiceMaskParams(), world: WorldConfig | None = None,
                 seed: int = 0):
        # 10 ms frames by default: meets the one-core real-time-factor target of 0.04 (5 ms: ~0.045) for a
        # copy-synthesis cost of ~0.4 dB log-spectral distance (bench/results/voice.md)
        world = world or WorldConfig(frame_period=DEFAULT_FRAME_PERIOD)
        self.params = params
        self.world = world
        self.rng = np.random.default_rng(seed)

    def fit(self, utterances=None, sr: int = 16000) -> "VoiceMaskTransformer":
        return self

    def transform(self, wav: np.ndarray, sr: int = 16000, draw: dict | None = None,
                  f0: np.ndarray | None = None) -> np.ndarray:
        """Convert one waveform; `draw` fixes (alpha, beta, pitch_ratio), otherwise they are drawn now.
        pitch_mode target: `draw` must also hold source_log_f0 and target_log_f0 (mean, std of log F0).
        `f0`: the waveform's F0 track already estimated with this transformer's WORLD settings (not again)."""
        draw = draw or draw_voicemask(self.params, self.rng)
        feats = analyze(wav, sr, self.world, f0=f0)
        omega = bin_omegas(feats.sp.shape[1])
        read = invert_on_grid(voicemask_warp(omega, draw["alpha"], draw["beta"]), omega)
        sp = warp_envelope(feats.sp, read)
        if self.params.pitch_mode == "target":
            if "source_log_f0" not in draw or "target_log_f0" not in draw:
                raise ValueError("voicemask pitch_mode target needs the source and target log-F0 statistics")
            f0 = convert_log_f0(feats.f0, tuple(draw["source_log_f0"]), tuple(draw["target_log_f0"]))
        else:
            f0 = feats.f0 * draw["pitch_ratio"]
        return finalize(synthesize(feats, f0=f0, sp=sp), wav)


def _pitch_pool(params: VoiceMaskParams) -> bool:
    return params.pitch_mode == "target"


METHOD = VoiceMethod(
    name="voicemask", params=VoiceMaskParams, build=build_voicemask, draw=draw_voicemask,
    transformer=lambda params, world: VoiceMaskTransformer(params, world),
    summary="WORLD envelope warped by a quadratic-bilinear function drawn per utterance, F0 shifted (Qian et al.)",
    frame_period=DEFAULT_FRAME_PERIOD, config_keys={"target_selection": TARGET_SELECTIONS}, gendered=True,
    pitch_pool=_pitch_pool)

__all__ = ["METHOD", "VoiceMaskParams", "build_voicemask", "draw_voicemask", "VoiceMaskTransformer"]
