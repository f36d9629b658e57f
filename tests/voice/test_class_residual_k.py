"""Issue 19 part K: soft class posteriors (pydeid/voice/vtln/soft_classes.py, VTLN option class_temperature), shrunk
warps (warp_scale) and the diagnosis switches convert_f0 / convert_envelope of the VTLN plan."""

from __future__ import annotations

import numpy as np
import pytest

from pydeid.voice import VtlnTransformer, analyze, build_vtln
from pydeid.voice.vtln.class_residual import replace_class_means
from pydeid.voice.vtln.soft_classes import class_posteriors
from pydeid.voice.vtln import VtlnParams, build_vtln_params
from pydeid.voice.world import finalize, synthesize
from voice_helpers import median_f0
from test_class_residual import _toy as _toy_frames

SR = 16000


def test_posteriors_limits():
    rng = np.random.default_rng(0)
    d = rng.random((50, 6)) * 10
    hard = class_posteriors(d, 0.0)
    assert np.array_equal(hard.argmax(1), d.argmin(1)) and np.array_equal(hard.sum(1), np.ones(50))
    assert set(np.unique(hard)) == {0.0, 1.0}
    assert np.array_equal(class_posteriors(d, 1e-9), hard)          # temperature -> 0: the nearest centroid exactly
    soft = class_posteriors(d, 1.0)
    assert np.allclose(soft.sum(1), 1) and np.array_equal(soft.argmax(1), d.argmin(1))
    assert np.all(soft > 0) and not np.array_equal(soft, hard)
    # a nearer class never gets less weight; a larger temperature flattens the posteriors towards uniform
    order = np.argsort(d, axis=1)
    assert np.all(np.diff(np.take_along_axis(soft, order, 1), axis=1) <= 1e-12)
    flat = class_posteriors(d, 10.0)
    assert np.abs(flat - 1 / 6).max() < np.abs(soft - 1 / 6).max()
    with pytest.raises(ValueError):
        class_posteriors(d, -1.0)
    with pytest.raises(ValueError):
        class_posteriors(d[0], 1.0)


def _toy(T=40, F=33, k=3, seed=0):
    """test_class_residual's toy frames (the same draws), without their deviation and level parts."""
    return _toy_frames(T, F, k, seed)[:5]


def test_one_hot_posteriors_are_the_hard_classes_bit_for_bit():
    Y, voiced, cls, S, Tg = _toy()
    alpha = np.random.default_rng(1).uniform(-0.1, 0.1, len(Y))
    hot = np.eye(len(S))[cls[voiced]]
    for beta, lam in ((1.0, 1.0), (0.5, 0.7)):
        hard = replace_class_means(Y, voiced, cls, alpha, S, Tg, beta, lam)
        assert np.array_equal(replace_class_means(Y, voiced, cls, alpha, S, Tg, beta, lam, posteriors=hot), hard)
    with pytest.raises(ValueError):
        replace_class_means(Y, voiced, cls, alpha, S, Tg, 1.0, 1.0, posteriors=hot[:-1])


def test_mixed_posteriors_give_the_mixed_class_means():
    """beta 1, no warp, no smoothing: a voiced frame becomes level + p.T + (Y - level - p.S) for its posteriors p
    (the frame class array is not read)."""
    Y, voiced, cls, S, Tg = _toy()
    p = np.random.default_rng(2).dirichlet(np.ones(len(S)), size=int(voiced.sum()))
    out = replace_class_means(Y, voiced, cls * 0, np.zeros(len(Y)), S, Tg, 1.0, 1.0, smooth_frames=1, posteriors=p)
    level = Y[voiced].mean(1, keepdims=True)
    ms = p @ S
    want = level + p @ Tg + (Y[voiced] - level - (ms - ms.mean(1, keepdims=True)))
    assert np.allclose(out[voiced], want) and np.array_equal(out[~voiced], Y[~voiced])


def test_params_checked():
    assert build_vtln_params() == VtlnParams(class_temperature=0.0, warp_scale=1.0, convert_f0=True,
                                             convert_envelope=True)
    for bad in ({"class_temperature": -0.1}, {"class_temperature": 11}, {"class_temperature": True},
                {"warp_scale": 1.5}, {"warp_scale": -0.1}, {"warp_scale": "0.5"}, {"convert_f0": 0},
                {"convert_envelope": "no"}):
        with pytest.raises(ValueError):
            build_vtln_params(**bad)


