"""CTM files: `<utt> <channel> <start> <dur> <token> [<conf>]`, one line per word or phone.

pydeid CTMs are keyed by utterance id with times in seconds relative to the start of the utterance (seed 004
A.4 layout); channel is normally 1.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from .atomic import atomic_write
import math

from .errors import FormatError, read_lines
from .kaldi_map import kaldi_sort_key


@dataclass(frozen=True)
class CtmEntry:
    utt: str
    channel: str
    start: float
    dur: float
    token: str
    conf: float | None = None

    @property
    def end(self) -> float:
        return self.start + self.dur


def read_ctm(path: str | os.PathLike) -> list[CtmEntry]:
    path = Path(path)
    out: list[CtmEntry] = []
    for lineno, line in read_lines(path):
        if not line.strip() or line.startswith(";;"):
            continue
        f = line.split()
        if len(f) not in (5, 6):
            raise FormatError(path, lineno, f"expected 5 or 6 fields '<utt> <chan> <start> <dur> <token> [conf]', got {len(f)}")
        try:
            start, dur = float(f[2]), float(f[3])
            conf = float(f[5]) if len(f) == 6 else None
        except ValueError:
            raise FormatError(path, lineno, "non-numeric start/duration/confidence") from None
        if not all(map(math.isfinite, (start, dur))) or (conf is not None and not math.isfinite(conf)):
            raise FormatError(path, lineno, f"non-finite time or confidence (start {f[2]}, dur {f[3]})")
        if start < 0 or dur < 0:
            raise FormatError(path, lineno, f"negative time (start {start}, dur {dur})")
        out.append(CtmEntry(f[0], f[1], start, dur, f[4], conf))
    return out


def ctm_by_utt(entries: Iterable[CtmEntry]) -> dict[str, list[CtmEntry]]:
    """Group by utterance, each list sorted by start time."""
    out: dict[str, list[CtmEntry]] = {}
    for e in entries:
        out.setdefault(e.utt, []).append(e)
    for v in out.values():
        v.sort(key=lambda e: (e.start, e.end))
    return dict(sorted(out.items(), key=lambda kv: kaldi_sort_key(kv[0])))


def write_ctm(path: str | os.PathLike, entries: Iterable[CtmEntry]) -> None:
    rows = sorted(entries, key=lambda e: (kaldi_sort_key(e.utt), e.start, e.end))
    with atomic_write(path) as f:
        for e in rows:
            line = f"{e.utt} {e.channel} {e.start:.3f} {e.dur:.3f} {e.token}"
            if e.conf is not None:
                line += f" {e.conf:.3f}"
            f.write(line + "\n")
