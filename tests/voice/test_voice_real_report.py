"""bench/voice_real_report.py: the paired differences that decide "pydeid at least as private as the COMPRISE tool"
and which differences are beyond the noise (issue 19)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def report():
    spec = importlib.util.spec_from_file_location("voice_real_report", REPO / "bench" / "voice_real_report.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def trials_and_scores(tmp_path: Path, separations: dict[str, float], n_spk: int = 12, seed: int = 0):
    """Same trials for every method: each speaker enrolled once, 3 target and 12 non-target trials; the target scores
    of a method sit `separation` above the non-targets (Gaussian noise, the same draws for every method)."""
    rng = np.random.default_rng(seed)
    trials, trial_spk = {}, {}
    for e in range(n_spk):
        for k in range(3):
            u = f"s{e}_u{k}"
            trial_spk[u] = f"s{e}"
            trials[(f"s{e}", u)] = True
        for k in range(12):
            o = (e + 1 + k % (n_spk - 1)) % n_spk
            u = f"s{o}_u{k % 3}"
            trial_spk[u] = f"s{o}"
            trials[(f"s{e}", u)] = False
    noise = rng.normal(size=len(trials))
    files = {}
    for name, sep in separations.items():
        f = tmp_path / f"scores_{name}"
        f.write_text("".join(f"{e} {u} {z + (sep if t else 0.0):.6f}\n"
                             for ((e, u), t), z in zip(trials.items(), noise)))
        files[name] = f
    return trials, trial_spk, files


def test_paired_difference_of_a_method_with_itself_is_exactly_zero(report, tmp_path):
    trials, tspk, f = trials_and_scores(tmp_path, {"a": 1.0, "a2": 1.0})
    r = report.paired_eer_diff(f["a"], f["a2"], trials, tspk, 200, 0)
    assert r["diff"] == 0.0 and r["ci"] == [0.0, 0.0]
    assert not report.beyond_noise(r)


def test_a_clearly_more_private_method_is_beyond_the_noise_and_named(report, tmp_path):
    # b: targets barely separated (high EER, more private); c: slightly less separated than a (within the noise)
    trials, tspk, f = trials_and_scores(tmp_path, {"a": 3.0, "b": 0.2, "c": 2.9})
    rb = report.paired_eer_diff(f["a"], f["b"], trials, tspk, 500, 0)
    rc = report.paired_eer_diff(f["a"], f["c"], trials, tspk, 500, 0)
    assert rb["diff"] > 20 and rb["ci"][0] > 0          # EER(b) - EER(a): b more private beyond the noise
    assert rc["ci"][0] <= 0 <= rc["ci"][1]
    text = report.noise_sentence({"b vs a": rb, "c vs a": rc}, "against a")
    assert "1 of 2" in text and "b vs a" in text and "c vs a" not in text


def test_a_score_file_missing_a_trial_is_not_rescored(report, tmp_path):
    trials, tspk, f = trials_and_scores(tmp_path, {"a": 1.0})
    f["a"].write_text("".join(f["a"].read_text().splitlines(keepends=True)[1:]))
    assert report.read_scores(f["a"], trials) is None
    assert report.paired_eer_diff(f["a"], f["a"], trials, tspk, 50, 0) is None
    sub = dict(list(trials.items())[1:])                 # a subset without that trial: rescored
    assert report.read_scores(f["a"], sub) is not None
