"""verify-masking: prove that a masked data dir hides what the tags say.

Audio: every hidden entity interval (from the tags and a reference word CTM, e.g. the gold one; no padding) is
cut into 10 ms frames and each frame's RMS must be below a threshold (dBFS). One loud frame makes the entity a
leak. Text: a hidden token may appear in the output text only as often as the same word appears untagged in the
original sentence. Optional: no wav.scp entry may point to the original audio.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from pydeid.align.normalize import match_key
from pydeid.io import DataDir, ctm_by_utt, read_audio, read_ctm

from .core import entity_times, hidden_spans, parse_tagset
from .match import MatchError
from .pipeline import load_tags


@dataclass
class LeakReport:
    utterances: int = 0
    entities: int = 0
    audio_leaks: list[dict] = field(default_factory=list)
    text_leaks: list[dict] = field(default_factory=list)
    unverifiable: list[dict] = field(default_factory=list)   # entities the reference CTM cannot time
    original_audio_refs: list[str] = field(default_factory=list)

    @property
    def n_leaks(self) -> int:
        return len(self.audio_leaks) + len(self.text_leaks) + len(self.unverifiable) + len(self.original_audio_refs)

    def summary(self) -> dict:
        return {"utterances": self.utterances, "entities": self.entities, "audio_leaks": len(self.audio_leaks),
                "text_leaks": len(self.text_leaks), "unverifiable": len(self.unverifiable),
                "original_audio_refs": len(self.original_audio_refs), "total_leaks": self.n_leaks}


def frame_dbfs(x: np.ndarray, sr: int, frame: float = 0.01) -> np.ndarray:
    n = max(1, int(round(frame * sr)))
    m = len(x) // n
    if m == 0:
        return np.array([20 * np.log10(np.sqrt(np.mean(x ** 2)) + 1e-10)]) if len(x) else np.array([])
    fr = x[: m * n].reshape(m, n)
    return 20 * np.log10(np.sqrt((fr.astype(np.float64) ** 2).mean(axis=1)) + 1e-10)


def verify_masking(masked: str | Path, tags_path: str | Path, ctm_path: str | Path, tagset="all",
                   threshold_dbfs: float = -50.0, tolerance: float = 0.0, orig_data: str | Path | None = None
                   ) -> LeakReport:
    """tolerance: seconds trimmed from both ends of each reference interval before checking (0 = exact)."""
    tset = parse_tagset(tagset)
    d = DataDir.read(masked)
    tags = load_tags(tags_path)
    words = ctm_by_utt(read_ctm(ctm_path))
    rep = LeakReport()
    orig_specs: set[str] = set()
    if orig_data:
        od = DataDir.read(orig_data)
        orig_specs = {os.path.realpath(v.strip()) for v in od.wav_scp.values() if not v.strip().endswith("|")}
        orig_specs |= {v.strip() for v in od.wav_scp.values()}
    for key, spec in d.wav_scp.items():
        if spec.strip() in orig_specs or os.path.realpath(spec.strip()) in orig_specs:
            rep.original_audio_refs.append(key)
    for utt in d.utts:
        rep.utterances += 1
        sent = tags.get(utt)
        if sent is None:
            rep.unverifiable.append({"utt": utt, "reason": "no tag sentence"})
            continue
        spans = hidden_spans(sent, tset)
        rep.entities += len(spans)
        if not spans:
            continue
        # --- text
        hidden = {i for s, e, _ in spans for i in range(s, e)}
        allowed = Counter(match_key(t) for i, t in enumerate(sent.tokens) if i not in hidden)
        seen = Counter(match_key(t) for t in d.text.get(utt, "").split())
        for k in sorted({match_key(sent.tokens[i]) for i in hidden} - {""}):
            if seen[k] > allowed[k]:
                rep.text_leaks.append({"utt": utt, "token_key": k, "count": seen[k] - allowed[k]})
        # --- audio
        try:
            ents = entity_times(utt, sent, words.get(utt, []), tset, strict=False)
        except MatchError as e:
            rep.unverifiable.append({"utt": utt, "reason": str(e)})
            continue
        spec, start, end = d.audio_spec(utt)
        wav, sr = read_audio(spec, sr=None, start=start, end=end)
        for s, e, t, idx in ents:
            s2, e2 = s + tolerance, e - tolerance
            a, b = int(np.ceil(s2 * sr)), min(len(wav), int(np.floor(e2 * sr)))
            if b <= a:
                continue
            db = frame_dbfs(wav[a:b], sr)
            if len(db) and db.max() > threshold_dbfs:
                loud = np.flatnonzero(db > threshold_dbfs)
                rep.audio_leaks.append({"utt": utt, "type": t, "tokens": [int(i) for i in idx],
                                        "start": round(s, 3), "end": round(e, 3),
                                        "max_dbfs": round(float(db.max()), 1),
                                        "loud_ms": int(10 * len(loud))})
    return rep
