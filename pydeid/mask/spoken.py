"""Spoken pseudonyms: fill each masked interval with the surrogate words the text transformation wrote for it.

Silence hides an entity but teaches a recogniser nothing about names, dates and numbers. This fill speaks, in
each masked interval, the surrogates of the transformed transcript (`steps/transform_text.sh` output: the same
dialogue-consistent pseudonyms, random digits for numbers), so that audio and transcript say the same words:

1. Intervals: as `mask-words` (entity span + absorbed pauses + pad, merged). The words inside an interval (every
   hidden entity, plus an untagged word whose middle lies inside, e.g. "on" between two dates) are spoken again
   by the insert: entities as their surrogates, untagged words as themselves.
2. Voice: espeak-ng (an accent drawn among `accents`, by default espeak's eight English ones, + a variant of the
   utterance's gender, rate and range drawn per utterance, seeded, independent of the speaker);
   WORLD analysis of the insert, F0 scaled so that its median is the median F0 of the utterance's own speech
   outside the intervals (the converted voice around it) and its log-F0 spread that speech's spread
   (`match_f0_range`), its mean spectral envelope moved to that speech's by a smooth cepstral correction
   (`match_spectrum`: coefficients 1..N_CEP, clipped to +-MAX_EQ_DB), RMS matched to that speech's active frames.
3. Fit: espeak's rate is chosen per insert (`fit_rate`, within `rate_limits`) so that the insert's natural
   duration is the duration the original words had; the insert is then time-stretched (WORLD frames, factor
   clamped to [min_stretch, max_stretch]) for what is left; what remains is absorbed by letting the interval grow
   or shrink (later words and intervals shift, the new words.ctm follows). The pauses and pads of the interval
   stay silent.
4. Splice: 10 ms raised-cosine fades at the insert's own ends (inside the interval) and the `ramp` fade of
   `mask-words` on the original just outside it: no original sample is ever mixed into an interval.
5. Noise floor (`noise_floor`): without it the pauses and pads of an interval are digital zeros and the insert is
   noiseless, a signal no recording has (a corpus has its room or channel noise everywhere else). With it, the
   whole interval gets seeded Gaussian noise with the level and smooth spectral shape of the quietest frames of
   the utterance outside the intervals: synthetic, a function of the entry (level, cepstrum, seed) like the insert.

Everything the insert depends on (text, espeak voice, rate, range, F0 and level targets, lengths) is one JSON
entry per interval, `render_interval(entry)` turns it into the interval's samples, and `verify-spoken` re-renders
every entry and checks each output sample of each interval equals the insert or is zero. Entries (the surrogate
voice parameters, the original entity times) are secrets: one file per utterance, mode 0600, outside the corpus.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from pydeid.io import (CtmEntry, DataDir, FormatError, Sentence, atomic_write_text, read_audio, read_ctm,
                       write_audio)
from pydeid.io.ctm import ctm_by_utt, write_ctm
from pydeid.io.atomic import partial_dir, remove_stale_temps
from pydeid.io.fingerprint import file_sha as _sha
from pydeid.io.secrets import check_secret_path, write_secret_json

from pydeid.text.hidden_types import describe

from .core import entity_times, hidden_spans, mask_intervals, parse_tagset
from .match import MatchError, match_tokens
from .pipeline import load_tags

log = logging.getLogger(__name__)

SR = 16000
ACCENT = "en-us"
# espeak-ng's English accents (all but en-shaw, a spelling reform): the surrogate voice's accent is drawn among them
ENGLISH_ACCENTS = ("en-us", "en", "en-gb-x-rp", "en-gb-scotland", "en-029", "en-gb-x-gbclan", "en-gb-x-gbcwmd",
                   "en-us-nyc")
_DEFAULT_F0 = {"m": 120.0, "f": 210.0}
PLAN_VERSION = 2   # 2: per-insert rate, spectral envelope and F0 spread targets
N_CEP = 16         # cepstral coefficients (1..N_CEP) of the envelope target: its smooth shape, not its detail
MAX_EQ_DB = 12.0   # the envelope correction is clipped to +-MAX_EQ_DB at every frequency
F0_SD_RATIO = (0.5, 2.0)   # limits of the F0 spread scaling


@dataclass
class SpokenOptions:
    tagset: str | tuple[str, ...] = "all"   # every type the detectors can emit (pydeid.text.hidden_types)
    pad: float = 0.1
    absorb_gaps: bool = True
    seed: int = 0
    min_stretch: float = 0.8     # insert duration x factor, factor clamped to [min, max]
    max_stretch: float = 1.25
    fade: float = 0.01           # raised-cosine fade at the insert's ends (inside the interval)
    ramp: float = 0.005          # fade of the original just outside each interval (as mask-words)
    rate_range: tuple[int, int] = (150, 185)   # espeak words per minute, drawn per utterance
    # off by default: on mini they matched the surrounding voice better but the ASR trained on the fill did worse
    # (WER 70.6 vs 59.2 %, seed 0, README)
    fit_rate: bool = False       # per insert, espeak's rate that makes its natural duration the interval's
    rate_limits: tuple[int, int] = (100, 320)  # the fitted rate stays within (words per minute)
    match_spectrum: bool = False  # insert's mean spectral envelope -> the surrounding speech's (cepstral, smooth)
    match_f0_range: bool = False  # insert's log-F0 spread -> the surrounding speech's (median always matched)
    noise_floor: bool = False     # the interval gets synthetic noise like the utterance's noise floor (point 5)
    # espeak-ng accents the surrogate voice is drawn from, per utterance and independently of its speaker (one:
    # always that accent, no draw). Default: all English ones (on mini the ASR trained on the fill: WER 56.1 +- 1.7
    # over 3 seeds against 59.9 +- 0.6 with en-us alone, README)
    accents: tuple[str, ...] = ENGLISH_ACCENTS
    strict: bool = True


def _variants(gender: str) -> list[str]:
    """espeak-ng variants of a gender: the mini corpus's lists (no robotic, whispering or child variants)."""
    from pydeid.corpora.mini.voices import FEMALE_VARIANTS, MALE_VARIANTS
    return list(FEMALE_VARIANTS if gender == "f" else MALE_VARIANTS)


