"""Whole-data-dir operations behind the Kaldi utils: split, subset, copy (with id prefixes), combine, fix.

A data dir is handled as a `pydeid.io.DataDir` (the core tables: wav.scp, text, utt2spk, segments, utt2gender,
spk2gender, utt2dur) plus the side files other Kaldi/pydeid tools put next to them:
  - further utterance tables (feats.scp, utt2num_frames, utt2lang, utt2uniq, vad.scp, utt2category),
    speaker tables (cmvn.scp, spk2warp) and recording tables (reco2dur, reco2file_and_channel);
  - `*.ctm` (utterance-keyed CTM, e.g. words.ctm), `*.conll` (sentence id = utterance id, e.g. tags.conll) and
    `trials` (`<enroll-speaker> <trial-utt> target|nontarget`).
Every operation carries these along (filtered, renamed, concatenated), writes every file sorted and atomically,
and builds the new dir in a temporary sibling first, so a failure leaves no partial output.
Other files are not carried over; they are named in a warning.
"""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Iterable

from .atomic import atomic_write
from .conll import Sentence, read_conll, write_conll
from .ctm import CtmEntry, read_ctm, write_ctm
from .datadir import DataDir, Segment, validate_data_dir
from .errors import FormatError
from .kaldi_map import kaldi_sort_key, read_kaldi_map, write_kaldi_map

log = logging.getLogger(__name__)

CORE = ("wav.scp", "text", "utt2spk", "spk2utt", "segments", "utt2gender", "spk2gender", "utt2dur")
EXTRA_UTT = ("feats.scp", "utt2num_frames", "utt2lang", "utt2uniq", "vad.scp", "utt2category")
EXTRA_SPK = ("cmvn.scp", "spk2warp")
EXTRA_RECO = ("reco2dur", "reco2file_and_channel", "reco2num_frames")
# Utterance tables whose absence for an utterance makes fix_data_dir drop it (as Kaldi's fix_data_dir.sh).
FIX_REQUIRED_UTT = ("text", "utt2spk", "feats.scp", "utt2num_frames", "utt2lang", "utt2uniq", "vad.scp", "utt2dur")
TRIALS = "trials"
IGNORED = ("frame_shift", ".backup")  # known harmless leftovers


