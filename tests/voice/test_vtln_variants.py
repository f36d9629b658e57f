"""VTLN plan options of issue 19: averaged pseudo-targets (n_average), per-utterance warp and pitch offsets
(warp_jitter, pitch_jitter_semitones) and target_gender in the config, on real VCTK voices."""

from __future__ import annotations

import json

import numpy as np
import pytest

from pydeid.io import DataDir
from pydeid.voice import VtlnTransformer, analyze
from pydeid.voice.convert import assign_target, assign_targets, make_plan
from pydeid.voice.vtln import build_vtln_params, draw_vtln
from test_voice_cli import check_output_corpus, cli, src_dir, tgt_dir  # noqa: F401 (fixtures)
from voice_helpers import median_f0, spectral_centroid

SR = 16000


def test_params_are_checked_and_default_draws_nothing():
    assert build_vtln_params() == build_vtln_params(n_average=1, warp_jitter=0.0, pitch_jitter_semitones=0.0)
    assert draw_vtln(build_vtln_params(), np.random.default_rng(0)) == {}
    for bad in ({"n_average": 0}, {"n_average": 2.5}, {"warp_jitter": -0.1}, {"warp_jitter": 0.5},
                {"pitch_jitter_semitones": 20}):
        with pytest.raises(ValueError):
            build_vtln_params(**bad)
    with pytest.raises(TypeError):
        build_vtln_params(jitter=0.1)                               # a typo is not silently ignored
    d = draw_vtln(build_vtln_params(warp_jitter=0.05, pitch_jitter_semitones=2.0), np.random.default_rng(1))
    assert abs(d["warp_shift"]) <= 0.05 and abs(d["pitch_shift"]) <= 2.0


def test_averaged_targets_same_gender_never_the_source():
    pool = [f"t{i:02d}" for i in range(20)]
    genders = {t: ("f" if i % 2 else "m") for i, t in enumerate(pool)}
    for i in range(30):
        ts = assign_targets(4, 3, pool, 0, "t03", f"u{i}", "f", genders)
        assert len(ts) == len(set(ts)) == 4 and all(genders[t] == "f" for t in ts) and "t03" not in ts
        assert ts[0] == assign_target(3, pool, 0, "t03", f"u{i}", "f", genders)   # the plain draw comes first
    # strategy 2: one set per speaker; strategy 3: a set per utterance
    assert len({tuple(assign_targets(3, 2, pool, 0, "s", f"u{i}")) for i in range(10)}) == 1
    assert len({tuple(assign_targets(3, 3, pool, 0, "s", f"u{i}")) for i in range(10)}) > 5
    # fewer candidates than asked: all of them, once
    assert sorted(assign_targets(8, 3, ["a", "b", "c"], 0, "a", "u")) == ["b", "c"]


def _data(n_utts=8):
    d = DataDir()
    for i in range(n_utts):
        d.wav_scp[f"a{i}"] = "/x.wav"
        d.text[f"a{i}"] = "x"
        d.utt2spk[f"a{i}"] = f"s{i % 2}"
    d.spk2gender = {"s0": "m", "s1": "f"}
    return d


def test_plan_draws_and_defaults_unchanged():
    pool = [f"t{i:02d}" for i in range(12)]
    genders = {t: ("f" if i % 2 else "m") for i, t in enumerate(pool)}
    d = _data()
    base = make_plan(d, "vtln", 3, 0, {}, pool, pool_genders=genders, target_gender="same")
    assert all(set(e) == {"target"} for e in base["utt"].values())             # default: the plain plan
    p = make_plan(d, "vtln", 3, 0, {"n_average": 3, "warp_jitter": 0.05, "pitch_jitter_semitones": 2.0}, pool,
                  pool_genders=genders, target_gender="same")
    for u, e in p["utt"].items():
        assert e["target"] == base["utt"][u]["target"] and e["targets"][0] == e["target"]
        assert len(e["targets"]) == 3 and {genders[t] for t in e["targets"]} == {d.spk2gender[d.utt2spk[u]]}
        assert abs(e["warp_shift"]) <= 0.05 and abs(e["pitch_shift"]) <= 2.0
    assert len({e["warp_shift"] for e in p["utt"].values()}) == len(p["utt"])  # drawn per utterance
    again = make_plan(d, "vtln", 3, 0, {"n_average": 3, "warp_jitter": 0.05, "pitch_jitter_semitones": 2.0}, pool,
                      pool_genders=genders, target_gender="same")
    assert json.dumps(again) == json.dumps(p)                                 # seeded
    other = make_plan(d, "vtln", 3, 1, {"warp_jitter": 0.05}, pool, pool_genders=genders, target_gender="same")
    assert all(other["utt"][u]["warp_shift"] != p["utt"][u]["warp_shift"] for u in d.utts)   # another seed
    with pytest.raises(ValueError, match="n_average"):
        make_plan(d, "vtln", 3, 0, {"n_average": 0}, pool, pool_genders=genders, target_gender="same")


