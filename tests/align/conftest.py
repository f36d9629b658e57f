"""VCTK prompts as a Kaldi data dir (read in place from ../shared/data)."""

from __future__ import annotations

import csv
from pathlib import Path

from pydeid.io import write_data_dir


def vctk_data_dir(vctk_dir: Path, out: Path, utts: list[str]) -> Path:
    rows = {r["utt_id"]: r for r in csv.DictReader(open(vctk_dir / "manifest.tsv"), delimiter="\t")}
    missing = [u for u in utts if u not in rows]
    assert not missing, f"not in manifest.tsv: {missing}"
    write_data_dir(out, wav_scp={u: str(vctk_dir / rows[u]["path"]) for u in utts},
                   text={u: rows[u]["transcript"] for u in utts}, utt2spk={u: rows[u]["speaker"] for u in utts})
    return out