@dataclass
class FullDataDir:
    """A DataDir plus its side files (see the module docstring)."""

    core: DataDir
    utt_tables: dict[str, dict[str, str]] = field(default_factory=dict)
    spk_tables: dict[str, dict[str, str]] = field(default_factory=dict)
    reco_tables: dict[str, dict[str, str]] = field(default_factory=dict)
    ctms: dict[str, list[CtmEntry]] = field(default_factory=dict)
    conlls: dict[str, list[Sentence]] = field(default_factory=dict)
    trials: list[tuple[str, str, str]] | None = None
    path: Path | None = None

    @property
    def utts(self) -> list[str]:
        return self.core.utts

    # ---- reading -------------------------------------------------------------------------------------
    @classmethod
    def read(cls, path: str | os.PathLike, validate: bool = True) -> "FullDataDir":
        path = Path(path)
        d = cls(core=DataDir.read(path, validate=validate), path=path)
        for group, names in ((d.utt_tables, EXTRA_UTT), (d.spk_tables, EXTRA_SPK), (d.reco_tables, EXTRA_RECO)):
            for name in names:
                if (path / name).is_file():
                    group[name] = read_kaldi_map(path / name)
        d._read_side_files(path)
        return d

    def _read_side_files(self, path: Path) -> None:
        for f in sorted(path.iterdir()):
            if f.is_file() and f.suffix == ".ctm":
                self.ctms[f.name] = read_ctm(f)
            elif f.is_file() and f.suffix == ".conll":
                self.conlls[f.name] = read_conll(f, validate_bio=False)
        if (path / TRIALS).is_file():
            self.trials = _read_trials(path / TRIALS)
        known = set(CORE + EXTRA_UTT + EXTRA_SPK + EXTRA_RECO + (TRIALS,) + IGNORED)
        other = [f.name for f in sorted(path.iterdir())
                 if f.name not in known and f.suffix not in (".ctm", ".conll")
                 and not (f.is_dir() and f.name.startswith("split"))]
        if other:
            log.warning("%s: not carried over by data-dir operations: %s", path, " ".join(other))

    # ---- transformations -----------------------------------------------------------------------------
    def subset(self, utts: Iterable[str]) -> "FullDataDir":
        keep = set(utts)
        core = self.core.subset(keep)
        spks = set(core.utt2spk.values())
        recos = set(core.wav_scp) if core.segments is not None else None
        out = FullDataDir(core=core)
        out.utt_tables = {n: {u: v for u, v in t.items() if u in keep} for n, t in self.utt_tables.items()}
        out.spk_tables = {n: {s: v for s, v in t.items() if s in spks} for n, t in self.spk_tables.items()}
        reco_keys = recos if recos is not None else keep
        out.reco_tables = {n: {r: v for r, v in t.items() if r in reco_keys} for n, t in self.reco_tables.items()}
        out.ctms = {n: [e for e in es if e.utt in keep] for n, es in self.ctms.items()}
        out.conlls = {n: [s for s in ss if s.id in keep] for n, ss in self.conlls.items()}
        if self.trials is not None:
            out.trials = [t for t in self.trials if t[1] in keep]
        return out

    def rename(self, utt_fn: Callable[[str], str], spk_fn: Callable[[str], str]) -> "FullDataDir":
        """New ids for utterances and speakers (recording ids stay unless wav.scp is keyed by utterance)."""
        c = self.core
        umap = {u: utt_fn(u) for u in c.utt2spk}
        smap = {s: spk_fn(s) for s in set(c.utt2spk.values()) | set(c.spk2gender or {})}
        _check_injective(umap, "utterance")
        _check_injective(smap, "speaker")
        core = DataDir(
            text={umap[u]: t for u, t in c.text.items()},
            utt2spk={umap[u]: smap[s] for u, s in c.utt2spk.items()},
        )
        if c.segments is not None:
            core.segments = {umap[u]: s for u, s in c.segments.items()}
            core.wav_scp = dict(c.wav_scp)
        else:
            core.wav_scp = {umap[u]: v for u, v in c.wav_scp.items()}
        if c.utt2gender is not None:
            core.utt2gender = {umap[u]: g for u, g in c.utt2gender.items()}
        if c.spk2gender is not None:
            core.spk2gender = {smap[s]: g for s, g in c.spk2gender.items()}
        if c.utt2dur is not None:
            core.utt2dur = {umap[u]: d for u, d in c.utt2dur.items()}
        out = FullDataDir(core=core)
        out.utt_tables = {n: {umap.get(u, u): v for u, v in t.items()} for n, t in self.utt_tables.items()}
        out.spk_tables = {n: {smap.get(s, s): v for s, v in t.items()} for n, t in self.spk_tables.items()}
        reco_fn = (lambda r: r) if c.segments is not None else (lambda r: umap.get(r, r))
        out.reco_tables = {n: {reco_fn(r): v for r, v in t.items()} for n, t in self.reco_tables.items()}
        out.ctms = {n: [replace(e, utt=umap.get(e.utt, e.utt)) for e in es] for n, es in self.ctms.items()}
        out.conlls = {n: [replace(s, id=umap.get(s.id, s.id)) for s in ss] for n, ss in self.conlls.items()}
        if self.trials is not None:
            # the enroll side names speakers (of this dir or of its enrollment twin): same renaming rule
            out.trials = [(smap.get(e, spk_fn(e)), umap.get(u, u), k) for e, u, k in self.trials]
        return out

    # ---- writing -------------------------------------------------------------------------------------
    def write(self, path: str | os.PathLike) -> Path:
        """Write into `path` (created): all files sorted and atomic. Stale optional tables are removed."""
        path = Path(path)
        self.core.write(path)
        written = set(CORE)
        for group in (self.utt_tables, self.spk_tables, self.reco_tables):
            for name, table in group.items():
                write_kaldi_map(path / name, table)
                written.add(name)
        for name, entries in self.ctms.items():
            write_ctm(path / name, entries)
            written.add(name)
        for name, sents in self.conlls.items():
            write_conll(path / name, sorted(sents, key=lambda s: kaldi_sort_key(s.id or "")))
            written.add(name)
        if self.trials is not None:
            _write_trials(path / TRIALS, self.trials)
            written.add(TRIALS)
        for name in EXTRA_UTT + EXTRA_SPK + EXTRA_RECO + (TRIALS,):
            if name not in written:
                (path / name).unlink(missing_ok=True)
        self.path = path
        return path