def test_pseudo_target_and_offsets_move_the_voice(vctk_voices):
    """Averaging two targets gives the mean warp and log-F0 of the two; the warp and pitch offsets move the
    spectral centroid and F0 the way they say; no option returns the plain conversion bit for bit."""
    from pydeid.voice import build_vtln
    targets = build_vtln({s: vctk_voices[s][:6] for s in ("p225", "p227", "p228")}, k=8, seed=0)
    tr = VtlnTransformer(targets).fit(vctk_voices["p226"][:6], SR, seed=0)
    al, lf = tr.pseudo_target(["p225", "p227"])
    a, b = tr.alignment("p225"), tr.alignment("p227")
    assert np.allclose(al["alphas"], (a["alphas"] + b["alphas"]) / 2)
    m = (np.array(targets.models["p225"].log_f0) + np.array(targets.models["p227"].log_f0)) / 2
    assert lf == pytest.approx(tuple(m))
    x = vctk_voices["p226"][11]
    feats = analyze(x, SR, targets.world)
    plain = tr.transform_features(feats, "p225", x)
    assert np.array_equal(plain, tr.transform_features(feats, ["p225"], x, 0.0, 0.0))
    avg = tr.transform_features(feats, ["p225", "p227"], x)
    assert median_f0(avg) == pytest.approx(float(np.exp(m[0])), rel=0.2)
    up = tr.transform_features(feats, "p225", x, warp_shift=0.08)
    down = tr.transform_features(feats, "p225", x, warp_shift=-0.08)
    assert spectral_centroid(up) > spectral_centroid(plain) > spectral_centroid(down)
    hi = tr.transform_features(feats, "p225", x, pitch_shift=3.0)
    assert median_f0(hi) / median_f0(plain) == pytest.approx(2 ** (3 / 12), rel=0.06)


def test_cli_config_options_and_target_gender(src_dir, tgt_dir, tmp_path, repo_root):
    """conf/voice/vtln_avg.yaml and vtln_jitter.yaml through transform-voice: the draws are in the secret plan; a
    config's target_gender applies unless --target-gender is given; an unknown key names the file."""
    out, exp = tmp_path / "out", tmp_path / "exp"
    cli("transform-voice", "--method", "vtln", "--config", repo_root / "conf/voice/vtln_jitter.yaml",
        "--target-data", tgt_dir, "--exp-dir", exp, src_dir, out)
    secret = check_output_corpus(src_dir, out, exp)
    assert secret["params"] == {"warp_jitter": 0.05, "pitch_jitter_semitones": 2.0}
    assert all(abs(e["warp_shift"]) <= 0.05 and abs(e["pitch_shift"]) <= 2 for e in secret["utt"].values())
    conf = tmp_path / "any.yaml"
    conf.write_text("classes:\n  k: 4\nwarping:\n  n_average: 2\n  target_gender: any\nworld:\n  frame_period: 10.0\n")
    exp2 = tmp_path / "exp2"
    cli("transform-voice", "--method", "vtln", "--config", conf, "--target-data", tgt_dir, "--exp-dir", exp2,
        "--part", "plan", src_dir, tmp_path / "out2")
    plan = json.loads((exp2 / "secrets" / "voice_plan.json").read_text())
    assert plan["target_gender"] == "any" and all(sorted(e["targets"]) == ["p225", "p227"]
                                                  for e in plan["utt"].values())
    exp3 = tmp_path / "exp3"
    cli("transform-voice", "--method", "vtln", "--config", conf, "--target-gender", "same", "--target-data", tgt_dir,
        "--exp-dir", exp3, "--part", "plan", src_dir, tmp_path / "out3")
    assert json.loads((exp3 / "secrets" / "voice_plan.json").read_text())["target_gender"] == "same"
    bad = tmp_path / "bad.yaml"
    bad.write_text("classes:\n  k: 8\nwarping:\n  warp_jiter: 0.05\n")
    r = cli("transform-voice", "--method", "vtln", "--config", bad, "--target-data", tgt_dir, "--exp-dir",
            tmp_path / "exp4", src_dir, tmp_path / "out4", check=False)
    assert r.returncode != 0 and "bad.yaml" in r.stderr and "warp_jiter" in r.stderr and "Traceback" not in r.stderr
