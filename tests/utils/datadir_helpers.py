"""Helpers for the utils/cluster tests: the path.sh environment, small data dirs (real VCTK audio read in place,
or tiny synthetic ones)."""

from __future__ import annotations

import csv
import os
from pathlib import Path

from pydeid.io import CtmEntry, DataDir, Sentence, write_conll, write_ctm

REPO = Path(__file__).resolve().parents[2]
UTILS = REPO / "utils"


def utils_env() -> dict[str, str]:
    """The environment path.sh gives: venv bin and utils/ on PATH, C locale."""
    import sys
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(UTILS), str(Path(sys.executable).parent), env.get("PATH", "")])
    env["LC_ALL"] = "C"
    env["PYTHONUNBUFFERED"] = "1"
    return env


def build_vctk_dir(vctk: Path, out: Path, max_per_spk: int = 4) -> Path:
    """A data dir over real VCTK recordings: 4 main speakers x max_per_spk utts + the one-utterance speakers,
    with utt2gender/spk2gender, a words.ctm (fake even timings) and tags.conll side file."""
    rows = list(csv.DictReader(open(vctk / "manifest.tsv", encoding="utf-8"), delimiter="\t"))
    per: dict[str, int] = {}
    d = DataDir()
    d.utt2gender, d.spk2gender = {}, {}
    ctm, conll = [], []
    for r in rows:
        spk = r["speaker"]
        if per.get(spk, 0) >= max_per_spk:
            continue
        per[spk] = per.get(spk, 0) + 1
        utt = r["utt_id"]
        words = [w.strip(".,!?;:\"").upper() for w in r["transcript"].split()]
        words = [w for w in words if w]
        d.wav_scp[utt] = str(vctk / r["path"])
        d.text[utt] = " ".join(words)
        d.utt2spk[utt] = spk
        d.utt2gender[utt] = r["gender"]
        d.spk2gender[spk] = r["gender"]
        step = float(r["duration_s"]) / (len(words) + 1)
        ctm += [CtmEntry(utt, "1", round(i * step, 3), round(step, 3), w) for i, w in enumerate(words)]
        conll.append(Sentence(words, ["O"] * len(words), id=utt))
    d.write(out)
    write_ctm(out / "words.ctm", ctm)
    write_conll(out / "tags.conll", conll)
    return out


def build_synthetic_dir(out: Path, n_spk: int = 5, n_utt: int = 3, segments: bool = False, prefix: str = "s") -> Path:
    """Text-only tables with fake audio paths (for tests that never open audio)."""
    d = DataDir()
    d.spk2gender = {}
    if segments:
        d.segments = {}
    for s in range(n_spk):
        spk = f"{prefix}{s:02d}"
        d.spk2gender[spk] = "mf"[s % 2]
        for u in range(n_utt + (s % 2)):
            utt = f"{spk}-{u:03d}"
            d.utt2spk[utt] = spk
            d.text[utt] = f"WORD{s} NUMBER {u}"
            if segments:
                from pydeid.io import Segment
                d.wav_scp[f"{spk}-rec"] = f"/nonexistent/{spk}.wav"
                d.segments[utt] = Segment(f"{spk}-rec", u * 2.0, u * 2.0 + 1.5)
            else:
                d.wav_scp[utt] = f"/nonexistent/{utt}.wav"
    return d.write(out)


# A recipe stage in the Kaldi convention, run through run.pl (tests/utils) and slurm.pl (tests/cluster).
STAGE = r"""#!/usr/bin/env bash
# A recipe stage in the Kaldi convention: split the data dir, run one job per part through $cmd.
set -euo pipefail
nj=2
cmd="slurm.pl --config conf/slurm.conf --mem 100M"
. utils/parse_options.sh
data=$1; dir=$2
utils/split_data.sh $data $nj
$cmd JOB=1:$nj $dir/log/validate.JOB.log pydeid validate-data-dir --check-audio $data/split$nj/JOB
$cmd JOB=1:$nj $dir/log/utt2dur.JOB.log python3 local/utt2dur.py $data/split$nj/JOB $dir/utt2dur.JOB
cat $dir/utt2dur.* | sort > $dir/utt2dur
echo "stage done: $(wc -l < $dir/utt2dur) utterances"
"""

UTT2DUR = """import sys
from pydeid.io import DataDir, audio_duration, write_kaldi_map
d = DataDir.read(sys.argv[1])
write_kaldi_map(sys.argv[2], {u: f"{audio_duration(d.wav_scp[u]):.3f}" for u in d.utts})
print(f"{len(d.utts)} utterances")
"""
