"""Kaldi data directories: read, validate, write sorted.

The contract (see README "Data directories"): wav.scp, text, utt2spk, spk2utt are required; segments,
utt2gender, spk2gender, utt2dur, reco2dur are optional. All tables are `<id> <value>` lines sorted in C byte
order with unique ids. Without `segments` the keys of wav.scp are the utterance ids; with it they are
recording ids and segments maps `<utt> <reco> <start> <end>`. text and utt2spk cover exactly the same
utterances; spk2utt is the inverse of utt2spk. Genders are `m` or `f`.
"""

from __future__ import annotations

import math
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .atomic import atomic_write
from .audio import MAX_OVERSHOOT, AudioError, audio_duration, read_audio
from .errors import FormatError
from .kaldi_map import kaldi_sort_key, read_kaldi_map, utt2spk_to_spk2utt, write_kaldi_map

REQUIRED = ("wav.scp", "text", "utt2spk", "spk2utt")
OPTIONAL = ("segments", "utt2gender", "spk2gender", "utt2dur", "reco2dur")


@dataclass
class Segment:
    reco: str
    start: float
    end: float  # -1 means "to the end of the recording", as in Kaldi


@dataclass
class DataDir:
    wav_scp: dict[str, str] = field(default_factory=dict)
    text: dict[str, str] = field(default_factory=dict)
    utt2spk: dict[str, str] = field(default_factory=dict)
    segments: dict[str, Segment] | None = None
    utt2gender: dict[str, str] | None = None
    spk2gender: dict[str, str] | None = None
    utt2dur: dict[str, float] | None = None
    path: Path | None = None

    # ---- derived views -------------------------------------------------------------------------------
    @property
    def spk2utt(self) -> dict[str, list[str]]:
        return utt2spk_to_spk2utt(self.utt2spk)

    @property
    def utts(self) -> list[str]:
        return sorted(self.utt2spk, key=kaldi_sort_key)

    @property
    def speakers(self) -> list[str]:
        return list(self.spk2utt)

    def gender(self, utt: str) -> str | None:
        if self.utt2gender and utt in self.utt2gender:
            return self.utt2gender[utt]
        if self.spk2gender:
            return self.spk2gender.get(self.utt2spk[utt])
        return None

    def audio_spec(self, utt: str) -> tuple[str, float | None, float | None]:
        """(wav.scp value, start, end) of an utterance, resolving segments."""
        if self.segments is not None:
            seg = self.segments[utt]
            return self.wav_scp[seg.reco], seg.start, seg.end
        return self.wav_scp[utt], None, None

    def load_audio(self, utt: str, sr: int | None = 16000, strict: bool = False) -> np.ndarray:
        spec, start, end = self.audio_spec(utt)
        try:
            wav, _ = read_audio(spec, sr=sr, start=start, end=end, strict=strict)
        except AudioError as e:
            where = self.path / "wav.scp" if self.path else "wav.scp"
            raise AudioError(where, None, f"utterance '{utt}': {e.message if e.path is None else e}") from None
        return wav

    def subset(self, utts) -> "DataDir":
        """A new DataDir restricted to `utts` (recordings and speakers follow)."""
        keep = set(utts)
        missing = keep - set(self.utt2spk)
        if missing:
            raise KeyError(f"utterances not in data dir: {sorted(missing)[:5]}")
        sub = DataDir(
            text={u: t for u, t in self.text.items() if u in keep},
            utt2spk={u: s for u, s in self.utt2spk.items() if u in keep},
            path=None,
        )
        if self.segments is not None:
            sub.segments = {u: s for u, s in self.segments.items() if u in keep}
            recos = {s.reco for s in sub.segments.values()}
            sub.wav_scp = {r: v for r, v in self.wav_scp.items() if r in recos}
        else:
            sub.wav_scp = {u: v for u, v in self.wav_scp.items() if u in keep}
        if self.utt2gender is not None:
            sub.utt2gender = {u: g for u, g in self.utt2gender.items() if u in keep}
        if self.spk2gender is not None:
            spks = set(sub.utt2spk.values())
            sub.spk2gender = {s: g for s, g in self.spk2gender.items() if s in spks}
        if self.utt2dur is not None:
            sub.utt2dur = {u: d for u, d in self.utt2dur.items() if u in keep}
        return sub

    # ---- I/O -----------------------------------------------------------------------------------------
    @classmethod
    def read(cls, path: str | os.PathLike, validate: bool = True, check_audio: bool = False) -> "DataDir":
        path = Path(path)
        if validate:
            validate_data_dir(path, check_audio=check_audio)
        d = cls(path=path)
        d.wav_scp = read_kaldi_map(path / "wav.scp")
        # a text-free data dir (recordings before transcription) reads with an empty text when not validated
        d.text = read_kaldi_map(path / "text", require_value=False) if validate or (path / "text").exists() else {}
        d.utt2spk = read_kaldi_map(path / "utt2spk")
        if (path / "segments").exists():
            d.segments = _parse_segments(path / "segments")
        if (path / "utt2gender").exists():
            d.utt2gender = read_kaldi_map(path / "utt2gender")
        if (path / "spk2gender").exists():
            d.spk2gender = read_kaldi_map(path / "spk2gender")
        if (path / "utt2dur").exists():
            d.utt2dur = {k: float(v) for k, v in read_kaldi_map(path / "utt2dur").items()}
        return d

    def write(self, path: str | os.PathLike) -> Path:
        """Write every table sorted and atomically; files of optional tables that are None are removed."""
        path = Path(path)
        path.mkdir(parents=True, exist_ok=True)
        write_kaldi_map(path / "wav.scp", self.wav_scp)
        write_kaldi_map(path / "text", self.text)
        write_kaldi_map(path / "utt2spk", self.utt2spk)
        write_kaldi_map(path / "spk2utt", {s: " ".join(u) for s, u in self.spk2utt.items()})
        optional = {
            "segments": None if self.segments is None else {
                u: f"{s.reco} {s.start:.3f} {s.end:.3f}" for u, s in self.segments.items()},
            "utt2gender": self.utt2gender,
            "spk2gender": self.spk2gender,
            "utt2dur": None if self.utt2dur is None else {u: f"{d:.3f}" for u, d in self.utt2dur.items()},
        }
        for name, table in optional.items():
            if table is None:
                (path / name).unlink(missing_ok=True)
            else:
                write_kaldi_map(path / name, table)
        self.path = path
        return path