def _check_injective(m: dict[str, str], what: str) -> None:
    seen: dict[str, str] = {}
    for old, new in m.items():
        if not new or any(ch.isspace() for ch in new):
            raise ValueError(f"new {what} id {new!r} (from {old!r}) is empty or contains white space")
        if new in seen:
            raise ValueError(f"{what} ids {seen[new]!r} and {old!r} both become {new!r}")
        seen[new] = old


def _read_trials(path: Path) -> list[tuple[str, str, str]]:
    out = []
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            parts = line.split()
            if len(parts) != 3:
                raise FormatError(path, lineno, "expected '<enroll-speaker> <trial-utt> target|nontarget'")
            out.append((parts[0], parts[1], parts[2]))
    return out


def _write_trials(path: Path, trials: list[tuple[str, str, str]]) -> None:
    with atomic_write(path) as f:
        for e, u, k in trials:
            f.write(f"{e} {u} {k}\n")


# ---- placing a finished dir ----------------------------------------------------------------------------------
def _temp_sibling(dest: Path) -> Path:
    dest.parent.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=f".{dest.name}.", suffix=".tmp", dir=dest.parent))


def write_new_dir(d: FullDataDir, dest: str | os.PathLike, validate: bool = True) -> Path:
    """Write `d` to a temp sibling, validate it, then move its files into `dest` (each move atomic).

    Files of `dest` that the new dir does not have and that belong to a data dir (optional tables, side files)
    are removed, so no stale table survives; `split*` subdirs of `dest` are removed too (they describe old data).
    """
    dest = Path(dest)
    tmp = _temp_sibling(dest)
    try:
        d.write(tmp)
        if validate:
            validate_data_dir(tmp, no_text=False)
        dest.mkdir(parents=True, exist_ok=True)
        new = {f.name for f in tmp.iterdir()}
        for f in dest.iterdir():
            managed = (f.name in CORE + EXTRA_UTT + EXTRA_SPK + EXTRA_RECO + (TRIALS,)
                       or f.suffix in (".ctm", ".conll"))
            if f.is_file() and managed and f.name not in new:
                f.unlink()
            elif f.is_dir() and f.name.startswith("split") and f.name[5:].rstrip("utt").isdigit():
                shutil.rmtree(f)
        for name in sorted(new):
            os.replace(tmp / name, dest / name)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    d.path = dest
    return dest


# ---- split ---------------------------------------------------------------------------------------------------
def contiguous_split(sizes: list[int], n: int) -> list[tuple[int, int]]:
    """Cut a sequence of item sizes into `n` non-empty contiguous groups of roughly equal total size.

    Returns (begin, end) index pairs. Cut k goes at the item boundary closest to k/n of the total, within the
    range that still leaves every group at least one item. Contiguity keeps each part sorted.
    """
    m = len(sizes)
    if n < 1 or m < n:
        raise ValueError(f"cannot split {m} items into {n} non-empty parts")
    cum = [0]
    for s in sizes:
        cum.append(cum[-1] + s)
    total = cum[-1]
    cuts = [0]
    for k in range(1, n):
        target = total * k / n
        lo, hi = cuts[-1] + 1, m - (n - k)
        best = min(range(lo, hi + 1), key=lambda i: (abs(cum[i] - target), i))
        cuts.append(best)
    cuts.append(m)
    return [(cuts[i], cuts[i + 1]) for i in range(n)]


def split_utts(d: DataDir, n: int, per_utt: bool = False) -> list[list[str]]:
    """Utterance lists of the n parts: whole speakers per part (Kaldi's split_data.sh), or utterances."""
    if per_utt:
        utts = d.utts
        return [utts[b:e] for b, e in contiguous_split([1] * len(utts), n)]
    spk2utt = d.spk2utt
    spks = list(spk2utt)
    if len(spks) < n:
        raise ValueError(f"number of speakers {len(spks)} is less than the number of parts {n} "
                         f"(use --per-utt, or fewer jobs)")
    parts = contiguous_split([len(spk2utt[s]) for s in spks], n)
    return [[u for s in spks[b:e] for u in spk2utt[s]] for b, e in parts]


def split_dir_name(data: Path, n: int, per_utt: bool) -> Path:
    return data / (f"split{n}utt" if per_utt else f"split{n}")


