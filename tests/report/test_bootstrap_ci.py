"""Speaker-bootstrap intervals of the real-voice tables (pydeid.report.bootstrap_ci)."""

from __future__ import annotations

import numpy as np
import pytest

from pydeid.report.bootstrap_ci import eer_with_ci, wer_with_ci


def _trials(sep: float, n_spk: int = 20, seed: int = 0):
    rng = np.random.default_rng(seed)
    scores, labels, spks = [], [], []
    for s in range(n_spk):
        for _ in range(5):
            scores.append(rng.normal(sep)); labels.append(True); spks.append(f"s{s}")
        for _ in range(20):
            scores.append(rng.normal(0)); labels.append(False); spks.append(f"s{s}")
    return np.array(scores), np.array(labels), spks


def test_separated_scores_give_zero_eer():
    s, lab, spk = _trials(sep=50.0)
    r = eer_with_ci(s, lab, spk, n_boot=200)
    assert r["eer_pct"] == 0.0 and r["ci"] == [0.0, 0.0]
    assert r["n_target"] == 100 and r["n_nontarget"] == 400 and r["speakers"] == 20


def test_interval_brackets_the_estimate_and_narrows_with_speakers():
    s, lab, spk = _trials(sep=1.0, n_spk=10)
    small = eer_with_ci(s, lab, spk, n_boot=300, seed=1)
    s, lab, spk = _trials(sep=1.0, n_spk=80)
    big = eer_with_ci(s, lab, spk, n_boot=300, seed=1)
    for r in (small, big):
        assert r["ci"][0] <= r["eer_pct"] <= r["ci"][1]
        assert 20 < r["eer_pct"] < 40   # two unit-variance normals one sigma apart: EER ~31 %
    assert big["ci"][1] - big["ci"][0] < small["ci"][1] - small["ci"][0]
    assert eer_with_ci(s, lab, spk, n_boot=300, seed=1) == big   # seeded


def test_wer_interval():
    r = wer_with_ci([1, 2, 0, 4], [10, 10, 10, 10], ["a", "a", "b", "b"], n_boot=500)
    assert r["wer_pct"] == pytest.approx(17.5) and r["words"] == 40 and r["speakers"] == 2
    # speaker a: 3/20 = 15 %, speaker b: 4/20 = 20 %: a resample of two speakers gives 15, 17.5 or 20 %
    assert r["ci"] == [pytest.approx(15.0), pytest.approx(20.0)]
