"""EER / minDCF / linkability / closed-set accuracy against hand-computed cases and against speechbrain."""

import numpy as np
import pytest
import torch
from speechbrain.utils.metric_stats import EER as sb_eer
from speechbrain.utils.metric_stats import minDCF as sb_min_dcf

from pydeid.attack.metrics import closed_set_accuracy, det_points, eer, linkability, min_dcf

# Accept when score > threshold. Sorted: 0.1n 0.2t 0.3n 0.4n 0.6t 0.7t 0.8n 0.9t
TAR = [0.2, 0.6, 0.7, 0.9]
NON = [0.1, 0.3, 0.4, 0.8]


def test_eer_separable_is_zero():
    assert eer([0.6, 0.7, 0.8, 0.5], [0.4, 0.3, 0.2, 0.1])[0] == 0.0


def test_eer_hand_computed_balanced():
    # at threshold 0.4: misses {0.2} = 1/4, false alarms {0.8} = 1/4
    value, thr = eer(TAR, NON)
    assert value == pytest.approx(0.25)
    assert thr == pytest.approx(0.4)


def test_eer_hand_computed_unbalanced():
    # threshold 0.4: misses {0.35} = 1/3, false alarms {0.5, 0.6} = 2/6
    value, thr = eer([0.9, 0.8, 0.35], [0.1, 0.2, 0.3, 0.4, 0.5, 0.6])
    assert value == pytest.approx(1 / 3)
    assert thr == pytest.approx(0.4)


def test_eer_fully_inverted_scores():
    # every target below every non-target: P_miss = P_fa = 1 at a threshold between the two groups -> EER 1.0
    assert eer([0.1, 0.2], [0.8, 0.9])[0] == pytest.approx(1.0)


def test_min_dcf_hand_computed():
    # P_target 0.5: min over thresholds of (P_miss + P_fa) / 2 = 0.25 (threshold 0.4); normalised by 0.5
    assert min_dcf(TAR, NON, p_target=0.5, normalized=False)[0] == pytest.approx(0.25)
    assert min_dcf(TAR, NON, p_target=0.5)[0] == pytest.approx(0.5)
    # P_target 0.01: best is rejecting all but 0.9: 0.01 * 3/4 = 0.0075; normalised by 0.01
    value, thr = min_dcf(TAR, NON, p_target=0.01, normalized=False)
    assert value == pytest.approx(0.0075)
    assert thr == pytest.approx(0.8)
    assert min_dcf(TAR, NON, p_target=0.01)[0] == pytest.approx(0.75)
    # costs: C_miss = 10 makes misses expensive: threshold 0.1 (accept all but 0.1): 0.99 * 3/4 = 0.7425 vs
    # threshold 0.4: 10*0.01*1/4 + 0.99*1/4 = 0.2725 vs threshold 0.8: 10*0.01*3/4 = 0.075
    assert min_dcf(TAR, NON, p_target=0.01, c_miss=10, normalized=False)[0] == pytest.approx(0.075)


def test_hand_cases_agree_with_speechbrain():
    t, n = torch.tensor(TAR), torch.tensor(NON)
    assert sb_eer(t, n)[0] == pytest.approx(eer(TAR, NON)[0])
    assert sb_min_dcf(t, n, p_target=0.01)[0] == pytest.approx(min_dcf(TAR, NON, 0.01, normalized=False)[0])


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_agrees_with_speechbrain(seed):
    rng = np.random.default_rng(seed)
    tar = rng.normal(1.0, 1.0, 150)
    non = rng.normal(-0.5, 1.0, 400)
    t, n = torch.tensor(tar), torch.tensor(non)
    assert eer(tar, non)[0] == pytest.approx(sb_eer(t, n)[0], abs=1e-6)
    for p in (0.01, 0.05):
        assert min_dcf(tar, non, p_target=p, normalized=False)[0] == pytest.approx(
            sb_min_dcf(t, n, p_target=p)[0], abs=1e-6)


def test_rejects_empty_and_nan():
    with pytest.raises(ValueError):
        eer([], [0.1])
    with pytest.raises(ValueError):
        eer([float("nan")], [0.1])


