"""Checks of in-memory audio, shared by the Python API (pydeid.api) and the readers behind the CLI
(pydeid.io.audio.to_mono_rate): one clear error per bad input instead of a traceback from inside numpy or WORLD.

What is accepted, and how it is turned into what the transformers take (mono float32 in [-1, 1]):
- a 1-D array of samples;
- a 2-D array: several channels, mixed down to mono by their mean (as the CLI does for a stereo file), channels
  last (soundfile's layout: (samples, channels)) or, when the first axis is the short one (at most MAX_CHANNELS),
  channels first (torchaudio's layout);
- integer samples (int16, int32, uint8 PCM) are scaled to float as soundfile reads PCM: int16 / 32768,
  int32 / 2**31, (uint8 - 128) / 128;
- float samples as they are.
Refused (AudioInputError, a ValueError; AudioTypeError, a TypeError, for what is not audio at all): None, strings,
booleans, objects; more than 2 dimensions; no samples; NaN or infinite samples; a sample rate that is not a
positive integer.
"""

from __future__ import annotations

import numbers

import numpy as np

MAX_CHANNELS = 8


class AudioInputError(ValueError):
    """Audio the transformers cannot take (the message says what and why)."""


class AudioTypeError(TypeError):
    """Something that is not audio (None, a string, an object)."""


def check_sample_rate(sr, what: str = "sample rate") -> int:
    """sr as an int; AudioInputError unless it is a positive integer (16000, not 0, -1, 16000.5 or '16k')."""
    if isinstance(sr, bool) or not isinstance(sr, numbers.Real):
        raise AudioTypeError(f"{what} must be a positive integer (Hz), got {type(sr).__name__} {sr!r}")
    if sr != int(sr) or int(sr) <= 0:
        raise AudioInputError(f"{what} must be a positive integer (Hz), got {sr!r}")
    return int(sr)


def mix_down(data: np.ndarray, what: str = "audio") -> np.ndarray:
    """A 1-D or 2-D array -> 1-D (mean of the channels; see the module doc for the layouts)."""
    if data.ndim == 1:
        return data
    if data.ndim != 2:
        raise AudioInputError(f"{what}: expected samples (1-D) or samples x channels (2-D), got {data.ndim} "
                              f"dimensions {data.shape}")
    n, c = data.shape
    if c <= MAX_CHANNELS or c <= n:
        return data.mean(axis=1)
    return data.mean(axis=0)   # (channels, samples)


def to_float(data: np.ndarray, what: str = "audio") -> np.ndarray:
    """Integer PCM scaled to [-1, 1] (module doc), float kept; anything else refused."""
    if data.dtype == np.int16:
        return data.astype(np.float32) / 32768.0
    if data.dtype == np.int32:
        return (data.astype(np.float64) / 2.0 ** 31).astype(np.float32)
    if data.dtype == np.uint8:
        return (data.astype(np.float32) - 128.0) / 128.0
    if np.issubdtype(data.dtype, np.floating):
        return data.astype(np.float32, copy=False)
    raise AudioTypeError(f"{what}: samples must be float or int16/int32/uint8 PCM, got dtype {data.dtype}")


def check_finite(data: np.ndarray, what: str = "audio") -> np.ndarray:
    bad = ~np.isfinite(data)
    if bad.any():
        raise AudioInputError(f"{what}: {int(bad.sum())} NaN or infinite sample(s), the first at sample "
                              f"{int(np.argmax(bad.reshape(-1)))}")
    return data


def as_mono_float(wav, what: str = "audio") -> np.ndarray:
    """The waveform as mono float32 (module doc), or one clear error."""
    if wav is None or isinstance(wav, (str, bytes, dict)):
        raise AudioTypeError(f"{what} must be an array of samples, got {type(wav).__name__}")
    try:
        data = np.asarray(wav)
    except Exception as e:   # ragged lists and the like
        raise AudioTypeError(f"{what} must be an array of samples ({e})") from None
    if data.dtype == object or data.dtype.kind in "USbc":
        raise AudioTypeError(f"{what}: samples must be numbers, got dtype {data.dtype}")
    if data.ndim == 0:
        raise AudioInputError(f"{what}: a single number, not a waveform")
    x = mix_down(to_float(data, what), what)
    if x.size == 0:
        raise AudioInputError(f"{what}: no samples")
    return np.ascontiguousarray(check_finite(x, what), dtype=np.float32)
