"""Fixtures of the voice tests: small Kaldi data dirs over the real VCTK voices (read in place)."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from pydeid.io import DataDir


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


@pytest.fixture(scope="session")
def vctk_voices(vctk_dir):
    """speaker -> list of float waveforms (16 kHz, at most 4 s each: VCTK sentences average ~7 s and the tests
    need voices, not length) for the four speakers with many sentences."""
    out = {}
    for spk in ("p225", "p226", "p227", "p228"):
        files = sorted((vctk_dir / "wav" / spk).glob("*.flac"))[:14]
        out[spk] = [sf.read(f, dtype="float32")[0][:4 * 16000] for f in files]
    return out


@pytest.fixture(scope="session")
def vctk_targets(vctk_voices):
    """A VTLN target pool built from the two female speakers p225 and p228 (first 6 sentences each)."""
    from pydeid.voice import build_vtln
    return build_vtln({s: vctk_voices[s][:6] for s in ("p225", "p228")}, k=8, seed=0)