def _rng(seed: int, *parts) -> np.random.Generator:
    h = hashlib.sha256(":".join(map(str, (seed,) + parts)).encode()).digest()
    return np.random.default_rng(int.from_bytes(h[:8], "little"))


def espeak_accents() -> set[str]:
    """The English accents espeak-ng knows, lower-cased (the files en* of espeak-ng-data/lang)."""
    import espeakng_loader
    lang = Path(espeakng_loader.get_data_path()) / "lang"
    return {f.name.lower() for f in lang.rglob("en*") if f.is_file()}


def check_accents(accents) -> tuple[str, ...]:
    """Accent names (case-insensitive) -> their espeak names; an unknown or empty list is an error."""
    known = espeak_accents()
    out = tuple(a.strip().lower() for a in accents if a.strip())
    bad = [a for a in out if a not in known]
    if not out or bad:
        raise ValueError(f"unknown espeak-ng accent(s) {bad or '(none given)'}; known: {', '.join(sorted(known))}")
    return out


def draw_voice(seed: int, utt: str, gender: str | None, opts: SpokenOptions) -> dict:
    """The surrogate voice of an utterance (a secret): espeak variant of the utterance's gender, rate, range, and
    with several `accents` one of them (its own draw: the other draws do not depend on the accent list)."""
    rng = _rng(seed, utt, "spoken-voice")
    g = gender if gender in ("m", "f") else ("m" if rng.random() < 0.5 else "f")
    var = _variants(g)
    acc = opts.accents[0] if len(opts.accents) == 1 else \
        opts.accents[int(_rng(seed, utt, "spoken-accent").integers(len(opts.accents)))]
    return {"gender": g, "voice": f"{acc}+{var[int(rng.integers(len(var)))]}",
            "rate": int(rng.integers(opts.rate_range[0], opts.rate_range[1] + 1)),
            "range": int(rng.integers(30, 71)), "espeak_seed": int(rng.integers(1, 2 ** 31 - 1))}


# ----------------------------------------------------------------------------------------------------------------
# analysis of the surrounding speech

def frame_rms(x: np.ndarray, n: int) -> np.ndarray:
    m = len(x) // n
    if m == 0:
        return np.zeros(0)
    return np.sqrt((x[: m * n].astype(np.float64).reshape(m, n) ** 2).mean(axis=1))


