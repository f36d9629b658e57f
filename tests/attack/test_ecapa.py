"""The ECAPA-TDNN attacker (conf/xvector/ecapa_mini.yaml: speechbrain's ECAPA_TDNN, AAM-softmax) trained from
scratch on the embedded tiny corpus: seeded (same seed twice -> the same embeddings), resumable after a kill
between epochs (-> the same model as an uninterrupted training), its front-end stored with the model."""

from __future__ import annotations

import numpy as np
import pytest


def _train(repo_root, mini_corpus, out, seed=0, epochs=3):
    import torch

    from pydeid.attack.config import load_config
    from pydeid.attack.train import train_attacker
    torch.set_num_threads(1)
    cfg = load_config(repo_root / "conf/xvector/ecapa_mini.yaml", {"epochs": epochs})
    return train_attacker(mini_corpus / "mini_train", out, cfg, seed=seed, progress=False)


def _embed(model_dir, mini_corpus, n=6):
    from pydeid.attack.extract import embed_waveform
    from pydeid.attack.model import load_model
    from pydeid.io import DataDir
    emb, cfg = load_model(model_dir)
    d = DataDir.read(mini_corpus / "mini_test_trial")
    from pydeid.attack.vad import apply_vad
    return np.stack([embed_waveform(emb, apply_vad(d.load_audio(u), 16000, cfg["vad"]), 16000, cfg["max_chunk"])
                     for u in d.utts[:n]])


@pytest.fixture(scope="module")
def first(repo_root, mini_corpus, tmp_path_factory):
    out = tmp_path_factory.mktemp("ecapa") / "a"
    summary = _train(repo_root, mini_corpus, out)
    return out, summary


def test_model_is_speechbrains_ecapa_with_aam_and_vad(first):
    from speechbrain.lobes.models.ECAPA_TDNN import ECAPA_TDNN

    from pydeid.attack.model import load_model
    out, summary = first
    emb, cfg = load_model(out)
    assert isinstance(emb.net, ECAPA_TDNN) and cfg["loss"] == "aam" and cfg["n_mels"] == 80
    assert cfg["vad"] == "energy" and summary["vad"] == "energy" and summary["model"] == "ecapa"
    assert summary["cpu_seconds"] > 0 and summary["speakers"] == 4
    assert not (out / "train_state.pt").exists()   # the resume state goes once the model is saved


def test_same_seed_same_embeddings_other_seed_other(first, repo_root, mini_corpus, tmp_path):
    a = _embed(first[0], mini_corpus)
    _train(repo_root, mini_corpus, tmp_path / "b", seed=0)
    assert np.array_equal(a, _embed(tmp_path / "b", mini_corpus))
    _train(repo_root, mini_corpus, tmp_path / "c", seed=1)
    assert not np.allclose(a, _embed(tmp_path / "c", mini_corpus), atol=1e-3)


def test_killed_training_resumes_to_the_same_model(first, repo_root, mini_corpus, tmp_path, monkeypatch):
    import pydeid.attack.train as T
    real = T._save_state
    calls = []

    def save_then_die(path, state):
        real(path, state)
        calls.append(state["epoch"])
        if state["epoch"] == 2:
            raise KeyboardInterrupt("killed after epoch 2")
    monkeypatch.setattr(T, "_save_state", save_then_die)
    with pytest.raises(KeyboardInterrupt):
        _train(repo_root, mini_corpus, tmp_path / "r")
    assert calls == [1, 2] and (tmp_path / "r" / "train_state.pt").is_file()
    assert not (tmp_path / "r" / "embedding_model.ckpt").exists()
    monkeypatch.setattr(T, "_save_state", real)
    summary = _train(repo_root, mini_corpus, tmp_path / "r")
    assert [h["epoch"] for h in summary["history"]] == [1, 2, 3]
    assert np.array_equal(_embed(first[0], mini_corpus), _embed(tmp_path / "r", mini_corpus))
