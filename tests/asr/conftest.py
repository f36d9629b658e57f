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


import os  # noqa: E402
import subprocess  # noqa: E402

import pytest  # noqa: E402

REPO = Path(__file__).resolve().parents[2]


def run_step(args: list[str], cwd: Path = REPO, timeout: int = 1800) -> subprocess.CompletedProcess:
    """Run a steps/*.sh script the way a recipe does (cwd with utils/ steps/ conf/, path.sh environment)."""
    env = dict(os.environ)
    env["PATH"] = f"{REPO}/utils:{REPO}/steps:{REPO}/.venv/bin:{env.get('PATH', '')}"
    env.setdefault("OMP_NUM_THREADS", "1")
    env.setdefault("NLTK_DATA", str(REPO / ".venv" / "nltk_data"))
    env.setdefault("HF_HUB_OFFLINE", "1")
    env["LC_ALL"] = "C"
    p = subprocess.run(["bash"] + args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    if p.returncode != 0:
        raise AssertionError(f"{' '.join(args)} failed ({p.returncode}):\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}")
    return p


# The `tiny` mini corpus (4 training speakers x 8 utterances) is too small to learn anything; this session
# corpus (same generator, many training voices with few turns each, like the demo's default) trains the small
# tier to a WER far below 100% in CI time (tests/asr/test_wer_regression.py).
ASR_MINI = dict(n_train_speakers=24, train_utts_per_speaker=8, n_dev_speakers=2, n_test_speakers=4,
                utts_per_speaker=8, n_enroll=2)


@pytest.fixture(scope="session")
def asr_mini(tmp_path_factory) -> Path:
    from pydeid.corpora.mini import build_corpus
    out = tmp_path_factory.mktemp("asr_mini")
    build_corpus(out, seed=0, size="tiny", **ASR_MINI)
    return out