def split_is_fresh(data: Path, n: int, per_utt: bool = False) -> bool:
    """True when data/split<n>/{1..n} exist and are newer than every file of the data dir (Kaldi's -nt test)."""
    sdir = split_dir_name(data, n, per_utt)
    parts = [sdir / str(i) for i in range(1, n + 1)]
    if not all((p / "utt2spk").is_file() for p in parts):
        return False
    if (sdir / str(n + 1)).exists():
        return False
    oldest_split = min((p / "utt2spk").stat().st_mtime_ns for p in parts)
    newest_data = max(f.stat().st_mtime_ns for f in data.iterdir() if f.is_file())
    return oldest_split >= newest_data


def split_data(data: str | os.PathLike, n: int, per_utt: bool = False, force: bool = False) -> list[Path]:
    """Write data/split<n>/<1..n> (reused when up to date); returns the part dirs."""
    data = Path(data)
    sdir = split_dir_name(data, n, per_utt)
    if not force and split_is_fresh(data, n, per_utt):
        log.info("%s is up to date, reusing it", sdir)
        return [sdir / str(i) for i in range(1, n + 1)]
    full = FullDataDir.read(data)
    parts = split_utts(full.core, n, per_utt)
    tmp = _temp_sibling(sdir)
    try:
        for i, utts in enumerate(parts, 1):
            full.subset(utts).write(tmp / str(i))
        old = None
        if sdir.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{sdir.name}.old.", dir=data))
            os.replace(sdir, old / "x")
        os.replace(tmp, sdir)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return [sdir / str(i) for i in range(1, n + 1)]


# ---- subset selections -----------------------------------------------------------------------------------------
def evenly_spaced(items: list[str], n: int) -> list[str]:
    """n items spread evenly over the list (Kaldi's subset_scp.pl without --first/--last)."""
    if n >= len(items):
        return list(items)
    step = len(items) / n
    return [items[int(i * step)] for i in range(n)]


def per_speaker(d: DataDir, n: int) -> list[str]:
    """At most n utterances per speaker, evenly spaced within the speaker (Kaldi's --per-spk)."""
    out = []
    for utts in d.spk2utt.values():
        skip = 1
        while n * (skip + 1) <= len(utts):
            skip += 1
        out += utts[: n * skip: skip][:n]
    return out


def read_id_list(path: str | os.PathLike) -> list[str]:
    """First field of every non-empty line (Kaldi list files; extra fields are ignored)."""
    with open(path, encoding="utf-8") as f:
        return [line.split()[0] for line in f if line.strip()]


def subset_data_dir(src: str | os.PathLike, dest: str | os.PathLike, *, utt_list=None, spk_list=None,
                    first: int | None = None, last: int | None = None, per_spk: int | None = None,
                    shortest: int | None = None, num_utt: int | None = None) -> FullDataDir:
    """Kaldi's subset_data_dir.sh; exactly one selection. Listed ids missing from src are ignored (as Kaldi)."""
    full = FullDataDir.read(src)
    c = full.core
    utts = c.utts
    if utt_list is not None:
        keep = set(utt_list) & set(utts)
        sel = [u for u in utts if u in keep]
    elif spk_list is not None:
        spks = set(spk_list)
        sel = [u for u in utts if c.utt2spk[u] in spks]
    elif first is not None:
        sel = utts[:first]
    elif last is not None:
        sel = utts[-last:] if last > 0 else []
    elif per_spk is not None:
        sel = per_speaker(c, per_spk)
    elif shortest is not None:
        if c.utt2dur is None:
            raise FormatError(Path(src) / "utt2dur", None, "--shortest needs utt2dur")
        sel = sorted(utts, key=lambda u: (c.utt2dur[u], kaldi_sort_key(u)))[:shortest]
    elif num_utt is not None:
        sel = evenly_spaced(utts, num_utt)
    else:
        raise ValueError("no selection given")
    if not sel:
        raise ValueError(f"{src}: the selection is empty")
    sub = full.subset(sel)
    write_new_dir(sub, dest)
    return sub


