"""Class means for the frames the class-mean replacement leaves untouched (issue 19, part U): unvoiced frames.

pydeid.voice.vtln.class_residual replaces the class mean spectrum of VOICED frames only; with `warp_scale: 0` an unvoiced
frame keeps the source's own envelope. On the speechocean762 trial set (150 utterances, 106,983 WORLD frames at
5 ms, dio) 46 % of the frames are unvoiced: pauses (no aligned phone) 26.4 %, voiceless obstruents 9.0 %, voiced
obstruents the F0 tracker calls unvoiced 3.2 %, unvoiced frames of vowels and sonorants 7.3 %. The attacker's
x-vector reads every frame (no VAD): the speaker's room and channel noise in the pauses and his fricatives pass
unchanged. This module gives those frames classes from the same phone CTM and replaces their class means as
class_residual does for voiced frames.

Classes (CLASSES, the same for every speaker): one per voiceless obstruent phone (P T K F TH S SH CH HH), their group
(voiceless_obstruent), voiced_obstruent, sonorant (the unvoiced frames of vowels and sonorants), pause (no phone
aligned: silence, fillers, outside the words, an utterance the aligner failed on); back-off groups speech (every
unvoiced frame inside a phone) and all. A class with fewer than min_frames frames of a speaker backs off up PARENT
(phone -> voiceless_obstruent -> speech -> all; pause -> all). A class spectrum is the mean level-normalised log
envelope of its frames; a class level the mean of its frames' level (mean log envelope) relative to the level of
the utterance's voiced speech frames.

Per unvoiced frame t of class c (level-normalised log envelopes, R_c / M_c averaged over `smooth_frames`
neighbouring unvoiced frames so that class changes do not click):

    R_t = warp(S_c, alpha_t)                   the source's class spectrum, warped as the frame is
    M_t = R_t + beta_c * (T_c - R_t)           beta_c = pause_shift for the pause class, else unvoiced_shift
    out_t = level_t + gamma_c * (l^T_c - l^S_c) + M_t + lambda_c * (Y_t - level_t - R_t)

with gamma = pause_level on pause frames (the target's noise floor relative to its speech), 0 elsewhere (the speech
frames keep their levels), lambda = pause_residual on pause frames, 1 elsewhere. pause_residual < 1 also shrinks a
pause frame's level deviation from the source's pause level (levels relative to the utterance's speech level,
speech_level()): at 0 every pause frame of the utterance has the target's mean pause envelope at the level
l_speech + l^S_pause + gamma (l^T_pause - l^S_pause); breaths, clicks and the channel's changes in the pauses are gone
(the pauses carry no phonetic content: the recogniser loses nothing).

The frames of the pauses that the F0 tracker calls voiced (7,810 of the trial set's 36,057 pause frames: noise,
breaths) are voiced frames of the "pooled" class for class_residual, synthesised with pulses at the converted F0;
VtlnParams.pause_voiced makes them pause frames here (and unvoiced in the synthesis). Shifts 0 leave every frame as it was. Unvoiced frames are noise-excited by WORLD's
synthesis through the envelope alone, so the aperiodicity needs no change.

The frames' phone identity comes from phone_classes.PhoneAlignment.frame_classes (its FrameClasses.phones); a plain
label array gives the obstruent groups only.
"""

from __future__ import annotations

import numpy as np

from . import phone_set as P

UNVOICED_PHONES = ("P", "T", "K", "F", "TH", "S", "SH", "CH", "HH")
PAUSE = "pause"
CLASSES = UNVOICED_PHONES + ("voiceless_obstruent", "voiced_obstruent", "sonorant", "speech", PAUSE, "all")
INDEX = {c: i for i, c in enumerate(CLASSES)}
K = len(CLASSES)
I_PAUSE = INDEX[PAUSE]
_PARENT_NAME = {**{p: "voiceless_obstruent" for p in UNVOICED_PHONES}, "voiceless_obstruent": "speech",
                "voiced_obstruent": "speech", "sonorant": "speech", "speech": "all", PAUSE: "all"}
PARENT = np.array([INDEX[_PARENT_NAME[c]] if c in _PARENT_NAME else -1 for c in CLASSES])
OPTIONS = ("unvoiced_shift", "pause_shift", "pause_level", "pause_residual")


def frame_classes(labels) -> np.ndarray:
    """(T,) the finest unvoiced class of every frame (read on unvoiced frames) from the phone labels of
    phone_classes.PhoneAlignment.frame_classes (-1: no phone)."""
    phones = getattr(labels, "phones", None)
    cls = np.asarray(labels)
    out = np.full(len(cls), INDEX["sonorant"], dtype=int)
    out[cls < 0] = I_PAUSE
    out[cls == P.INDEX["voiced_obstruent"]] = INDEX["voiced_obstruent"]
    out[cls == P.INDEX["voiceless_obstruent"]] = INDEX["voiceless_obstruent"]
    if phones is not None:
        phones = np.asarray(phones)
        for p in UNVOICED_PHONES:
            out[phones == P.PHONE_INDEX[p]] = INDEX[p]
    return out


def speech_level(feats) -> float:
    """The mean level (mean log envelope) of the utterance's voiced speech frames (all its frames if none)."""
    from .features import speech_frames
    m = speech_frames(feats)
    lg = np.log(np.maximum(feats.sp[m] if m.any() else feats.sp, 1e-30))
    return float(lg.mean())


