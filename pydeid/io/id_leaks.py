"""Original ids in a published data dir: every file's name and every line of every text file (wav.scp paths,
segments, reco2file_and_channel, text, ...) and the header metadata of every audio file, searched for every
original speaker, utterance and recording id and for the parts of those ids (session, turn, speaker codes).

Matching is by whole tokens so that a pseudonym's hex digits never match by chance: a line is cut into atoms
(runs of letters and digits; a decimal number such as a duration is one atom), and an original id matches when it
equals a run of consecutive atoms with the separators between them. Id parts (an id cut at '-', '_', '.', '/')
count when they hold at least MIN_PART characters: shorter parts ("01", a turn number) are too common to be
evidence. Ids compare case-sensitively, as Kaldi does.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from .kaldi_map import read_kaldi_map

MIN_PART = 3
_ATOM = re.compile(r"\d+(?:\.\d+)+|[A-Za-z0-9]+")
_SEP = re.compile(r"[-_./]")
AUDIO_SUFFIXES = (".wav", ".flac", ".ogg", ".sph", ".mp3")


@dataclass
class IdLeak:
    path: Path
    line: int | None
    token: str
    what: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else str(self.path)
        return f"{where}: original {self.what} '{self.token}'"


def ids_of_data_dir(path: str | os.PathLike) -> dict[str, str]:
    """token -> what it is ('speaker id', 'utterance id', 'recording id', 'part of speaker id 0024', ...) for the
    ids of a Kaldi data dir (utt2spk, wav.scp keys, segments' recordings)."""
    path = Path(path)
    out: dict[str, str] = {}
    utt2spk = read_kaldi_map(path / "utt2spk")
    recos = set(read_kaldi_map(path / "wav.scp"))
    if (path / "segments").exists():
        recos = {v.split()[0] for v in read_kaldi_map(path / "segments").values()}
    whole = ([(s, "speaker id") for s in sorted(set(utt2spk.values()))] + [(u, "utterance id") for u in utt2spk]
             + [(r, "recording id") for r in sorted(recos) if r not in utt2spk])
    for tok, what in whole:
        out.setdefault(tok, what)
    for tok, what in whole:
        for part in _SEP.split(tok):
            if len(part) >= MIN_PART and part != tok:
                out.setdefault(part, f"part of {what} {tok}")
    return out


def _atom_runs(line: str, max_atoms: int):
    atoms = [(m.start(), m.end()) for m in _ATOM.finditer(line)]
    for i in range(len(atoms)):   # the longest run first: a whole utterance id before its speaker part
        for j in range(min(len(atoms), i + max_atoms) - 1, i - 1, -1):
            yield line[atoms[i][0]:atoms[j][1]]


def _audio_metadata(p: Path) -> list[str]:
    import soundfile as sf
    try:
        with sf.SoundFile(str(p)) as f:
            return [v for v in f.copy_metadata().values() if v]
    except Exception:   # not decodable by libsndfile: its name is still checked
        return []


def find_id_leaks(root: str | os.PathLike, ids: dict[str, str], limit: int = 20) -> list[IdLeak]:
    """Up to `limit` places in the published dir `root` where an original id occurs (file names, lines, audio
    header metadata)."""
    root = Path(root)
    max_atoms = max((len(_ATOM.findall(t)) for t in ids), default=1)
    leaks: list[IdLeak] = []

    def scan(text: str, path: Path, line: int | None) -> None:
        for run in _atom_runs(text, max_atoms):
            if run in ids:
                leaks.append(IdLeak(path, line, run, ids[run]))
                return

    for p in sorted(root.rglob("*")):
        if len(leaks) >= limit:
            break
        scan(str(p.relative_to(root)), p, None)
        if not p.is_file():
            continue
        if p.suffix.lower() in AUDIO_SUFFIXES:
            for v in _audio_metadata(p):
                scan(v, p, None)
            continue
        with open(p, "rb") as f:
            head = f.read(4096)
        if b"\0" in head:   # some other binary file: only its name is checked
            continue
        with open(p, encoding="utf-8", errors="replace") as f:
            for n, ln in enumerate(f, 1):
                scan(ln, p, n)
                if len(leaks) >= limit:
                    break
    return leaks
