"""Pitch correlation between original and converted speech (the VoicePrivacy Challenge's rho_F0).

For each utterance present in both data dirs: F0 by WORLD (pyworld dio + stonemask, 5 ms frames) on both
signals, Pearson correlation over the frames voiced in both (F0 > 0); the result is the mean over utterances
with at least min_frames such frames. A value near 1 means the intonation survived the conversion.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from pathlib import Path

import numpy as np

from pydeid.io import DataDir, atomic_write_text

log = logging.getLogger(__name__)


def f0_track(wav: np.ndarray, sr: int, frame_period: float = 5.0) -> np.ndarray:
    import pyworld
    x = np.ascontiguousarray(wav, dtype=np.float64)
    f0, t = pyworld.dio(x, sr, frame_period=frame_period)
    return pyworld.stonemask(x, f0, t, sr)


def utterance_pitch_correlation(orig: np.ndarray, conv: np.ndarray, sr: int, min_frames: int = 10) -> float | None:
    a, b = f0_track(orig, sr), f0_track(conv, sr)
    n = min(len(a), len(b))
    a, b = a[:n], b[:n]
    voiced = (a > 0) & (b > 0)
    if voiced.sum() < min_frames:
        return None
    x, y = a[voiced], b[voiced]
    if x.std() == 0 or y.std() == 0:
        return None
    return float(np.corrcoef(x, y)[0, 1])


def pitch_correlation(orig_dir, conv_dir, max_utts: int | None = 200, seed: int = 0,
                      sr: int = 16000) -> dict:
    """Mean pitch correlation over (a seeded sample of at most max_utts of) the shared utterances."""
    orig, conv = DataDir.read(orig_dir), DataDir.read(conv_dir)
    shared = sorted(set(orig.utt2spk) & set(conv.utt2spk))
    if not shared:
        raise ValueError(f"{orig_dir} and {conv_dir} share no utterance id: cannot pair them")
    if max_utts is not None and len(shared) > max_utts:
        rng = np.random.default_rng(seed)
        shared = sorted(shared[i] for i in rng.choice(len(shared), max_utts, replace=False))
    per_utt = {}
    for utt in shared:
        r = utterance_pitch_correlation(orig.load_audio(utt, sr=sr), conv.load_audio(utt, sr=sr), sr)
        if r is not None:
            per_utt[utt] = r
    values = np.array(list(per_utt.values()))
    return {"pitch_correlation": float(values.mean()) if len(values) else None,
            "utterances": len(per_utt), "skipped": len(shared) - len(per_utt), "per_utt": per_utt}


def _audio_fingerprint(d: DataDir, utts: list[str]) -> str:
    """Hash of each utterance's audio spec (wav.scp value, segment times) and, for plain files, size and mtime."""
    h = hashlib.sha256()
    for utt in utts:
        spec, start, end = d.audio_spec(utt)
        h.update(f"{utt} {spec} {start} {end}".encode())
        if os.path.isfile(spec):
            st = os.stat(spec)
            h.update(f" {st.st_size} {st.st_mtime_ns}".encode())
        h.update(b"\n")
    return h.hexdigest()


def cached_pitch_correlation(orig_dir, conv_dir, cache, max_utts: int | None = 200, seed: int = 0,
                             sr: int = 16000) -> dict:
    """pitch_correlation() kept in the JSON file `cache` and reused while the same audio is compared.

    The correlation belongs to the conversion, not to the attack: the recipes score several attacks on one
    converted trial set, and each would otherwise track F0 on every trial utterance twice (~8 s for 104 trials).
    The key holds both data dirs, the settings and a fingerprint of every audio file (path, size, mtime), so a
    reconverted trial set is measured again.
    """
    orig, conv = DataDir.read(orig_dir), DataDir.read(conv_dir)
    shared = sorted(set(orig.utt2spk) & set(conv.utt2spk))
    key = {"orig": str(Path(orig_dir).resolve()), "conv": str(Path(conv_dir).resolve()), "max_utts": max_utts,
           "seed": seed, "sr": sr, "audio": _audio_fingerprint(orig, shared) + _audio_fingerprint(conv, shared)}
    cache = Path(cache)
    if cache.is_file():
        try:
            stored = json.loads(cache.read_text())
        except ValueError:
            stored = {}
        if stored.get("key") == key:
            log.info("pitch correlation of %s: reused from %s", conv_dir, cache)
            return stored["result"]
    res = pitch_correlation(orig_dir, conv_dir, max_utts=max_utts, seed=seed, sr=sr)
    cache.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(cache, json.dumps({"key": key, "result": res}, sort_keys=True) + "\n")
    return res
