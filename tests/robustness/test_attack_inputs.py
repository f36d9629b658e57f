"""Trials, x-vector extraction and scoring, x-vector configs."""

from __future__ import annotations

import numpy as np
import pytest
import soundfile as sf

from robust_helpers import SR, refused
from pydeid.io import DataDir


def test_make_trials_num_enroll_zero(cli, base):
    refused(cli("make-trials", "--num-enroll", "0", base / "data", base / "enr", base / "tri"), 2, "--num-enroll",
            outputs=[base / "enr", base / "tri"])


def test_make_trials_enroll_fraction_above_one(cli, base):
    refused(cli("make-trials", "--enroll-fraction", "1.5", base / "data", base / "enr", base / "tri"), 2,
            "--enroll-fraction", outputs=[base / "enr", base / "tri"])


def test_make_trials_without_any_speaker_of_two_utterances(cli, base):
    """Before: two empty-ish data dirs and an empty trials file, exit 0."""
    DataDir.read(base / "data").subset(["spkA-d1-01", "spkB-d1-01"]).write(base / "one")
    refused(cli("make-trials", base / "one", base / "enr", base / "tri"), 1, "one/utt2spk",
            outputs=[base / "enr", base / "tri"])


def _write_vectors(dirpath, vecs: dict, utt2spk: dict):
    import kaldiio
    dirpath.mkdir(parents=True, exist_ok=True)
    with kaldiio.WriteHelper(f"ark,scp:{dirpath}/xvector.ark,{dirpath}/xvector.scp") as w:
        for k in sorted(vecs):
            w(k, np.asarray(vecs[k], np.float32))
    (dirpath / "utt2spk").write_text("".join(f"{u} {s}\n" for u, s in sorted(utt2spk.items())))


@pytest.fixture
def scoring(base):
    rng = np.random.default_rng(0)
    d = DataDir.read(base / "data")
    d.subset(["spkA-d1-01", "spkB-d1-01"]).write(base / "enroll")
    d.subset(["spkA-d1-02"]).write(base / "trial")
    (base / "trial" / "trials").write_text("spkA spkA-d1-02 target\nspkB spkA-d1-02 nontarget\n")
    train = {f"t{s}-{i}": s for s in "abcd" for i in range(3)}
    _write_vectors(base / "xtrain", {u: rng.standard_normal(8) for u in train}, {f"t{s}-{i}": f"t{s}"
                                                                                   for s in "abcd" for i in range(3)})
    _write_vectors(base / "xenroll", {u: rng.standard_normal(8) for u in ("spkA-d1-01", "spkB-d1-01")},
                   {"spkA-d1-01": "spkA", "spkB-d1-01": "spkB"})
    _write_vectors(base / "xtrial", {"spkA-d1-02": rng.standard_normal(8)}, {"spkA-d1-02": "spkA"})
    return base


def score(cli, b, *opts):
    return cli("score-trials", "--backends", "cosine", "--no-plots", *opts, b / "xtrain", b / "enroll", b / "xenroll",
               b / "trial", b / "xtrial", b / "scores")


def test_scoring_valid(cli, scoring):
    rc, out, err = score(cli, scoring)
    assert rc == 0, err


def test_scoring_nan_embedding(cli, scoring):
    v = np.full(8, np.nan)
    _write_vectors(scoring / "xtrial", {"spkA-d1-02": v}, {"spkA-d1-02": "spkA"})
    refused(score(cli, scoring), 1, "xtrial/xvector.scp", "spkA-d1-02", outputs=[scoring / "scores"])


def test_scoring_nan_training_embedding(cli, scoring):
    rng = np.random.default_rng(1)
    vecs = {f"t{s}-{i}": rng.standard_normal(8) for s in "abcd" for i in range(3)}
    vecs["tb-1"][3] = np.inf
    _write_vectors(scoring / "xtrain", vecs, {u: u.split("-")[0] for u in vecs})
    refused(score(cli, scoring), 1, "xtrain/xvector.scp", "tb-1", outputs=[scoring / "scores"])


def test_scoring_unknown_backend(cli, scoring):
    refused(score(cli, scoring, "--backends", "cosine,pldaa"), 2, "--backends", "pldaa",
            outputs=[scoring / "scores"])


def test_trials_with_bad_label(cli, scoring):
    (scoring / "trial" / "trials").write_text("spkA spkA-d1-02 target\nspkB spkA-d1-02 non-target\n")
    refused(score(cli, scoring), 1, "trials:2", outputs=[scoring / "scores"])


def test_trials_with_unknown_speaker(cli, scoring):
    (scoring / "trial" / "trials").write_text("spkA spkA-d1-02 target\nspkC spkA-d1-02 nontarget\n")
    refused(score(cli, scoring), 1, "trials:2", "spkC", outputs=[scoring / "scores"])


def test_embedding_dimensions_differ(cli, scoring):
    _write_vectors(scoring / "xtrial", {"spkA-d1-02": np.ones(5)}, {"spkA-d1-02": "spkA"})
    refused(score(cli, scoring), 1, "xtrial/xvector.scp", outputs=[scoring / "scores"])


def test_extract_zero_length_audio(cli, base):
    sf.write(base / "data" / "wav" / "spkA-d1-02.wav", np.zeros(0, np.float32), SR, subtype="PCM_16")
    (base / "data" / "utt2dur").unlink()
    refused(cli("extract-xvectors", base / "model", base / "data", base / "xv"), 1, "spkA-d1-02",
            outputs=[base / "xv"])


def test_extract_ten_millisecond_audio(cli, base):
    sf.write(base / "data" / "wav" / "spkA-d1-02.wav", np.full(160, 0.1, np.float32), SR, subtype="PCM_16")
    (base / "data" / "utt2dur").unlink()
    refused(cli("extract-xvectors", base / "model", base / "data", base / "xv"), 1, "spkA-d1-02",
            outputs=[base / "xv"])


def test_xvector_config_unknown_key(cli, base):
    conf = base / "x.yaml"
    conf.write_text("epochs: 1\nembeding_dim: 64\n")
    refused(cli("train-xvector", "--config", conf, base / "data", base / "model"), 1, "x.yaml", "embeding_dim",
            outputs=[base / "model"])


def test_xvector_config_syntax_error(cli, base):
    conf = base / "x.yaml"
    conf.write_text("epochs: [1\n")
    refused(cli("train-xvector", "--config", conf, base / "data", base / "model"), 1, "x.yaml:",
            outputs=[base / "model"])