def active_rms(x: np.ndarray, sr: int = SR, floor_db: float = -30.0) -> float:
    """RMS over the 10 ms frames within floor_db of the loudest frame (speech, not pauses)."""
    r = frame_rms(x, sr // 100)
    if not len(r) or r.max() <= 0:
        return 0.0
    act = r[r >= r.max() * 10 ** (floor_db / 20)]
    return float(np.sqrt(np.mean(act ** 2)))


def envelope_cepstrum(f) -> list[float] | None:
    """Cepstral coefficients 1..N_CEP of the mean log spectral envelope over the voiced frames of WORLD features
    (the smooth spectral shape of a voice: formant region and tilt; c0, the level, is left out)."""
    v = f.f0 > 0
    if v.sum() < 10:
        return None
    mean_log = np.log(np.maximum(f.sp[v], 1e-20)).mean(axis=0)
    return [round(float(c), 6) for c in np.fft.irfft(mean_log)[1: N_CEP + 1]]


def cepstral_gain(c_target, c_source, nbins: int) -> np.ndarray:
    """Log-power gain per envelope bin that moves cepstrum c_source to c_target, clipped to +-MAX_EQ_DB."""
    dc = np.asarray(c_target, np.float64) - np.asarray(c_source, np.float64)
    k, n = np.arange(nbins), np.arange(1, len(dc) + 1)
    g = 2.0 * np.cos(np.pi * np.outer(k, n) / (nbins - 1)) @ dc
    lim = MAX_EQ_DB / 10.0 * np.log(10.0)
    return np.clip(g, -lim, lim)


def log_f0_sd(f0: np.ndarray) -> float | None:
    v = f0[f0 > 0]
    return float(np.std(np.log(v))) if len(v) >= 10 else None


NOISE_FFT = 512
NOISE_PCT = 5.0     # the noise floor: frames at most NOISE_SPAN x the NOISE_PCT-th percentile frame level
NOISE_SPAN = 1.5


def noise_floor(x: np.ndarray) -> dict | None:
    """Level (RMS) and smooth spectral shape (cepstrum 1..N_CEP of the mean log power spectrum) of the quietest
    25 ms frames of x (its background noise); None when fewer than 5 such frames (or only digital silence)."""
    n, hop = 400, 160
    if len(x) < n + 5 * hop:
        return None
    idx = np.arange(0, len(x) - n + 1, hop)
    fr = x[idx[:, None] + np.arange(n)[None, :]].astype(np.float64)
    rms = np.sqrt((fr ** 2).mean(axis=1))
    live = rms > 1e-6
    if live.sum() < 5:
        return None
    thr = np.percentile(rms[live], NOISE_PCT) * NOISE_SPAN
    sel = live & (rms <= thr)
    if sel.sum() < 5:
        return None
    spec = (np.abs(np.fft.rfft(fr[sel] * np.hanning(n)[None, :], NOISE_FFT)) ** 2).mean(axis=0)
    cep = np.fft.irfft(np.log(np.maximum(spec, 1e-20)))[1: N_CEP + 1]
    return {"rms": round(float(np.sqrt((rms[sel] ** 2).mean())), 7), "cep": [round(float(c), 6) for c in cep]}


def comfort_noise(n: int, noise: dict) -> np.ndarray:
    """n samples of Gaussian noise (seed noise['seed']) shaped by the cepstrum and scaled to noise['rms']."""
    if n <= 0:
        return np.zeros(0)
    w = np.random.default_rng(noise["seed"]).standard_normal(n)
    nb = NOISE_FFT // 2 + 1
    logp = 2.0 * np.cos(np.pi * np.outer(np.arange(nb), np.arange(1, len(noise["cep"]) + 1)) / (nb - 1)) \
        @ np.asarray(noise["cep"], np.float64)
    W = np.fft.rfft(w)
    f = np.linspace(0.0, 1.0, len(W))
    W *= np.exp(0.5 * np.interp(f, np.linspace(0.0, 1.0, nb), logp))
    y = np.fft.irfft(W, n)
    r = np.sqrt(np.mean(y ** 2))
    return y * (noise["rms"] / r) if r > 0 else y


def surrounding_targets(wav: np.ndarray, intervals: list[tuple[float, float]], gender: str,
                        with_noise: bool = False) -> dict:
    """Median F0 (Hz), log-F0 spread, mean envelope cepstrum and active RMS of the speech outside the intervals
    (the voice the inserts must sound like); gender defaults when none is left (spread and cepstrum: None); with
    `with_noise`, its noise floor (noise_floor) too."""
    keep = np.ones(len(wav), bool)
    for a, b in intervals:
        keep[int(np.floor(a * SR)): int(np.ceil(b * SR))] = False
    rest = wav[keep]
    f0_med, rms, src, sd, cep = _DEFAULT_F0.get(gender, 150.0), 0.05, "default", None, None
    if len(rest) > SR // 5:
        from pydeid.voice.world import WorldConfig, analyze
        f = analyze(rest.astype(np.float64), SR, WorldConfig(frame_period=10.0))
        v = f.f0[f.f0 > 0]
        if len(v) >= 10:
            f0_med, src = float(np.median(v)), "surrounding speech"
            sd, cep = log_f0_sd(f.f0), envelope_cepstrum(f)
        r = active_rms(rest)
        if r > 0:
            rms = r
    return {"f0": round(f0_med, 3), "rms": round(rms, 6), "source": src,
            "f0_sd": None if sd is None else round(sd, 5), "cep": cep,
            **({"noise": noise_floor(rest)} if with_noise else {})}


# ----------------------------------------------------------------------------------------------------------------
# the insert

def _trim_bounds(x: np.ndarray, sr: int) -> tuple[int, int]:
    hop = max(1, sr // 200)
    r = frame_rms(x, hop)
    if not len(r) or r.max() <= 0:
        return 0, len(x)
    on = np.flatnonzero(r >= r.max() * 10 ** (-45 / 20))
    return int(on[0] * hop), int(min(len(x), (on[-1] + 1) * hop))


def _stretch_world(f, n_in: int, factor: float, f0_scale: float, f0_sd_ratio: float = 1.0,
                   gain: np.ndarray | None = None) -> np.ndarray:
    """Resynthesise WORLD features f (of n_in samples) time-stretched by factor, F0 scaled by f0_scale around the
    insert's median with its log deviations scaled by f0_sd_ratio, envelope times exp(gain) per bin."""
    from pydeid.voice.world import WorldFeatures, synthesize
    T = len(f.f0)
    T2 = max(2, int(round(T * factor)))
    pos = np.linspace(0, T - 1, T2)
    i0 = np.floor(pos).astype(int)
    i1 = np.minimum(i0 + 1, T - 1)
    w = (pos - i0)[:, None]
    sp = (1 - w) * f.sp[i0] + w * f.sp[i1]
    ap = (1 - w) * f.ap[i0] + w * f.ap[i1]
    if gain is not None:
        sp = sp * np.exp(gain)[None, :]
    near = np.rint(pos).astype(int)
    f0 = f.f0[near] * f0_scale
    if f0_sd_ratio != 1.0:
        v = f0 > 0
        med = np.median(np.log(f.f0[f.f0 > 0])) + np.log(f0_scale)
        f0[v] = np.exp(med + (np.log(f0[v]) - med) * f0_sd_ratio)
    n2 = int(round(n_in * T2 / T))
    g = WorldFeatures(f0=f0, sp=sp, ap=ap, sr=SR, frame_period=f.frame_period, n_samples=n2)
    return synthesize(g)


def _word_spans(syn, text: str, tokens: list[str], phoneme_count) -> list[tuple[int, int]]:
    """Native-rate sample spans of the insert's words (espeak events; proportional split if they disagree)."""
    from pydeid.corpora.mini.synth import AlignmentError, word_intervals
    offsets, pos = [], 0
    for t in tokens:
        k = text.index(t, pos)
        offsets.append(k)
        pos = k + len(t)
    try:
        return word_intervals(syn, tokens, offsets, phoneme_count)
    except AlignmentError:
        n = syn.end_sample
        L = np.cumsum([0] + [len(t) + 1 for t in tokens]) / (sum(len(t) + 1 for t in tokens)) * n
        return [(int(L[i]), int(L[i + 1])) for i in range(len(tokens))]


_PRIVATE_LIB: list[str] = []


def fresh_synthesize(text: str, voice: str, rate: int, pitch: int, range_: int, rand_seed: int, tokens=None):
    """espeak-ng from a freshly loaded library: the same call gives the same samples whatever ran before.

    libespeak-ng keeps state across calls that no API resets (e.g. the pitch flutter index): in one process the
    same text spoken twice differs by a few samples. A private copy of the library (so no other user's handle
    keeps it loaded) is loaded, used once and unloaded (~10 ms), so an insert is a function of its parameters
    alone and the verifier can render it again bit for bit.
    """
    import _ctypes
    import os
    import shutil
    import tempfile

    import espeakng_loader

    from pydeid.speech import espeak as E
    if not _PRIVATE_LIB or not os.path.exists(_PRIVATE_LIB[0]):
        d = tempfile.mkdtemp(prefix="pydeid-espeak-")
        dst = os.path.join(d, "libespeak-ng-private.so")
        shutil.copy(espeakng_loader.get_library_path(), dst)
        _PRIVATE_LIB[:] = [dst]
    with E.Synth._lock:
        orig = espeakng_loader.get_library_path
        espeakng_loader.get_library_path = lambda: _PRIVATE_LIB[0]
        try:
            s = E.Synth.__new__(E.Synth)
            s.__init__()
        finally:
            espeakng_loader.get_library_path = orig
    try:
        syn = s.synthesize(text, voice, rate, pitch, range_, 0, rand_seed=rand_seed)
        # word spans with this library's phoneme counts (after the samples: the count may touch its state)
        return syn, (_word_spans(syn, text, tokens, s.phoneme_count) if tokens is not None else None)
    finally:
        s.lib.espeak_Terminate()
        _ctypes.dlclose(s.lib._handle)


def natural_duration(tokens: list[str], voice: str, rate: int, range_: int, espeak_seed: int) -> float:
    """Seconds espeak takes to say tokens (leading and trailing silence trimmed, as render_interval trims)."""
    syn, _ = fresh_synthesize(" ".join(tokens), voice, rate, 50, range_, espeak_seed)
    x = syn.samples.astype(np.float32) / 32768.0
    s0, s1 = _trim_bounds(x, syn.rate)
    return (s1 - s0) / syn.rate


def fit_rate(entry: dict, limits: tuple[int, int], rounds: int = 3) -> int:
    """espeak's rate (words per minute, within limits) at which the insert's natural duration is the interval's
    speech duration: duration is close to proportional to 1/rate, so a few proportional updates converge; the
    time-stretch then only covers what is left (and what the limits refuse)."""
    r = int(np.clip(entry["rate"], *limits))
    d = entry["speech_dur"]
    if d <= 0:
        return r
    for _ in range(rounds):
        n = natural_duration(entry["tokens"], entry["voice"], r, entry["range"], entry["espeak_seed"])
        if n <= 0:
            break
        r2 = int(np.clip(round(r * n / d), *limits))
        if r2 == r:
            break
        r = r2
    return r


def render_interval(entry: dict) -> tuple[np.ndarray, list[tuple[str, float, float]], float]:
    """The samples (int16, length entry's out_len) of one output interval, the insert's words with times
    (seconds from the interval start) and the stretch factor. A function of the entry alone."""
    from pydeid.io import resample
    tokens = entry["tokens"]
    if not tokens:   # nothing spoken: silence, or with a noise floor that noise
        out = np.zeros(entry["lead"] + entry["trail"], np.float64)
        if entry.get("noise"):
            out += comfort_noise(len(out), entry["noise"])
        return np.clip(np.rint(out * 32767.0), -32767, 32767).astype(np.int16), [], 1.0
    text = " ".join(tokens)
    syn, spans = fresh_synthesize(text, entry["voice"], entry["rate"], 50, entry["range"], entry["espeak_seed"],
                                  tokens)
    x = syn.samples.astype(np.float32) / 32768.0
    s0, s1 = _trim_bounds(x, syn.rate)
    y = resample(x[s0:s1], syn.rate, SR).astype(np.float64)
    if len(y) < SR // 50:
        y = np.zeros(SR // 50)
    # natural F0 of the insert, then scaled to the target median (and spread); envelope towards the target's
    from pydeid.voice.world import WorldConfig, analyze
    f = analyze(y, SR, WorldConfig(frame_period=5.0))
    v = f.f0[f.f0 > 0]
    f0_scale = float(entry["f0"] / np.median(v)) if len(v) else 1.0
    sd_ratio, gain = 1.0, None
    sd = log_f0_sd(f.f0)
    if entry.get("f0_sd") and sd:
        sd_ratio = float(np.clip(entry["f0_sd"] / sd, *F0_SD_RATIO))
    if entry.get("cep"):
        c = envelope_cepstrum(f)
        if c is not None:
            gain = cepstral_gain(entry["cep"], c, f.sp.shape[1])
    natural = len(y) / SR
    factor = float(np.clip(entry["speech_dur"] / natural, entry["min_stretch"], entry["max_stretch"])) \
        if natural > 0 and entry["speech_dur"] > 0 else 1.0
    z = _stretch_world(f, len(y), factor, f0_scale, sd_ratio, gain)
    r = active_rms(z)
    if r > 0:
        z = z * (entry["rms"] / r)
    nf = min(int(round(entry["fade"] * SR)), len(z) // 2)
    if nf > 0:
        ramp = 0.5 - 0.5 * np.cos(np.linspace(0, np.pi, nf + 2)[1:-1])
        z[:nf] *= ramp
        z[-nf:] *= ramp[::-1]
    lead, trail = entry["lead"], entry["trail"]
    out = np.zeros(lead + len(z) + trail, np.float64)
    out[lead: lead + len(z)] = z
    if entry.get("noise"):
        out += comfort_noise(len(out), entry["noise"])
    out = np.clip(np.rint(out * 32767.0), -32767, 32767).astype(np.int16)
    scale = factor * SR / syn.rate   # native samples of the trimmed insert -> output samples
    words = []
    for t, (a, b) in zip(tokens, spans):
        ta = (lead + max(0.0, (a - s0) * scale)) / SR
        tb = (lead + min(len(z), max(0.0, (b - s0) * scale))) / SR
        if tb <= ta:
            tb = ta + 0.01
        words.append((t, round(ta, 3), round(tb, 3)))
    return out, words, factor


# ----------------------------------------------------------------------------------------------------------------
# planning an utterance

def pair_surrogates(orig: Sentence, trans: Sentence, tagset: set[str], where: str) -> list[tuple[str, object, list[str]]]:
    """Units of the output sentence in order: ("word", orig index, [token]) or ("ent", (s, e, type), surrogate
    tokens). The transformed sentence must keep every untagged token and replace entities span by span."""
    o_sp, t_sp = sorted(orig.spans()), sorted(trans.spans())
    if len(o_sp) != len(t_sp):
        raise FormatError(where, None, f"utterance '{orig.id}': {len(o_sp)} entities in the tags, {len(t_sp)} in "
                          "the transformed tags (transform the text with the same tags as the masking)")
    units: list[tuple[str, object, list[str]]] = []
    i = j = 0
    for (a, b, typ), (c, d, typ2) in zip(o_sp + [(len(orig.tokens), len(orig.tokens), "")],
                                         t_sp + [(len(trans.tokens), len(trans.tokens), "")]):
        if orig.tokens[i:a] != trans.tokens[j:c] or (typ and typ.upper() != typ2.upper()):
            raise FormatError(where, None, f"utterance '{orig.id}': the transformed sentence does not follow the "
                              f"tagged one near token {i + 1} ({' '.join(orig.tokens[i:a][:5])} <> "
                              f"{' '.join(trans.tokens[j:c][:5])})")
        units.extend(("word", k, [orig.tokens[k]]) for k in range(i, a))
        if typ:
            new = list(trans.tokens[c:d])
            if typ.upper() not in tagset and new != orig.tokens[a:b]:
                raise FormatError(where, None, f"utterance '{orig.id}': entity type {typ} is replaced in the text but "
                                  "not masked in the audio (add it to --tags)")
            units.append(("ent", (a, b, typ), new))
        i, j = b, d
    return units


def plan_utterance(utt: str, orig: Sentence, trans: Sentence, words: list[CtmEntry], dur: float, tagset: set[str],
                   opts: SpokenOptions, where: str) -> dict:
    """Intervals (input times), the output tokens per interval, and the words left outside (with input times)."""
    units = pair_surrogates(orig, trans, tagset, where)
    ents = entity_times(utt, orig, words, tagset, strict=opts.strict, absorb_gaps=opts.absorb_gaps)
    intervals = mask_intervals(ents, opts.pad, dur)
    pairs = match_tokens(orig.tokens, [w.token for w in words], utt, strict=opts.strict) if words else \
        [[] for _ in orig.tokens]
    hidden = {(s, e) for s, e, t in hidden_spans(orig, tagset)}

    def times(idx: list[int]) -> tuple[float, float] | None:
        js = [j for i in idx for j in pairs[i]]
        return (min(words[j].start for j in js), max(words[j].end for j in js)) if js else None

    def which(t) -> int | None:
        if t is None:
            return None
        mid = 0.5 * (t[0] + t[1])
        for k, (a, b) in enumerate(intervals):
            if a <= mid < b:
                return k
        return None

    placed: list[dict] = []   # unit -> {"tokens", "times", "iv", "ent"}
    for n_unit, (kind, ref, toks) in enumerate(units):
        if kind == "ent":
            a, b, typ = ref
            t = times(list(range(a, b)))
            k = which(t) if (a, b) in hidden else None
            if (a, b) in hidden and k is None and t is not None:
                raise FormatError(where, None, f"utterance '{utt}': entity at tokens {a + 1}-{b} outside every "
                                  "interval (internal error)")
        else:
            t = times([ref])
            k = which(t)
        # ent: the unit's number for a surrogate (verify-spoken checks what each surrogate says), -1 for a word
        placed.append({"tokens": toks, "times": t, "iv": k, "ent": n_unit if kind == "ent" else -1})
    return {"intervals": intervals, "units": placed}


# ----------------------------------------------------------------------------------------------------------------
# the data dir

def _to_int16(x: np.ndarray) -> np.ndarray:
    return np.clip(np.rint(np.asarray(x, np.float64) * 32768.0), -32768, 32767).astype(np.int16)


def fill_utterance(utt: str, wav: np.ndarray, plan: dict, gender: str | None, opts: SpokenOptions
                   ) -> tuple[np.ndarray, list[CtmEntry], list[str], dict]:
    """Output samples (int16), output CTM, output tokens and the secret entry of one utterance."""
    intervals = plan["intervals"]
    units = plan["units"]
    voice = draw_voice(opts.seed, utt, gender, opts)
    tgt = surrounding_targets(wav, intervals, voice["gender"], opts.noise_floor) if intervals else None
    x = _to_int16(wav)
    n = len(x)
    nr = int(round(opts.ramp * SR))
    fade = 0.5 + 0.5 * np.cos(np.linspace(0, np.pi, nr + 2)[1:-1]) if nr > 0 else np.zeros(0)   # 1 -> 0
    pieces: list[np.ndarray] = []
    entries: list[dict] = []
    ctm: list[CtmEntry] = []
    pos_in = 0        # input sample where the next original piece starts
    out_len = 0
    iv_words: dict[int, list[tuple[str, float, float]]] = {}
    iv_start_out: dict[int, int] = {}
    for k, (a, b) in enumerate(intervals):
        ia, ib = max(0, int(np.floor(a * SR))), min(n, int(np.ceil(b * SR)))
        seg = x[pos_in:ia].astype(np.float64)
        if nr > 0 and len(seg):   # fades on the original, just outside the interval
            m = min(nr, len(seg))
            seg[len(seg) - m:] *= fade[nr - m:]
            if pos_in > 0:
                m2 = min(nr, len(seg))
                seg[:m2] *= fade[::-1][:m2]
        pieces.append(np.rint(seg).astype(np.int16))
        out_len += len(seg)
        toks = [t for u in units if u["iv"] == k for t in u["tokens"]]
        ent_of = [u.get("ent", -1) for u in units if u["iv"] == k for _ in u["tokens"]]
        tms = [u["times"] for u in units if u["iv"] == k and u["times"] is not None]
        core_a = max(ia, int(round(min(t[0] for t in tms) * SR))) if tms else ia
        core_b = min(ib, int(round(max(t[1] for t in tms) * SR))) if tms else ib
        core_b = max(core_b, core_a)
        noise = None
        if opts.noise_floor and tgt and tgt.get("noise"):
            noise = {**tgt["noise"], "seed": int(_rng(opts.seed, utt, "spoken-noise", k).integers(1, 2 ** 31 - 1))}
        if toks:
            entry = {"tokens": toks, **{k2: voice[k2] for k2 in ("voice", "rate", "range", "espeak_seed")},
                     "f0": tgt["f0"], "rms": tgt["rms"], "speech_dur": (core_b - core_a) / SR,
                     "lead": core_a - ia, "trail": ib - core_b, "min_stretch": opts.min_stretch,
                     "max_stretch": opts.max_stretch, "fade": opts.fade, "ent": ent_of}
            if opts.match_f0_range:
                entry["f0_sd"] = tgt["f0_sd"]
            if opts.match_spectrum:
                entry["cep"] = tgt["cep"]
            if noise:
                entry["noise"] = noise
            if opts.fit_rate:   # the utterance's drawn rate -> the rate that fits this interval
                entry["rate"] = fit_rate(entry, opts.rate_limits)
            ins, wds, factor = render_interval(entry)
        else:   # nothing spoken in it (only pauses/pads): silence (or noise floor) of the same length
            entry = {"tokens": [], "lead": ib - ia, "trail": 0}
            if noise:
                entry["noise"] = noise
            ins, wds, factor = render_interval(entry)
        entry.update({"in": [ia, ib], "out": [out_len, out_len + len(ins)], "stretch": round(factor, 4)})
        entries.append(entry)
        iv_words[k] = wds
        iv_start_out[k] = out_len
        pieces.append(ins)
        out_len += len(ins)
        pos_in = ib
    seg = x[pos_in:].astype(np.float64)
    if nr > 0 and len(seg) and pos_in > 0:
        m2 = min(nr, len(seg))
        seg[:m2] *= fade[::-1][:m2]
    pieces.append(np.rint(seg).astype(np.int16))
    y = np.concatenate(pieces) if pieces else np.zeros(0, np.int16)

    def out_time(t_in: float) -> float:   # original (non-interval) time -> output time
        s = 0
        for e in entries:
            if t_in * SR >= e["in"][1] - 1e-6:
                s = e["out"][1] - e["in"][1]
        return (t_in * SR + s) / SR

    tokens_out: list[str] = []
    done_iv: set[int] = set()
    for u in units:
        k = u["iv"]
        if k is None:
            tokens_out.extend(u["tokens"])
            if u["times"] is not None and u["tokens"]:
                s, e = u["times"]
                # a word cut by a pad keeps its audible part (interval bounds in samples, as spliced)
                for e_iv in entries:
                    a, b = e_iv["in"][0] / SR, e_iv["in"][1] / SR
                    if s < a < e:
                        e = a
                    if a <= s < b:
                        s = b
                if e > s:
                    ctm.append(CtmEntry(utt, "1", round(out_time(s), 3), round(out_time(e) - out_time(s), 3),
                                        u["tokens"][0]))
            continue
        tokens_out.extend(u["tokens"])
        if k not in done_iv:
            done_iv.add(k)
            base = iv_start_out[k] / SR
            for t, ta, tb in iv_words[k]:
                ctm.append(CtmEntry(utt, "1", round(base + ta, 3), round(tb - ta, 3), t))
    secret = {"version": PLAN_VERSION, "utt": utt, "voice": voice, "targets": tgt, "intervals": entries,
              "in_samples": n, "out_samples": int(len(y))}
    return y, ctm, tokens_out, secret


def check_inputs(data, d: DataDir, tags: dict, trans: dict, words: dict, tagset: set[str], opts: SpokenOptions,
                 tags_path, trans_tags_path, ctm_path) -> None:
    """Plan every utterance (without its audio) and refuse, in one line, a CTM that does not follow the tags or a
    surrogate that says an original entity of its dialogue (pydeid.mask.originals)."""
    from .originals import dialogue_entities, dialogues, leaks
    dlg = dialogues(data, d.utts, d.utt2spk)
    ents = dialogue_entities(tags, d.utts, dlg)
    for utt in d.utts:
        try:
            plan_utterance(utt, tags[utt], trans[utt], words.get(utt, []), float("inf"), tagset, opts,
                           str(trans_tags_path))
        except MatchError as e:
            raise FormatError(ctm_path, None, f"{e} (tags: {tags_path}; nothing written)") from None
        for kind, ref, toks in pair_surrogates(tags[utt], trans[utt], tagset, str(trans_tags_path)):
            if kind != "ent" or ref[2].upper() not in tagset:
                continue
            why = leaks(toks, ents.get(dlg[utt], []))
            if why:
                raise FormatError(trans_tags_path, None, f"utterance '{utt}': the surrogate '{' '.join(toks)}' of "
                                  f"{ref[2]} would say {why[0]} of dialogue {dlg[utt]}: refused (a neutral corpus "
                                  "never speaks an original; transform the text with a strategy that replaces "
                                  "every hidden type; nothing written)")


def spoken_data_dir(data, tags_path, trans_tags_path, ctm_path, out, secret_dir, opts: SpokenOptions | None = None,
                    wav_dir=None, overwrite: bool = False, check_only: bool = False) -> dict:
    """data (converted voices) + original tags + word CTM + transformed tags -> out (audio with spoken surrogates,
    text = transformed text, words.ctm, tags.conll of the transformed text); secrets under secret_dir."""
    opts = opts or SpokenOptions()
    tagset = parse_tagset(opts.tagset)
    data, out, secret_dir = Path(data), Path(out), Path(secret_dir)
    if out.resolve() == data.resolve():
        raise FormatError(out, None, "output data dir must differ from the input (a stage never edits its input)")
    check_secret_path(secret_dir / "x", [out, data])
    d = DataDir.read(data)
    tags = load_tags(tags_path)
    trans = load_tags(trans_tags_path)
    words = ctm_by_utt(read_ctm(ctm_path))
    for u in d.utts:
        for src, name in ((tags, tags_path), (trans, trans_tags_path)):
            if u not in src:
                raise FormatError(name, None, f"utterance '{u}' of {data} has no sentence (# id = {u})")
    # every utterance is planned and checked before anything is written: a CTM mismatch or an insert that would
    # say an original in the 4th utterance leaves no filled wav or plan of the first three behind
    check_inputs(data, d, tags, trans, words, tagset, opts, tags_path, trans_tags_path, ctm_path)
    if check_only:
        return {"utterances": len(d.utts), "checked": True, "hidden": describe(tagset)}
    wav_dir = Path(wav_dir) if wav_dir else out / "wav"
    wav_dir.mkdir(parents=True, exist_ok=True)
    tmp_dir = partial_dir(wav_dir.parent)   # temp files outside the published dir (pydeid.io.atomic)
    remove_stale_temps(wav_dir)
    plan_dir = secret_dir / "spoken_plan"
    plan_dir.mkdir(parents=True, exist_ok=True)
    plan_dir.chmod(0o700)
    config = {"tagset": sorted(tagset), "pad": opts.pad, "absorb_gaps": opts.absorb_gaps, "seed": opts.seed,
              "min_stretch": opts.min_stretch, "max_stretch": opts.max_stretch, "fade": opts.fade, "ramp": opts.ramp,
              "rate_range": list(opts.rate_range), "fit_rate": opts.fit_rate, "rate_limits": list(opts.rate_limits),
              "match_spectrum": opts.match_spectrum, "match_f0_range": opts.match_f0_range, "tags_sha": _sha(tags_path), "trans_sha": _sha(trans_tags_path),
              "ctm_sha": _sha(ctm_path), "version": PLAN_VERSION}
    if opts.noise_floor:
        config["noise_floor"] = True
    if tuple(opts.accents) != (ACCENT,):   # (absent by default: the outputs of earlier versions stay resumable)
        config["accents"] = list(opts.accents)
    cfg_file = wav_dir / "spoken_config.json"
    if cfg_file.exists() and not overwrite:
        old = json.loads(cfg_file.read_text())
        if old != config:
            raise FormatError(cfg_file, None, f"{wav_dir} holds audio made with other options or inputs; use another "
                              "output dir or --overwrite true (steps/mask_spoken.sh: the same option)")
    # its temp file not in wav_dir: parallel jobs share it, and each removes the temps it finds there (leftovers)
    atomic_write_text(cfg_file, json.dumps(config, sort_keys=True) + "\n", tmp_dir=tmp_dir)
    stats: Counter = Counter()
    wav_scp, text_out, utt2dur, ctm_all = {}, {}, {}, []
    for utt in d.utts:
        dst = (wav_dir / f"{utt}.wav").resolve()
        secret = plan_dir / f"{utt}.json"   # voice, targets, intervals, and the output text/CTM (for resume)
        if dst.exists() and secret.exists() and not overwrite:
            pub = json.loads(secret.read_text())["output"]
            stats["resumed"] += 1
        else:
            spec, start, end = d.audio_spec(utt)
            wav, sr = read_audio(spec, sr=None, start=start, end=end)
            if sr != SR:
                raise FormatError(data / "wav.scp", None, f"utterance '{utt}': {sr} Hz audio, spoken fill needs {SR}")
            try:
                plan = plan_utterance(utt, tags[utt], trans[utt], words.get(utt, []), len(wav) / SR, tagset, opts,
                                      str(trans_tags_path))
            except MatchError as e:
                raise FormatError(ctm_path, None, f"{e} (tags: {tags_path})") from None
            y, ctm, toks, sec = fill_utterance(utt, wav, plan, d.gender(utt), opts)
            pub = {"text": " ".join(toks), "dur": len(y) / SR,
                   "ctm": [[c.start, c.dur, c.token] for c in ctm],
                   "stretch": [e["stretch"] for e in sec["intervals"] if e["tokens"]],
                   "rate": [e["rate"] for e in sec["intervals"] if e["tokens"]],
                   "delta": (len(y) - len(wav)) / SR}
            sec["output"] = pub
            write_audio(dst, y, SR, tmp_dir=tmp_dir)   # the secret last: it marks the utterance as done
            write_secret_json(secret, sec, forbidden_dirs=[out, data])
            stats["written"] += 1
        stats["utterances"] += 1
        stats["inserts"] += len(pub["stretch"])
        stats["stretch_clamped"] += sum(1 for s in pub["stretch"] if s in (opts.min_stretch, opts.max_stretch))
        if opts.fit_rate:
            stats["rate_clamped"] += sum(1 for r in pub.get("rate", []) if r in opts.rate_limits)
        stats["delta_ms"] += int(round(1000 * pub["delta"]))
        wav_scp[utt] = str(dst)
        text_out[utt] = pub["text"]
        utt2dur[utt] = round(pub["dur"], 3)
        ctm_all.extend(CtmEntry(utt, "1", s, du, t) for s, du, t in pub["ctm"])
    od = DataDir(wav_scp=wav_scp, text=text_out, utt2spk=dict(d.utt2spk), utt2gender=d.utt2gender,
                 spk2gender=d.spk2gender, utt2dur=utt2dur)
    od.write(out)
    if (data / "utt2dialogue").exists():   # the dialogue scope verify-spoken checks the inserts in, as here
        import shutil
        shutil.copyfile(data / "utt2dialogue", out / "utt2dialogue")
    write_ctm(out / "words.ctm", ctm_all)
    from pydeid.io import write_conll
    write_conll(out / "tags.conll", [trans[u] for u in d.utts])
    rep = {"utterances": stats["utterances"], "inserts": stats["inserts"], "stretch_clamped": stats["stretch_clamped"],
           "rate_clamped": stats["rate_clamped"],
           "duration_change_s": stats["delta_ms"] / 1000, "written": stats["written"], "resumed": stats["resumed"],
           "config": config, "hidden": describe(tagset)}
    log.info("%s: %s", out, rep["hidden"])
    log.info("%s: %d utterances, %d inserts (%d at a stretch limit), duration %+.2f s, %d written, %d resumed",
             out, rep["utterances"], rep["inserts"], rep["stretch_clamped"], rep["duration_change_s"],
             rep["written"], rep["resumed"])
    return rep
