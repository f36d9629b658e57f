"""Frame selection: FrameSelectParams, the pool builder and the transformer (see the package docstring)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import target_selection as TS
from ..common import log_f0_stats
from ..world import WorldConfig, analyze, finalize, synthesize
from .features import code_frames, content, decode
from .match import select
from .pool import VERSION, FramePool
from .segments import SegmentIndex, select_segments
from .whisper_content import whisper_content

CONTENTS = ("mcep", "whisper", "both")   # what frames are matched on (package docstring)
LEVELS = ("target", "source", "pauses")   # where each output frame's level (the coded envelope's c0) comes from
MATCHES = ("frames", "segments")   # frames: kNN per frame; segments: per aligned phone (needs phone alignments)

DEFAULT_FRAME_PERIOD = 10.0   # ms: half the analysis cost of 5 ms, and twice the pool frames per second of memory


@dataclass(frozen=True)
class FrameSelectParams:
    k: int = 4                         # target frames averaged per output frame (kNN-VC's k)
    n_mcep: int = 40                   # coded envelope dimensions (what output frames are made of)
    n_content: int = 20                # mel-cepstra matched on (normalised per speaker), plus deltas
    delta_weight: float = 0.5          # weight of the content deltas (0: none)
    target_selection: str = "per_gender_pseudo"   # pydeid.voice.target_selection
    pool_voices: int = TS.POOL_VOICES  # pooled_pseudo: pool speakers of one pseudo-speaker
    max_utts: int = 20                 # utterances per pool speaker in the matching set
    f0_smooth_frames: int = 10         # log-F0 smoothed over n frames per voiced run (pydeid.voice.vtln.f0_contour)
    content: str = "mcep"              # mcep: normalised mel-cepstra + deltas; whisper: Whisper encoder output;
                                       # both: the two side by side, the (unit) Whisper frames times whisper_weight
    whisper_model: str = "tiny.en"     # content whisper / both: the encoder's model (pydeid.asr.whisper_models)
    whisper_weight: float = 4.0        # content both: weight of the Whisper part (the mel-cepstral part has norm ~6)
    # source: each output frame keeps the source frame's overall level (c0 of the coded envelope; the spectral
    # shape is still the target frames' average): dev WER -21 points, but it hands the attacker the source's
    # loudness contour (dev EER 37.9 -> 24.7); pauses: only the source's unvoiced frames quieter than its median
    # voiced level are made as quiet as the source (relative to the speech level): neither effect on dev
    level: str = "target"
    # frames: each frame matched alone; segments: each aligned phone of the source replaced by the k target segments
    # of the same phone that fit it best, warped to its length (pydeid.voice.frame_select.segments; needs the phone
    # alignments of the source and of the pool: --ali-dir / --target-ali-dir)
    match: str = "frames"
    context_weight: float = 1.0        # match segments: bonus per shared neighbouring phone (segments module)
    ap_bands: int = 0                  # aperiodicity coding: 0 = WORLD's (one band at 16 kHz), N = N bands (features)


def _int(name, v, lo, hi):
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise ValueError(f"{name} must be an integer in [{lo}, {hi}], got {v!r}")


def build_frame_select(**overrides) -> FrameSelectParams:
    p = FrameSelectParams(**overrides)
    _int("k", p.k, 1, 64)
    _int("n_mcep", p.n_mcep, 10, 60)
    _int("n_content", p.n_content, 2, p.n_mcep)
    _int("pool_voices", p.pool_voices, 2, 50)
    _int("max_utts", p.max_utts, 1, 10000)
    _int("f0_smooth_frames", p.f0_smooth_frames, 0, 10000)
    if p.ap_bands != 0:
        _int("ap_bands", p.ap_bands, 2, 257)
    v = p.delta_weight
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0.0 <= float(v) <= 10.0:
        raise ValueError(f"delta_weight must be a number in [0, 10], got {v!r}")
    TS.check(p.target_selection)
    if p.match not in MATCHES:
        raise ValueError(f"unknown match '{p.match}' (known: {', '.join(MATCHES)})")
    c = p.context_weight
    if isinstance(c, bool) or not isinstance(c, (int, float)) or not 0.0 <= float(c) <= 10.0:
        raise ValueError(f"context_weight must be a number in [0, 10], got {c!r}")
    if p.level not in LEVELS:
        raise ValueError(f"unknown level '{p.level}' (known: {', '.join(LEVELS)})")
    w = p.whisper_weight
    if isinstance(w, bool) or not isinstance(w, (int, float)) or not 0.0 < float(w) <= 100.0:
        raise ValueError(f"whisper_weight must be a number in (0, 100], got {w!r}")
    if p.content not in CONTENTS:
        raise ValueError(f"unknown content '{p.content}' (known: {', '.join(CONTENTS)})")
    from pydeid.asr.whisper_models import MODELS
    if p.whisper_model not in MODELS:
        raise ValueError(f"unknown whisper_model '{p.whisper_model}' (known: {', '.join(MODELS)})")
    return p


def draw_frame_select(params: FrameSelectParams, rng) -> dict:
    return {}   # nothing but the targets (the plan draws them by target_selection)


def needs_phones(conf: dict) -> bool:
    """Whether a frame-selection config (its flat options) needs phone alignments."""
    return conf.get("match") == "segments"


def build_pool(target_data, speakers: list[str], params: FrameSelectParams, world: WorldConfig,
               progress: bool = False, phones=None) -> FramePool:
    """The matching set of the chosen pool speakers of a data dir (their first max_utts utterances); phones: the
    PhoneAlignment of the data dir (match segments)."""
    from functools import partial

    from pydeid.io import DataDir
    d = DataDir.read(target_data)
    spk2utt = d.spk2utt
    utts = {s: (d.load_audio(u) for u in spk2utt[s][:params.max_utts]) for s in speakers}
    labels = None
    if params.match == "segments":
        if phones is None:
            raise ValueError("match segments needs the phone alignment of the target data (--target-ali-dir)")
        phones.check_covers([u for s in speakers for u in spk2utt[s][:params.max_utts]])
        labels = {s: [partial(phones.frame_phones, u, world.frame_period) for u in spk2utt[s][:params.max_utts]]
                  for s in speakers}
    prog = None
    if progress:
        from tqdm import tqdm
        prog = lambda it: tqdm(it, desc="frame-select pool")   # noqa: E731
    return FramePool.build(utts, world, params.n_mcep, params.n_content, params.delta_weight, progress=prog,
                           content_kind=params.content, whisper_model=params.whisper_model,
                           whisper_weight=params.whisper_weight, phone_labels=labels, ap_bands=params.ap_bands)


def _level(out_c0: np.ndarray, src_c0: np.ndarray, voiced: np.ndarray, level: str) -> np.ndarray:
    """The output frames' c0 under `level` (FrameSelectParams.level)."""
    if level == "source":
        return src_c0
    if not voiced.any():
        return out_c0
    ref_s, ref_o = float(np.median(src_c0[voiced])), float(np.median(out_c0[voiced]))
    pause = ~voiced & (src_c0 < ref_s)
    out = out_c0.copy()
    out[pause] = np.minimum(out_c0[pause], src_c0[pause] - ref_s + ref_o)
    return out


