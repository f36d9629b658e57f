"""Speaker-subspace replacement after VTLN (pydeid/voice/vtln/speaker_subspace.py; VTLN plan options ss_dims, ss_pseudo,
ss_scale, ss_warp; conf/voice/vtln_ss*.yaml)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from pydeid.voice import VtlnTransformer, analyze, build_vtln
from pydeid.voice.vtln.speaker_subspace import (SpeakerSubspace, apply_corrections, class_corrections, draw_coords,
                                           fit_subspace)
from pydeid.voice.vtln import SpeakerModel, VtlnParams, VtlnTargets, build_vtln_params, dct_basis, draw_vtln
from test_voice_cli import check_output_corpus, cli, src_dir, tgt_dir  # noqa: F401 (fixtures)

SR = 16000
GRID = np.round(np.arange(-0.25, 0.2501, 0.01), 4)


def _toy_pool(n=7, k=3, F=129, seed=0):
    """n speakers sharing k smooth class shapes, each with its own smooth spectral offsets, in shuffled class
    order (k-means labels are arbitrary)."""
    rng = np.random.default_rng(seed)
    B = dct_basis(F)
    base = rng.normal(size=(k, B.shape[1])) * np.linspace(2, 0.2, B.shape[1])
    models = {}
    for i in range(n):
        own = rng.normal(size=(k, B.shape[1])) * 0.3 + rng.normal(size=B.shape[1]) * 0.5
        spectra = (base + own) @ B.T
        perm = rng.permutation(k)
        models[f"s{i}"] = SpeakerModel(np.zeros((k, 24)), spectra[perm], np.full(k, 1.0 / k), (4.8, 0.2), 100)
    return VtlnTargets(models, k)


def test_subspace_is_orthonormal_and_coordinates_reproduce_the_pool():
    """The directions are orthonormal, sorted by between-speaker variance, at most n - 1 of them; each pool
    speaker's supervector is the mean plus its coordinates on them (the subspace spans the whole pool)."""
    t = _toy_pool()
    sub = fit_subspace(t, GRID)
    D = sub.max_dims
    assert D == 6 and sub.basis.shape == (3 * 24, 6)
    assert np.allclose(sub.basis.T @ sub.basis, np.eye(D), atol=1e-10)
    assert np.all(np.diff(sub.variances) <= 0) and sub.variances[-1] > 0
    assert np.allclose(sub.coords.mean(0), 0, atol=1e-10)
    assert np.allclose(sub.coords.var(0, ddof=1), sub.variances)
    assert sorted(map(sorted, sub.class_map)) == [[0, 1, 2]] * 7     # each speaker's classes: a permutation
    with pytest.raises(ValueError, match="at least 2"):
        fit_subspace(VtlnTargets({"a": t.models["s0"]}, 3), GRID)


def test_save_load_round_trip(tmp_path):
    sub = fit_subspace(_toy_pool(), GRID)
    sub.save(tmp_path / "ss.npz")
    back = SpeakerSubspace.load(tmp_path / "ss.npz")
    assert back.reference == sub.reference and back.speakers == sub.speakers
    for a in ("basis", "variances", "mean", "coords", "class_map"):
        assert np.array_equal(getattr(back, a), getattr(sub, a))