# ---- copy / combine / fix ---------------------------------------------------------------------------------------
def copy_data_dir(src, dest, utt_prefix: str = "", utt_suffix: str = "", spk_prefix: str = "",
                  spk_suffix: str = "", validate: bool = True) -> FullDataDir:
    """Kaldi's copy_data_dir.sh: copy with optional prefixes/suffixes on utterance and speaker ids."""
    if Path(src).resolve() == Path(dest).resolve():
        raise ValueError(f"source and destination are the same dir: {src}")
    full = FullDataDir.read(src)
    out = full.rename(lambda u: f"{utt_prefix}{u}{utt_suffix}", lambda s: f"{spk_prefix}{s}{spk_suffix}")
    write_new_dir(out, dest, validate=validate)
    return out


def combine_data(dest, srcs: list, extra_files: Iterable[str] = ()) -> FullDataDir:
    """Kaldi's combine_data.sh: the union of several data dirs (ids must not collide).

    A table present in only some sources is dropped with a warning (Kaldi does the same), except segments:
    sources without segments get whole-recording segments (`<utt> <utt> 0 -1`) so the union is consistent.
    """
    if not srcs:
        raise ValueError("no source data dirs")
    dirs = [FullDataDir.read(s) for s in srcs]
    out_core = DataDir()
    any_segments = any(d.core.segments is not None for d in dirs)
    if any_segments:
        out_core.segments = {}
    owner: dict[str, str] = {}
    for d, src in zip(dirs, srcs):
        c = d.core
        for u in c.utt2spk:
            if u in owner:
                raise FormatError(Path(src) / "utt2spk", None,
                                  f"utterance '{u}' is also in {owner[u]}; give one source a prefix with "
                                  f"utils/copy_data_dir.sh --utt-prefix")
            owner[u] = str(src)
        out_core.text.update(c.text)
        out_core.utt2spk.update(c.utt2spk)
        if any_segments and c.segments is None:
            out_core.segments.update({u: Segment(u, 0.0, -1.0) for u in c.utt2spk})
        elif c.segments is not None:
            out_core.segments.update(c.segments)
        for r, v in c.wav_scp.items():
            if out_core.wav_scp.get(r, v) != v:
                raise FormatError(Path(src) / "wav.scp", None, f"recording '{r}' differs from another source's")
            out_core.wav_scp[r] = v
    for attr in ("utt2gender", "spk2gender", "utt2dur"):
        tables = [getattr(d.core, attr) for d in dirs]
        if all(t is not None for t in tables):
            merged: dict = {}
            for t, src in zip(tables, srcs):
                for k, v in t.items():
                    if merged.get(k, v) != v:
                        raise FormatError(Path(src) / attr, None, f"'{k}' is '{v}' here but '{merged[k]}' elsewhere")
                    merged[k] = v
            setattr(out_core, attr, merged)
        elif any(t is not None for t in tables):
            log.warning("combine_data: %s is not in every source; not combined", attr)
    out = FullDataDir(core=out_core)
    for group_name in ("utt_tables", "spk_tables", "reco_tables"):
        names = set().union(*(getattr(d, group_name) for d in dirs))
        for name in sorted(names):
            if all(name in getattr(d, group_name) for d in dirs):
                merged = {}
                for d in dirs:
                    merged.update(getattr(d, group_name)[name])
                getattr(out, group_name)[name] = merged
            else:
                log.warning("combine_data: %s is not in every source; not combined", name)
    for attr in ("ctms", "conlls"):
        names = set().union(*(getattr(d, attr) for d in dirs))
        for name in sorted(names):
            if all(name in getattr(d, attr) for d in dirs):
                getattr(out, attr)[name] = [x for d in dirs for x in getattr(d, attr)[name]]
            else:
                log.warning("combine_data: %s is not in every source; not combined", name)
    if all(d.trials is not None for d in dirs):
        out.trials = [t for d in dirs for t in d.trials]
    for name in extra_files:
        if name not in set(CORE + EXTRA_UTT + EXTRA_SPK + EXTRA_RECO) | set(out.ctms) | set(out.conlls):
            log.warning("combine_data: --extra-files %s: unknown table kind, not combined", name)
    write_new_dir(out, dest)
    return out


