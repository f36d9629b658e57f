"""Speak turns with espeak-ng, derive gold word timings, write 16 kHz wavs.

Word timings come from espeak's own events: a word event starts each word group, phoneme events (with audio
positions) follow it. espeak merges some word pairs into one group ("in the", "I am", "let us"); such a group
is split between its words by phoneme counts (each word's phonemes in isolation, assigned from the end of the
group), so every transcript word gets an interval. Word ends are the end of the word's last phoneme; silence
at either edge of an interval (stop closures, pauses) is trimmed with a frame-energy check.

Determinism: espeak-ng carries synthesis state (pitch phase, flutter, noise) from one call to the next, so the
same text can come out a few samples different depending on what was spoken before. Each job (one dialogue)
therefore runs in a fresh process, which makes the output a function of the job alone, whatever --nj is.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

SR = 16000


@dataclass(frozen=True)
class Voice:
    """One synthetic speaker: an espeak voice (language/accent + variant) and its stable parameters."""
    spk: str
    gender: str
    name: str       # e.g. "en-us+m3"
    rate: int       # words per minute
    pitch: int      # 0..100
    range: int      # 0..100
    wordgap: int    # extra pause between words, units of 10 ms
    gain_db: float


@dataclass(frozen=True)
class UttJob:
    utt: str
    text: str                 # what espeak reads (with punctuation)
    tokens: tuple[str, ...]   # the transcript words
    offsets: tuple[int, ...]  # character offset of each word in `text`
    wav_path: str


@dataclass(frozen=True)
class UttResult:
    utt: str
    duration: float
    words: tuple[tuple[float, float], ...]  # (start, end) in seconds per transcript word


class AlignmentError(RuntimeError):
    pass


def _stable_seed(*parts) -> int:
    return zlib.crc32("\x1f".join(map(str, parts)).encode())


def word_intervals(syn, tokens, offsets, phoneme_count) -> list[tuple[int, int]]:
    """Sample intervals (native rate) of every token from espeak's word and phoneme events."""
    K = len(tokens)
    ends = [o + len(t) for o, t in zip(offsets, tokens)]
    groups: list[tuple[int, list, int]] = []  # (first token index, phoneme events, word event sample)
    k = 0
    for ev, ph in zip(syn.words, syn.phonemes):
        while k < K and ends[k] <= ev.text_position:
            k += 1
        if k >= K or (groups and groups[-1][0] == k):
            if not groups:
                raise AlignmentError("espeak word event before the first word")
            groups[-1][1].extend(ph)  # an extra event inside a word: its phonemes belong to that word
            continue
        groups.append((k, list(ph), ev.sample))
        k += 1
    if not groups or groups[0][0] != 0:
        raise AlignmentError(f"espeak spoke {len(syn.words)} word groups, none starting at word 0")
    spans: list[tuple[int, int]] = []
    for gi, (first, ph, _) in enumerate(groups):
        last = groups[gi + 1][0] if gi + 1 < len(groups) else K
        nxt_start = syn.end_sample
        if gi + 1 < len(groups):
            _, nph, nsample = groups[gi + 1]
            nxt_start = nph[0].sample if nph else nsample
        # phoneme i lasts until the next phoneme event (pauses included) or the next group
        bounds = [(p.sample, (ph[i + 1].sample if i + 1 < len(ph) else nxt_start), p.name) for i, p in enumerate(ph)]
        speech = [(s, e) for s, e, n in bounds if not n.startswith("_") and e > s]
        words = list(range(first, last))
        if len(speech) < len(words):
            raise AlignmentError(f"words {tokens[first:last]} got {len(speech)} phonemes from espeak")
        alloc = [0] * len(words)
        remaining = len(speech)
        for j in range(len(words) - 1, 0, -1):
            a = max(1, min(phoneme_count(tokens[words[j]]), remaining - j))
            alloc[j] = a
            remaining -= a
        alloc[0] = remaining
        pos = 0
        for j, n in enumerate(alloc):
            seg = speech[pos:pos + n]
            spans.append((seg[0][0], seg[-1][1]))
            pos += n
    if len(spans) != K:
        raise AlignmentError(f"{len(spans)} word intervals for {K} words")
    return spans