def parse_segments(path: str | os.PathLike) -> dict[str, Segment]:
    """Read a Kaldi segments file (validated: three fields, numeric, start < end unless end is -1)."""
    return _parse_segments(Path(path))


def _parse_segments(path: Path) -> dict[str, Segment]:
    out: dict[str, Segment] = {}
    for lineno, (utt, rest) in enumerate(read_kaldi_map(path).items(), 1):
        f = rest.split()
        if len(f) != 3:
            raise FormatError(path, lineno, f"expected '<utt> <reco> <start> <end>', got '{utt} {rest}'")
        try:
            start, end = float(f[1]), float(f[2])
        except ValueError:
            raise FormatError(path, lineno, f"non-numeric times in '{utt} {rest}'") from None
        if start < 0 or (end >= 0 and end <= start):
            raise FormatError(path, lineno, f"bad segment times {start}..{end} for '{utt}'")
        out[utt] = Segment(f[0], start, end)
    return out


def _line_of(table: dict[str, str], key: str) -> int:
    for i, k in enumerate(table, 1):
        if k == key:
            return i
    return 0


def validate_data_dir(path: str | os.PathLike, check_audio: bool = False, no_text: bool = False,
                      no_spk_sort: bool = False) -> None:
    """Raise FormatError (file:line: message) on the first inconsistency; return None when valid.

    check_audio=True also opens every audio entry (slow on big corpora: Kaldi's --no-wav default is the
    inverse, we keep it off by default and the recipes switch it on after writing audio).
    no_spk_sort: as Kaldi's --no-spk-sort, do not require utt2spk to be sorted by speaker too.
    """
    path = Path(path)
    if not path.is_dir():
        raise FormatError(path, None, "not a directory")
    for name in REQUIRED:
        if name == "text" and no_text:
            continue
        if not (path / name).is_file():
            raise FormatError(path / name, None, "required file is missing")
    wav = read_kaldi_map(path / "wav.scp")
    utt2spk = read_kaldi_map(path / "utt2spk")
    for lineno, (utt, spk) in enumerate(utt2spk.items(), 1):
        if len(spk.split()) != 1:
            raise FormatError(path / "utt2spk", lineno, f"expected one speaker id, got '{spk}'")
    spk2utt_raw = read_kaldi_map(path / "spk2utt")
    spk2utt = {s: v.split() for s, v in spk2utt_raw.items()}
    expected = utt2spk_to_spk2utt(utt2spk)
    for lineno, (spk, utts) in enumerate(spk2utt.items(), 1):
        if spk not in expected:
            raise FormatError(path / "spk2utt", lineno, f"speaker '{spk}' does not occur in utt2spk")
        if utts != expected[spk]:
            extra = sorted(set(utts) - set(expected[spk]))
            miss = sorted(set(expected[spk]) - set(utts))
            raise FormatError(path / "spk2utt", lineno,
                              f"speaker '{spk}' disagrees with utt2spk (extra {extra[:3]}, missing {miss[:3]}, "
                              f"or unsorted); regenerate with utils/utt2spk_to_spk2utt.pl")
    by_speaker = [u for utts in expected.values() for u in utts]
    if by_speaker != list(utt2spk) and not no_spk_sort:
        i = next(i for i, (a, b) in enumerate(zip(by_speaker, utt2spk)) if a != b)
        utt = list(utt2spk)[i]
        raise FormatError(path / "utt2spk", i + 1,
                          f"utterance '{utt}' (speaker '{utt2spk[utt]}') breaks the speaker order: Kaldi needs "
                          f"utt2spk sorted by speaker as well as by utterance (make the speaker id a prefix of the "
                          f"utterance ids)")
    for spk in expected:
        if spk not in spk2utt:
            utt = expected[spk][0]
            raise FormatError(path / "utt2spk", _line_of(utt2spk, utt),
                              f"speaker '{spk}' of '{utt}' is missing from spk2utt")
    if not no_text:
        text = read_kaldi_map(path / "text", require_value=False)
        for utt in utt2spk:
            if utt not in text:
                raise FormatError(path / "utt2spk", _line_of(utt2spk, utt), f"utterance '{utt}' has no entry in text")
        for lineno, utt in enumerate(text, 1):
            if utt not in utt2spk:
                raise FormatError(path / "text", lineno, f"utterance '{utt}' is not in utt2spk")
    if (path / "segments").exists():
        segs = _parse_segments(path / "segments")
        for lineno, (utt, seg) in enumerate(segs.items(), 1):
            if utt not in utt2spk:
                raise FormatError(path / "segments", lineno, f"utterance '{utt}' is not in utt2spk")
            if seg.reco not in wav:
                raise FormatError(path / "segments", lineno, f"recording '{seg.reco}' is not in wav.scp")
        for utt in utt2spk:
            if utt not in segs:
                raise FormatError(path / "utt2spk", _line_of(utt2spk, utt), f"utterance '{utt}' has no segment")
    else:
        for lineno, utt in enumerate(wav, 1):
            if utt not in utt2spk:
                raise FormatError(path / "wav.scp", lineno, f"utterance '{utt}' is not in utt2spk")
        for utt in utt2spk:
            if utt not in wav:
                raise FormatError(path / "utt2spk", _line_of(utt2spk, utt), f"utterance '{utt}' has no entry in wav.scp")
    for name, keys in (("utt2gender", utt2spk), ("spk2gender", spk2utt)):
        f = path / name
        if f.exists():
            table = read_kaldi_map(f)
            for lineno, (k, g) in enumerate(table.items(), 1):
                if k not in keys:
                    raise FormatError(f, lineno, f"id '{k}' is not in the data dir")
                if g not in ("m", "f"):
                    raise FormatError(f, lineno, f"gender must be 'm' or 'f', got '{g}'")
    if (path / "utt2gender").exists() and (path / "spk2gender").exists():
        u2g = read_kaldi_map(path / "utt2gender")
        s2g = read_kaldi_map(path / "spk2gender")
        for lineno, (u, g) in enumerate(u2g.items(), 1):
            if s2g.get(utt2spk[u], g) != g:
                raise FormatError(path / "utt2gender", lineno, f"'{u}' is '{g}' but its speaker is '{s2g[utt2spk[u]]}'")
    if (path / "spk2gender").exists():
        s2g = read_kaldi_map(path / "spk2gender")
        missing = [s for s in expected if s not in s2g]
        if missing:
            raise FormatError(path / "spk2gender", None, f"no gender for {len(missing)} speaker(s), e.g. '{missing[0]}' "
                                                         f"(Kaldi needs every speaker of spk2utt)")
    if (path / "utt2dur").exists():
        u2d = read_kaldi_map(path / "utt2dur")
        for lineno, (u, d) in enumerate(u2d.items(), 1):
            try:
                ok = math.isfinite(float(d)) and float(d) > 0
            except ValueError:
                ok = False
            if not ok or u not in utt2spk:
                raise FormatError(path / "utt2dur", lineno, f"bad entry '{u} {d}'")
        missing = [u for u in utt2spk if u not in u2d]
        if missing:
            raise FormatError(path / "utt2dur", None, f"no duration for {len(missing)} utterance(s), e.g. "
                                                      f"'{missing[0]}' (Kaldi needs every utterance of utt2spk)")
    if check_audio:
        check_data_audio(path)


