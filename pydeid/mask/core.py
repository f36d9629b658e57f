"""The secure voice builder's core: which time intervals to hide, and hiding them in a waveform.

An entity (a BIO span of hidden tags) is masked from the start of its first word to the end of its last word,
optionally extended over the pauses around it (up to the neighbouring words' boundaries), widened by `pad`
seconds on each side, clamped to the utterance. The padding is the only part of a mask that may cover untagged
neighbours. Overlapping or touching intervals are merged.
"""

from __future__ import annotations

import hashlib

import numpy as np

from pydeid.io import CtmEntry, Sentence

from .match import MatchError, match_tokens

# every type the detectors can emit (pydeid.text.hidden_types: the one definition of what a neutral corpus hides)
DEFAULT_TAGS = "all"


def parse_tagset(s: str | list[str] | tuple[str, ...] | None) -> set[str]:
    """'all' -> every entity type; else the listed types (an unknown one is a usage error)."""
    from pydeid.text.hidden_types import parse_tags
    return set(parse_tags(s))


def hidden_spans(sent: Sentence, tagset: set[str]) -> list[tuple[int, int, str]]:
    """(start, end_exclusive, type) of the entity spans whose type is hidden."""
    return [(s, e, t) for s, e, t in sent.spans() if t.upper() in tagset]


def merge_intervals(iv: list[tuple[float, float]], gap: float = 0.0) -> list[tuple[float, float]]:
    out: list[list[float]] = []
    for s, e in sorted(iv):
        if out and s <= out[-1][1] + gap:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return [(s, e) for s, e in out]


def entity_times(utt: str, sent: Sentence, words: list[CtmEntry], tagset: set[str],
                 strict: bool = True, absorb_gaps: bool = False) -> list[tuple[float, float, str, list[int]]]:
    """(start, end, type, token indices) of each hidden entity, from the CTM words paired with the tag tokens.

    absorb_gaps: extend each entity over the untimed gap (pause) that separates it from the neighbouring CTM
    words, up to their boundaries (to 0 / to the end of the utterance, float('inf'), at the edges). An
    aligner that misplaces a boundary usually does so by putting a pause on the wrong side of the word; the
    pause carries nothing to keep, so covering it is free.
    Raises MatchError when a tagged token has no timed word (missing CTM entry) or when the CTM does not
    follow the tagged sentence.
    """
    spans = hidden_spans(sent, tagset)
    if not spans:
        return []
    required = {i for s, e, _ in spans for i in range(s, e)}
    if not words:
        raise MatchError(utt, "has tagged words to hide but no entries in the CTM")
    pairs = match_tokens(sent.tokens, [w.token for w in words], utt, required=required, strict=strict)
    out = []
    for s, e, t in spans:
        js = [j for i in range(s, e) for j in pairs[i]]
        if not js:  # only punctuation inside the span: nothing spoken
            continue
        start, end = min(words[j].start for j in js), max(words[j].end for j in js)
        if absorb_gaps:
            j0, j1 = min(js), max(js)
            prev_end = max((w.end for w in words[:j0]), default=0.0)
            next_start = min((w.start for w in words[j1 + 1:]), default=float("inf"))
            start = min(start, max(prev_end, 0.0)) if prev_end <= start else start
            end = max(end, next_start) if next_start >= end else end
        out.append((start, end, t, list(range(s, e))))
    return out


def mask_intervals(entities, pad: float, duration: float) -> list[tuple[float, float]]:
    """Padded, clamped, merged intervals (seconds) from entity_times()."""
    iv = [(max(0.0, s - pad), min(duration, e + pad)) for s, e, *_ in entities]
    return merge_intervals([(s, e) for s, e in iv if e > s])


def utt_rng(seed: int, utt: str) -> np.random.Generator:
    """A generator that depends only on the seed and the utterance id (same output whatever the job split)."""
    h = hashlib.sha256(f"{seed}:{utt}".encode()).digest()
    return np.random.default_rng(int.from_bytes(h[:8], "little"))


def apply_mask(wav: np.ndarray, sr: int, intervals: list[tuple[float, float]], fill: str = "silence",
               noise_dbfs: float = -70.0, ramp: float = 0.005, rng: np.random.Generator | None = None
               ) -> np.ndarray:
    """Replace each interval by digital silence or white noise at `noise_dbfs` RMS.

    ramp: a raised-cosine fade of this length is applied just OUTSIDE each interval (avoids clicks, never
    lets signal into the interval).
    """
    out = np.array(wav, dtype=np.float32, copy=True)
    n = len(out)
    nr = int(round(ramp * sr))
    for s, e in intervals:
        a, b = max(0, int(np.floor(s * sr))), min(n, int(np.ceil(e * sr)))
        if b <= a:
            continue
        if fill == "noise":
            rng = rng or np.random.default_rng(0)
            out[a:b] = (10 ** (noise_dbfs / 20.0) * rng.standard_normal(b - a)).astype(np.float32)
        elif fill == "silence":
            out[a:b] = 0.0
        else:
            raise ValueError(f"fill must be 'silence' or 'noise', got '{fill}'")
        if nr > 0:
            fade = (0.5 + 0.5 * np.cos(np.linspace(0, np.pi, nr + 2)[1:-1])).astype(np.float32)  # 1 -> 0
            lo = max(0, a - nr)
            out[lo:a] *= fade[nr - (a - lo):]
            hi = min(n, b + nr)
            out[b:hi] *= fade[::-1][: hi - b]
    return out


def text_spans(utt: str, sent: Sentence, tagset: set[str], text_tokens: list[str]) -> list[tuple[int, int, str]]:
    """Hidden entity spans over the tokens of the data dir's `text` (the tag file's tokens may differ in
    punctuation or case; they are paired by sequence alignment, a real mismatch raises MatchError)."""
    spans = hidden_spans(sent, tagset)
    if not spans or text_tokens == sent.tokens:
        return spans
    required = {i for s, e, _ in spans for i in range(s, e)}
    pairs = match_tokens(sent.tokens, text_tokens, utt, required=required, strict=True)
    out = []
    for s, e, t in spans:
        js = sorted({j for i in range(s, e) for j in pairs[i]})
        if js:
            out.append((js[0], js[-1] + 1, t))
    return out


def mask_text_tokens(tokens: list[str], spans: list[tuple[int, int, str]], mode: str = "remove",
                     mask_token: str = "<mask>") -> list[str]:
    """Tokens with the spans removed (mode 'remove') or replaced by one mask token per entity ('replace';
    '{tag}' in mask_token becomes the entity type)."""
    if mode not in ("remove", "replace"):
        raise ValueError(f"text mode must be 'remove' or 'replace', got '{mode}'")
    start_of = {s: t for s, e, t in spans}
    hidden = {i for s, e, _ in spans for i in range(s, e)}
    out: list[str] = []
    for i, tok in enumerate(tokens):
        if i in start_of and mode == "replace":
            out.append(mask_token.replace("{tag}", start_of[i]))
        if i not in hidden:
            out.append(tok)
    return out