@pytest.fixture(scope="module")
def setup(vctk_voices):
    targets = build_vtln({"p225": vctk_voices["p225"][:6]}, k=8, seed=0)
    x = vctk_voices["p227"][10]
    return targets, x, analyze(x, SR, targets.world), vctk_voices["p227"][:6]


def _conv(setup, **kw):
    targets, x, feats, fit = setup
    tr = VtlnTransformer(targets, params=build_vtln_params(**kw)).fit(fit, SR, seed=0)
    return tr.transform_features(feats, "p225", x)


def test_soft_classes_in_the_transformer(setup):
    """Real voices (male p227 to female p225): temperature -> 0 is the hard conversion bit for bit, with and without
    the class-mean replacement; temperature 0.5 changes the output; seeded."""
    for cs in (0.0, 1.0):
        hard = _conv(setup, class_shift=cs)
        assert np.array_equal(_conv(setup, class_shift=cs, class_temperature=1e-9), hard)
    soft = _conv(setup, class_shift=1.0, class_temperature=0.5)
    assert np.isfinite(soft).all() and len(soft) == len(hard) and not np.array_equal(soft, hard)
    assert np.array_equal(soft, _conv(setup, class_shift=1.0, class_temperature=0.5))


def test_diagnosis_switches_and_shrunk_warps(setup):
    """Nothing converted is WORLD copy synthesis bit for bit; warp_scale 0 without F0 conversion is copy synthesis
    up to the log/exp round trip; F0 only moves the median F0 to the female target while the envelope-only
    conversion keeps the source's; warp_scale 1 is the default bit for bit and 0.5 differs."""
    targets, x, feats, _ = setup
    copy = finalize(synthesize(feats), x)
    assert np.array_equal(_conv(setup, convert_f0=False, convert_envelope=False), copy)
    unwarped = _conv(setup, convert_f0=False, warp_scale=0.0)
    assert np.max(np.abs(unwarped - copy)) < 1e-3 * np.max(np.abs(copy)) + 1e-6
    full = _conv(setup)
    f_src, f_full = median_f0(x), median_f0(full)
    f_f0, f_env = median_f0(_conv(setup, convert_envelope=False)), median_f0(_conv(setup, convert_f0=False))
    assert f_full > 1.3 * f_src and abs(np.log(f_f0 / f_full)) < 0.05 and abs(np.log(f_env / f_src)) < 0.05
    assert np.array_equal(_conv(setup, warp_scale=1.0), full)
    assert not np.array_equal(_conv(setup, warp_scale=0.5), full)


def test_near_targets(vctk_voices):
    """near_targets n: every drawn target is replaced by one of the n pool speakers of smallest |a0| for this
    source, the same draw always by the same one; the conversion equals the plain one towards that speaker bit for
    bit; n 0 keeps the plan's target; n >= pool size can still pick any speaker."""
    from pydeid.voice.vtln.target_choice import pick, rank_near
    pool = ("p225", "p226", "p228")
    targets = build_vtln({s: vctk_voices[s][:4] for s in pool}, k=4, seed=0)
    fit, x = vctk_voices["p227"][:4], vctk_voices["p227"][10]
    feats = analyze(x, SR, targets.world)
    near = VtlnTransformer(targets, params=build_vtln_params(near_targets=1)).fit(fit, SR, seed=0)
    plain = VtlnTransformer(targets).fit(fit, SR, seed=0)
    als = {t: plain.alignment(t) for t in pool}
    order = rank_near(als)
    assert [abs(als[t]["global_alpha"]) for t in order] == sorted(abs(als[t]["global_alpha"]) for t in pool)
    best = order[0]
    far = [t for t in pool if t != best][0]
    y = near.transform_features(feats, far, x)
    assert np.array_equal(y, plain.transform_features(feats, best, x))
    assert not np.array_equal(plain.transform_features(feats, far, x), y)
    assert pick(order[:2], "u1") == pick(order[:2], "u1") in order[:2]
    assert {pick(order, f"t{i}") for i in range(40)} == set(pool)
    with pytest.raises(ValueError):
        build_vtln_params(near_targets=-1)


