"""wav.scp entries: plain files, pipes, ark offsets, and loud (never silent) channel/rate conversion."""

from __future__ import annotations

import logging
import sys

import kaldiio
import numpy as np
import pytest
import soundfile as sf

from pydeid.io import AudioError, read_audio, spec_kind, write_audio
from pydeid.io.audio import _warned


def _tone(sr, dur=0.5, f=440.0):
    t = np.arange(int(sr * dur)) / sr
    return (0.5 * np.sin(2 * np.pi * f * t)).astype(np.float32)


def test_plain_pipe_and_ark(tmp_path):
    x = _tone(16000)
    p = tmp_path / "a.wav"
    sf.write(p, x, 16000, subtype="FLOAT")
    plain, sr = read_audio(str(p))
    assert sr == 16000 and np.allclose(plain, x)
    pipe = f"{sys.executable} -c \"import sys; sys.stdout.buffer.write(open('{p}','rb').read())\" |"
    assert spec_kind(pipe) == "pipe"
    piped, _ = read_audio(pipe)
    assert np.allclose(piped, x)
    ark = tmp_path / "w.ark"
    x16 = (x * 32767).astype(np.int16)
    kaldiio.save_ark(str(ark), {"u1": (16000, x16), "u2": (16000, x16[::-1].copy())}, scp=str(tmp_path / "w.scp"))
    scp = dict(line.split(None, 1) for line in (tmp_path / "w.scp").read_text().splitlines())
    assert spec_kind(scp["u2"]) == "ark"
    arked, _ = read_audio(scp["u2"])
    assert np.allclose(arked, x[::-1], atol=1e-4)


def test_failing_pipe_names_the_command(tmp_path):
    with pytest.raises(AudioError, match="pipe command failed"):
        read_audio("false |")


def test_resampling_and_mixdown_are_logged_or_refused(tmp_path, caplog):
    _warned.clear()
    x = np.stack([_tone(22050), _tone(22050, f=220.0)], axis=1)
    p = tmp_path / "st.wav"
    sf.write(p, x, 22050)
    with pytest.raises(AudioError, match="channels"):
        read_audio(str(p), sr=16000, strict=True)
    with caplog.at_level(logging.WARNING):
        y, sr = read_audio(str(p), sr=16000)
    assert sr == 16000 and y.ndim == 1 and abs(len(y) - 8000) <= 1
    msgs = " ".join(r.getMessage() for r in caplog.records)
    assert "mixing 2 channels" in msgs and "resampling 22050 Hz -> 16000 Hz" in msgs
    # frequency content survives resampling: the 440 Hz peak stays at 440 Hz
    spec = np.abs(np.fft.rfft(y * np.hanning(len(y))))
    peak = np.argmax(spec) * 16000 / len(y)
    assert abs(peak - 440) < 5 or abs(peak - 220) < 5


def test_write_audio_refuses_nan_and_clips(tmp_path):
    with pytest.raises(ValueError, match="NaN"):
        write_audio(tmp_path / "bad.wav", np.array([0.0, np.nan], dtype=np.float32), 16000)
    assert not list(tmp_path.iterdir())
    write_audio(tmp_path / "ok.wav", np.array([2.0, -3.0, 0.5], dtype=np.float32), 16000)
    y, _ = sf.read(tmp_path / "ok.wav")
    assert y.max() <= 1.0 and y.min() >= -1.0