def test_corrections_limits():
    """d = 0 changes nothing; a source whose coordinates equal the pseudo-speaker's gets no correction; the
    correction lies in the subspace (the orthogonal complement is untouched) and moves the source's coordinates
    onto the pseudo-speaker's; scale 0 moves them to the pool mean."""
    sub = fit_subspace(_toy_pool(), GRID)
    rng = np.random.default_rng(1)
    k = 3
    ref_of = np.array([2, 0, 1])
    T = rng.normal(size=(k, 24))
    z_t = rng.normal(size=sub.max_dims)
    U = sub.basis[:, :4]
    assert not np.any(class_corrections(sub, 0, T + 1, T, ref_of, z_t, z_t, 1.0))
    assert np.allclose(class_corrections(sub, 4, T, T, ref_of, z_t, z_t, 1.0), 0)
    # a source differing from the target only outside the subspace has the target's coordinates: untouched
    off = rng.normal(size=k * 24)
    off -= U @ (U.T @ off)
    R = T + off.reshape(k, 24)[ref_of]
    assert np.allclose(class_corrections(sub, 4, R, T, ref_of, z_t, z_t, 1.0), 0)
    assert not np.allclose(class_corrections(sub, 6, R, T, ref_of, z_t, z_t, 1.0), 0)
    Tsv = np.zeros((k, 24))
    Tsv[ref_of] = T
    R = T + rng.normal(size=(k, 24))
    z_p = rng.normal(size=sub.max_dims)
    c = class_corrections(sub, 4, R, T, ref_of, z_t, z_p, 1.0)
    csv = np.zeros((k, 24))
    csv[ref_of] = c
    assert np.allclose(U @ (U.T @ csv.ravel()), csv.ravel())                       # within the subspace
    new = np.zeros((k, 24))
    new[ref_of] = R + c
    z_new = z_t[:4] + U.T @ (new.ravel() - Tsv.ravel())
    assert np.allclose(z_new, z_p[:4])                                              # the pseudo-speaker's
    c0 = class_corrections(sub, 4, R, T, ref_of, z_t, z_p, 0.0)
    new[ref_of] = R + c0
    assert np.allclose(z_t[:4] + U.T @ (new.ravel() - Tsv.ravel()), 0)
    # plain analysis (no target frame): coordinates measured from the pool mean
    M = sub.mean.reshape(k, 24)[ref_of]
    assert np.allclose(class_corrections(sub, 4, M + U[:, 0].reshape(k, 24)[ref_of] * 2.0, None, ref_of, None,
                                         np.eye(sub.max_dims)[0] * 2.0, 1.0), 0)


def test_apply_corrections_voiced_frames_only():
    rng = np.random.default_rng(2)
    Y = rng.normal(size=(30, 17))
    voiced = rng.random(30) > 0.3
    cls = rng.integers(3, size=30)
    corr = rng.normal(size=(3, 17))
    out = apply_corrections(Y, voiced, cls, corr, smooth_frames=1)
    assert np.allclose(out[voiced], (Y + corr[cls])[voiced]) and np.array_equal(out[~voiced], Y[~voiced])
    assert np.array_equal(apply_corrections(Y, voiced, cls, np.zeros((3, 17))), Y)


def test_gaussian_draws_seeded_with_the_pool_spread():
    """Draws from the pool's Gaussian: same seed same draw; over many draws, mean 0 and the pool's variances."""
    sub = fit_subspace(_toy_pool(), GRID)
    a = draw_coords(sub, np.random.default_rng(5))
    assert np.array_equal(a, draw_coords(sub, np.random.default_rng(5)))
    assert not np.array_equal(a, draw_coords(sub, np.random.default_rng(6)))
    Z = np.stack([draw_coords(sub, np.random.default_rng(s)) for s in range(4000)])
    assert np.allclose(Z.var(0) / sub.variances, 1, atol=0.1)
    assert np.all(np.abs(Z.mean(0)) < 0.1 * np.sqrt(sub.variances))


def test_params_checked():
    assert build_vtln_params() == VtlnParams(ss_dims=0)
    p = build_vtln_params(ss_dims=16, ss_pseudo="gaussian")
    d = draw_vtln(p, np.random.default_rng(0))
    assert set(d) == {"ss_seed"} and d == draw_vtln(p, np.random.default_rng(0))
    assert draw_vtln(build_vtln_params(ss_dims=16), np.random.default_rng(0)) == {}
    for bad, word in (({"ss_dims": -1}, "ss_dims"), ({"ss_dims": 2.5}, "ss_dims"), ({"ss_dims": True}, "ss_dims"),
                      ({"ss_pseudo": "random"}, "ss_pseudo"), ({"ss_scale": -1}, "ss_scale"),
                      ({"ss_scale": "1"}, "ss_scale"), ({"ss_warp": "no"}, "ss_warp"),
                      ({"ss_normalise": False}, "needs ss_warp false"), ({"ss_normalise": 0}, "ss_normalise"),
                      ({"ss_dims": 4, "class_shift": 1.0}, "cannot be combined"),
                      ({"ss_dims": 4, "residual_scale": 0.5}, "cannot be combined")):
        with pytest.raises(ValueError, match=word) as e:
            build_vtln_params(**bad)
        assert "\n" not in str(e.value)