class UnvoicedStats:
    """Accumulates a speaker's unvoiced class spectra and levels over its utterances."""

    def __init__(self):
        self.sums: np.ndarray | None = None
        self.counts = np.zeros(K)
        self.levels = np.zeros(K)

    def add(self, feats, labels) -> None:
        u = ~feats.voiced
        if not u.any():
            return
        lg = np.log(np.maximum(feats.sp[u], 1e-30))
        lev = lg.mean(axis=1)
        c = frame_classes(labels)[u]
        if self.sums is None:
            self.sums = np.zeros((K, lg.shape[1]))
        np.add.at(self.sums, c, lg - lev[:, None])
        np.add.at(self.levels, c, lev - speech_level(feats))
        self.counts += np.bincount(c, minlength=K)

    def model(self, min_frames: int) -> tuple[np.ndarray | None, np.ndarray | None]:
        """(K, F) class spectra and (K,) class levels, each class backed off up PARENT below min_frames frames
        (None, None: the speaker has no unvoiced frame)."""
        if self.sums is None:
            return None, None
        gs, gl, gc = self.sums.copy(), self.levels.copy(), self.counts.copy()
        for c in range(K):                       # a group holds its own frames and every descendant's
            j = PARENT[c]
            while j >= 0:
                gs[j] += self.sums[c]
                gl[j] += self.levels[c]
                gc[j] += self.counts[c]
                j = PARENT[j]
        spectra, levels = np.zeros_like(gs), np.zeros(K)
        for c in range(K):
            j = c
            while gc[j] < min_frames and PARENT[j] >= 0:
                j = PARENT[j]
            if gc[j] == 0:                       # "all" has at least one frame: only an empty "all" stays here
                j = INDEX["all"]
            spectra[c], levels[c] = gs[j] / gc[j], gl[j] / gc[j]
        return spectra, levels


def active(unvoiced_shift, pause_shift, pause_level, pause_residual) -> bool:
    """Whether the options change any frame."""
    return bool(unvoiced_shift or pause_shift or pause_level or pause_residual != 1.0)


def check_options(unvoiced_shift, pause_shift, pause_level, pause_residual, classes: str) -> None:
    for name, v in zip(OPTIONS, (unvoiced_shift, pause_shift, pause_level, pause_residual)):
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0.0 <= float(v) <= 1.0:
            raise ValueError(f"{name} must be a number in [0, 1], got {v!r}")
    if active(unvoiced_shift, pause_shift, pause_level, pause_residual) and classes != "phones":
        raise ValueError("unvoiced_shift, pause_shift, pause_level and pause_residual need classes: phones")


def check_models(models: dict) -> None:
    """Every pool model holds unvoiced class spectra (pools built before them do not)."""
    bad = [s for s, m in models.items() if m.unvoiced_spectra is None]
    if bad:
        raise ValueError(f"the target pool has no unvoiced class spectra for {len(bad)} speaker(s) (e.g. '{bad[0]}'): "
                         f"rebuild it (a pool built before unvoiced_shift/pause_shift existed)")


def replace_unvoiced_means(log_sp: np.ndarray, voiced: np.ndarray, labels, frame_alpha: np.ndarray, source,
                           targets: list, unvoiced_shift: float, pause_shift: float, pause_level: float,
                           pause_residual: float = 1.0, level_ref: float = 0.0, smooth_frames: int = 5) -> np.ndarray:
    """The log envelope (T, F) with the unvoiced frames' class means replaced (module docstring). source / targets:
    pydeid.voice.vtln.SpeakerModel(s) with unvoiced_spectra and unvoiced_levels (several targets: their mean);
    labels: the frames' phone labels (phone_classes.PhoneAlignment.frame_classes); level_ref: speech_level() of
    the utterance (read with pause_residual < 1 only: the class levels are relative to each speaker's speech
    level, so without it a pause frame moves by the difference of the two relative levels)."""
    from .features import voiced_smooth
    from ..warping import bilinear, bin_omegas, warp_log_envelope
    out = np.array(log_sp, dtype=np.float64, copy=True)
    u = ~np.asarray(voiced)
    if not active(unvoiced_shift, pause_shift, pause_level, pause_residual) or not u.any():
        return out
    if source.unvoiced_spectra is None:
        raise ValueError("the source speaker model has no unvoiced frames: cannot convert its unvoiced frames")
    if not targets:
        raise ValueError("no target speaker")
    check_models({i: m for i, m in enumerate(targets)})
    T, F = out.shape
    idx = np.flatnonzero(u)
    c = frame_classes(labels)[idx]
    tspec = np.mean([m.unvoiced_spectra for m in targets], axis=0)
    tspec = tspec - tspec.mean(axis=1, keepdims=True)
    tlev = np.mean([m.unvoiced_levels for m in targets], axis=0)
    read = bilinear(bin_omegas(F)[None, :], -np.asarray(frame_alpha)[idx, None])
    R = np.zeros((T, F))
    R[idx] = warp_log_envelope(source.unvoiced_spectra[c], read)
    R[idx] -= R[idx].mean(axis=1, keepdims=True)
    beta = np.where(c == I_PAUSE, pause_shift, unvoiced_shift)[:, None]
    M = np.zeros((T, F))
    M[idx] = R[idx] + beta * (tspec[c] - R[idx])
    pause = (c == I_PAUSE)[:, None]
    lam = np.where(pause, pause_residual, 1.0)
    Y = out[idx]
    level = Y.mean(axis=1, keepdims=True)
    slev = source.unvoiced_levels[c][:, None]
    # the level the frame gets minus its own: the class level difference (pause_level), the deviation shrunk
    dl = np.zeros((T, 1))
    dl[idx] = np.where(pause, pause_level * (tlev[c][:, None] - slev)
                       + (lam - 1.0) * (level - level_ref - slev), 0.0)
    R, M, dl = (voiced_smooth(x, u, smooth_frames) for x in (R, M, dl))
    out[idx] = level + dl[idx] + M[idx] + lam * (Y - level - R[idx])
    return out
