"""Phone-level classes for VTLN and the class-mean replacement (issue 19): the classes come from a forced alignment
of the transcripts (a phone CTM, steps/align.sh --phones true) instead of the unsupervised k-means of
pydeid.voice.vtln.

With k-means, source and target classes share no labels: they are paired by a spectral assignment (Hungarian), which
can pair classes holding different phones, and each frame is assigned to the nearest centroid on its own. Here a
voiced speech frame's class is its aligned phone (ARPAbet, stress stripped): the source's /iy/ is paired with the
target's /iy/ by label, and class membership follows the phone segments.

Classes (the same inventory for every speaker, CLASSES):
- one class per vowel and sonorant phone (PHONE_CLASSES: 15 vowels, M N NG, L R W Y);
- a broad group per family (GROUPS: front / central / back vowels, diphthongs, nasals, liquids and glides, voiced
  and voiceless obstruents); obstruent frames (voiced by the F0 tracker) have only their group's class;
- "pooled": every voiced speech frame of the speaker, the class of frames without a phone label (silence, fillers,
  utterances the aligner failed on).
A speaker's class spectrum is the mean level-normalised log envelope of the class's frames (a group: of its phones'
frames); a class with fewer than `min_frames` frames of the speaker backs off to its group, a group to "pooled".
Pairing is by label (class c of the source with class c of the target), each class's warping factor found by the
grid search of pydeid.voice.vtln within +- 0.1 of the global factor (the pooled classes' best warp).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from pydeid.io import FormatError

from .phone_set import (CLASSES, GROUP_OF, GROUPS, INDEX, K, OBSTRUENT_GROUPS, P_POOLED, PARENT,  # noqa: F401
                        PHONE_CLASSES, PHONE_INDEX, PHONE_TO_CLASS, PHONES, POOLED)

DEFAULT_MIN_FRAMES = 20     # 100 ms of a phone at WORLD's 5 ms frames
CTM_NAME = "phn_ali/ctm"


def normalise_phone(label: str) -> str | None:
    """ARPAbet phone without stress ("AH0" -> "AH"), or None for silence and fillers (SIL, +NSN+, <sil>, ...)."""
    p = label.strip().upper().rstrip("012")
    if p in GROUP_OF:
        return p
    if p in ("SIL", "SP", "SPN", "NSN", "<SIL>", "<S>", "</S>") or (p.startswith("+") and p.endswith("+")) \
            or (p.startswith("[") and p.endswith("]")):
        return None
    raise ValueError(f"'{label}' is not an ARPAbet phone, silence or filler")


def config_has_phone_classes(path) -> bool:
    """Whether a VTLN config (conf/voice/vtln*.yaml) asks for `classes: phones` in its classes group, i.e. needs
    phone alignments (utils/vtln_config_has_phones.sh asks it for the shell scripts). A broken config is a
    FormatError naming the file and line, never "no phones"."""
    from ..configs import load_config
    return load_config(path, "vtln").get("classes") == "phones"


class FrameClasses(np.ndarray):
    """frame_classes()'s (T,) class array; its `phones` attribute holds each frame's aligned phone (index in PHONES,
    -1 none), which the unvoiced classes read (pydeid.voice.vtln.unvoiced_classes: one class per voiceless obstruent)."""
    phones: np.ndarray | None = None

    def __array_finalize__(self, obj):
        self.phones = None          # a slice or a computed array no longer matches the frames


class PhoneAlignment:
    """The phone segments of a set's utterances (steps/align.sh <ali-dir>: phn_ali/ctm and report.json)."""

    def __init__(self, segments: dict[str, list[tuple[float, float, int]]], failed: set[str], where: str,
                 phones: dict[str, list[int]] | None = None):
        self.segments = segments      # utt -> [(start, end, class index)] of the labelled phones
        self.phones = phones or {}    # utt -> the PHONES index of each segment (from_phones fills it)
        self.failed = failed          # utterances the aligner could not align (no CTM line; frames unlabelled)
        self.where = where            # the CTM's path, for error messages

    @classmethod
    def from_phones(cls, labelled: dict[str, list[tuple[float, float, str]]], failed: set[str],
                    where: str) -> "PhoneAlignment":
        """From each utterance's (start, end, phone) segments, the phones as normalise_phone() returns them (an
        utterance with no segment: aligned, no phone in it)."""
        segs = {u: [(a, b, PHONE_TO_CLASS[p]) for a, b, p in ps] for u, ps in labelled.items()}
        phones = {u: [PHONE_INDEX[p] for _, _, p in ps] for u, ps in labelled.items() if ps}
        return cls(segs, failed, where, phones)

    @classmethod
    def read(cls, ali_dir, option: str = "--ali-dir") -> "PhoneAlignment":
        """Reads <ali_dir>/phn_ali/ctm (and the failed utterances of <ali_dir>/report.json); every problem is a
        FormatError naming the file (and line)."""
        ali_dir = Path(ali_dir)
        ctm = ali_dir / CTM_NAME
        if not ctm.is_file():
            raise FormatError(ctm, None, f"{option}: no phone CTM (align the set with steps/align.sh --phones true)")
        labelled: dict[str, list[tuple[float, float, str]]] = {}
        seen: set[str] = set()
        with open(ctm, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                parts = line.split()
                if not parts:
                    continue
                if len(parts) < 5:
                    raise FormatError(ctm, n, "expected '<utt> <channel> <start> <duration> <phone>'")
                try:
                    start, dur = float(parts[2]), float(parts[3])
                except ValueError:
                    raise FormatError(ctm, n, f"start/duration '{parts[2]} {parts[3]}' are not numbers") from None
                if start < 0 or dur < 0:
                    raise FormatError(ctm, n, "negative start or duration")
                try:
                    p = normalise_phone(parts[4])
                except ValueError as e:
                    raise FormatError(ctm, n, str(e)) from None
                seen.add(parts[0])
                if p is not None:
                    labelled.setdefault(parts[0], []).append((start, start + dur, p))
        if not seen:
            raise FormatError(ctm, None, f"{option}: empty phone CTM (aligned with steps/align.sh --phones false?)")
        failed: set[str] = set()
        rep = ali_dir / "report.json"
        if rep.is_file():
            try:
                failed = set(json.loads(rep.read_text()).get("failed", {}))
            except (ValueError, AttributeError):
                raise FormatError(rep, None, "not a report of steps/align.sh (JSON object with 'failed')") from None
        for u in seen:
            labelled.setdefault(u, [])
        return cls.from_phones(labelled, failed, str(ctm))

    def check_covers(self, utts) -> None:
        """Every utterance is in the CTM or among the aligner's failures (those are converted with the pooled
        class), else a FormatError naming them."""
        missing = [u for u in utts if u not in self.segments and u not in self.failed]
        if missing:
            more = f" and {len(missing) - 3} more" if len(missing) > 3 else ""
            raise FormatError(self.where, None, f"no phones for {len(missing)} utterance(s) of the set: "
                                                f"{', '.join(missing[:3])}{more} (align this very data dir)")

    def frame_classes(self, utt: str, n_frames: int, frame_period_ms: float) -> np.ndarray:
        """(n_frames,) class index of each WORLD frame (frame t at t * frame_period), -1 where no phone is aligned
        (silence, fillers, a failed utterance); a FrameClasses whose `phones` gives each frame's phone."""
        out = np.full(n_frames, -1, dtype=int).view(FrameClasses)
        ph = np.full(n_frames, -1, dtype=int)
        if utt not in self.segments and utt not in self.failed:
            raise FormatError(self.where, None, f"no phones for utterance {utt}")
        step = frame_period_ms / 1000.0
        labels = self.phones.get(utt)
        for i, (start, end, c) in enumerate(self.segments.get(utt, [])):
            a, b = int(np.ceil(start / step - 1e-9)), int(np.ceil(end / step - 1e-9))
            out[max(a, 0):min(b, n_frames)] = c
            if labels is not None:
                ph[max(a, 0):min(b, n_frames)] = labels[i]
        out.phones = ph if labels is not None or not self.segments.get(utt) else None
        return out

    def frame_phones(self, utt: str, frame_period_ms: float, n_frames: int) -> np.ndarray:
        """(n_frames,) aligned phone (index in PHONES) of each WORLD frame of `utt`, -1 where none (frame
        selection's match segments)."""
        ph = self.frame_classes(utt, n_frames, frame_period_ms).phones
        return np.full(n_frames, -1, dtype=np.int64) if ph is None else np.asarray(ph, dtype=np.int64)


def phone_speaker_model(features_and_classes, min_frames: int = DEFAULT_MIN_FRAMES):
    """A pydeid.voice.vtln.SpeakerModel whose classes are CLASSES (module docstring): features_and_classes yields
    (WorldFeatures, (T,) frame classes of frame_classes()). class_weights: the share of the speaker's voiced speech
    frames whose own class is c (unlabelled frames: pooled); n_frames: their number. The model also holds the
    unvoiced frames' class spectra and levels (pydeid.voice.vtln.unvoiced_classes; None without unvoiced frames)."""
    from ..common import log_f0_stats
    from .unvoiced_classes import UnvoicedStats
    from .features import SpeakerModel, normalised_log, speech_frames
    sums, counts, f0s = None, np.zeros(K), []
    unvoiced = UnvoicedStats()
    for feats, cls in features_and_classes:
        if len(cls) != len(feats.f0):
            raise ValueError(f"{len(cls)} frame labels for {len(feats.f0)} frames")
        unvoiced.add(feats, cls)
        cls = np.asarray(cls)
        m = speech_frames(feats)
        L = normalised_log(feats.sp[m])
        c = np.where(cls[m] >= 0, cls[m], P_POOLED)
        if sums is None:
            sums = np.zeros((K, L.shape[1]))
        np.add.at(sums, c, L)
        counts += np.bincount(c, minlength=K)
        f0s.append(feats.f0[feats.f0 > 0])
    n = int(counts.sum())
    if sums is None or n < min_frames:
        raise ValueError(f"only {n} voiced speech frames: too few for phone classes (min_frames {min_frames})")
    own = counts.copy()
    # the frames of a group are its phones' and its own (obstruents); pooled holds every frame
    gs, gc = sums.copy(), counts.copy()
    for c, name in enumerate(CLASSES):
        if name in GROUP_OF:
            g = INDEX[GROUP_OF[name]]
            gs[g] += sums[c]
            gc[g] += counts[c]
    gs[P_POOLED], gc[P_POOLED] = sums.sum(0), n
    spectra = np.zeros_like(sums)
    spectra[P_POOLED] = gs[P_POOLED] / n
    for c in range(K):            # phones first (their groups are complete), each backing off up its chain
        j = c
        while j != P_POOLED and gc[j] < min_frames:
            j = PARENT[j]
        spectra[c] = gs[j] / gc[j]
    return SpeakerModel(np.zeros((K, 0)), spectra, own / n, log_f0_stats(f0s), n, *unvoiced.model(min_frames))


def align_phones(source, target, grid: np.ndarray, max_dev: float = 0.1) -> dict:
    """Warping factors of the classes paired by label: the global factor is the pooled classes' best warp; each
    class's factor minimises its distance to the target's same class within +- max_dev of it (VtlnParams.warp_scale
    scales them at conversion; 0: no warp)."""
    from .features import warp_candidates
    if len(source.class_spectra) != K or len(target.class_spectra) != K:
        raise ValueError("phone-class alignment of models that do not have the phone classes")
    W = warp_candidates(source.class_spectra, grid)                       # (A, K, F)
    d = ((W - target.class_spectra[None]) ** 2).mean(axis=2)               # (A, K)
    a0 = int(d[:, P_POOLED].argmin())
    d[np.abs(grid - grid[a0]) > max_dev + 1e-9] = np.inf
    return {"alphas": grid[d.argmin(axis=0)], "pairs": np.arange(K), "global_alpha": float(grid[a0])}


def voiced_classes(frame_cls: np.ndarray, voiced: np.ndarray) -> np.ndarray:
    """The class of each voiced frame: its phone's, the pooled class where no phone is aligned."""
    c = np.asarray(frame_cls)[voiced]
    return np.where(c >= 0, c, P_POOLED)
