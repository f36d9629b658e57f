"""Cosine and PLDA back-ends on synthetic speaker embeddings (Gaussian speaker means + session noise)."""

import numpy as np
import pytest

from pydeid.attack.metrics import eer
from pydeid.attack.scoring import Backend, lda_matrix


def speakers(rng, n_spk, n_utt, dim, spread=1.0, noise=0.7, offset=None):
    means = rng.normal(0, spread, (n_spk, dim)) + (offset if offset is not None else 0)
    x = np.concatenate([m + rng.normal(0, noise, (n_utt, dim)) for m in means])
    labels = [f"spk{i}" for i in range(n_spk) for _ in range(n_utt)]
    return x, labels


def verification_eer(backend, name, rng, dim, offset):
    x, lab = speakers(rng, 12, 8, dim, offset=offset)
    spks = sorted(set(lab))
    enroll = [i for i, _ in enumerate(lab) if i % 8 < 3]
    test = [i for i, _ in enumerate(lab) if i % 8 >= 3]
    mat = backend.score(name, x[enroll], [lab[i] for i in enroll], spks, x[test])
    truth = np.array([[s == lab[j] for j in test] for s in spks])
    return eer(mat[truth], mat[~truth])[0]


@pytest.mark.parametrize("name", ["cosine", "plda"])
def test_backends_separate_unseen_speakers(name):
    rng = np.random.default_rng(0)
    dim = 24
    offset = rng.normal(0, 3, dim)  # a common offset: mean subtraction must remove it for cosine to work
    train_x, train_lab = speakers(rng, 30, 10, dim, offset=offset)
    backend = Backend(train_x, train_lab, lda_dim=20, plda_rank=16)
    assert verification_eer(backend, name, rng, dim, offset) < 0.05


def test_plda_beats_chance_with_few_training_speakers_and_high_dim():
    # fewer utterances than dimensions: LDA is capped at speakers - 1 and regularised, PLDA still trains
    rng = np.random.default_rng(1)
    dim = 64
    train_x, train_lab = speakers(rng, 5, 6, dim)
    backend = Backend(train_x, train_lab, lda_dim=150, plda_rank=100)
    assert verification_eer(backend, "plda", rng, dim, None) < 0.4
    assert backend.lda.shape == (dim, 4)


def test_lda_finds_the_discriminant_direction():
    rng = np.random.default_rng(2)
    n = 200
    # class separation along axis 0 only; large nuisance variance along axis 1
    a = np.c_[rng.normal(-2, 0.5, n), rng.normal(0, 5, n)]
    b = np.c_[rng.normal(2, 0.5, n), rng.normal(0, 5, n)]
    w = lda_matrix(np.r_[a, b], ["a"] * n + ["b"] * n, 1)[:, 0]
    assert abs(w[0]) / np.linalg.norm(w) > 0.99
