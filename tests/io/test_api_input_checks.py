"""The Python API refuses bad input like the CLI: one clear error (a ValueError/TypeError subclass of
pydeid.io.audio_checks or pydeid.api, with a message), or its documented behaviour (stereo mixed down, int16
scaled). Issue 39: before, sample rate 0 gave ZeroDivisionError, stereo a numpy broadcast error, NaN LinAlgError,
transform(None) AttributeError and build_vtln({}) a bare KeyError later."""

import numpy as np
import pytest

import pydeid
from pydeid.api import TextInputError
from pydeid.io.audio_checks import AudioInputError, AudioTypeError

SR = 16000


def _voice(seconds=0.5, f0=140.0, seed=0):
    t = np.arange(int(seconds * SR)) / SR
    rng = np.random.default_rng(seed)
    x = 0.3 * np.sign(np.sin(2 * np.pi * f0 * t)) * np.exp(-((t % 0.25) - 0.12) ** 2 / 0.004)
    return (x + 0.01 * rng.standard_normal(len(t))).astype(np.float32)


@pytest.fixture(scope="module")
def wav():
    return _voice()


@pytest.mark.parametrize("method", ["mcadams", "voicemask"])
@pytest.mark.parametrize("sr", [0, -16000, 16000.5])
def test_bad_sample_rate(method, sr, wav):
    with pytest.raises(AudioInputError, match="sample rate must be a positive integer"):
        pydeid.voice_transformer(method, seed=0).transform(wav, sr)


@pytest.mark.parametrize("bad, match", [(np.full(8000, np.nan, np.float32), "NaN or infinite"),
                                        (np.array([0.1, np.inf] * 4000, np.float32), "NaN or infinite"),
                                        (np.zeros(0, np.float32), "no samples"),
                                        (np.zeros((2, 2, 4000), np.float32), "3 dimensions")])
def test_bad_samples(bad, match):
    with pytest.raises(AudioInputError, match=match):
        pydeid.voice_transformer("mcadams", seed=0).transform(bad, SR)


@pytest.mark.parametrize("bad", [None, "audio.wav", [[0.1], [0.2, 0.3]]])
def test_not_audio(bad):
    with pytest.raises(AudioTypeError):
        pydeid.voice_transformer("mcadams", seed=0).transform(bad, SR)


def test_stereo_is_mixed_down_like_the_cli(wav):
    other = _voice(f0=190.0, seed=1)
    mono = pydeid.voice_transformer("mcadams", seed=3).transform((wav + other) / 2, SR)
    for layout in (np.stack([wav, other], axis=1), np.stack([wav, other], axis=0)):
        y = pydeid.voice_transformer("mcadams", seed=3).transform(layout, SR)
        assert y.shape == wav.shape and np.allclose(y, mono, atol=1e-6)


def test_int16_is_scaled_to_float(wav):
    pcm = np.round(wav * 32768).astype(np.int16)
    y_int = pydeid.voice_transformer("voicemask", seed=5).transform(pcm, SR)
    y_float = pydeid.voice_transformer("voicemask", seed=5).transform(pcm.astype(np.float32) / 32768, SR)
    assert y_int.dtype == np.float32 and np.abs(y_int).max() <= 1.0 and np.allclose(y_int, y_float, atol=1e-6)


def test_text_transformer_refuses_non_str():
    tt = pydeid.TextTransformer(detectors=["grammar"], seed=0)
    for bad in (None, b"my pin is four two", ["my", "pin"]):
        with pytest.raises(TextInputError, match="text must be a str"):
            tt.transform(bad)
        with pytest.raises(TypeError, match="text must be a str"):
            tt.identify(bad)
    assert tt.transform("") == ""


def test_build_vtln_refuses_at_build_time(wav):
    with pytest.raises(AudioInputError, match="at least one target speaker"):
        pydeid.build_vtln({})
    with pytest.raises(AudioInputError, match="'t1' has no utterances"):
        pydeid.build_vtln({"t1": []})
    with pytest.raises(AudioInputError, match="NaN"):
        pydeid.build_vtln({"t1": [np.full(4000, np.nan)]})
    with pytest.raises(AudioInputError, match="sample rate"):
        pydeid.build_vtln({"t1": [wav]}, sr=0)
    with pytest.raises(AudioTypeError):
        pydeid.VtlnTransformer({})


def test_vtln_transformer_checks_its_input(wav):
    targets = pydeid.build_vtln({"t1": [_voice(1.0, 210.0, 2)], "t2": [_voice(1.0, 110.0, 3)]}, k=2)
    vt = pydeid.VtlnTransformer(targets)
    with pytest.raises(AudioInputError, match="at least one utterance"):
        vt.fit([])
    vt.fit([_voice(1.0, 140.0, 4)], SR)
    with pytest.raises(AudioInputError, match="unknown target 'nobody'"):
        vt.transform(wav, "nobody", SR)
    with pytest.raises(AudioInputError, match="sample rate"):
        vt.transform(wav, "t1", 0)
    with pytest.raises(AudioInputError, match="NaN"):
        vt.transform(np.full(8000, np.nan, np.float32), "t1", SR)
    y = vt.transform(np.stack([wav, wav], axis=1), "t1", SR)   # stereo: mixed down
    assert y.shape == wav.shape and np.isfinite(y).all()


@pytest.mark.parametrize("name, build", [("McAdamsTransformer", "build_mcadams"),
                                         ("VoiceMaskTransformer", "build_voicemask")])
def test_method_classes_of_the_api_check_their_input(name, build, wav):
    """pydeid.McAdamsTransformer / VoiceMaskTransformer used directly, not through voice_transformer: before, a
    stereo array gave a numpy broadcast error inside McAdams and sample rate 0 a ZeroDivisionError."""
    cls, params = getattr(pydeid, name), getattr(pydeid, build)()
    with pytest.raises(AudioInputError, match="sample rate must be a positive integer"):
        cls(params, seed=0).transform(wav, 0)
    with pytest.raises(AudioInputError, match="NaN or infinite"):
        cls(params, seed=0).transform(np.full(8000, np.nan, np.float32), SR)
    with pytest.raises(AudioTypeError):
        cls(params, seed=0).transform(None, SR)
    other = _voice(f0=190.0, seed=1)
    mono = cls(params, seed=3).transform((wav + other) / 2, SR)
    stereo = cls(params, seed=3).transform(np.stack([wav, other], axis=1), SR)
    assert stereo.shape == wav.shape and np.allclose(stereo, mono, atol=1e-6)
    pcm = np.round(wav * 32768).astype(np.int16)
    assert np.allclose(cls(params, seed=5).transform(pcm, SR), cls(params, seed=5).transform(pcm / 32768.0, SR),
                       atol=1e-4)
