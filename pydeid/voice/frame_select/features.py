"""The frame features of frame selection, from one WORLD analysis: what the output is made of (the coded envelope
and aperiodicity of target frames) and what frames are matched on (their content, normalised per speaker).

- envelope: WORLD's coded spectral envelope (a mel-cepstrum, pyworld.code_spectral_envelope): averaging frames in
  this log domain gives a smooth envelope; decoding it back is the only transform applied to target frames;
- aperiodicity: WORLD's band-coded aperiodicity (pyworld.code_aperiodicity), averaged and decoded the same way;
- content: the first n_content mel-cepstral coefficients, mean/variance-normalised over one speaker's frames (a
  pool speaker's, or the source utterance's), with their deltas: the speaker's average spectrum and spread removed,
  what is left is mostly which sound is spoken. Matching on these, not on raw spectra, makes the chosen target
  frames the ones saying the same thing rather than the ones sounding most like the source.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..world import WorldFeatures


@dataclass
class Frames:
    mcep: np.ndarray     # (T, n_mcep) coded envelope
    bap: np.ndarray      # (T, B) coded aperiodicity
    voiced: np.ndarray   # (T,) bool
    f0: np.ndarray       # (T,) Hz, 0 = unvoiced


def code_frames(feats: WorldFeatures, n_mcep: int) -> Frames:
    import pyworld as pw
    sp = np.maximum(feats.sp, 1e-16)   # a digital-silence frame has a zero envelope: keep the log finite
    mcep = pw.code_spectral_envelope(np.ascontiguousarray(sp), feats.sr, n_mcep)
    bap = pw.code_aperiodicity(np.ascontiguousarray(feats.ap), feats.sr)
    return Frames(mcep=mcep.astype(np.float32), bap=bap.astype(np.float32), voiced=feats.f0 > 0,
                  f0=feats.f0.astype(np.float32))


def decode(mcep: np.ndarray, bap: np.ndarray, sr: int, fft_size: int) -> tuple[np.ndarray, np.ndarray]:
    """(envelope, aperiodicity) of coded frames, as WORLD's synthesis takes them."""
    import pyworld as pw
    sp = pw.decode_spectral_envelope(np.ascontiguousarray(mcep, dtype=np.float64), sr, fft_size)
    ap = pw.decode_aperiodicity(np.ascontiguousarray(bap, dtype=np.float64), sr, fft_size)
    return sp, np.clip(ap, 0.001, 1.0)


def content(mcep: np.ndarray, n_content: int, delta_weight: float, stats=None) -> np.ndarray:
    """Normalised mel-cepstra (first n_content) and their +-2-frame deltas, weighted, of one utterance (`mcep` in
    time order); stats: the (mean, std) of its speaker's frames (default: of these frames)."""
    c = np.asarray(mcep[:, :n_content], dtype=np.float64)
    mu, sd = stats if stats is not None else (c.mean(axis=0), c.std(axis=0) + 1e-6)
    c = (c - mu) / sd
    if delta_weight <= 0:
        return c.astype(np.float32)
    p = np.pad(c, ((2, 2), (0, 0)), mode="edge")
    d = (p[4:] - p[:-4]) / 4.0
    return np.hstack([c, delta_weight * d]).astype(np.float32)
