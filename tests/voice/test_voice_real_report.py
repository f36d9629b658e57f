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


def per_utt_file(path: Path, errors: dict[str, tuple[int, int]]) -> None:
    """A scoring/per_utt file of pydeid asr-score: utt -> (substitutions, reference words)."""
    path.mkdir(parents=True, exist_ok=True)
    (path / "scoring").mkdir(exist_ok=True)
    (path / "scoring" / "per_utt").write_text("".join(
        f"{u} words={n} sub={e} del=0 ins=0\n  ref: x\n  hyp: x\n" for u, (e, n) in errors.items()))


def fake_work(tmp_path: Path) -> tuple[Path, list[str]]:
    """A work dir of bench/voice_real.sh with decodes only: 6 trial speakers x 5 utterances (10 words each), the
    utility subset their first 2; original 2 errors per utterance, method m 3 (subset) and 3 (trial set) errors."""
    w = tmp_path / "work"
    spk = [f"s{i}" for i in range(6)]
    utts = {f"{s}_{k}": s for s in spk for k in range(5)}
    sub = {u: s for u, s in utts.items() if int(u[-1]) < 2}
    for d, m in (("test_trial", utts), ("test_wer", sub)):
        (w / "data" / d).mkdir(parents=True)
        (w / "data" / d / "utt2spk").write_text("".join(f"{u} {s}\n" for u, s in sorted(m.items())))
    (w / "data" / "test_trial" / "trials").write_text("".join(
        f"{s} {u} {'target' if utts[u] == s else 'nontarget'}\n" for s in spk for u in sorted(utts)))
    (w / "data" / "test_enroll").mkdir()
    (w / "data" / "test_enroll" / "spk2gender").write_text("".join(f"{s} f\n" for s in spk))
    ps = w / "exp" / "ps"
    per_utt_file(ps / "decode_general_test_wer", {u: (2, 10) for u in sub})
    per_utt_file(ps / "decode_general_test_trial", {u: (2, 10) for u in utts})
    per_utt_file(ps / "decode_general_test_wer_m", {u: (3, 10) for u in sub})
    per_utt_file(ps / "decode_general_test_trial_m", {u: (3, 10) for u in utts})
    per_utt_file(ps / "decode_general_test_trial_copysynth", {u: (2, 10) for u in utts})
    return w, ["m"]


def test_trial_set_columns_are_measured_on_every_trial_utterance(report, tmp_path):
    w, vs = fake_work(tmp_path)
    vs = report.with_extra_rows(w, vs)
    assert vs == ["copysynth", "m"]            # the floor row first: its trial-set decode exists
    rep = report.build(w, vs, 200, 0)
    assert rep["wer_trial"]["test_trial"]["words"] == 300 and rep["wer"]["test_wer"]["words"] == 120
    assert rep["wer_trial"]["test_trial_m"]["wer_pct"] == pytest.approx(30.0)
    d = rep["wer_trial_vs_original"]["m"]
    assert d["diff"] == pytest.approx(10.0) and d["utterances"] == 30 and d["words"] == 300
    assert d["ci"] == pytest.approx([10.0, 10.0])             # every speaker +1 error per utterance: no spread
    assert rep["wer_trial_vs_original"]["copysynth"]["diff"] == 0.0
    assert "test_wer_copysynth" not in rep["wer"]              # not decoded on the subset: n/a, not guessed
    md = report.render(rep, vs)
    row = next(x for x in md.splitlines() if x.startswith("| WORLD analysis-synthesis"))
    assert row.count("n/a") >= 5 and "+0 % [+0, +0]" in row and "below" in row
    row = next(x for x in md.splitlines() if x.startswith("| m "))
    assert row.count("+50 % [+50, +50]") == 2 and row.count("above") == 2   # 2 -> 3 errors: +50 %, both sets


def test_limit_verdict_needs_the_whole_interval_on_one_side(report):
    w0 = {"wer_pct": 80.0}
    assert report.limit_verdict({"diff": 8.0, "ci": [2.0, 11.0]}, w0) == "below"      # [+2.5, +13.75] %
    assert report.limit_verdict({"diff": 12.0, "ci": [13.0, 20.0]}, w0) == "above"    # [+16.25, +25] %
    assert report.limit_verdict({"diff": 11.0, "ci": [4.0, 18.0]}, w0) == "undecided"
    assert report.limit_verdict(None, w0) == "n/a"
    # the ratio's own bootstrap interval (paired_wer_diff's rel_ci) decides when it is there
    assert report.limit_verdict({"diff": 8.0, "ci": [2.0, 11.0], "rel": 10.0, "rel_ci": [3.0, 16.0]}, w0) == "undecided"


def test_relative_increase_interval_is_the_ratio_of_each_resample(report, tmp_path):
    # two speakers: one doubles its errors (2 -> 4), the other keeps them: the ratio resamples range from +0 to +100 %
    ps = tmp_path / "ps"
    per_utt_file(ps / "a", {"x_0": (2, 10), "y_0": (2, 10)})
    per_utt_file(ps / "b", {"x_0": (4, 10), "y_0": (2, 10)})
    r = report.paired_wer_diff(ps / "a", ps / "b", {"x_0": "x", "y_0": "y"}, 400, 0)
    assert r["rel"] == pytest.approx(50.0) and r["diff"] == pytest.approx(10.0)
    assert r["rel_ci"] == pytest.approx([0.0, 100.0])
    assert report.relfmt(r, {"wer_pct": 20.0}) == "+50 % [+0, +100]"