def test_transformer_on_real_voices(vctk_voices):
    """On real voices: ss_dims 0 is plain VTLN bit for bit; the replacement changes the audio, is deterministic,
    and with the Gaussian pseudo-speaker depends on the utterance's draw only; d larger than the pool allows is a
    one-line error."""
    targets = build_vtln({s: vctk_voices[s][:6] for s in ("p225", "p226", "p228")}, k=8, seed=0)
    src = vctk_voices["p227"][:6]
    x = vctk_voices["p227"][10]
    feats = analyze(x, SR, targets.world)
    y0 = VtlnTransformer(targets).fit(src, SR, seed=0).transform_features(feats, "p225", x)
    off = VtlnTransformer(targets, params=VtlnParams(ss_dims=0)).fit(src, SR, seed=0)
    assert np.array_equal(off.transform_features(feats, "p225", x), y0)
    tr = VtlnTransformer(targets, params=build_vtln_params(ss_dims=2)).fit(src, SR, seed=0)
    y1 = tr.transform_features(feats, "p225", x)
    assert len(y1) == len(x) and np.isfinite(y1).all() and not np.array_equal(y0, y1)
    assert np.array_equal(y1, tr.transform_features(feats, "p225", x))
    sub = tr.subspace()
    assert sub.max_dims == 2 and np.allclose(sub.basis.T @ sub.basis, np.eye(2), atol=1e-10)
    g = VtlnTransformer(targets, params=build_vtln_params(ss_dims=2, ss_pseudo="gaussian")).fit(src, SR, seed=0)
    ga, gb = (g.transform_features(feats, "p225", x, ss_seed=s) for s in (1, 2))
    assert not np.array_equal(ga, gb) and np.array_equal(ga, g.transform_features(feats, "p225", x, ss_seed=1))
    with pytest.raises(ValueError, match="ss_seed"):
        g.transform_features(feats, "p225", x)
    # no warp underneath: the output's envelope is the input's but for the correction (the F0 still converted)
    y_nowarp = VtlnTransformer(targets, params=build_vtln_params(ss_dims=2, ss_warp=False)).fit(
        src, SR, seed=0).transform_features(feats, "p225", x)
    raw = VtlnTransformer(targets, params=build_vtln_params(ss_dims=2, ss_warp=False, ss_normalise=False)).fit(
        src, SR, seed=0)
    y_raw = raw.transform_features(feats, "p225", x)
    assert np.isfinite(y_nowarp).all() and not np.array_equal(y_nowarp, y_raw)
    assert not np.array_equal(raw.subspace().basis, sub.basis)
    # an averaged pseudo-target (n_average 2): measured in the reference's frame, deterministic
    avg = VtlnTransformer(targets, params=build_vtln_params(ss_dims=2, n_average=2)).fit(src, SR, seed=0)
    ya = avg.transform_features(feats, ["p225", "p228"], x)
    assert np.isfinite(ya).all() and np.array_equal(ya, avg.transform_features(feats, ["p225", "p228"], x))
    assert not np.array_equal(ya, avg.transform_features(feats, ["p225", "p226"], x))
    big = VtlnTransformer(targets, params=build_vtln_params(ss_dims=3)).fit(src, SR, seed=0)
    with pytest.raises(ValueError, match="exceeds"):
        big.transform_features(feats, "p225", x)


def test_frame_with_the_pseudo_speakers_coordinates_is_unchanged(vctk_voices):
    """A source that is itself the pseudo-speaker (the target converted to itself: warp 0, same classes) keeps
    its coordinates: the output is plain VTLN's."""
    targets = build_vtln({s: vctk_voices[s][:6] for s in ("p225", "p226", "p228")}, k=8, seed=0)
    x = vctk_voices["p225"][7]
    feats = analyze(x, SR, targets.world)
    plain = VtlnTransformer(targets)
    plain.source_ = targets.models["p225"]
    ss = VtlnTransformer(targets, params=build_vtln_params(ss_dims=2))
    ss.source_ = targets.models["p225"]
    assert np.allclose(ss.alignment("p225")["alphas"], 0) and np.array_equal(ss.alignment("p225")["pairs"],
                                                                              np.arange(8))
    y0, y1 = plain.transform_features(feats, "p225", x), ss.transform_features(feats, "p225", x)
    assert np.allclose(y0, y1, atol=1e-6)