def _trim(x: np.ndarray, s: int, e: int, thr: float, hop: int) -> tuple[int, int]:
    """Move s forward and e backward over near-silent frames (keeps at least one frame)."""
    def energy(a, b):
        seg = x[a:b]
        return float(np.mean(seg * seg)) if len(seg) else 0.0
    while e - s > 2 * hop and energy(s, s + hop) < thr:
        s += hop
    while e - s > 2 * hop and energy(e - hop, e) < thr:
        e -= hop
    return s, e


def synthesize_dialogue(voices: dict[str, Voice], jobs: list[tuple[str, UttJob]], seed: int) -> list[UttResult]:
    """Speak the turns of one dialogue in order ([(speaker, job)]); write each wav; return timings."""
    from pydeid.io import resample, write_audio

    from pydeid.speech.espeak import Synth

    synth = Synth.get()
    pcount_cache: dict[str, int] = {}

    def pcount(w: str) -> int:
        if w not in pcount_cache:
            pcount_cache[w] = synth.phoneme_count(w)
        return pcount_cache[w]

    out = []
    for spk, job in jobs:
        v = voices[spk]
        rng = np.random.default_rng(_stable_seed(seed, job.utt, "audio"))
        # a speaker is stable, but no two turns are spoken exactly alike: small rate and pitch jitter
        rate = int(round(v.rate * rng.uniform(0.93, 1.07)))
        pitch = int(np.clip(v.pitch + rng.integers(-4, 5), 0, 100))
        syn = synth.synthesize(job.text, v.name, rate, pitch, v.range, v.wordgap,
                               rand_seed=_stable_seed(seed, job.utt, "espeak"))
        if len(syn.samples) == 0:
            raise AlignmentError(f"{job.utt}: espeak produced no audio for {job.text!r}")
        try:
            spans = word_intervals(syn, job.tokens, job.offsets, pcount)
        except AlignmentError as e:
            raise AlignmentError(f"{job.utt}: {e} (text {job.text!r})") from None
        x = syn.samples.astype(np.float32) / 32768.0
        hop = syn.rate // 200  # 5 ms
        peak = max(float(np.max(np.convolve(x * x, np.ones(hop) / hop, mode="valid"))), 1e-10)
        thr = peak * 10 ** (-50 / 10)
        spans = [_trim(x, s, min(e, len(x)), thr, hop) for s, e in spans]
        for (s0, e0), (s1, e1) in zip(spans, spans[1:] + [(len(x), len(x))]):
            if not (0 <= s0 < e0 <= s1):
                raise AlignmentError(f"{job.utt}: word intervals out of order or empty: {spans}")
        lead = float(rng.uniform(0.10, 0.35))
        tail = float(rng.uniform(0.05, 0.20))
        # cut espeak's own trailing silence after the last word, keep a natural tail
        last_end = max(e for _, e in spans)
        x = x[: min(len(x), last_end + int(0.05 * syn.rate))]
        y = resample(x, syn.rate, SR) * (10 ** ((v.gain_db + rng.uniform(-2.0, 2.0)) / 20))
        y = np.concatenate([np.zeros(int(lead * SR), np.float32), y, np.zeros(int(tail * SR), np.float32)])
        y = y + rng.normal(0.0, 10 ** (-66 / 20), len(y)).astype(np.float32)  # dither: no digital silence
        peak = float(np.max(np.abs(y)))
        if peak > 0.95:  # loud voices: scale down rather than clip
            y = y * (0.95 / peak)
        y = y.astype(np.float32)
        Path(job.wav_path).parent.mkdir(parents=True, exist_ok=True)
        write_audio(job.wav_path, y, SR)
        dur = len(y) / SR
        words = tuple((round(lead + s / syn.rate, 3), round(lead + e / syn.rate, 3)) for s, e in spans)
        out.append(UttResult(job.utt, dur, words))
    return out
