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



# ---- few utterances per speaker (the informed attackers: 96 x-vectors of 48 speakers, 2 each, 128 dims) -----

def xvector_like(seed, n_utt, dim=128, n_train_spk=48, noise=1.0):
    """Training set of n_train_spk speakers x n_utt utterances; enrollment (3 utterances) and test (7) of 20
    other speakers; the key (speakers x test utterances). Like x-vectors, speaker and session variability
    both decay over the (rotated) dimensions, and there is a common offset."""
    rng = np.random.default_rng(seed)
    scale = np.exp(-np.arange(dim) / 20)
    rot = np.linalg.qr(rng.normal(size=(dim, dim)))[0]
    offset = rng.normal(0, 1, dim)

    def draw(n_spk, n):
        x, lab = speakers(rng, n_spk, n, dim, noise=noise)
        return (x * scale) @ rot.T + offset, lab

    train_x, train_lab = draw(n_train_spk, n_utt)
    x, lab = draw(20, 10)
    enroll = [i for i in range(len(lab)) if i % 10 < 3]
    test = [i for i in range(len(lab)) if i % 10 >= 3]
    spks = sorted(set(lab))
    truth = np.array([[s == lab[j] for j in test] for s in spks])
    return train_x, train_lab, (x[enroll], [lab[i] for i in enroll], spks, x[test]), truth


def plda_scores(train_x, train_lab, eval_set, **kw):
    return Backend(train_x, train_lab, **kw).plda(*eval_set)


def rel_change(a, ref):
    return float(np.max(np.abs(a - ref)) / np.max(np.abs(ref)))


def plda_eer(scores, truth):
    return eer(scores[truth], scores[~truth])[0]


def test_plda_with_two_utterances_per_speaker_is_stable_to_the_last_bits():
    # With 2 utterances per speaker the within-class scatter has rank 48 < 128. The former LDA (ridge 1e-6 only)
    # took its directions in that scatter's null space, with eigenvalues ~1e6, and the scores moved by ~3e-10
    # relative under a one-ulp change of the inputs or a reordering of the training rows (4e-10 under a 1e-12
    # relative change): rounding noise amplified ~1e6 times. Now: ~7e-14 (ulp, reordering), ~5e-12 (1e-12).
    train_x, train_lab, eval_set, truth = xvector_like(0, n_utt=2)
    ref = plda_scores(train_x, train_lab, eval_set)
    rng = np.random.default_rng(1)

    # one ulp up or down in every coordinate
    ulp = np.where(rng.random(train_x.shape) < 0.5, np.inf, -np.inf)
    last_bit = plda_scores(np.nextafter(train_x, ulp), train_lab, eval_set)
    assert rel_change(last_bit, ref) < 1e-11

    # a relative perturbation of 1e-12
    nudged = plda_scores(train_x * (1 + 1e-12 * rng.standard_normal(train_x.shape)), train_lab, eval_set)
    assert rel_change(nudged, ref) < 1e-9

    # the same data in another memory layout: a strided view (bit-identical scores), then the rows shuffled
    # and stored column-major
    wide = np.zeros((train_x.shape[0], 2 * train_x.shape[1]))
    wide[:, 1::2] = train_x
    view = wide[:, 1::2]
    assert not view.flags.c_contiguous
    assert np.array_equal(plda_scores(view, train_lab, eval_set), ref)
    perm = rng.permutation(len(train_lab))
    shuffled = plda_scores(np.asfortranarray(train_x[perm]), [train_lab[i] for i in perm], eval_set)
    assert rel_change(shuffled, ref) < 1e-11

    for scores in (last_bit, nudged, shuffled):
        assert plda_eer(scores, truth) == plda_eer(ref, truth)
    assert plda_eer(ref, truth) < 0.25  # and PLDA still separates the unseen speakers


def test_lda_keeps_the_within_class_variation_of_the_training_speakers():
    # the root cause: in the former LDA space each training speaker's 2 utterances coincided (within-class /
    # total variance 2e-9 here), so PLDA's residual covariance (cond 5e3, LLRs of ~1e5) came from rounding
    # and from where its EM stopped; now 0.07, cond 10, LLRs of ~70
    from pydeid.attack.scoring import _length_norm
    train_x, train_lab, _, _ = xvector_like(0, n_utt=2)
    backend = Backend(train_x, train_lab)
    backend._fit_plda()
    assert 0.1 < backend.lda_shrinkage < 0.6
    assert backend.lda.shape == (128, 24)  # (96 - 48) / 2: PLDA's within-class covariance needs the dof
    y = _length_norm((train_x - backend.mean) @ backend.lda)
    within = np.sum((y[0::2] - y[1::2]) ** 2) / 2  # a speaker's utterances are consecutive
    total = np.sum((y - y.mean(axis=0)) ** 2)
    assert within / total > 0.05
    assert np.linalg.cond(backend._plda.Sigma) < 1e3


def test_shrinkage_intensity_ignores_utterance_order_and_vanishes_with_data():
    from pydeid.attack.scoring import within_class_shrinkage
    a = {}
    for n_utt in (2, 8, 64):
        x, lab, _, _ = xvector_like(3, n_utt=n_utt)
        a[n_utt] = within_class_shrinkage(x - x.mean(axis=0), lab)
    assert a[2] > 0.2 > a[8] > a[64] and a[64] < 0.02
    x, lab, _, _ = xvector_like(3, n_utt=8)
    perm = np.random.default_rng(4).permutation(len(lab))
    assert within_class_shrinkage(x[perm], [lab[i] for i in perm]) == pytest.approx(a[8], rel=1e-9)


def test_well_conditioned_plda_stays_close_to_the_unshrunk_lda():
    # the original-speech attacker's analogue (48 speakers x 8 utterances): little shrinkage, no dimension cap,
    # and the EER where the (well-posed here) unregularised LDA puts it
    train_x, train_lab, eval_set, truth = xvector_like(4, n_utt=8)
    backend = Backend(train_x, train_lab)
    shrunk = plda_eer(backend.plda(*eval_set), truth)
    assert backend.lda_shrinkage < 0.1
    assert backend.lda.shape == (128, 47)
    unshrunk = plda_eer(plda_scores(train_x, train_lab, eval_set, lda_shrinkage=0.0), truth)
    assert shrunk < 0.05
    assert abs(shrunk - unshrunk) < 0.02


def test_plda_needs_some_within_class_variation():
    rng = np.random.default_rng(5)
    x, lab = speakers(rng, 10, 1, 16)
    with pytest.raises(ValueError, match="2 utterances"):
        Backend(x, lab).plda(x[:2], lab[:2], lab[:2], x[2:])
