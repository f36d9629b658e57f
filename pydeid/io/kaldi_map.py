"""Kaldi two-column tables (utt2spk, text, wav.scp, ...): `<key> <value>` lines, sorted, unique keys."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable, Mapping

from .atomic import atomic_write
from .errors import FormatError, read_lines


def kaldi_sort_key(key: str) -> bytes:
    """Kaldi sorts with LC_ALL=C: plain byte order."""
    return key.encode("utf-8")


def read_kaldi_map(path: str | os.PathLike, require_value: bool = True, check_sorted: bool = True,
                   ) -> dict[str, str]:
    """Read `<key> <rest of line>`; reject duplicate keys, empty values and (optionally) unsorted keys."""
    path = Path(path)
    out: dict[str, str] = {}
    prev: str | None = None
    for lineno, line in read_lines(path, strict_kaldi=True):
        if not line.strip():
            raise FormatError(path, lineno, "empty line")
        parts = line.split(None, 1)
        key = parts[0]
        value = parts[1].strip() if len(parts) > 1 else ""
        if require_value and not value:
            raise FormatError(path, lineno, f"no value for key '{key}'")
        if key in out:
            raise FormatError(path, lineno, f"duplicate id '{key}'")
        if check_sorted and prev is not None and kaldi_sort_key(key) < kaldi_sort_key(prev):
            raise FormatError(path, lineno,
                              f"not sorted: '{key}' after '{prev}' (sort with LC_ALL=C, or utils/fix_data_dir.sh)")
        prev = key
        out[key] = value
    return out


def write_kaldi_map(path: str | os.PathLike, table: Mapping[str, str] | Iterable[tuple[str, str]]) -> None:
    """Write sorted (C order), atomically."""
    items = table.items() if isinstance(table, Mapping) else table
    rows = sorted(((str(k), str(v)) for k, v in items), key=lambda kv: kaldi_sort_key(kv[0]))
    with atomic_write(path) as f:
        for k, v in rows:
            if not k or any(c.isspace() for c in k):
                raise ValueError(f"{path}: invalid id {k!r} (empty or contains whitespace)")
            f.write(f"{k} {v}\n" if v != "" else f"{k}\n")


def utt2spk_to_spk2utt(utt2spk: Mapping[str, str]) -> dict[str, list[str]]:
    spk2utt: dict[str, list[str]] = {}
    for utt in sorted(utt2spk, key=kaldi_sort_key):
        spk2utt.setdefault(utt2spk[utt], []).append(utt)
    return dict(sorted(spk2utt.items(), key=lambda kv: kaldi_sort_key(kv[0])))


def spk2utt_to_utt2spk(spk2utt: Mapping[str, list[str]]) -> dict[str, str]:
    out: dict[str, str] = {}
    for spk, utts in spk2utt.items():
        for u in utts:
            out[u] = spk
    return dict(sorted(out.items(), key=lambda kv: kaldi_sort_key(kv[0])))
