"""The frame features of frame selection, from one WORLD analysis: what the output is made of (the coded envelope
and aperiodicity of target frames) and what frames are matched on (their content, normalised per speaker).

- envelope: WORLD's coded spectral envelope (a mel-cepstrum, pyworld.code_spectral_envelope): averaging frames in
  this log domain gives a smooth envelope; decoding it back is the only transform applied to target frames;
- aperiodicity: WORLD's band-coded aperiodicity (pyworld.code_aperiodicity: ONE band at 16 kHz), or with
  `ap_bands` N > 0 the aperiodicity in dB averaged over N equal-width frequency bands and interpolated back: the
  spectral shape of the noise is kept (dev WER of phone segments 52 -> 47 % with full-resolution aperiodicity;
  bench/results/voice_frame_select.md), averaged and decoded the same way;
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


AP_FLOOR = 0.001   # the aperiodicity's floor (-60 dB), as WORLD's coding uses


def _band_edges(n_bins: int, bands: int) -> np.ndarray:
    return np.linspace(0, n_bins, bands + 1).round().astype(int)


def code_frames(feats: WorldFeatures, n_mcep: int, ap_bands: int = 0) -> Frames:
    import pyworld as pw
    sp = np.maximum(feats.sp, 1e-16)   # a digital-silence frame has a zero envelope: keep the log finite
    mcep = pw.code_spectral_envelope(np.ascontiguousarray(sp), feats.sr, n_mcep)
    if ap_bands:
        db = 20.0 * np.log10(np.clip(feats.ap, AP_FLOOR, 1.0))
        e = _band_edges(db.shape[1], ap_bands)
        bap = np.stack([db[:, a:b].mean(axis=1) for a, b in zip(e[:-1], e[1:])], axis=1)
    else:
        bap = pw.code_aperiodicity(np.ascontiguousarray(feats.ap), feats.sr)
    return Frames(mcep=mcep.astype(np.float32), bap=bap.astype(np.float32), voiced=feats.f0 > 0,
                  f0=feats.f0.astype(np.float32))


def decode(mcep: np.ndarray, bap: np.ndarray, sr: int, fft_size: int, ap_bands: int = 0) -> tuple[np.ndarray,
                                                                                                   np.ndarray]:
    """(envelope, aperiodicity) of coded frames, as WORLD's synthesis takes them."""
    import pyworld as pw
    sp = pw.decode_spectral_envelope(np.ascontiguousarray(mcep, dtype=np.float64), sr, fft_size)
    if ap_bands:   # band means at the band centres, linear in dB between them
        n_bins = fft_size // 2 + 1
        e = _band_edges(n_bins, ap_bands)
        centres = (e[:-1] + e[1:] - 1) / 2.0
        bins = np.arange(n_bins)
        db = np.stack([np.interp(bins, centres, row) for row in np.asarray(bap, dtype=np.float64)])
        ap = 10.0 ** (db / 20.0)
    else:
        ap = pw.decode_aperiodicity(np.ascontiguousarray(bap, dtype=np.float64), sr, fft_size)
    return sp, np.clip(ap, AP_FLOOR, 1.0)


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
