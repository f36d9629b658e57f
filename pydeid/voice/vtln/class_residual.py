"""Class-mean replacement after VTLN (issue 19): the part of the source's envelope that warping cannot reach.

VTLN moves the source's formants towards the target's by a warping factor per phonetic class, but the warped
envelope keeps the source's own spectral shape within each class (formant bandwidths and levels, spectral tilt,
nasal and glottal colouring): a speaker-verification model still hears them. Weighted frequency warping with
amplitude scaling (Erro, Moreno and Bonafonte, IEEE TASLP 2010) corrects the warped envelope by a per-class
spectral difference; here that difference is the one between the target's class spectrum and the source's class
spectrum warped by the frame's own factor. Per voiced frame t of source class c (all log envelopes level-
normalised, the frame's level kept):

    R_t = warp(S_c, alpha_t)                  the source's class spectrum, warped as the frame is
    M_t = R_t + beta * (T_c - R_t)            the class mean the output gets (beta = class_shift)
    out_t = level_t + M_t + lambda * (Y_t - R_t)   Y_t: the VTLN-warped frame (lambda = residual_scale)

T_c is the target class paired with c by the VTLN alignment (for an averaged pseudo-target, the mean of the N
targets' paired class spectra). beta = 0, lambda = 1 is plain VTLN; beta = 1 gives every class the target's mean
spectrum while keeping the frame's deviation from its class (the phonetic detail the recogniser needs); lambda < 1
shrinks that deviation too (more of the source's within-class detail removed, and some phonetic detail with it).
R and M are averaged over `smooth_frames` neighbouring voiced frames, so that class changes do not click.
Unvoiced frames are left as VTLN made them.

`from_hz` (class_shift_from_hz > 0) makes beta frequency-dependent: 0 below from_hz, rising linearly to class_shift
at 2 * from_hz and above. The recogniser reads the phonetic content mostly from the first three formants (below
~3 kHz), while the upper band (F4 and above, the spectral shape between the formants) is where much of a speaker's
individuality lies and where a mis-paired class costs the recogniser least.
"""

from __future__ import annotations

import numpy as np

from ..warping import bilinear, bin_omegas, warp_log_envelope
from .features import dct_basis, voiced_smooth


def paired_target_spectra(source_k: int, target_models, pairs_list) -> np.ndarray:
    """(k, F): per source class the mean over the targets of the target class paired with it."""
    if not target_models:
        raise ValueError("no target speaker")
    out = np.zeros((source_k, target_models[0].class_spectra.shape[1]))
    for m, pairs in zip(target_models, pairs_list):
        if len(pairs) != source_k:
            raise ValueError(f"alignment pairs {len(pairs)} source classes, the source has {source_k}")
        out += m.class_spectra[np.asarray(pairs, dtype=int)]
    out /= len(target_models)
    return out - out.mean(axis=1, keepdims=True)


def band_profile(n_bins: int, sr: int, from_hz: float) -> np.ndarray:
    """(F,) weight of the class shift per bin: 1 everywhere for from_hz 0, else 0 below from_hz, 1 from 2 *
    from_hz, linear in between."""
    if from_hz <= 0:
        return np.ones(n_bins)
    f = np.linspace(0.0, sr / 2, n_bins)
    return np.clip((f - from_hz) / from_hz, 0.0, 1.0)


def replace_class_means(log_sp_warped: np.ndarray, voiced: np.ndarray, frame_class: np.ndarray,
                        frame_alpha: np.ndarray, source_spectra: np.ndarray, target_spectra: np.ndarray,
                        class_shift: float, residual_scale: float, smooth_frames: int = 5,
                        band: np.ndarray | None = None, posteriors: np.ndarray | None = None,
                        lifter: int = 0) -> np.ndarray:
    """The corrected log envelope (T, F) of the module docstring.

    log_sp_warped: VTLN's warped log envelope (T, F); voiced: (T,) bool; frame_class: (T,) source class of each
    frame (read on voiced frames only); frame_alpha: (T,) the warping factor each frame was warped with;
    source_spectra / target_spectra: (k, F) the source's class spectra and the (paired, level-normalised) target
    class spectra per source class; band: (F,) per-bin factor of class_shift (band_profile), None for 1;
    posteriors: (n voiced, k) soft classes of the voiced frames (pydeid.voice.vtln.soft_classes): a frame's source and
    target class spectra are then the posterior-weighted means over the classes (frame_class is not read);
    lifter: n > 0 keeps of the class difference T_c - R only its first n cepstral coefficients (c1..cn, DCT of the
    log envelope): its broad shape (tilt, the spread of energy over the band) is moved, not its formant-scale
    detail, which is where a class paired with another phone's would move the formants."""
    if not (0.0 <= class_shift <= 1.0 and 0.0 <= residual_scale <= 1.0):
        raise ValueError("class_shift and residual_scale must lie in [0, 1]")
    out = np.array(log_sp_warped, dtype=np.float64, copy=True)
    if class_shift == 0.0 and residual_scale == 1.0 or not voiced.any():
        return out
    T, F = out.shape
    idx = np.flatnonzero(voiced)
    c = np.asarray(frame_class)[idx]
    omega = bin_omegas(F)
    read = bilinear(omega[None, :], -np.asarray(frame_alpha)[idx, None])
    if posteriors is None:
        src, tgt = source_spectra[c], target_spectra[c]
    else:
        if posteriors.shape != (len(idx), len(source_spectra)):
            raise ValueError(f"posteriors {posteriors.shape}: expected ({len(idx)} voiced frames, "
                             f"{len(source_spectra)} classes)")
        src, tgt = posteriors @ source_spectra, posteriors @ target_spectra   # the warp is linear in the spectrum
    R = np.zeros((T, F))
    R[idx] = warp_log_envelope(src, read)     # row i: frame i's class spectrum warped by its alpha
    R[idx] -= R[idx].mean(axis=1, keepdims=True)
    M = np.zeros((T, F))
    beta = class_shift if band is None else class_shift * np.asarray(band)[None, :]
    D = tgt - R[idx]
    if lifter > 0:
        B = dct_basis(F, lifter)
        D = (D @ B) @ B.T
    M[idx] = R[idx] + beta * D
    R = voiced_smooth(R, voiced, smooth_frames)
    M = voiced_smooth(M, voiced, smooth_frames)
    Y = out[idx]
    level = Y.mean(axis=1, keepdims=True)
    out[idx] = level + M[idx] + residual_scale * (Y - level - R[idx])
    return out
