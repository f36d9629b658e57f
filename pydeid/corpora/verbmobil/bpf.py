"""BAS Partitur Format (.par) reader (FORMAT.md section 6).

`KEY:` + whitespace (TAB in VerbMobil) + fields, one record per line; header keys up to a bare `LBD:` line,
then tier lines. Only the tiers a data prep needs are checked strictly (ORT, and MAU when present); every other
tier is kept as raw fields. Files are read as ISO-8859-1 (as public readers do). Structural errors raise
FormatError naming file and line.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from pydeid.io import FormatError

_LINE_RE = re.compile(r"^([A-Z][A-Z0-9]{1,3}):(?:[\t ]+(.*))?$")
# symbolic tiers linked to words: KEY: wordIdx label
WORD_TIERS = {"ORT", "KAN", "KAS", "TRL", "TR2", "TRO", "MRP", "KSS", "PRS", "NOI", "POS", "LEX", "SPK", "DAS"}
# segment tiers: KEY: begin duration links label
SEGMENT_TIERS = {"MAU", "PHO", "WOR", "SAP", "TRN", "LBG", "LBP", "PRO"}


@dataclass
class Partitur:
    path: Path
    header: dict[str, str] = field(default_factory=dict)
    words: dict[str, dict[int, str]] = field(default_factory=dict)   # tier -> word index -> label
    segments: dict[str, list[tuple[int, int, str, str]]] = field(default_factory=dict)  # tier -> (beg,dur,links,lab)
    other: dict[str, list[list[str]]] = field(default_factory=dict)

    @property
    def sample_rate(self) -> int | None:
        v = self.header.get("SAM")
        return int(float(v)) if v else None

    @property
    def speaker(self) -> str | None:
        v = self.header.get("SPN")
        return v.split()[0] if v and v.split() else None

    def tier_text(self, tier: str = "ORT") -> list[str] | None:
        """Labels of a word tier ordered by word index; None when the tier is absent."""
        t = self.words.get(tier)
        if t is None:
            return None
        return [t[i] for i in sorted(t)]


def _fields(rest: str, n: int) -> list[str]:
    """Split into n fields: by TAB when the line has TABs, else by whitespace; the last field keeps spaces."""
    if "\t" in rest:
        parts = rest.split("\t", n - 1)
    else:
        parts = rest.split(None, n - 1)
    return [p.strip() for p in parts]


def read_par(path: str | os.PathLike) -> Partitur:
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise FormatError(path, None, f"cannot read: {e.strerror}") from None
    text = raw.decode("latin-1").lstrip("\ufeff\u00ef\u00bb\u00bf")
    par = Partitur(path=path)
    in_header = True
    for lineno, line in enumerate(text.splitlines(), 1):
        line = line.rstrip("\r")
        if not line.strip():
            continue
        m = _LINE_RE.match(line)
        if not m:
            raise FormatError(path, lineno, f"not a BPF line 'KEY:<TAB>fields': {line[:60]!r}")
        key, rest = m.group(1), (m.group(2) or "")
        if key == "LBD":
            in_header = False
            continue
        if in_header and key not in WORD_TIERS and key not in SEGMENT_TIERS:
            par.header[key] = rest.strip()
            if key == "SAM":
                try:
                    if float(rest) <= 0:
                        raise ValueError
                except ValueError:
                    raise FormatError(path, lineno, f"SAM must be a positive sample rate, got {rest!r}") from None
            continue
        in_header = False  # tolerate a missing LBD: the first tier line ends the header
        if key in WORD_TIERS:
            f = _fields(rest, 2)
            if len(f) < 2 or f[1] == "":
                if key == "ORT":
                    raise FormatError(path, lineno, f"ORT line needs 'word index<TAB>label', got {rest!r}")
                continue
            try:
                idx = int(f[0])
            except ValueError:
                if key == "ORT":
                    raise FormatError(path, lineno, f"ORT word index must be an integer, got {f[0]!r}") from None
                par.other.setdefault(key, []).append(f)
                continue
            tier = par.words.setdefault(key, {})
            if key == "ORT" and idx in tier:
                raise FormatError(path, lineno, f"duplicate ORT word index {idx}")
            if key == "ORT" and idx < 0:
                raise FormatError(path, lineno, f"negative ORT word index {idx}")
            tier[idx] = f[1]
        elif key in SEGMENT_TIERS:
            f = _fields(rest, 4)
            try:
                beg, dur = int(f[0]), int(f[1])
            except (ValueError, IndexError):
                if key == "MAU":
                    raise FormatError(path, lineno, f"MAU line needs 'begin<TAB>duration<TAB>word<TAB>phone' "
                                      f"with integer samples, got {rest!r}") from None
                par.other.setdefault(key, []).append(f)
                continue
            links = f[2] if len(f) > 2 else ""
            label = f[3] if len(f) > 3 else ""
            par.segments.setdefault(key, []).append((beg, dur, links, label))
        else:
            par.other.setdefault(key, []).append(rest.split("\t") if "\t" in rest else rest.split())
    return par