DUR_TOLERANCE = 0.05  # s: utt2dur against the audio (utt2dur is written with 3 decimals)


def check_data_audio(path: str | os.PathLike, utts=None, min_seconds: float = 0.0) -> dict[str, float]:
    """Open the audio of the utterances (default: all) of a data dir and check it against the tables: the file
    exists and decodes, is not truncated, holds samples; segments lie inside their recording; utt2dur agrees with
    the audio (within DUR_TOLERANCE); no utterance is shorter than min_seconds. Plain and flac files are judged
    from their headers (no decoding). Raises FormatError naming the file, line and utterance; returns the
    duration of every utterance checked."""
    path = Path(path)
    wav = read_kaldi_map(path / "wav.scp")
    line_of = {k: i for i, k in enumerate(wav, 1)}
    segs = _parse_segments(path / "segments") if (path / "segments").exists() else None
    seg_line = {u: i for i, u in enumerate(segs, 1)} if segs else {}
    u2d = {k: v for k, v in read_kaldi_map(path / "utt2dur").items()} if (path / "utt2dur").exists() else {}
    d_line = {u: i for i, u in enumerate(u2d, 1)}
    utt_list = list(read_kaldi_map(path / "utt2spk")) if utts is None else list(utts)
    reco_dur: dict[str, float] = {}
    out: dict[str, float] = {}

    def duration(key: str) -> float:
        if key not in reco_dur:
            try:
                reco_dur[key] = audio_duration(wav[key])
            except AudioError as e:
                raise FormatError(path / "wav.scp", line_of.get(key), f"'{key}': {e}") from None
        return reco_dur[key]

    for utt in utt_list:
        if segs is not None:
            seg = segs[utt]
            dur = duration(seg.reco)
            if seg.start >= dur or seg.end > dur + MAX_OVERSHOOT:
                raise FormatError(path / "segments", seg_line[utt],
                                  f"utterance '{utt}' ({seg.start}-{seg.end}s) lies outside recording "
                                  f"'{seg.reco}' ({dur:.3f}s)")
            udur = (dur if seg.end < 0 else min(seg.end, dur)) - seg.start
        else:
            udur = duration(utt)
            if udur <= 0:
                raise FormatError(path / "wav.scp", line_of[utt], f"'{utt}': no samples in {wav[utt]}")
        if utt in u2d and abs(float(u2d[utt]) - udur) > DUR_TOLERANCE:
            raise FormatError(path / "utt2dur", d_line[utt], f"utterance '{utt}' lasts {float(u2d[utt]):.3f}s here but "
                                                            f"its audio holds {udur:.3f}s (truncated or replaced "
                                                            f"audio?)")
        if udur < min_seconds:
            raise FormatError(path / "wav.scp", line_of.get(utt if segs is None else segs[utt].reco),
                              f"utterance '{utt}' lasts {udur:.3f}s, less than the {min_seconds}s needed")
        out[utt] = udur
    return out


