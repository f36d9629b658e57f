"""Energy voice-activity detection as Kaldi's compute-vad decides it (ivector/voice-activity-detection.cc), the
front-end of Kaldi's x-vector recipes: a frame is speech when its log energy (MFCC c0 with use-energy, raw-energy)
exceeds vad-energy-threshold + vad-energy-mean-scale * (mean log energy of the utterance).

Framing as Kaldi's MFCC of those recipes (16 kHz: 25 ms windows every 10 ms, snip-edges=false: frame t is centred
on the 10 ms hop t), energy of the frame after DC removal, before pre-emphasis and windowing, on the int16 sample
scale the thresholds were tuned on. Kaldi dithers (scale 1): its expected energy (one per sample) is added instead
of random noise, so that digital silence has a finite log energy and the result is deterministic.

Kaldi's context loop tests the energy of frame t itself for every neighbour t2, so with a proportion threshold in
(0, 1) its decision is "log_energy[t] > threshold" whatever vad-frames-context is; `voiced_frames` keeps that
behaviour (the options are taken so that a configuration reads as Kaldi's).
"""

from __future__ import annotations

import numpy as np

ENERGY_THRESHOLD = 5.5     # vad-energy-threshold (Kaldi's x-vector recipes, conf/vad.conf)
MEAN_SCALE = 0.5           # vad-energy-mean-scale
FRAMES_CONTEXT = 2         # vad-frames-context
PROPORTION = 0.12          # vad-proportion-threshold
FRONT_ENDS = ("energy", "none")


def frame_log_energy(wav: np.ndarray, sr: int = 16000, frame_ms: float = 25.0, shift_ms: float = 10.0) -> np.ndarray:
    """Log energy of each frame (Kaldi raw energy, int16 scale, expected dither energy added)."""
    shift = int(round(sr * shift_ms / 1000))
    length = int(round(sr * frame_ms / 1000))
    n = len(wav)
    n_frames = (n + shift // 2) // shift   # snip-edges=false
    if n_frames == 0:
        return np.zeros(0)
    x = np.asarray(wav, dtype=np.float64) * 32768.0
    # snip-edges=false: frame t starts at t*shift + shift/2 - length/2, edges mirrored
    pad = length
    xp = np.pad(x, pad, mode="symmetric") if n > 1 else np.pad(x, pad, mode="edge")
    starts = np.arange(n_frames) * shift + shift // 2 - length // 2 + pad
    idx = starts[:, None] + np.arange(length)[None, :]
    frames = xp[idx]
    frames = frames - frames.mean(axis=1, keepdims=True)
    energy = (frames ** 2).sum(axis=1) + length * 1.0
    return np.log(np.maximum(energy, np.finfo(np.float32).eps))


def voiced_frames(log_energy: np.ndarray, energy_threshold: float = ENERGY_THRESHOLD,
                  mean_scale: float = MEAN_SCALE, frames_context: int = FRAMES_CONTEXT,
                  proportion: float = PROPORTION) -> np.ndarray:
    """Boolean speech mask of compute-vad for one utterance's frame log energies."""
    e = np.asarray(log_energy, dtype=np.float64)
    T = len(e)
    if T == 0:
        return np.zeros(0, bool)
    if not 0 < proportion < 1 or frames_context < 0 or mean_scale < 0:
        raise ValueError("need 0 < proportion < 1, frames_context >= 0, mean_scale >= 0")
    thr = energy_threshold + (mean_scale * e.mean() if mean_scale else 0.0)
    above = e > thr
    # den = frames of the window inside the utterance; num = den when frame t itself is above (Kaldi's loop)
    t = np.arange(T)
    den = np.minimum(t + frames_context, T - 1) - np.maximum(t - frames_context, 0) + 1
    num = np.where(above, den, 0)
    return num >= den * proportion


def apply_vad(wav: np.ndarray, sr: int = 16000, front_end: str = "energy", shift_ms: float = 10.0) -> np.ndarray:
    """The speech of an utterance: the 10 ms hops of its voiced frames, concatenated ("none": unchanged). An
    utterance without any voiced frame is kept whole (Kaldi would drop it; an embedding is still owed)."""
    if front_end == "none":
        return wav
    if front_end != "energy":
        raise ValueError(f"unknown front-end '{front_end}' (known: {', '.join(FRONT_ENDS)})")
    mask = voiced_frames(frame_log_energy(wav, sr, shift_ms=shift_ms))
    if not mask.any():
        return wav
    shift = int(round(sr * shift_ms / 1000))
    keep = np.repeat(mask, shift)[:len(wav)]
    if len(keep) < len(wav):   # the tail shorter than half a hop belongs to the last frame
        keep = np.concatenate([keep, np.full(len(wav) - len(keep), mask[-1])])
    return wav[keep]
