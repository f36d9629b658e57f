"""VerbMobil signal files: find the signal of each turn and turn it into a wav.scp entry (FORMAT.md section 4).

Kinds handled:
  * RIFF WAV or NIST SPHERE per turn (`<turn>.wav`, `<turn>.nis`, `<turn>_ENG.wav` ...): libsndfile reads both by
    content, so wav.scp holds the plain path (nothing copied);
  * a NIST file libsndfile refuses (unusual header): parsed here and converted to WAV if it is uncompressed PCM;
  * PhonDat (`.a16 .b16 .c16 .d16`: 512-byte header + little-endian int16 [C: BasFormats]): converted to WAV,
    at the rate of the .par `SAM:` key (16 kHz when absent; the header layout is not parsed);
  * one NIST file per speaker channel `<8-char>.16` cut by marker files `*.mar` (lines
    `<begin sample> <end sample> <turn id>` [P]): Kaldi segments into the speaker file.
Converted files go to a folder of the prepared data (written atomically, reused when present).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from pydeid.io import write_audio

from .turnid import parse_turn_id

TURN_EXTS = {".wav", ".nis", ".sph", ".a16", ".b16", ".c16", ".d16"}
PHONDAT_EXTS = {".a16", ".b16", ".c16", ".d16"}


class SignalError(Exception):
    """A signal that cannot be used (reported and skipped by the prep, never fatal)."""


@dataclass
class Signal:
    path: Path
    kind: str                 # "turnfile" | "phondat" | "marked" (segment of a speaker file)
    lang: str | None = None
    begin: int | None = None  # samples, kind "marked"
    end: int | None = None


@dataclass
class Resolved:
    spec: str                        # wav.scp value (absolute path)
    reco: str | None                 # recording id when the turn is a segment of a longer file
    start: float | None
    end: float | None
    duration: float
    rate: int
    converted: bool = False


def index_signals(files: list[Path]) -> tuple[dict[str, list[Signal]], list[str]]:
    """Map base turn id -> candidate signals from a list of corpus files; returns (index, problems)."""
    index: dict[str, list[Signal]] = {}
    problems: list[str] = []
    speaker_files: dict[str, Path] = {}
    markers: list[Path] = []
    for f in files:
        ext = f.suffix.lower()
        if ext in TURN_EXTS:
            tid = parse_turn_id(f.stem)
            if tid is None:
                if ext in PHONDAT_EXTS:
                    problems.append(f"{f}: PhonDat name is not a turn id (8.3 names are not mapped)")
                continue
            kind = "phondat" if ext in PHONDAT_EXTS else "turnfile"
            index.setdefault(tid.base, []).append(Signal(f, kind, tid.lang))
        elif ext == ".16":
            speaker_files[f.stem] = f
        elif ext == ".mar":
            markers.append(f)
    for mar in markers:
        for lineno, line in enumerate(mar.read_bytes().decode("latin-1").splitlines(), 1):
            fields = line.split()
            if len(fields) < 3 or not (fields[0].isdigit() and fields[1].isdigit()):
                continue
            tid = parse_turn_id(fields[2])
            if tid is None:
                problems.append(f"{mar}:{lineno}: marker line without a turn id: {line.strip()[:60]!r}")
                continue
            spk_file = speaker_files.get(tid.channel_name)
            if spk_file is None:
                problems.append(f"{mar}:{lineno}: speaker signal {tid.channel_name}.16 not found")
                continue
            b, e = int(fields[0]), int(fields[1])
            if e <= b:
                problems.append(f"{mar}:{lineno}: end sample {e} <= begin {b}")
                continue
            index.setdefault(tid.base, []).append(Signal(spk_file, "marked", tid.lang, b, e))
    return index, problems


def _nist_header(path: Path) -> tuple[dict[str, str], int]:
    with open(path, "rb") as f:
        head = f.read(1024)
    if not head.startswith(b"NIST_1A"):
        raise SignalError(f"{path}: not a NIST SPHERE file")
    lines = head.decode("latin-1").splitlines()
    try:
        size = int(lines[1].strip())
    except (IndexError, ValueError):
        raise SignalError(f"{path}: NIST header size missing") from None
    with open(path, "rb") as f:
        head = f.read(size).decode("latin-1")
    fields = {}
    for line in head.splitlines()[2:]:
        if line.strip() == "end_head":
            break
        parts = line.split(None, 2)
        if len(parts) == 3:
            fields[parts[0]] = parts[2].strip()
    return fields, size


def _read_nist_manual(path: Path) -> tuple[np.ndarray, int]:
    fields, size = _nist_header(path)
    coding = fields.get("sample_coding", "pcm").lower()
    if coding not in ("pcm",):
        raise SignalError(f"{path}: NIST sample_coding '{coding}' is not supported (decompress with sph2pipe)")
    if fields.get("sample_n_bytes", "2") != "2":
        raise SignalError(f"{path}: only 16-bit NIST files are supported")
    rate = int(fields.get("sample_rate", "16000"))
    order = fields.get("sample_byte_format", "01")
    dtype = "<i2" if order in ("01", "") else ">i2"
    nch = int(fields.get("channel_count", "1"))
    data = np.fromfile(path, dtype=dtype, offset=size)
    if nch > 1:
        data = data[: len(data) // nch * nch].reshape(-1, nch).mean(axis=1)
    return (data.astype(np.float32) / 32768.0), rate


def _read_phondat(path: Path) -> np.ndarray:
    data = np.fromfile(path, dtype="<i2", offset=512)
    if data.size == 0:
        raise SignalError(f"{path}: PhonDat file has no samples after its 512-byte header")
    return data.astype(np.float32) / 32768.0


def resolve(sig: Signal, utt: str, conv_dir: Path, par_rate: int | None) -> Resolved:
    """Make a wav.scp entry for one turn; may convert the signal to WAV under conv_dir."""
    import soundfile as sf

    if sig.kind == "phondat":
        rate = par_rate or 16000
        out = conv_dir / f"{utt}.wav"
        if not out.exists():
            write_audio(out, _read_phondat(sig.path), rate)
        return Resolved(str(out.resolve()), None, None, None, sf.info(str(out)).duration, rate, converted=True)
    try:
        info = sf.info(str(sig.path))
        rate, frames = info.samplerate, info.frames
        spec = str(sig.path.resolve())
        converted = False
    except Exception:
        if not sig.path.is_file():
            raise SignalError(f"{sig.path}: missing") from None
        try:
            data, rate = _read_nist_manual(sig.path)
        except SignalError:
            raise
        except Exception as e:
            raise SignalError(f"{sig.path}: unreadable signal ({e})") from None
        if sig.kind == "marked":
            out = conv_dir / f"{sig.path.stem}.wav"
        else:
            out = conv_dir / f"{utt}.wav"
        if not out.exists():
            write_audio(out, data, rate)
        spec, frames, converted = str(out.resolve()), len(data), True
    if sig.kind == "marked":
        if sig.end > frames:
            raise SignalError(f"{sig.path}: marker end {sig.end} beyond the {frames} samples of the file")
        return Resolved(spec, Path(spec).stem, sig.begin / rate, sig.end / rate, (sig.end - sig.begin) / rate,
                        rate, converted)
    if frames == 0:
        raise SignalError(f"{sig.path}: empty signal")
    return Resolved(spec, None, None, None, frames / rate, rate, converted)


def language_of(name: str) -> str | None:
    m = re.search(r"_(ENG|GER|JAP)$", name)
    return m.group(1) if m else None


def list_corpus_files(roots: list[Path]) -> list[Path]:
    """Every file under the roots, sorted (a recursive walk; the layout is never assumed)."""
    out = []
    for root in roots:
        for dirpath, _dirs, files in os.walk(root, followlinks=True):
            for f in files:
                out.append(Path(dirpath) / f)
    return sorted(out)
