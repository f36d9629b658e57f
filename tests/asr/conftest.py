"""Kaldi data dirs built from ../shared/data/vctk_subset (real read speech, cased text with punctuation)."""

from __future__ import annotations

import csv
from pathlib import Path

from pydeid.io import write_data_dir


def vctk_data_dirs(vctk_dir: Path, out: Path) -> dict[str, Path]:
    """train: p225 p226 p227 (+ the 9 one-sentence speakers); valid/test: p228 split in two halves."""
    rows = list(csv.DictReader(open(vctk_dir / "manifest.tsv"), delimiter="\t"))
    sets = {"train": [], "valid": [], "test": []}
    p228 = [r for r in rows if r["speaker"] == "p228"]
    for r in rows:
        if r["speaker"] != "p228":
            sets["train"].append(r)
    sets["valid"] = p228[::2]
    sets["test"] = p228[1::2]
    dirs = {}
    for name, rs in sets.items():
        d = out / name
        write_data_dir(d, wav_scp={r["utt_id"]: str(vctk_dir / r["path"]) for r in rs},
                       text={r["utt_id"]: r["transcript"] for r in rs},
                       utt2spk={r["utt_id"]: r["speaker"] for r in rs},
                       spk2gender={r["speaker"]: r["gender"] for r in rs})
        dirs[name] = d
    return dirs