def test_liftered_class_shift():
    """class_shift_lifter n: the change made to a voiced frame is the class difference's projection on c1..cn (no
    smoothing, no warp, beta 1: exactly); a lifter of all F-1 cepstra is the whole difference; 0 is the default."""
    from pydeid.voice.vtln import dct_basis
    Y, voiced, cls, S, Tg = _toy(F=65)
    a = np.zeros(len(Y))
    full = replace_class_means(Y, voiced, cls, a, S, Tg, 1.0, 1.0, smooth_frames=1)
    assert np.array_equal(replace_class_means(Y, voiced, cls, a, S, Tg, 1.0, 1.0, smooth_frames=1, lifter=0), full)
    low = replace_class_means(Y, voiced, cls, a, S, Tg, 1.0, 1.0, smooth_frames=1, lifter=4)
    B = dct_basis(65, 4)
    D = Tg[cls] - S[cls]
    assert np.allclose((low - Y)[voiced], ((D @ B) @ B.T)[voiced]) and np.array_equal(low[~voiced], Y[~voiced])
    assert not np.allclose(low, full)
    assert np.allclose(replace_class_means(Y, voiced, cls, a, S, Tg, 1.0, 1.0, smooth_frames=1, lifter=64), full)
    with pytest.raises(ValueError):
        build_vtln_params(class_shift_lifter=-2)


def test_near_targets_f0_from_the_drawn_target(vctk_voices):
    """near_f0_drawn: the envelope goes to the near speaker, the F0 to the drawn one (male p226 drawn, female p225
    the near one for a p228 source here or the other way round: the median F0 follows the drawn target)."""
    pool = ("p225", "p226")
    targets = build_vtln({s: vctk_voices[s][:4] for s in pool}, k=4, seed=0)
    fit, x = vctk_voices["p228"][:4], vctk_voices["p228"][10]
    feats = analyze(x, SR, targets.world)
    tr = VtlnTransformer(targets, params=build_vtln_params(near_targets=1)).fit(fit, SR, seed=0)
    tr_d = VtlnTransformer(targets, params=build_vtln_params(near_targets=1, near_f0_drawn=True)).fit(fit, SR,
                                                                                                      seed=0)
    plain = VtlnTransformer(targets).fit(fit, SR, seed=0)
    near = tr.transform_features(feats, "p225", x) is not None and tr._near[0]
    other = [t for t in pool if t != near][0]
    f_near = median_f0(plain.transform_features(feats, near, x))
    f_other = median_f0(plain.transform_features(feats, other, x))
    assert abs(np.log(f_near / f_other)) > 0.3                      # one female, one male target
    assert abs(np.log(median_f0(tr.transform_features(feats, other, x)) / f_near)) < 0.05
    assert abs(np.log(median_f0(tr_d.transform_features(feats, other, x)) / f_other)) < 0.05
    assert np.array_equal(tr_d.transform_features(feats, near, x), plain.transform_features(feats, near, x))


def test_k_configs_load(repo_root):
    """conf/voice/vtln_k*.yaml: every key is a VTLN option with a valid value, and each turns on what its name says."""
    from pydeid.cli.transform_voice import _load_config
    got = {}
    for f in sorted((repo_root / "conf/voice/tuning").glob("vtln_k*.yaml")):
        cfg = _load_config(f, "vtln")
        params = {k: v for k, v in cfg.items() if k not in ("k", "world", "target_gender")}
        got[f.stem] = build_vtln_params(**params)
    assert set(got) == {"vtln_ksoft", "vtln_knear", "vtln_knearlift", "vtln_knearsoft", "vtln_knearsoft10"}
    assert got["vtln_ksoft"].class_temperature > 0 and got["vtln_knear"].near_targets > 0
    assert got["vtln_knearlift"].class_shift_lifter > 0 and got["vtln_knearlift"].near_f0_drawn
    assert all(p.class_shift == 1.0 for p in got.values())
