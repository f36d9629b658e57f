"""A recipe-like stage (parse_options, split_data.sh --nj, $cmd JOB=1:nj, merge) through run.pl, and the data-dir
tools on the embedded mini corpus (side files tags.conll, written.conll, words.ctm, utt2dur, trials)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from datadir_helpers import REPO, STAGE, UTILS, UTT2DUR, build_vctk_dir, utils_env
from pydeid.io import DataDir, read_conll, read_ctm, read_kaldi_map, validate_data_dir


def test_stage_through_run_pl(tmp_path, vctk_dir):
    (tmp_path / "utils").symlink_to(REPO / "utils")
    (tmp_path / "local").mkdir()
    (tmp_path / "local/utt2dur.py").write_text(UTT2DUR)
    (tmp_path / "run_stage.sh").write_text(STAGE)
    (tmp_path / "run_stage.sh").chmod(0o755)
    build_vctk_dir(vctk_dir, tmp_path / "data/vctk", max_per_spk=2)
    p = subprocess.run(["./run_stage.sh", "--nj", "3", "--cmd", "run.pl --mem 1G", "data/vctk", "exp/dur"],
                       cwd=tmp_path, env=utils_env(), capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stdout + p.stderr
    n = len(read_kaldi_map(tmp_path / "data/vctk/utt2spk"))
    assert f"stage done: {n} utterances" in p.stdout
    assert len(read_kaldi_map(tmp_path / "exp/dur/utt2dur")) == n
    for j in (1, 2, 3):
        assert "(code 0)" in (tmp_path / f"exp/dur/log/validate.{j}.log").read_text()


def _side_files_match(d: Path):
    utts = set(read_kaldi_map(d / "utt2spk"))
    for conll in d.glob("*.conll"):
        assert {s.id for s in read_conll(conll, validate_bio=False)} == utts, conll
    assert {e.utt for e in read_ctm(d / "words.ctm")} == utts
    if (d / "utt2dur").exists():
        assert set(read_kaldi_map(d / "utt2dur")) == utts


def test_mini_corpus_split_subset_copy(mini_corpus, tmp_path):
    train = tmp_path / "mini_train"
    shutil.copytree(mini_corpus / "mini_train", train)
    env = utils_env()
    subprocess.run([str(UTILS / "split_data.sh"), str(train), "2"], env=env, check=True, capture_output=True)
    seen = []
    for j in (1, 2):
        part = train / "split2" / str(j)
        validate_data_dir(part)
        _side_files_match(part)
        seen += DataDir.read(part).utts
    assert sorted(seen) == DataDir.read(train).utts

    sub = tmp_path / "shortest"
    subprocess.run([str(UTILS / "subset_data_dir.sh"), "--shortest", str(train), "3", str(sub)], env=env, check=True,
                   capture_output=True)
    durs = {u: float(v) for u, v in read_kaldi_map(train / "utt2dur").items()}
    assert set(read_kaldi_map(sub / "utt2spk")) == set(sorted(durs, key=lambda u: (durs[u], u))[:3])
    _side_files_match(sub)

    trial = mini_corpus / "mini_test_trial"
    spk = DataDir.read(trial).speakers[0]
    (tmp_path / "spk").write_text(spk + "\n")
    sub = tmp_path / "trial_sub"
    subprocess.run([str(UTILS / "subset_data_dir.sh"), "--spk-list", str(tmp_path / "spk"), str(trial), str(sub)],
                   env=env, check=True, capture_output=True)
    _side_files_match(sub)
    kept = set(read_kaldi_map(sub / "utt2spk"))
    trials = (sub / "trials").read_text().splitlines()
    orig = [t for t in (trial / "trials").read_text().splitlines() if t.split()[1] in kept]
    assert trials and sorted(trials) == sorted(orig)

    cp = tmp_path / "trial_cp"
    subprocess.run([str(UTILS / "copy_data_dir.sh"), "--utt-prefix", "x-", "--spk-prefix", "x-", str(sub), str(cp)],
                   env=env, check=True, capture_output=True)
    _side_files_match(cp)
    assert all(t.split()[0].startswith("x-") and t.split()[1].startswith("x-")
               for t in (cp / "trials").read_text().splitlines())
