"""Audio access for Kaldi wav.scp entries: plain files, `cmd |` pipes and `ark:offset` specifiers.

Every reader returns mono float32 in [-1, 1] at the sample rate the caller asks for. A channel mix-down or a
resampling is never silent: it is logged (once per kind of conversion), or refused with strict=True.
"""

from __future__ import annotations

import io
import logging
import os
import re
import subprocess
from fractions import Fraction
from pathlib import Path

import numpy as np
import soundfile as sf

from .atomic import atomic_write
from .audio_checks import AudioInputError, check_finite, mix_down
from .errors import FormatError

log = logging.getLogger(__name__)
_warned: set[tuple] = set()
MAX_OVERSHOOT = 0.5  # s a segment may run past the end of its recording (Kaldi extract-segments --max-overshoot)
_ARK_RE = re.compile(r"^(?P<path>.+):(?P<offset>\d+)(?P<slice>\[[0-9:,]+\])?$")
# Kaldi's LibriSpeech wav.scp form (egs/librispeech/s5/local/data_prep.sh): `flac -c -d -s <path> |`. pydeid reads
# the file itself (no flac binary needed); Kaldi's tools run the pipe.
_FLAC_PIPE_RE = re.compile(r"^flac(?:\s+(?:-c|-d|-s|--stdout|--decode|--silent|-cds|-dcs))+\s+(?P<path>\S+)\s*\|$")


class AudioError(FormatError):
    pass


def _warn_once(key: tuple, msg: str) -> None:
    if key not in _warned:
        _warned.add(key)
        log.warning(msg)


def spec_kind(spec: str) -> str:
    """'pipe' for `cmd |`, 'ark' for `file.ark:offset`, else 'file'."""
    spec = spec.strip()
    if spec.endswith("|"):
        return "pipe"
    m = _ARK_RE.match(spec)
    if m and not os.path.exists(spec) and (m.group("path").endswith(".ark") or os.path.exists(m.group("path"))):
        return "ark"
    return "file"


def flac_pipe_path(spec: str) -> str | None:
    """The file of a `flac -c -d -s <path> |` entry, else None."""
    m = _FLAC_PIPE_RE.match(spec.strip())
    return m.group("path") if m else None


def flac_pipe(path: str | os.PathLike) -> str:
    """The wav.scp value Kaldi's LibriSpeech recipe writes for a flac file."""
    return f"flac -c -d -s {path} |"


def wav_truncation(path: str | os.PathLike) -> tuple[int, int] | None:
    """(bytes the RIFF header declares for the samples, bytes the file holds) when a WAV file is shorter than its
    header says (an interrupted copy), else None. Streamed WAVs (size 0 or 0xFFFFFFFF) are not judged."""
    try:
        size = os.path.getsize(path)
        with open(path, "rb") as f:
            hdr = f.read(12)
            if len(hdr) < 12 or hdr[:4] != b"RIFF" or hdr[8:12] != b"WAVE":
                return None
            pos = 12
            while pos + 8 <= size:
                f.seek(pos)
                ck = f.read(8)
                cid, clen = ck[:4], int.from_bytes(ck[4:8], "little")
                if cid == b"data":
                    if clen in (0, 0xFFFFFFFF):
                        return None
                    avail = size - pos - 8
                    return (clen, avail) if clen > avail else None
                pos += 8 + clen + (clen & 1)
    except OSError:
        return None
    return None


def _check_file(path: str) -> None:
    if not os.path.exists(path):
        raise AudioError(path, None, "audio file does not exist")
    t = wav_truncation(path)
    if t:
        raise AudioError(path, None, f"truncated audio: the WAV header declares {t[0]} bytes of samples, the file "
                                     f"holds {t[1]}")


def _to_float32(data: np.ndarray) -> np.ndarray:
    if np.issubdtype(data.dtype, np.integer):
        info = np.iinfo(data.dtype)
        return (data.astype(np.float32) / float(max(abs(info.min), info.max))).astype(np.float32)
    return data.astype(np.float32, copy=False)


