"""Helpers shared by the voice tests (imported by module name: pytest puts this folder on sys.path)."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np

from pydeid.io import DataDir


def spectral_centroid(wav: np.ndarray, sr: int = 16000) -> float:
    """Mean spectral centroid (Hz) of the frames within 30 dB of the loudest one."""
    frames = np.lib.stride_tricks.sliding_window_view(np.asarray(wav, np.float64), 512)[::160] * np.hanning(512)
    S = np.abs(np.fft.rfft(frames, axis=1)) ** 2
    f = np.fft.rfftfreq(512, 1 / sr)
    e = S.sum(1)
    keep = e > e.max() * 1e-3
    return float(((S[keep] @ f) / S[keep].sum(1)).mean())


def median_f0(wav: np.ndarray, sr: int = 16000) -> float:
    from pydeid.voice.world import WorldConfig, analyze
    f0 = analyze(wav, sr, WorldConfig()).f0
    return float(np.exp(np.median(np.log(f0[f0 > 0]))))


def vctk_data_dir(vctk_dir: Path, out: Path, speakers: list[str], max_per_speaker: int) -> Path:
    rows = list(csv.DictReader(open(vctk_dir / "manifest.tsv", encoding="utf-8"), delimiter="\t"))
    d = DataDir()
    count: dict[str, int] = {}
    genders = {}
    for r in rows:
        spk = r["speaker"]
        if spk not in speakers:
            continue
        genders[spk] = r["gender"]
        count[spk] = count.get(spk, 0) + 1
        if count[spk] > max_per_speaker:
            continue
        u = r["utt_id"]
        d.wav_scp[u] = str((vctk_dir / r["path"]).resolve())
        d.text[u] = " ".join(r["transcript"].split())
        d.utt2spk[u] = spk
    d.spk2gender = genders
    d.write(out)
    return out
