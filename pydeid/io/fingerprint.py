"""Fingerprints of a step's inputs, recorded beside its resumable output so that a rerun on OTHER inputs is
refused (or redone) instead of resuming: a file's content hash, and the audio of a data dir (wav.scp and segments
as written, plus the size and modification time of every plain audio file they name: a reconversion into the same
data dir changes it without reading the audio)."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path


def file_sha(path: str | os.PathLike) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


def audio_entry_key(spec: str) -> str:
    """A wav.scp entry and, for a plain file, its size and modification time (a command or an ark offset counts
    by its text only): what changes when audio is written again under the same path."""
    try:
        st = os.stat(spec)
    except OSError:
        return spec
    return f"{spec} @{st.st_size}:{st.st_mtime_ns}"


def audio_fingerprint(d) -> str:
    """The audio a DataDir `d` stands for: the audio_entry_key of each wav.scp entry, and its segments."""
    h = hashlib.sha256()
    for key in sorted(d.wav_scp):
        h.update(f"{key} {audio_entry_key(d.wav_scp[key])}\n".encode())
    if d.segments is not None:
        for utt in sorted(d.segments):
            s = d.segments[utt]
            h.update(f"{utt} {s.reco} {s.start} {s.end}\n".encode())
    return h.hexdigest()[:16]


__all__ = ["audio_entry_key", "audio_fingerprint", "file_sha"]