def _read_raw(spec: str) -> tuple[np.ndarray, int]:
    """Decode a wav.scp value to (samples[, channels], rate) without any conversion."""
    kind = spec_kind(spec)
    flac = flac_pipe_path(spec) if kind == "pipe" else None
    if flac is not None:
        kind, spec = "file", flac
    if kind == "pipe":
        cmd = spec.strip()[:-1]
        proc = subprocess.run(cmd, shell=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if proc.returncode != 0:
            raise AudioError(None, None, f"pipe command failed ({proc.returncode}): {cmd}: "
                             f"{proc.stderr.decode(errors='replace').strip()[:300]}")
        try:
            data, rate = sf.read(io.BytesIO(proc.stdout), dtype="float32", always_2d=False)
        except Exception as e:  # soundfile raises its own error types
            raise AudioError(None, None, f"pipe output is not audio: {cmd}: {e}") from None
        return data, rate
    if kind == "ark":
        import kaldiio
        try:
            obj = kaldiio.load_mat(spec.strip())
        except Exception as e:
            raise AudioError(None, None, f"cannot read ark entry {spec}: {e}") from None
        if isinstance(obj, tuple):
            rate, data = obj
            return _to_float32(np.asarray(data)), int(rate)
        raise AudioError(None, None, f"ark entry {spec} holds a matrix, not audio")
    path = spec.strip()
    _check_file(path)
    try:
        data, rate = sf.read(path, dtype="float32", always_2d=False)
    except Exception as e:
        raise AudioError(path, None, f"unreadable audio: {e}") from None
    return data, rate


def resample(wav: np.ndarray, orig_sr: int, target_sr: int) -> np.ndarray:
    if orig_sr == target_sr:
        return wav
    from scipy.signal import resample_poly
    frac = Fraction(target_sr, orig_sr).limit_denominator(1000)
    return resample_poly(wav, frac.numerator, frac.denominator).astype(np.float32)


def to_mono_rate(data: np.ndarray, rate: int, sr: int | None, where: str, strict: bool = False,
                 ) -> tuple[np.ndarray, int]:
    """Explicit channel and rate conversion: logged once per kind, or refused when strict."""
    if data.ndim == 2:
        if strict:
            raise AudioError(where, None, f"{data.shape[1]} channels, expected mono")
        _warn_once(("mix", data.shape[1]), f"{where}: mixing {data.shape[1]} channels down to mono")
        data = mix_down(data, where)   # the API's mix-down too (pydeid.io.audio_checks)
    if not np.isfinite(data).all():
        try:
            check_finite(data, where)
        except AudioInputError as e:
            raise AudioError(where, None, str(e).split(": ", 1)[-1]) from None
    if sr is not None and rate != sr:
        if strict:
            raise AudioError(where, None, f"sample rate {rate} Hz, expected {sr} Hz")
        _warn_once(("rate", rate, sr), f"{where}: resampling {rate} Hz -> {sr} Hz")
        data = resample(data, rate, sr)
        rate = sr
    return np.ascontiguousarray(data, dtype=np.float32), rate


def read_audio(spec: str, sr: int | None = 16000, start: float | None = None, end: float | None = None,
               strict: bool = False) -> tuple[np.ndarray, int]:
    """Read a wav.scp value (file, pipe or ark) as mono float32 at `sr` (None keeps the file's rate).

    start/end (seconds) cut a segment out of the recording before resampling (Kaldi `segments`; end<0 or None
    means to the end of the recording).
    """
    data, rate = _read_raw(spec)
    if len(data) == 0:
        raise AudioError(None, None, f"no samples in {spec.strip()}")
    if np.issubdtype(data.dtype, np.floating) and not np.isfinite(data).all():
        bad = int((~np.isfinite(data)).sum())
        raise AudioError(None, None, f"{bad} NaN or infinite samples in {spec.strip()}")
    if start is not None or end is not None:
        s = int(round((start or 0.0) * rate))
        e = len(data) if end is None or end < 0 else int(round(end * rate))
        if end is not None and end > len(data) / rate + MAX_OVERSHOOT:
            raise AudioError(None, None, f"segment {start}-{end}s runs past the end of the recording {spec.strip()} "
                             f"({len(data) / rate:.2f}s) by more than {MAX_OVERSHOOT}s")
        if s >= len(data) or e <= s:
            raise AudioError(None, None, f"segment {start}-{end}s lies outside the recording {spec} "
                             f"({len(data) / rate:.2f}s)")
        data = data[s:min(e, len(data))]
    return to_mono_rate(data, rate, sr, spec.strip(), strict)


def audio_duration(spec: str) -> float:
    """Duration in seconds without decoding when the spec is a plain file."""
    path = flac_pipe_path(spec) if spec_kind(spec) == "pipe" else None
    if path is None and spec_kind(spec) == "file":
        path = spec.strip()
    if path is not None:
        _check_file(path)
        try:
            return sf.info(path).duration
        except Exception as e:
            raise AudioError(path, None, f"unreadable audio: {e}") from None
    data, rate = _read_raw(spec)
    return len(data) / rate


def write_audio(path: str | os.PathLike, wav: np.ndarray, sr: int, subtype: str = "PCM_16",
                tmp_dir: str | os.PathLike | None = None) -> None:
    """Write a mono wav atomically (temp file + rename; the temp file in `tmp_dir` when given, see
    atomic.partial_dir). Float input is clipped to [-1, 1]."""
    path = Path(path)
    wav = np.asarray(wav)
    if not np.all(np.isfinite(wav)):
        raise ValueError(f"{path}: refusing to write audio with NaN/inf samples")
    if np.issubdtype(wav.dtype, np.floating):
        wav = np.clip(wav, -1.0, 1.0)
    fmt = {".wav": "WAV", ".flac": "FLAC"}.get(path.suffix.lower(), "WAV")
    with atomic_write(path, "wb", encoding=None, tmp_dir=tmp_dir) as f:
        sf.write(f, wav, sr, subtype=subtype, format=fmt)