def test_linkability_hand_computed_two_bins():
    # edges [0, 0.5, 1]; mated: 2 low / 8 high, non-mated: 8 low / 2 high -> densities [0.4, 1.6] and [1.6, 0.4]
    # LR = [0.25, 4]; D = [0, 2 * 4/5 - 1 = 0.6]; D_sys = trapz([0, 0.6 * 1.6], x=[0.25, 0.75]) = 0.24
    tar = [0.0, 0.1] + [0.6, 0.7, 0.8, 0.9, 0.95, 0.97, 0.99, 1.0]
    non = [0.0, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.45] + [0.7, 1.0]
    dsys, d, centers, edges = linkability(tar, non, n_bins=2)
    assert np.allclose(edges, [0, 0.5, 1])
    assert np.allclose(d, [0.0, 0.6])
    assert dsys == pytest.approx(0.24)


def test_linkability_extremes():
    rng = np.random.default_rng(0)
    same = rng.normal(0, 1, 5000), rng.normal(0, 1, 5000)
    assert linkability(*same)[0] < 0.1
    apart = rng.uniform(0.5, 1.0, 2000), rng.uniform(-1.0, 0.4, 2000)
    assert linkability(*apart)[0] > 0.95


def test_closed_set_accuracy():
    speakers = ["a", "b", "c"]
    utts = ["a-1", "b-1", "c-1", "x-1"]
    utt2spk = {"a-1": "a", "b-1": "b", "c-1": "c", "x-1": "x"}
    scores = np.array([[0.9, 0.1, 0.8, 0.9],
                       [0.2, 0.7, 0.1, 0.0],
                       [0.3, 0.8, 0.5, 0.0]])
    # a-1 -> a (right), b-1 -> c (wrong), c-1 -> a (wrong); x-1 has no enrolled speaker: left out
    acc, n = closed_set_accuracy(scores, speakers, utts, utt2spk)
    assert n == 3
    assert acc == pytest.approx(1 / 3)


def test_det_points_monotone():
    rng = np.random.default_rng(3)
    p_fa, p_miss = det_points(rng.normal(1, 1, 50), rng.normal(0, 1, 80))
    assert p_fa[0] == 1.0 and p_miss[0] == 0.0
    assert np.all(np.diff(p_fa) <= 0) and np.all(np.diff(p_miss) >= 0)


def test_weighted_eer_is_the_eer_of_the_repeated_trials():
    from pydeid.attack.metrics import weighted_eer
    rng = np.random.default_rng(3)
    tar, non = rng.normal(1.5, 1, 40), rng.normal(0, 1, 200)
    s = np.round(np.concatenate([tar, non]), 2)          # ties included
    lab = np.r_[np.ones(40, bool), np.zeros(200, bool)]
    assert weighted_eer(s, lab, np.ones(240))[0] == pytest.approx(eer(s[lab], s[~lab])[0])
    w = rng.integers(0, 4, 240)
    rep, rl = np.repeat(s, w), np.repeat(lab, w)
    assert weighted_eer(s, lab, w[None, :].astype(float))[0] == pytest.approx(eer(rep[rl], rep[~rl])[0])
    assert np.isnan(weighted_eer(s, lab, (~lab).astype(float))[0])   # no target weight


def test_speaker_bootstrap_interval_is_seeded_and_covers_the_eer():
    from pydeid.attack.metrics import eer_bootstrap, percentile_ci, speaker_bootstrap_weights
    rng = np.random.default_rng(0)
    spk = [f"s{i}" for i in range(8)]
    enroll, trial_spk, scores, lab = [], [], [], []
    for e in spk:
        for t in spk:
            for _ in range(3):
                enroll.append(e), trial_spk.append(t), lab.append(e == t)
                scores.append(rng.normal(1.0 if e == t else 0.0, 1.0))
    scores, lab = np.array(scores), np.array(lab)
    w = speaker_bootstrap_weights(enroll, trial_spk, 5, seed=1)
    # a trial weighs the product of its two speakers' multiplicities; each resample draws 8 speakers
    assert w.shape == (5, len(scores))
    assert np.allclose(w.sum(1), 3 * 8 ** 2)        # (sum of multiplicities)^2 pairs, 3 trials each
    counts = np.sqrt(w[:, lab][:, ::3])             # target trials weigh c_s^2
    assert np.allclose(counts, np.round(counts)) and np.allclose(counts.sum(1), 8)
    b1 = eer_bootstrap(scores, lab, enroll, trial_spk, 200, seed=0)
    b2 = eer_bootstrap(scores, lab, enroll, trial_spk, 200, seed=0)
    assert np.array_equal(b1, b2, equal_nan=True)
    lo, hi = percentile_ci(b1)
    e = eer(scores[lab], scores[~lab])[0]
    assert lo < e < hi and hi - lo > 0.02
