"""speechocean762 data preparation: the corpus's own layout -> Kaldi data dirs.

Input layout (github.com/jimbozhang/speechocean762, also Kaldi's egs/gop_speechocean762):
  <root>/WAVE/SPEAKER<spk>/<utt>.WAV      16 kHz mono (the subset in ../shared/data has .flac, same samples)
  <root>/{train,test}/{wav.scp,text,utt2spk,spk2utt,spk2gender,spk2age}
wav.scp paths are relative to <root> (`WAVE/SPEAKER0001/000010011.WAV`); a listed file that is missing is looked
for with the other extension (.WAV / .wav / .flac), so one recipe reads the distribution and the converted subset.
text is upper case with apostrophes ("IT'S"); digit strings are spelt ("ZERO THREE FIVE"). Speakers are
disjoint between train and test (the corpus's own split).

Output: wav.scp (absolute paths), text, utt2spk, spk2utt, utt2gender, spk2gender, utt2dur. Every mismatch
stops with the file and line.
"""

from __future__ import annotations

import os
from pathlib import Path

from pydeid.io import DataDir, FormatError, write_datadir_atomic

SPLITS = ("train", "test")
AUDIO_EXTS = (".WAV", ".wav", ".flac", ".FLAC")


def _read_table(path: Path, allow_missing: bool = False) -> list[tuple[int, str, str]]:
    if not path.is_file():
        if allow_missing:
            return []
        raise FormatError(path, None, "missing (expected the corpus's Kaldi-style list)")
    out = []
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        parts = line.split(None, 1)
        if len(parts) < 2 or not parts[1].strip():
            raise FormatError(path, lineno, f"expected '<id> <value>', got {line!r}")
        out.append((lineno, parts[0], " ".join(parts[1].split())))
    return out


def find_audio(root: Path, rel: str) -> Path | None:
    p = root / rel
    if p.is_file():
        return p
    stem = p.with_suffix("")
    for ext in AUDIO_EXTS:
        if stem.with_suffix(ext).is_file():
            return stem.with_suffix(ext)
    return None


def read_split(root: str | os.PathLike, split: str, with_durations: bool = True) -> DataDir:
    """Scan <root>/<split> into a DataDir (not written)."""
    import soundfile as sf

    root = Path(root).resolve()
    sdir = root / split
    if not sdir.is_dir():
        raise FormatError(sdir, None, f"speechocean762 split '{split}' not found under {root} "
                          f"(expected {', '.join(SPLITS)} and WAVE/)")
    d = DataDir(utt2gender={}, spk2gender={}, utt2dur={} if with_durations else None)
    genders = {}
    for lineno, spk, g in _read_table(sdir / "spk2gender"):
        g = g.lower()
        if g not in ("m", "f"):
            raise FormatError(sdir / "spk2gender", lineno, f"gender must be m or f, got {g!r}")
        genders[spk] = g
    for lineno, utt, spk in _read_table(sdir / "utt2spk"):
        if utt in d.utt2spk:
            raise FormatError(sdir / "utt2spk", lineno, f"duplicate utterance {utt}")
        if spk not in genders:
            raise FormatError(sdir / "utt2spk", lineno, f"speaker {spk} has no entry in spk2gender")
        d.utt2spk[utt] = spk
    for lineno, utt, words in _read_table(sdir / "text"):
        if utt not in d.utt2spk:
            raise FormatError(sdir / "text", lineno, f"utterance {utt} is not in utt2spk")
        d.text[utt] = words
    for lineno, utt, rel in _read_table(sdir / "wav.scp"):
        if utt not in d.utt2spk:
            raise FormatError(sdir / "wav.scp", lineno, f"utterance {utt} is not in utt2spk")
        audio = find_audio(root, rel)
        if audio is None:
            raise FormatError(sdir / "wav.scp", lineno, f"audio {rel} not found under {root} (nor with "
                              f"another of {', '.join(AUDIO_EXTS)})")
        d.wav_scp[utt] = str(audio)
        if with_durations:
            try:
                d.utt2dur[utt] = sf.info(str(audio)).duration
            except Exception as e:  # soundfile raises its own error types
                raise FormatError(audio, None, f"unreadable audio: {e}") from None
    for name, table in (("text", d.text), ("wav.scp", d.wav_scp)):
        missing = sorted(set(d.utt2spk) - set(table))
        if missing:
            raise FormatError(sdir / name, None, f"utterance {missing[0]} of utt2spk has no entry "
                              f"({len(missing)} missing)")
    if not d.utt2spk:
        raise FormatError(sdir / "utt2spk", None, "no utterances")
    for utt, spk in d.utt2spk.items():
        d.utt2gender[utt] = genders[spk]
        d.spk2gender[spk] = genders[spk]
    return d


def prepare_split(root: str | os.PathLike, split: str, out_dir: str | os.PathLike,
                  with_durations: bool = True) -> DataDir:
    d = read_split(root, split, with_durations=with_durations)
    write_datadir_atomic(d, out_dir)
    return d
