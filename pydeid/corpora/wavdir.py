"""A Kaldi data dir from a plain folder of recordings (egs/wavdir/s5 stage 0).

Every file under the folder whose extension is an audio format libsndfile reads (wav, flac, ogg, aiff, mp3 ...)
is one utterance. Whatever its sample rate and channel count, it is mixed down to mono, resampled to 16 kHz and
written to <audio-dir>/<utt>.wav: the recipe's working copy, which all later stages read. The data dir's wav.scp
points to these copies, never to the originals, and its ids are pseudonymous (spk0001, spk0001-0001): one
speaker per recording, or (spk_from="dirname") one per folder. The only link back to the original files is the
map <secret> (mode 0600, refused inside the data dir or the audio dir).

Reruns resume: a working copy is rewritten only when its source changed (size, mtime in the map).
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

import numpy as np
import soundfile as sf

from pydeid.io.audio import resample, write_audio
from pydeid.io.datadir import DataDir, write_datadir_atomic
from pydeid.io.errors import FormatError, UsageError
from pydeid.io.secrets import check_secret_path, read_secret_json, write_secret_json

log = logging.getLogger(__name__)

SR = 16000
SPK_FROM = ("file", "dirname")


def audio_extensions() -> set[str]:
    """Lower-case extensions of the formats libsndfile reads here (wav, flac, ogg, aiff, mp3 when built in)."""
    ext = {k.lower() for k in sf.available_formats()}
    ext |= {"aif", "oga", "opus"} if "OGG" in sf.available_formats() else {"aif"}
    return ext


def list_recordings(wav_dir: str | os.PathLike) -> list[Path]:
    """The audio files under wav_dir (recursive, hidden entries skipped), sorted by relative path."""
    root = Path(wav_dir)
    if not root.is_dir():
        raise FormatError(root, None, "not a directory (--wav-dir: a folder of recordings)")
    exts = audio_extensions()
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in filenames:
            if name.startswith("."):
                continue
            if name.rsplit(".", 1)[-1].lower() in exts and "." in name:
                found.append(Path(dirpath) / name)
    found.sort(key=lambda p: p.relative_to(root).as_posix())
    if not found:
        raise FormatError(root, None, f"no audio file found (extensions read: {', '.join(sorted(exts))})")
    return found


def _why(e: Exception) -> str:
    """libsndfile's reason without the path it repeats ("Error opening '<path>': Format not recognised.")."""
    msg = str(e).splitlines()[0] if str(e) else type(e).__name__
    return msg.split("': ", 1)[1] if msg.startswith("Error opening '") and "': " in msg else msg


def read_mono_16k(path: Path) -> np.ndarray:
    """Any libsndfile format, rate and channel count -> mono float32 at 16 kHz; one-line errors."""
    try:
        data, rate = sf.read(str(path), dtype="float32", always_2d=True)
    except Exception as e:  # libsndfile's own error types
        raise FormatError(path, None, "unreadable audio: " + _why(e)) \
            from None
    if data.shape[0] == 0:
        raise FormatError(path, None, "empty recording (no samples)")
    if not np.isfinite(data).all():
        raise FormatError(path, None, "NaN or infinite samples")
    wav = data.mean(axis=1) if data.shape[1] > 1 else data[:, 0]
    wav = resample(np.ascontiguousarray(wav, dtype=np.float32), int(rate), SR)
    if not np.any(wav):
        raise FormatError(path, None, "silent recording (every sample is zero)")
    return wav.astype(np.float32)


def assign_ids(root: Path, files: list[Path], spk_from: str) -> list[tuple[str, str, Path]]:
    """(utt, spk, file) with pseudonymous ids in the files' sorted order: spkNNNN, spkNNNN-MMMM."""
    if spk_from not in SPK_FROM:
        raise UsageError("--spk-from", f"unknown value '{spk_from}' (known: {', '.join(SPK_FROM)})")
    spk_of_key: dict[str, str] = {}
    count: dict[str, int] = {}
    out = []
    for f in files:
        rel = f.relative_to(root)
        key = rel.as_posix() if spk_from == "file" else rel.parent.as_posix()
        spk = spk_of_key.setdefault(key, f"spk{len(spk_of_key) + 1:04d}")
        count[spk] = count.get(spk, 0) + 1
        out.append((f"{spk}-{count[spk]:04d}", spk, f))
    return out


def build_wavdir(wav_dir: str | os.PathLike, out_data: str | os.PathLike, audio_dir: str | os.PathLike,
                 secret: str | os.PathLike, spk_from: str = "file") -> DataDir:
    """Write the data dir (wav.scp, utt2spk, spk2utt, utt2dur; no text) and the working 16 kHz mono copies."""
    root = Path(wav_dir).resolve()
    out_data, audio_dir = Path(out_data), Path(audio_dir)
    secret_p = check_secret_path(secret, [out_data, audio_dir, root])
    files = list_recordings(root)
    ids = assign_ids(root, files, spk_from)
    old = read_secret_json(secret_p).get("utterances", {}) if secret_p.is_file() else {}
    audio_dir.mkdir(parents=True, exist_ok=True)
    d = DataDir(utt2dur={})
    mapping = {}
    rewritten = 0
    for utt, spk, f in ids:
        st = f.stat()
        src = {"source": str(f), "size": st.st_size, "mtime_ns": st.st_mtime_ns}
        wav_path = (audio_dir / f"{utt}.wav").resolve()
        if old.get(utt) == src and wav_path.is_file():
            dur = sf.info(str(wav_path)).duration
        else:
            wav = read_mono_16k(f)
            write_audio(wav_path, wav, SR)
            dur = len(wav) / SR
            rewritten += 1
        mapping[utt] = src
        d.wav_scp[utt] = str(wav_path)
        d.utt2spk[utt] = spk
        d.utt2dur[utt] = round(dur, 3)
    # copies of recordings no longer in the folder would be published by mistake later: remove them
    keep = {f"{u}.wav" for u, _, _ in ids}
    for p in audio_dir.glob("*.wav"):
        if p.name not in keep:
            p.unlink()
    write_secret_json(secret_p, {"wav_dir": str(root), "spk_from": spk_from, "utterances": mapping},
                      [out_data, audio_dir, root])
    # each recording is its own dialogue: no surrogate or dialogue context is shared between recordings
    write_datadir_atomic(d, out_data, extra={"utt2dialogue": {u: u for u in d.utt2spk}})
    (out_data / "text").unlink(missing_ok=True)   # no transcripts: stage 1 writes them
    log.info("%s: %d recordings (%d converted to 16 kHz mono, %d reused), %d speakers (one per %s)", out_data,
             len(ids), rewritten, len(ids) - rewritten, len(d.spk2utt), "recording" if spk_from == "file" else
             "folder")
    return d