def _read_loose(path: Path, require_value: bool = True) -> dict[str, str]:
    """A table that may be unsorted: exact duplicate lines are dropped, conflicting duplicates are an error. CRLF
    line ends and a missing final newline are normalised (the table is rewritten), with a log line saying so."""
    from .errors import read_lines
    out: dict[str, str] = {}
    seen_at: dict[str, int] = {}
    crlf = 0
    for lineno, raw in read_lines(path):
        crlf += raw.endswith("\r")
        if not raw.strip():
            continue
        parts = raw.strip().split(None, 1)
        key, value = parts[0], (parts[1].strip() if len(parts) > 1 else "")
        if require_value and not value:
            raise FormatError(path, lineno, f"no value for key '{key}'")
        if key in out and out[key] != value:
            raise FormatError(path, lineno, f"duplicate id '{key}' with a different value than line "
                                            f"{seen_at[key]}")
        out.setdefault(key, value)
        seen_at.setdefault(key, lineno)
    if crlf:
        log.warning("%s: %d CRLF line end(s) normalised to LF", path, crlf)
    return out


def fix_data_dir(data: str | os.PathLike, backup: bool = True) -> tuple[int, int]:
    """Kaldi's fix_data_dir.sh, in place: sort every table, keep the utterances present in all utterance tables
    (and whose recording/segment exists), drop speakers/recordings left without utterances, regenerate spk2utt.
    The originals are copied to <data>/.backup first. Returns (kept, before) utterance counts.
    """
    data = Path(data)
    for name in ("utt2spk", "wav.scp"):
        if not (data / name).is_file():
            raise FormatError(data / name, None, "required file is missing")
    tables: dict[str, dict[str, str]] = {}
    for name in CORE + EXTRA_UTT + EXTRA_SPK + EXTRA_RECO:
        if name != "spk2utt" and (data / name).is_file():
            tables[name] = _read_loose(data / name, require_value=(name != "text"))
    before = len(tables["utt2spk"])
    utts = set(tables["utt2spk"])
    for name in FIX_REQUIRED_UTT:
        if name in tables:
            utts &= set(tables[name])
    if "segments" in tables:
        segs = {u: v.split() for u, v in tables["segments"].items()}
        utts &= {u for u, f in segs.items() if len(f) == 3 and f[0] in tables["wav.scp"]}
    else:
        utts &= set(tables["wav.scp"])
    # ctm / conll side files only filter, as utt2gender does
    if backup:
        bdir = data / ".backup"
        bdir.mkdir(exist_ok=True)
        for f in data.iterdir():
            if f.is_file():
                shutil.copy2(f, bdir / f.name)
    core = DataDir(utt2spk={u: s for u, s in tables["utt2spk"].items() if u in utts},
                   text={u: t for u, t in tables.get("text", {}).items() if u in utts})
    spks = set(core.utt2spk.values())
    if "segments" in tables:
        core.segments = {}
        for u in utts:
            reco, start, end = tables["segments"][u].split()
            core.segments[u] = Segment(reco, float(start), float(end))
        recos = {s.reco for s in core.segments.values()}
        core.wav_scp = {r: v for r, v in tables["wav.scp"].items() if r in recos}
    else:
        core.wav_scp = {u: v for u, v in tables["wav.scp"].items() if u in utts}
    if "utt2gender" in tables:
        core.utt2gender = {u: g for u, g in tables["utt2gender"].items() if u in utts}
    if "spk2gender" in tables:
        core.spk2gender = {s: g for s, g in tables["spk2gender"].items() if s in spks}
    if "utt2dur" in tables:
        core.utt2dur = {u: float(v) for u, v in tables["utt2dur"].items() if u in utts}
    full = FullDataDir(core=core, path=data)
    for name in EXTRA_UTT:
        if name in tables:
            full.utt_tables[name] = {u: v for u, v in tables[name].items() if u in utts}
    for name in EXTRA_SPK:
        if name in tables:
            full.spk_tables[name] = {s: v for s, v in tables[name].items() if s in spks}
    reco_keys = set(core.wav_scp)
    for name in EXTRA_RECO:
        if name in tables:
            full.reco_tables[name] = {r: v for r, v in tables[name].items() if r in reco_keys}
    for f in sorted(data.iterdir()):
        if f.is_file() and f.suffix == ".ctm":
            full.ctms[f.name] = [e for e in read_ctm(f) if e.utt in utts]
        elif f.is_file() and f.suffix == ".conll":
            full.conlls[f.name] = [s for s in read_conll(f, validate_bio=False) if s.id in utts]
    if (data / TRIALS).is_file():
        full.trials = [t for t in _read_trials(data / TRIALS) if t[1] in utts]
    if not utts:
        raise FormatError(data / "utt2spk", None, "no utterance is present in every table; nothing would be kept")
    write_new_dir(full, data)
    return len(utts), before
