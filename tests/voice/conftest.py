"""Fixtures of the voice tests: small Kaldi data dirs over the real VCTK voices (read in place)."""

from __future__ import annotations

import pytest
import soundfile as sf


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
