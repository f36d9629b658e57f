"""Energy VAD (Kaldi compute-vad's decision) on hand-made energies and on real speech padded with silence."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from pydeid.attack.vad import apply_vad, frame_log_energy, voiced_frames

SHARED = Path(os.environ.get("PYDEID_SHARED_DATA", Path(__file__).resolve().parents[2].parent / "shared" / "data"))


def test_threshold_is_kaldis_hand_computed():
    # mean 8 -> threshold 5.5 + 0.5 * 8 = 9.5: frames of energy 20 are speech, 9 and 0 are not
    e = np.array([0.0, 9.0, 20.0, 20.0, -9.0, 8.0])
    assert voiced_frames(e).tolist() == [False, False, True, True, False, False]
    # no mean scale: the absolute threshold 5.5
    assert voiced_frames(e, mean_scale=0).tolist() == [False, True, True, True, False, True]
    # compute-vad's context loop counts frame t itself for every neighbour: the context changes nothing
    assert (voiced_frames(e, frames_context=0) == voiced_frames(e, frames_context=5)).all()
    with pytest.raises(ValueError):
        voiced_frames(e, proportion=1.0)


def test_framing_and_energy_scale():
    sr = 16000
    # 1 s: 100 frames of 10 ms (snip-edges=false); a full-scale-ish sine has a log energy far above the silence's
    t = np.arange(sr) / sr
    x = np.where(t < 0.5, 0.0, 0.5 * np.sin(2 * np.pi * 200 * t))
    e = frame_log_energy(x, sr)
    assert len(e) == 100
    # digital silence: only the dither energy of 400 samples (log 400 ~ 6.0); the sine: 400 * (0.5*32768)^2 / 2
    assert abs(e[10] - np.log(400)) < 1e-6
    assert abs(e[80] - np.log(400 + 400 * (0.5 * 32768) ** 2 / 2)) < 0.01
    m = voiced_frames(e)
    assert not m[:49].any() and m[51:].all()
    y = apply_vad(x, sr)
    assert abs(len(y) - 0.5 * sr) <= 2 * 160 and np.abs(y).max() > 0.4
    assert apply_vad(x, sr, "none") is x
    with pytest.raises(ValueError, match="unknown front-end"):
        apply_vad(x, sr, "webrtc")
    assert len(apply_vad(np.zeros(8000), sr)) == 8000   # nothing voiced: kept whole (an embedding is still owed)


def test_real_speech_loses_its_padding_and_keeps_its_speech():
    import soundfile as sf
    root = SHARED / "speechocean762_adults"
    if not root.is_dir():
        pytest.skip(f"real data subset {root} is absent (read in place from ../shared/data, never committed)")
    wavs = sorted((root / "WAVE").glob("SPEAKER*/*.flac"))[:6]
    assert wavs, f"no .flac under {root / 'WAVE'}"
    rng = np.random.default_rng(0)
    sr = 16000
    for w in wavs:
        x, fs = sf.read(w)
        assert fs == sr
        pad = 50   # frames: 0.5 s of room noise at -66 dBFS on each side
        noise = lambda: 5e-4 * rng.standard_normal(pad * 160)  # noqa: E731
        y = np.concatenate([noise(), x, noise()])
        e = frame_log_energy(y, sr)
        m = voiced_frames(e)
        n = len(e)
        # leading and trailing silence dropped
        assert m[:pad - 2].mean() == 0 and m[n - pad + 2:].mean() == 0, w
        # the speech kept: every frame within 15 dB of the utterance's loudest is voiced
        loud = e > e.max() - np.log(10 ** 1.5)
        assert m[loud].all(), w
        # and a real part of the utterance is speech (these utterances are 30-80 % speech)
        assert 0.2 < m[pad:n - pad].mean() < 0.95, (w, m[pad:n - pad].mean())
        out = apply_vad(y, sr)
        assert abs(len(out) - m.sum() * 160) <= 160