class FrameSelectTransformer:
    def __init__(self, params: FrameSelectParams, world: WorldConfig, pool: FramePool):
        self.params, self.world, self.pool = params, world, pool
        self._cache: dict = {}
        m = pool.meta
        if m.get("version") != VERSION:
            raise ValueError(f"the frame pool was built by an older frame selection (version {m.get('version', 1)}, "
                             f"now {VERSION}): rebuild it (rerun without --resume or delete it)")
        if m["n_mcep"] != params.n_mcep or m["frame_period"] != float(world.frame_period) \
                or m["content"] != params.content \
                or (params.content != "mcep" and m["whisper_model"] != params.whisper_model) \
                or (params.content == "both" and m.get("whisper_weight") != float(params.whisper_weight)) \
                or (params.content != "whisper" and (m["n_content"] != params.n_content
                                                     or m["delta_weight"] != float(params.delta_weight))):
            raise ValueError("the frame pool was built with other features or frame period than this plan")
        if m.get("ap_bands", 0) != params.ap_bands:
            raise ValueError(f"the frame pool codes the aperiodicity in {m.get('ap_bands', 0)} bands, this plan in "
                             f"{params.ap_bands} (ap_bands): rebuild it")
        if params.match == "segments" and not m.get("phones"):
            raise ValueError("match segments needs a frame pool built with the phone alignment of the target data "
                             "(rebuild it with --target-ali-dir)")

    def _target(self, targets: list[str]):
        """The matching set of a target (one or several pool speakers): their frames stacked, their log-F0
        statistics averaged (as VTLN's n_average does)."""
        missing = [t for t in targets if t not in self.pool.speakers]
        if missing:
            raise ValueError(f"target speaker(s) absent from the frame pool: {missing[:3]}")
        key = tuple(targets)
        if key not in self._cache:   # consistent targets (per gender) recur: stack and cast once
            if len(self._cache) > 8:
                self._cache.clear()
            s = [self.pool.speakers[t] for t in targets]
            lf0 = (float(np.mean([x.log_f0[0] for x in s])), float(np.mean([x.log_f0[1] for x in s])))
            index = None
            if self.params.match == "segments":   # utterance starts of every stacked speaker: no run crosses one
                offs = np.cumsum([0] + [len(x.voiced) for x in s[:-1]])
                index = SegmentIndex(np.concatenate([x.phone for x in s]),
                                     [int(o + b) for o, x in zip(offs, s) for b in x.bounds])
            self._cache[key] = (np.vstack([x.content for x in s]).astype(np.float32),
                                np.concatenate([x.voiced for x in s]), np.vstack([x.mcep for x in s]),
                                np.vstack([x.bap for x in s]), lf0, index)
        return self._cache[key]

    def source_content(self, feats, wav=None) -> np.ndarray:
        """The content features of a source utterance (its WORLD analysis; its 16 kHz waveform for whisper)."""
        p = self.params
        if p.content != "mcep" and wav is None:
            raise ValueError(f"content {p.content} needs the source waveform")
        wh = whisper_content(wav, len(feats.f0), self.world.frame_period, p.whisper_model) \
            if p.content != "mcep" else None
        if p.content == "whisper":
            return wh
        mc = content(code_frames(feats, p.n_mcep).mcep, p.n_content, p.delta_weight)
        return mc if wh is None else np.hstack([mc, float(p.whisper_weight) * wh]).astype(np.float32)

    def convert_features(self, feats, targets: list[str], wav=None, phones=None):
        """(f0, mcep, bap, idx): the output's F0, coded envelope and aperiodicity, and the (T, k) target frames
        each output frame averages (indices into the targets' stacked frames). wav: the source audio (16 kHz),
        needed by content whisper; phones: match segments: a function n_frames -> each frame's aligned phone."""
        from ..vtln.f0_contour import smooth_contour
        from ..vtln.f0_map import map_f0
        p = self.params
        t_content, t_voiced, t_mcep, t_bap, t_lf0, index = self._target(list(targets))
        src = self.source_content(feats, wav)
        if p.match == "segments":
            if phones is None:
                raise ValueError("match segments needs the phone alignment of the converted set (--ali-dir)")
            idx = select_segments(src, feats.f0 > 0, phones(len(feats.f0)), t_content, t_voiced, index, p.k,
                                  p.context_weight)
        else:
            idx = select(src, feats.f0 > 0, t_content, t_voiced, p.k)
        mcep = t_mcep[idx].mean(axis=1)
        bap = t_bap[idx].mean(axis=1)
        if p.level != "target":
            mcep[:, 0] = _level(mcep[:, 0], code_frames(feats, p.n_mcep).mcep[:, 0], feats.f0 > 0, p.level)
        f0 = feats.f0
        if np.count_nonzero(f0 > 0) >= 2:
            f0 = map_f0(f0, log_f0_stats([f0]), t_lf0)   # the utterance's own log-F0 statistics to the target's
            f0 = smooth_contour(f0, p.f0_smooth_frames)
        return f0, mcep, bap, idx

    def transform(self, wav, sr: int, draw: dict, phones=None) -> np.ndarray:
        """phones (match segments): a function n_frames -> (n_frames,) aligned phone index per frame (-1 none)."""
        if sr != 16000:
            raise ValueError(f"frame selection expects 16 kHz audio, got {sr}")
        x = np.asarray(wav, dtype=np.float64)
        feats = analyze(x, sr, self.world)
        f0, mcep, bap, _ = self.convert_features(feats, draw["targets"], wav=x, phones=phones)
        sp, ap = decode(mcep, bap, sr, self.pool.meta["fft_size"], self.params.ap_bands)
        return finalize(synthesize(feats, f0=f0, sp=sp, ap=ap), x)


__all__ = ["DEFAULT_FRAME_PERIOD", "FrameSelectParams", "FrameSelectTransformer", "build_frame_select",
           "build_pool", "draw_frame_select", "needs_phones"]