def test_cli_config_ss(src_dir, tgt_dir, tmp_path, repo_root):
    """conf/voice/vtln_ss16g.yaml through transform-voice: options and per-utterance draws in the secret plan, the
    same targets as plain VTLN, other audio; identical on a rerun with the same seed; ss_dims beyond what a
    2-speaker pool allows is one line naming the option."""
    import soundfile as sf
    out, exp = tmp_path / "out", tmp_path / "exp"
    conf = tmp_path / "ss1.yaml"
    conf.write_text("classes:\n  k: 8\nspeaker_subspace:\n  ss_dims: 1\n  ss_pseudo: gaussian\n")
    cli("transform-voice", "--method", "vtln", "--config", conf, "--target-data", tgt_dir, "--exp-dir", exp,
        src_dir, out)
    secret = check_output_corpus(src_dir, out, exp)
    assert secret["params"] == {"ss_dims": 1, "ss_pseudo": "gaussian"}
    assert all(isinstance(e["ss_seed"], int) for e in secret["utt"].values())
    again, again_exp = tmp_path / "again", tmp_path / "again_exp"
    cli("transform-voice", "--method", "vtln", "--config", conf, "--target-data", tgt_dir, "--exp-dir", again_exp,
        src_dir, again)
    plain, plain_exp = tmp_path / "plain", tmp_path / "plain_exp"
    cli("transform-voice", "--method", "vtln", "--target-data", tgt_dir, "--exp-dir", plain_exp, src_dir, plain)
    pl = json.loads((plain_exp / "secrets" / "voice_plan.json").read_text())
    assert {u: e["target"] for u, e in pl["utt"].items()} == {u: e["target"] for u, e in secret["utt"].items()}
    for u in secret["utt"]:
        a = sf.read(out / "wav" / f"{u}.wav")[0]
        assert np.array_equal(a, sf.read(again / "wav" / f"{u}.wav")[0])
        assert not np.array_equal(a, sf.read(plain / "wav" / f"{u}.wav")[0])
    r = cli("transform-voice", "--method", "vtln", "--config", repo_root / "conf/voice/vtln_ss16g.yaml",
            "--target-data", tgt_dir, "--exp-dir", tmp_path / "exp3", src_dir, tmp_path / "out3", check=False)
    assert r.returncode != 0 and "ss_dims 16 exceeds" in r.stderr and "Traceback" not in r.stderr
    assert "exceeds" in r.stderr.strip().splitlines()[-1] and not (tmp_path / "out3").exists()
    bad = tmp_path / "bad.yaml"
    bad.write_text("classes:\n  k: 8\nspeaker_subspace:\n  ss_dims: 4\n  ss_pseudo: somebody\n")
    r = cli("transform-voice", "--method", "vtln", "--config", bad, "--target-data", tgt_dir, "--exp-dir",
            tmp_path / "exp4", src_dir, tmp_path / "out4", check=False)
    assert r.returncode != 0 and "bad.yaml" in r.stderr and "ss_pseudo" in r.stderr and "Traceback" not in r.stderr


def test_configs_load(repo_root):
    """Every conf/voice/vtln_ss*.yaml is a valid VTLN config with the replacement on (names the recipe's
    --voice-configs vtln:3_ss<name> select)."""
    from pydeid.cli.transform_voice import _load_config
    files = sorted((repo_root / "conf" / "voice" / "tuning").glob("vtln_ss*.yaml"))
    assert len(files) >= 5
    for f in files:
        conf = _load_config(f, "vtln")
        conf.pop("world")
        conf.pop("k")
        conf.pop("target_gender")
        assert build_vtln_params(**conf).ss_dims > 0, f
        assert f.stem[len("vtln_"):].isalnum(), f
