"""Which dialogue (document) an utterance belongs to: the scope of consistent pseudonyms and all-or-nothing recall.

Modes:
  auto           utt2dialogue in the data dir when present, else strip-speaker
  utt2dialogue   a two-column file <utt> <dialogue>
  strip-speaker  drop the speaker id prefix (from utt2spk) and the last separator-delimited field:
                 mini "spk003-tr001-04" -> "tr001"; LibriSpeech "1272-128104-0000" -> "128104" (the chapter)
  regex          the first capture group of --dialogue-regex matched against the utterance id
  utterance      every utterance is its own dialogue
  speaker        every speaker's utterances form one document
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Mapping, Sequence

from pydeid.io.errors import FormatError
from pydeid.io.kaldi_map import read_kaldi_map

MODES = ("auto", "utt2dialogue", "strip-speaker", "regex", "utterance", "speaker")


def _strip_speaker(utt: str, spk: str | None, sep: str) -> str:
    rest = utt
    if spk and utt.startswith(spk) and utt[len(spk):len(spk) + len(sep)] == sep:
        rest = utt[len(spk) + len(sep):]
    return rest.rsplit(sep, 1)[0] if sep in rest else rest


def dialogue_ids(utts: Sequence[str], utt2spk: Mapping[str, str] | None = None, mode: str = "auto",
                 data_dir: str | Path | None = None, sep: str = "-", regex: str | None = None,
                 utt2dialogue: str | Path | None = None) -> tuple[list[str], str]:
    """Dialogue id of each utterance, and a one-line description of how it was found."""
    if mode not in MODES:
        raise ValueError(f"unknown dialogue mode {mode!r}: {', '.join(MODES)}")
    if mode in ("auto", "utt2dialogue"):
        f = Path(utt2dialogue) if utt2dialogue else (Path(data_dir) / "utt2dialogue" if data_dir else None)
        if f is not None and f.exists():
            m = read_kaldi_map(f)
            missing = [u for u in utts if u not in m]
            if missing:
                raise FormatError(f, None, f"no dialogue for utterance {missing[0]} ({len(missing)} missing)")
            return [m[u] for u in utts], f"utt2dialogue file {f}"
        if mode == "utt2dialogue":
            raise FormatError(f or "utt2dialogue", None, "dialogue mode utt2dialogue but the file is absent")
        mode = "strip-speaker"
    if mode == "strip-speaker":
        u2s = utt2spk or {}
        return ([_strip_speaker(u, u2s.get(u), sep) for u in utts],
                f"utterance id minus its speaker prefix and last '{sep}' field")
    if mode == "regex":
        if not regex:
            raise ValueError("dialogue mode regex needs --dialogue-regex")
        rx = re.compile(regex)
        out = []
        for u in utts:
            m = rx.search(u)
            if not m:
                raise FormatError("utterance ids", None, f"--dialogue-regex {regex!r} does not match {u}")
            out.append(m.group(1) if m.groups() else m.group(0))
        return out, f"regex {regex!r} on the utterance id"
    if mode == "speaker":
        u2s = utt2spk or {}
        return [u2s.get(u, u) for u in utts], "one document per speaker"
    return list(utts), "one dialogue per utterance"
