"""The pitch correlation cache: reused for the same trial audio, recomputed when that audio changes."""

from __future__ import annotations

import json

import numpy as np
import pytest
import soundfile as sf

from pydeid.attack import pitch
from pydeid.io import DataDir


@pytest.fixture()
def pair(mini_corpus, tmp_path):
    """The first 6 utterances of mini_test_trial and a copy of them with time-reversed audio."""
    src = DataDir.read(mini_corpus / "mini_test_trial").subset(utts=DataDir.read(
        mini_corpus / "mini_test_trial").utts[:6])
    orig = tmp_path / "orig"
    src.write(orig)
    conv = tmp_path / "conv"
    (conv / "wav").mkdir(parents=True)
    d = DataDir.read(orig)
    for u in d.utts:
        path = conv / "wav" / f"{u}.wav"
        sf.write(path, d.load_audio(u)[::-1].copy(), 16000)
        d.wav_scp[u] = str(path)
    d.write(conv)
    return orig, conv


def test_cache_is_reused_then_invalidated_by_new_audio(pair, tmp_path, monkeypatch):
    orig, conv = pair
    cache = tmp_path / "pitch.json"
    first = pitch.cached_pitch_correlation(orig, conv, cache)
    direct = pitch.pitch_correlation(orig, conv)
    assert first["pitch_correlation"] == pytest.approx(direct["pitch_correlation"])
    assert json.loads(cache.read_text())["result"]["utterances"] == first["utterances"] > 0

    calls = []
    real = pitch.pitch_correlation
    monkeypatch.setattr(pitch, "pitch_correlation", lambda *a, **k: calls.append(1) or real(*a, **k))
    assert pitch.cached_pitch_correlation(orig, conv, cache) == first and calls == []

    # the trial set is converted again (here: the original audio itself): the stored value must not be served
    d = DataDir.read(conv)
    u = d.utts[0]
    sf.write(d.wav_scp[u], DataDir.read(orig).load_audio(u), 16000)
    again = pitch.cached_pitch_correlation(orig, conv, cache)
    assert calls == [1]
    assert again["per_utt"][u] == pytest.approx(1.0) and first["per_utt"][u] < 0.9
    # other settings: another key
    pitch.cached_pitch_correlation(orig, conv, cache, max_utts=3)
    assert calls == [1, 1] and np.isfinite(json.loads(cache.read_text())["result"]["pitch_correlation"])