def write_data_dir(path: str | os.PathLike, **tables) -> Path:
    """Convenience: DataDir(**tables).write(path)."""
    return DataDir(**tables).write(path)


def copy_file_atomic(src: Path, dst: Path) -> None:
    with open(src, "rb") as fi, atomic_write(dst, "wb", encoding=None) as fo:
        fo.write(fi.read())


def write_datadir_atomic(d: DataDir, out: str | os.PathLike, extra: dict[str, dict[str, str]] | None = None,
                         extra_text: dict[str, str] | None = None, extra_dirs: dict[str, Path] | None = None) -> Path:
    """Write a whole data dir into a temp sibling, then swap it in: no half-written dir is ever visible.
    extra_dirs: {name: dir} moved into the new data dir (dirs on the same file system, e.g. temp siblings)."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".tmp", dir=out.parent))
    try:
        d.write(tmp)
        for name, table in (extra or {}).items():
            write_kaldi_map(tmp / name, table)
        for name, body in (extra_text or {}).items():
            (tmp / name).write_text(body, encoding="utf-8")
        for name, src in (extra_dirs or {}).items():
            os.replace(src, tmp / name)
        old = None
        if out.exists():
            old = out.parent / f".{out.name}.old.{os.getpid()}"
            os.replace(out, old)
        os.replace(tmp, out)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    d.path = out
    return out
