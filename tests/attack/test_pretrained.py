"""The pretrained attacker (Resemblyzer's GE2E encoder, pydeid/attack/pretrained.py), its LDA + whitening
back-end (pydeid/attack/scoring.py), the gain of voice distinctiveness G_VD (pydeid/attack/metrics.py) and the
ge2e kind in steps/attack.sh."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np
import pytest


@pytest.fixture(scope="module")
def encoder():
    from pydeid.attack.pretrained import PretrainedEncoder
    return PretrainedEncoder()


def _embed(encoder, vctk_dir: Path, spk: str, ids) -> np.ndarray:
    import soundfile as sf
    out = []
    for i in ids:
        wav, sr = sf.read(vctk_dir / "wav" / spk / f"{spk}_{i:03d}.flac", dtype="float32")
        out.append(encoder.embed(wav, sr))
    return np.stack(out)


def test_encoder_loads_offline_from_the_wheel_and_separates_two_real_speakers(encoder, vctk_dir):
    from pydeid.attack.pretrained import weights_path, weights_sha256
    # the weights are the file shipped inside the installed package (path.sh keeps the hubs offline)
    assert weights_path().name == "pretrained.pt" and weights_path().parent.name == "resemblyzer"
    assert weights_sha256().startswith("39373b86")
    # two male VCTK speakers, three sentences each (different prompts): every same-speaker pair is closer than
    # every pair across the speakers
    a = _embed(encoder, vctk_dir, "p226", (2, 4, 5))
    b = _embed(encoder, vctk_dir, "p227", (2, 4, 5))
    assert a.shape == (3, 256) and np.allclose(np.linalg.norm(a, axis=1), 1.0)
    iu = np.triu_indices(3, 1)
    same = np.concatenate([(a @ a.T)[iu], (b @ b.T)[iu]])
    diff = (a @ b.T).ravel()
    assert same.min() > diff.max(), (same, diff)
    # deterministic: the same audio gives the same embedding
    assert np.array_equal(_embed(encoder, vctk_dir, "p226", (2,))[0], a[0])


def test_encoder_embeds_silence_and_very_short_audio(encoder):
    assert np.isfinite(encoder.embed(np.zeros(800, np.float32), 16000)).all()
    assert np.isfinite(encoder.embed(np.random.default_rng(0).normal(0, .1, 80).astype(np.float32), 16000)).all()


def _clusters(n_spk=30, n_utt=10, seed=0):
    """Speaker identity in 4 of 32 dimensions, a large within-speaker nuisance in the 28 others."""
    rng = np.random.default_rng(seed)
    means = np.zeros((n_spk, 32))
    means[:, :4] = rng.normal(0, 2.0, (n_spk, 4))
    x, spk = [], []
    for s in range(n_spk):
        noise = np.concatenate([rng.normal(0, 0.25, (n_utt, 4)), rng.normal(0, 2.0, (n_utt, 28))], axis=1)
        x.append(means[s] + noise + 5.0)   # an offset: the back-ends subtract the training mean
        spk += [f"s{s}"] * n_utt
    return np.concatenate(x), spk


def _eer(backend, name, x, spk):
    from pydeid.attack.metrics import eer
    speakers = sorted(set(spk))
    enroll = [i for i in range(len(spk)) if i % 10 < 3]
    test = [i for i in range(len(spk)) if i % 10 >= 3]
    mat = backend.score(name, x[enroll], [spk[i] for i in enroll], speakers, x[test])
    lab = np.array([[s == spk[i] for i in test] for s in speakers])
    return eer(mat[lab], mat[~lab])[0]


def test_lda_whitening_backend_on_synthetic_clusters():
    from pydeid.attack.scoring import Backend, _length_norm
    train_x, train_spk = _clusters(seed=0)
    test_x, test_spk = _clusters(seed=1)        # other speakers, same structure
    b = Backend(train_x, train_spk, lda_dim=100)
    cos, lda = _eer(b, "cosine", test_x, test_spk), _eer(b, "lda", test_x, test_spk)
    # the nuisance dimensions swamp cosine; LDA finds the 4 speaker dimensions (among its 29)
    assert cos > 0.25 and lda < 0.15, (cos, lda)
    # at most #speakers - 1 dimensions, and the training speakers' within-class covariance is whitened
    assert b._lda_white.shape == (32, 29)
    y = _length_norm(train_x - b.mean) @ b._lda_white
    lab = np.array(train_spk)
    c = np.concatenate([y[lab == s] - y[lab == s].mean(0) for s in sorted(set(train_spk))])
    w = c.T @ c / (len(y) - 30)
    assert np.allclose(w, np.eye(29), atol=1e-6)


def test_voice_distinctiveness_on_constructed_matrices():
    from pydeid.attack import metrics as M
    m_oo = np.full((3, 3), 0.1) + 0.8 * np.eye(3)    # D_diag 0.8
    m_pp = np.full((3, 3), 0.42) + 0.08 * np.eye(3)  # D_diag 0.08: ten times less distinctive
    assert M.diagonal_dominance(m_oo) == pytest.approx(0.8)
    assert M.voice_distinctiveness_gain(m_oo, m_pp) == pytest.approx(-10.0)
    assert M.voice_distinctiveness_gain(m_oo, m_oo) == pytest.approx(0.0)
    assert M.voice_distinctiveness_gain(m_oo, np.full((3, 3), 0.5)) == float("-inf")
    # the matrix: sigmoid of the mean score per speaker pair, an utterance never scored against itself
    scores = np.array([[9.0, 2.0, 0.0], [2.0, 9.0, -1.0], [0.0, -1.0, 9.0]])
    m = M.voice_similarity_matrix(scores, ["a", "a", "b"])
    sig = lambda v: 1 / (1 + np.exp(-v))  # noqa: E731
    assert m[0, 0] == pytest.approx(sig(2.0)) and m[0, 1] == pytest.approx(sig(-0.5))
    assert np.isnan(m[1, 1])   # one utterance only: no pair within speaker b
    with pytest.raises(ValueError):
        M.voice_distinctiveness_gain(np.full((2, 2), 0.5), m_pp)


@pytest.mark.slow
def test_attack_step_with_the_ge2e_kind(mini_corpus, repo_root, tmp_path):
    """steps/attack.sh --xvector-config conf/xvector/ge2e.yaml on the tiny corpus: the pretrained encoder as the
    attacker (nothing trained), three back-ends, G_VD from --orig-trial."""
    from test_attacker import _env, shifted_copy
    c = mini_corpus
    public = shifted_copy(c / "mini_test_trial", tmp_path / "pub_trial", 1.3)
    r = subprocess.run(["bash", "steps/attack.sh", "--scenario", "ignorant", "--method", "f0scale",
                        "--xvector-config", "conf/xvector/ge2e.yaml", "--backends", "cosine,lda,plda",
                        "--orig-trial", str(c / "mini_test_trial"), str(c / "mini_train"), str(c / "mini_test_enroll"),
                        str(public), str(tmp_path / "exp")], cwd=repo_root, capture_output=True, text=True,
                       env=_env())
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    m = json.loads((tmp_path / "exp" / "scores" / "metrics.json").read_text())
    assert set(m["backends"]) == {"cosine", "lda", "plda"}
    summary = json.loads((tmp_path / "exp" / "xvector_nnet" / "train_summary.json").read_text())
    assert summary["model"] == "ge2e" and summary["epochs"] == 0
    pooled = m["backends"]["cosine"]["pooled"]
    assert pooled["n_target"] == 24 and pooled["eer_pct"] < 50
    assert pooled["gvd_db"] is not None and pooled["gvd_db"] < 5


@pytest.mark.slow
def test_finetuning_is_seeded_and_records_its_convergence(mini_corpus, repo_root, tmp_path):
    """ge2e.finetune_epochs > 0: the last layers move, the same seed gives the same model, the held-out
    speakers' EER is recorded before and after every epoch."""
    import torch

    from pydeid.attack.config import load_config
    from pydeid.attack.model import load_model
    from pydeid.attack.pretrained import weights_path
    from pydeid.attack.train import train_attacker
    cfg = load_config(repo_root / "conf/xvector/ge2e.yaml",
                      {"ge2e": {"finetune_epochs": 1, "dev_speakers": 2}, "batch_size": 16})
    runs = [train_attacker(mini_corpus / "mini_train", tmp_path / f"m{i}", cfg, seed=0) for i in (0, 1)]
    h = runs[0]["history"]
    assert [e["epoch"] for e in h] == [0, 1] and h[1]["train_acc"] is not None
    assert h[0]["dev_eer_pct"] is not None and h[1]["dev_eer_pct"] is not None
    assert runs[0]["train_speakers_used"] == 2 and len(runs[0]["dev_speakers"]) == 2
    a, _ = load_model(tmp_path / "m0")
    b, _ = load_model(tmp_path / "m1")
    shipped = torch.load(weights_path(), map_location="cpu", weights_only=False)["model_state"]
    for k, v in a.model.state_dict().items():
        assert torch.equal(v, b.model.state_dict()[k])                  # seeded
        assert torch.equal(v, shipped[k]) == (k not in ("lstm.weight_ih_l2", "lstm.weight_hh_l2", "lstm.bias_ih_l2",
                                                        "lstm.bias_hh_l2", "linear.weight", "linear.bias")), k
