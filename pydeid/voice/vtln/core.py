"""VTLN-based voice conversion (Sundermann and Ney 2003), text-independent, on WORLD features.

Speaker model: the voiced, non-silent frames of a speaker are clustered into k "phonetic classes" (k-means,
seeded, on 24 cepstral coefficients of the level-normalised log envelope); a class spectrum is the mean
level-normalised log envelope of its frames. log-F0 mean/std are kept for the pitch conversion.

Warping function: bilinear (first-order all-pass), one factor per class, searched on a grid (default -0.25..0.25
step 0.01; |alpha| = 0.1 is a formant scaling of about 1.22 at low frequencies).

Class matching (no parallel data, so classes share no labels): first one global factor a0 is fitted between the
frame-weighted mean spectra of source and target; the source class spectra warped by a0 are then paired one-to-one
with the target class spectra by the assignment minimising the summed mean squared log-spectral distance
(Hungarian, scipy.optimize.linear_sum_assignment), i.e. the class centroids are aligned after removing the global
vocal-tract-length difference. Per pair, the class factor minimises the same distance on the grid within
a0 +- 0.1 (an unconstrained search lets a badly matched class pick an extreme warp). Unvoiced frames use a0.
The per-frame factor track is smoothed over 5 frames before warping, to avoid clicks at class changes.

Options of the plan (VtlnParams; in conf/voice/vtln*.yaml under the groups of GROUPS below; all off by default,
which is the conversion above):
- n_average: N > 1 makes each draw a pseudo-target averaged over N pool speakers (as the VoicePrivacy baselines
  average the x-vectors of several pool speakers): per source class the warping factors towards the N targets are
  averaged, and so are the targets' log-F0 mean and std.
- warp_jitter / pitch_jitter_semitones: a per-utterance random offset, uniform in [-j, j], added to every frame's
  warping factor and to the target's log-F0 mean (in semitones): the same speaker and target never give twice the
  same warp, so an attacker who converts his own data with his own draws does not reproduce the publisher's.
- class_shift / residual_scale: after warping, replace (a share of) each voiced frame's class mean spectrum by the
  paired target class spectrum, and scale the frame's deviation from its class (pydeid.voice.vtln.class_residual):
  what warping leaves of the source's own spectral shape within each class.
- classes "phones": the classes are the aligned phones of the transcripts (pydeid.voice.vtln.phone_classes: a class per
  vowel/sonorant, backed off to broad groups below phone_min_frames frames), paired with the target's by label;
  the fit and each conversion then take the frames' phone classes (a phone CTM of the source set and of the pool).
- class_temperature: tau > 0 gives each voiced frame class posteriors instead of the nearest centroid
  (pydeid.voice.vtln.soft_classes): its warping factor and its class spectra are posterior-weighted means.
- warp_scale: every frame's warping factor multiplied by s (s < 1: formants moved less).
- class_shift_lifter: n > 0 moves only the first n cepstral coefficients of the class difference (its broad
  shape: tilt, energy spread; not the formant-scale detail).
- near_targets: n > 0 restricts each source speaker's targets to the n pool speakers of smallest |a0|
  (pydeid.voice.vtln.target_choice; the plan's drawn target mapped onto them by a hash); near_f0_drawn: the F0 is
  still converted to the drawn target's statistics (the F0 conversion costs no WER, the envelope's warp does).
- convert_f0 / convert_envelope: false keeps the source's F0 / envelope (the diagnosis of where the WER cost of a
  conversion comes from).
- unvoiced_shift / pause_shift / pause_level / pause_residual (classes phones): the class-mean replacement of the
  unvoiced frames too (pydeid.voice.vtln.unvoiced_classes: a class per voiceless obstruent phone and a pause class;
  pause_level moves the pauses' level to the target's noise floor relative to its speech, pause_residual < 1
  shrinks the pause frames' own deviations from their class mean and level); pause_voiced: the frames the F0
  tracker calls voiced in the pauses (no phone aligned: noise, breaths) are pause frames too, synthesised unvoiced.
- ss_dims / ss_pseudo / ss_scale / ss_warp: after warping, replace the source's coordinates in the pool's speaker
  subspace (the d principal between-speaker directions of the class cepstra) by a pseudo-speaker's
  (pydeid.voice.vtln.speaker_subspace); ss_warp false applies it to the plain analysis, without the warp (F0 still
  converted), and ss_normalise false then fits the subspace on un-warped class spectra.
- f0_max_shift / f0_keep_range: the F0 mapping (pydeid.voice.vtln.f0_map): the shift of the log-F0 mean capped at n
  semitones, the source's log-F0 range kept.
- f0_smooth_frames: n > 1 smooths the mapped log-F0 over n frames inside each voiced run (pydeid.voice.vtln.f0_contour):
  the source's contour shape below that time scale removed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import numpy as np

from ..common import log_f0_stats
from ..method import VoiceMethod
from ..target_modes import MODES as TARGET_SELECTIONS
from ..warping import bilinear, bin_omegas, warp_log_envelope
from ..world import WorldConfig, analyze, finalize, synthesize
from .f0_map import map_f0
from .features import (MAX_ALPHA, N_CEPS, SpeakerModel, align, dct_basis, normalised_log, speaker_model,
                       speech_frames, warp_candidates)

CLASS_MODES = ("kmeans", "phones")


@dataclass(frozen=True)
class VtlnParams:
    """What a VTLN plan draws per utterance besides its target(s) (see the module docstring)."""
    n_average: int = 1
    warp_jitter: float = 0.0
    pitch_jitter_semitones: float = 0.0
    class_shift: float = 0.0       # beta of pydeid.voice.vtln.class_residual (0: plain VTLN)
    residual_scale: float = 1.0    # lambda of pydeid.voice.vtln.class_residual (1: the frame's deviation kept whole)
    class_shift_from_hz: float = 0.0   # class_shift only above this frequency (ramp to 2x; 0: whole band)
    classes: str = "kmeans"        # kmeans (unsupervised, k of them) | phones (pydeid.voice.vtln.phone_classes)
    phone_min_frames: int = 20     # phones: a class with fewer frames of a speaker backs off to its group
    class_temperature: float = 0.0     # soft classes (pydeid.voice.vtln.soft_classes; 0: the nearest centroid)
    warp_scale: float = 1.0        # every frame's warping factor times this (1: the fitted warps)
    convert_f0: bool = True        # False: the source's F0 kept (the envelope's share of the cost)
    convert_envelope: bool = True  # False: the source's envelope kept (F0 converted only)
    class_shift_lifter: int = 0    # > 0: the class shift smoothed to its first n cepstra (class_residual)
    near_targets: int = 0          # > 0: targets among the n pool speakers of smallest |a0| (target_choice)
    near_f0_drawn: bool = False    # with near_targets: the F0 statistics of the plan's drawn target(s)
    ss_dims: int = 0               # pydeid.voice.vtln.speaker_subspace: directions replaced (0: off)
    ss_pseudo: str = "target"      # whose coordinates: the utterance's target, or a draw from the pool's Gaussian
    ss_scale: float = 1.0          # the pseudo-speaker's coordinates times this (0: the pool's mean voice)
    ss_warp: bool = True           # false: no VTLN warp underneath (plain analysis, F0 still converted)
    ss_normalise: bool = True      # false (ss_warp false only): the subspace keeps vocal-tract-length differences
    unvoiced_shift: float = 0.0    # pydeid.voice.vtln.unvoiced_classes: unvoiced frames inside phones (0: untouched)
    pause_shift: float = 0.0       # the same for the pause frames (no phone aligned)
    pause_level: float = 0.0       # the pause frames' level moved towards the target's (relative to speech)
    pause_residual: float = 1.0    # the pause frames' deviation from their class mean and level kept (0: none)
    pause_voiced: bool = False     # the voiced frames of the pauses are pause frames too (synthesised unvoiced)
    f0_max_shift: float = 0.0      # pydeid.voice.vtln.f0_map: the log-F0 mean moves at most this many semitones (0: no cap)
    f0_keep_range: bool = False    # pydeid.voice.vtln.f0_map: the source's log-F0 std kept (only the mean moves)
    f0_smooth_frames: int = 0      # pydeid.voice.vtln.f0_contour: log-F0 smoothed over n frames per voiced run (0: off)


def build_vtln_params(**overrides) -> VtlnParams:
    p = VtlnParams(**overrides)
    if not isinstance(p.n_average, int) or isinstance(p.n_average, bool) or p.n_average < 1:
        raise ValueError(f"n_average must be an integer >= 1, got {p.n_average!r}")
    if not 0.0 <= float(p.warp_jitter) <= 0.2:
        raise ValueError(f"warp_jitter must lie in [0, 0.2], got {p.warp_jitter}")
    if not 0.0 <= float(p.pitch_jitter_semitones) <= 12.0:
        raise ValueError(f"pitch_jitter_semitones must lie in [0, 12], got {p.pitch_jitter_semitones}")
    for name in ("class_shift", "residual_scale"):
        v = getattr(p, name)
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0.0 <= float(v) <= 1.0:
            raise ValueError(f"{name} must be a number in [0, 1], got {v!r}")
    v = p.class_shift_from_hz
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0.0 <= float(v) <= 4000.0:
        raise ValueError(f"class_shift_from_hz must be a number in [0, 4000] (Hz), got {v!r}")
    for name, hi in (("class_temperature", 10.0), ("warp_scale", 1.0)):
        v = getattr(p, name)
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0.0 <= float(v) <= hi:
            raise ValueError(f"{name} must be a number in [0, {hi:g}], got {v!r}")
    for name in ("near_targets", "class_shift_lifter"):
        v = getattr(p, name)
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise ValueError(f"{name} must be an integer >= 0, got {v!r}")
    for name in ("convert_f0", "convert_envelope", "near_f0_drawn", "pause_voiced"):
        if not isinstance(getattr(p, name), bool):
            raise ValueError(f"{name} must be true or false, got {getattr(p, name)!r}")
    if p.classes not in CLASS_MODES:
        raise ValueError(f"classes must be one of {', '.join(CLASS_MODES)}, got {p.classes!r}")
    v = p.phone_min_frames
    if isinstance(v, bool) or not isinstance(v, int) or v < 1:
        raise ValueError(f"phone_min_frames must be an integer >= 1, got {v!r}")
    if p.classes != "phones" and p.phone_min_frames != 20:
        raise ValueError("phone_min_frames needs classes: phones")
    if p.classes == "phones" and p.class_temperature > 0:
        raise ValueError("class_temperature (soft k-means classes) does not apply to classes: phones")
    from .unvoiced_classes import check_options as check_unvoiced
    check_unvoiced(p.unvoiced_shift, p.pause_shift, p.pause_level, p.pause_residual, p.classes)
    if p.pause_voiced and p.classes != "phones":
        raise ValueError("pause_voiced needs classes: phones")
    from .f0_map import check_options as check_f0_options
    check_f0_options(p.f0_max_shift, p.f0_keep_range, p.convert_f0)
    from .f0_contour import check_options as check_contour
    check_contour(p.f0_smooth_frames)
    if p.f0_smooth_frames and not p.convert_f0:
        raise ValueError("f0_smooth_frames needs convert_f0 true")
    from .speaker_subspace import check_options
    check_options(p.ss_dims, p.ss_pseudo, p.ss_scale, p.ss_warp, p.ss_normalise)
    if p.ss_dims and (p.class_shift > 0 or p.residual_scale < 1):
        raise ValueError("ss_dims (speaker subspace) cannot be combined with class_shift or residual_scale")
    if p.ss_dims and p.classes != "kmeans":
        raise ValueError("ss_dims (speaker subspace) needs the k-means classes (classes: kmeans)")
    return p


def draw_vtln(params: VtlnParams, rng: np.random.Generator) -> dict:
    """The per-utterance offsets of the plan (nothing when the jitters are 0: the plain conversion)."""
    out = {}
    if params.warp_jitter > 0:
        out["warp_shift"] = float(rng.uniform(-params.warp_jitter, params.warp_jitter))
    if params.pitch_jitter_semitones > 0:
        out["pitch_shift"] = float(rng.uniform(-params.pitch_jitter_semitones, params.pitch_jitter_semitones))
    if params.ss_dims > 0 and params.ss_pseudo == "gaussian":
        out["ss_seed"] = int(rng.integers(2 ** 31))
    return out


@dataclass
class VtlnTargets:
    """What the builder produces: the target pool (speaker id -> model) and the settings used to build it."""
    models: dict[str, SpeakerModel]
    k: int = 8
    world: WorldConfig = field(default_factory=WorldConfig)
    classes: str = "kmeans"     # phones: the models' classes are pydeid.voice.vtln.phone_classes.CLASSES

    def save(self, path) -> None:
        from pydeid.io import atomic_write
        arrays = {}
        for spk, m in self.models.items():
            arrays.update(m.to_arrays(spk))
        arrays["__meta__/k"] = np.array(self.k)
        arrays["__meta__/world"] = np.array([self.world.f0_method, str(self.world.frame_period),
                                             str(self.world.fft_size or 0)])
        if self.world.extras():   # the other WORLD options, when not at their defaults
            arrays["__meta__/world_extras"] = np.array(json.dumps(self.world.extras(), sort_keys=True))
        if self.classes != "kmeans":
            arrays["__meta__/classes"] = np.array(self.classes)
        with atomic_write(path, "wb", encoding=None) as f:
            np.savez(f, **arrays)

    @classmethod
    def load(cls, path) -> "VtlnTargets":
        z = np.load(path, allow_pickle=False)
        spks = sorted({n.split("/")[0] for n in z.files if not n.startswith("__meta__")})
        w = z["__meta__/world"]
        extras = json.loads(str(z["__meta__/world_extras"])) if "__meta__/world_extras" in z.files else {}
        world = WorldConfig(f0_method=str(w[0]), frame_period=float(w[1]), fft_size=int(w[2]) or None, **extras)
        classes = str(z["__meta__/classes"]) if "__meta__/classes" in z.files else "kmeans"
        return cls({s: SpeakerModel.from_arrays(z, s) for s in spks}, int(z["__meta__/k"]), world, classes)


def build_vtln(target_utterances: dict[str, list[np.ndarray]], sr: int = 16000, k: int = 8,
               world: WorldConfig = WorldConfig(), seed: int = 0) -> VtlnTargets:
    """Builder of seed 004 A.6: speaker id -> list of waveforms of that target speaker -> target pool."""
    models = {}
    for spk in sorted(target_utterances):
        feats = (analyze(w, sr, world) for w in target_utterances[spk])
        models[spk] = speaker_model(feats, k=k, seed=seed)
    return VtlnTargets(models, k, world)


class VtlnTransformer:
    def __init__(self, targets: VtlnTargets, grid: np.ndarray | None = None, smooth_frames: int = 5,
                 params: VtlnParams | None = None):
        """`params`: the plan's options; only class_shift / residual_scale act here (the draws of the others come
        with each transform call)."""
        self.targets = targets
        self.params = params or VtlnParams()
        self.world = targets.world
        self.grid = np.round(np.arange(-0.25, 0.2501, 0.01), 4) if grid is None else np.asarray(grid)
        self.smooth_frames = smooth_frames
        self.source_: SpeakerModel | None = None
        self._alignments: dict[str, dict] = {}
        if self.params.classes != targets.classes:
            raise ValueError(f"the target pool has {targets.classes} classes, the plan asks for {self.params.classes}")
        p = self.params
        from .unvoiced_classes import active, check_models
        if active(p.unvoiced_shift, p.pause_shift, p.pause_level, p.pause_residual) or p.pause_voiced:
            check_models(targets.models)
        self._near: list[str] | None = None
        self._subspace = None

    def subspace(self):
        """The target pool's speaker subspace (pydeid.voice.vtln.speaker_subspace), fitted once."""
        if self._subspace is None:
            from .speaker_subspace import fit_subspace
            self._subspace = fit_subspace(self.targets, self.grid, self.params.ss_normalise)
        return self._subspace

    def fit(self, utterances: list[np.ndarray], sr: int = 16000, seed: int = 0) -> "VtlnTransformer":
        """Model the source speaker from its utterances (waveforms)."""
        self.fit_features((analyze(w, sr, self.world) for w in utterances), seed=seed)
        return self

    def fit_features(self, feats, seed: int = 0, labels=None) -> "VtlnTransformer":
        """classes phones: `labels` gives, in the order of `feats`, each utterance's frame classes
        (phone_classes.PhoneAlignment.frame_classes): an array, or a function of the utterance's WorldFeatures."""
        if self.params.classes == "phones":
            from .phone_classes import phone_speaker_model
            if labels is None:
                raise ValueError("phone classes need the phone labels of the fit utterances")
            pairs = ((f, lab(f) if callable(lab) else lab) for f, lab in zip(feats, labels))
            self.source_ = phone_speaker_model(pairs, self.params.phone_min_frames)
        else:
            self.source_ = speaker_model(feats, k=self.targets.k, seed=seed)
        self._alignments = {}
        self._near = None
        return self

    def alignment(self, target: str) -> dict:
        if self.source_ is None:
            raise RuntimeError("call fit() with the source speaker's utterances first")
        if target not in self._alignments:
            if self.params.classes == "phones":
                from .phone_classes import align_phones
                self._alignments[target] = align_phones(self.source_, self.targets.models[target], self.grid)
            else:
                self._alignments[target] = align(self.source_, self.targets.models[target], self.grid)
        return self._alignments[target]

    def transform(self, wav: np.ndarray, target, sr: int = 16000, warp_shift: float = 0.0,
                  pitch_shift: float = 0.0, ss_seed: int | None = None) -> np.ndarray:
        return self.transform_features(analyze(wav, sr, self.world), target, wav, warp_shift, pitch_shift,
                                       ss_seed=ss_seed)

    def pseudo_target(self, targets) -> tuple[dict, tuple[float, float]]:
        """The alignment and log-F0 statistics of one target (a speaker id) or of a pseudo-target averaged over
        several (a list of ids): per source class the mean warping factor, the mean of the targets' log-F0 means
        and of their stds."""
        ids = [targets] if isinstance(targets, str) else list(targets)
        if not ids:
            raise ValueError("no target speaker")
        als = [self.alignment(t) for t in ids]
        if len(ids) == 1:
            return als[0], self.targets.models[ids[0]].log_f0
        lf = np.array([self.targets.models[t].log_f0 for t in ids])
        al = {"alphas": np.mean([a["alphas"] for a in als], axis=0),
              "global_alpha": float(np.mean([a["global_alpha"] for a in als]))}
        return al, (float(lf[:, 0].mean()), float(lf[:, 1].mean()))

    def transform_features(self, feats, target, wav: np.ndarray, warp_shift: float = 0.0,
                           pitch_shift: float = 0.0, labels: np.ndarray | None = None,
                           ss_seed: int | None = None) -> np.ndarray:
        """`target`: a pool speaker id, or a list of them (an averaged pseudo-target); `warp_shift` is added to
        every frame's warping factor, `pitch_shift` (semitones) to the target's log-F0 mean; `labels`: the frames'
        phone classes (classes phones); `ss_seed`: the utterance's draw of a Gaussian pseudo-speaker (ss_pseudo
        gaussian)."""
        p = self.params
        if p.near_targets > 0:
            from .target_choice import choose, rank_near
            if self._near is None:
                self._near = rank_near({t: self.alignment(t) for t in self.targets.models})[:p.near_targets]
            drawn, target = target, choose(target, self._near)
        al, target_f0 = self.pseudo_target(target)
        if p.near_targets > 0 and p.near_f0_drawn:
            target_f0 = self.pseudo_target(drawn)[1]
        src = self.source_
        frame_alpha = np.full(len(feats.f0), al["global_alpha"])
        v = feats.voiced
        cls = np.zeros(len(feats.f0), dtype=int)
        post = None
        if p.classes == "phones":
            from .phone_classes import voiced_classes
            if labels is None or len(labels) != len(feats.f0):
                raise ValueError("phone classes need the phone class of every frame of the utterance")
            cls[v] = voiced_classes(labels, v)
            frame_alpha[v] = al["alphas"][cls[v]]
        elif v.any():
            C = normalised_log(feats.sp[v]) @ dct_basis(feats.sp.shape[1])
            dist = ((C[:, None, :] - src.centroids[None, :, :]) ** 2).sum(axis=2)
            cls[v] = dist.argmin(axis=1)
            if p.class_temperature > 0:
                from .soft_classes import class_posteriors
                post = class_posteriors(dist, p.class_temperature)
                frame_alpha[v] = post @ al["alphas"]
            else:
                frame_alpha[v] = al["alphas"][cls[v]]
        if self.smooth_frames > 1 and len(frame_alpha) >= self.smooth_frames:
            kern = np.ones(self.smooth_frames) / self.smooth_frames
            frame_alpha = np.convolve(np.pad(frame_alpha, self.smooth_frames // 2, mode="edge"), kern, "valid")
        if p.warp_scale != 1.0:
            frame_alpha = frame_alpha * p.warp_scale
        if warp_shift:
            frame_alpha = np.clip(frame_alpha + warp_shift, -MAX_ALPHA, MAX_ALPHA)
        if p.ss_dims and not p.ss_warp:
            frame_alpha = np.zeros_like(frame_alpha)
        omega = bin_omegas(feats.sp.shape[1])
        read = bilinear(omega[None, :], -frame_alpha[:, None])
        log_sp = warp_log_envelope(np.log(np.maximum(feats.sp, 1e-30)), read)
        if p.ss_dims:
            from .speaker_subspace import convert_frames
            log_sp = convert_frames(self, log_sp, v, cls, target, warp_shift, ss_seed)
        ids = [target] if isinstance(target, str) else list(target)   # one target or an averaged pseudo-target's
        if p.convert_envelope and (p.class_shift > 0 or p.residual_scale < 1):
            from .class_residual import band_profile, paired_target_spectra, replace_class_means
            tspec = paired_target_spectra(len(src.class_spectra), [self.targets.models[t] for t in ids],
                                          [self.alignment(t)["pairs"] for t in ids])
            log_sp = replace_class_means(log_sp, v, cls, frame_alpha, src.class_spectra, tspec, p.class_shift,
                                         p.residual_scale, self.smooth_frames,
                                         band_profile(log_sp.shape[1], feats.sr, p.class_shift_from_hz), post,
                                         p.class_shift_lifter)
        from .unvoiced_classes import active
        vp = v & (np.asarray(labels) < 0) if p.pause_voiced else None   # voiced frames of the pauses
        if p.convert_envelope and (active(p.unvoiced_shift, p.pause_shift, p.pause_level, p.pause_residual)
                                   or p.pause_voiced):
            from .unvoiced_classes import replace_unvoiced_means, speech_level
            log_sp = replace_unvoiced_means(log_sp, v if vp is None else v & ~vp, labels, frame_alpha, src,
                                            [self.targets.models[t] for t in ids],
                                            p.unvoiced_shift, p.pause_shift, p.pause_level, p.pause_residual,
                                            speech_level(feats), self.smooth_frames)
        sp = np.exp(log_sp) if p.convert_envelope else feats.sp
        if pitch_shift:
            target_f0 = (target_f0[0] + pitch_shift * np.log(2.0) / 12.0, target_f0[1])
        f0 = map_f0(feats.f0, src.log_f0, target_f0, p.f0_max_shift, p.f0_keep_range) if p.convert_f0 else feats.f0
        if p.f0_smooth_frames > 1:
            from .f0_contour import smooth_contour
            f0 = smooth_contour(f0, p.f0_smooth_frames)
        if vp is not None and vp.any():
            f0 = np.where(vp, 0.0, f0)
        return finalize(synthesize(feats, f0=f0, sp=sp), wav)


def _phone_classes(conf: dict) -> bool:
    return conf.get("classes") == "phones"


# The YAML groups of the options (conf/voice/vtln*.yaml; pydeid.voice.configs reads them into the flat fields).
GROUPS = {
    "warping": ("warp_scale", "warp_jitter", "n_average", "near_targets", "near_f0_drawn", "target_gender",
                "target_selection",
                "convert_envelope"),
    "classes": ("classes", "k", "phone_min_frames", "class_shift", "residual_scale", "class_shift_from_hz",
                "class_shift_lifter", "class_temperature", "unvoiced_shift"),
    "pauses": ("pause_shift", "pause_level", "pause_residual", "pause_voiced"),
    "f0": ("pitch_jitter_semitones", "convert_f0", "f0_max_shift", "f0_keep_range", "f0_smooth_frames"),
    "speaker_subspace": ("ss_dims", "ss_pseudo", "ss_scale", "ss_warp", "ss_normalise"),
}

METHOD = VoiceMethod(
    name="vtln", params=VtlnParams, build=build_vtln_params, draw=draw_vtln,
    summary="class-wise bilinear warps towards a target speaker of a pool, log-F0 mapped (Sundermann and Ney 2003)",
    config_keys={"k": None, "target_gender": ("same", "any"), "target_selection": TARGET_SELECTIONS},
    gendered=True, speaker_targets=True,
    phone_classes=_phone_classes, groups=GROUPS)
