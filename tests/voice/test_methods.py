"""pydeid.voice methods on real voices: output contract and the direction of F0/spectral changes."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg
import scipy.signal

from pydeid.voice import (McAdamsTransformer, VoiceMaskTransformer, VtlnTransformer, WorldConfig, analyze,
                          build_mcadams, build_voicemask)
from pydeid.voice.common import rng_for
from pydeid.voice.mcadams import lpc_batch, mcadams_lpc
from pydeid.voice.voicemask import draw_voicemask
from pydeid.voice.warping import (bilinear, bin_omegas, distortion_strength, invert_on_grid, voicemask_warp,
                                  warp_log_envelope)
from voice_helpers import median_f0, spectral_centroid

SR = 16000


def check_contract(x, y):
    assert y.dtype == np.float32
    assert len(y) == len(x)                      # exact length (<= one frame is the contract)
    assert np.all(np.isfinite(y))
    peak = float(np.max(np.abs(y)))
    assert peak <= min(float(np.max(np.abs(x))), 0.99) + 1e-6
    assert peak > 0.1 * float(np.max(np.abs(x)))  # not silence


# ---- warping --------------------------------------------------------------------------------------------------
def test_bilinear_inverse_and_endpoints():
    w = bin_omegas(513)
    for a in (-0.2, 0.05, 0.1):
        assert np.allclose(bilinear(bilinear(w, a), -a), w, atol=1e-12)
        assert abs(bilinear(np.pi, a) - np.pi) < 1e-12 and bilinear(0.0, a) == 0.0
    assert np.all(bilinear(w[1:-1], 0.1) > w[1:-1])           # alpha > 0: formants up


def test_per_frame_warp_equals_shared_warp():
    rng = np.random.default_rng(0)
    L = rng.normal(size=(7, 513))
    w = bin_omegas(513)
    alphas = np.linspace(-0.2, 0.2, 7)
    per_frame = warp_log_envelope(L, bilinear(w[None, :], -alphas[:, None]))
    for t, a in enumerate(alphas):
        assert np.allclose(per_frame[t], warp_log_envelope(L[t:t + 1], bilinear(w, -a))[0])


def test_voicemask_draws_stay_in_the_distortion_band():
    p = build_voicemask()
    w = bin_omegas(2049)
    draws = [draw_voicemask(p, rng_for(0, "u", str(i))) for i in range(40)]
    for d in draws:
        assert 0.08 <= abs(d["alpha"]) <= 0.10 and -2 <= d["beta"] <= 2
        ds = distortion_strength(voicemask_warp(w, d["alpha"], d["beta"]), w)
        assert 0.32 - 1e-3 <= ds <= 0.40 + 1e-3
        assert 2 ** (2 / 12) - 1e-9 <= max(d["pitch_ratio"], 1 / d["pitch_ratio"]) <= 2 ** (4 / 12) + 1e-9
    assert len({round(d["beta"], 3) for d in draws}) > 20     # really random per utterance
    assert draws[3] == draw_voicemask(p, rng_for(0, "u", "3"))  # and reproducible


# ---- VoiceMask -------------------------------------------------------------------------------------------------
def test_voicemask_contract_and_directions(vctk_voices):
    x = vctk_voices["p226"][1]
    tr = VoiceMaskTransformer(build_voicemask())
    w = bin_omegas(513)
    up = {"alpha": 0.09, "beta": 0.0, "pitch_ratio": 2 ** (3 / 12)}
    down = {"alpha": -0.09, "beta": 0.0, "pitch_ratio": 2 ** (-3 / 12)}
    assert distortion_strength(voicemask_warp(w, 0.09, 0.0), w) > 0.32
    y_up, y_down = tr.transform(x, SR, draw=up), tr.transform(x, SR, draw=down)
    for y in (y_up, y_down):
        check_contract(x, y)
    f0 = median_f0(x)
    assert median_f0(y_up) / f0 == pytest.approx(2 ** (3 / 12), rel=0.06)
    assert median_f0(y_down) / f0 == pytest.approx(2 ** (-3 / 12), rel=0.06)
    c = spectral_centroid(x)
    assert spectral_centroid(y_up) > c * 1.04 and spectral_centroid(y_down) < c * 0.96
    assert np.array_equal(tr.transform(x, SR, draw=up), y_up)  # deterministic


def test_voicemask_reuses_a_given_f0_track_bit_identically(vctk_voices):
    """pitch_mode target estimates each source utterance's F0 for the speaker statistics; the conversion reuses
    that track instead of estimating it again (one dio+stonemask per utterance less) and gives the same audio."""
    from pydeid.voice.convert import f0_track
    x = vctk_voices["p226"][1]
    tr = VoiceMaskTransformer(build_voicemask(pitch_mode="target"), WorldConfig(frame_period=10.0))
    draw = {"alpha": 0.09, "beta": 0.0, "pitch_ratio": 1.0, "source_log_f0": [4.8, 0.2],
            "target_log_f0": [5.3, 0.15]}
    y = tr.transform(x, SR, draw=draw)
    assert np.array_equal(tr.transform(x, SR, draw=draw, f0=f0_track(x, tr.world)), y)
    assert not np.array_equal(tr.transform(x, SR, draw=draw, f0=f0_track(x, tr.world) * 1.2), y)  # it is used


# ---- McAdams ---------------------------------------------------------------------------------------------------
def test_lpc_matches_toeplitz_solution_and_filters(vctk_voices):
    x = vctk_voices["p225"][0].astype(np.float64)
    frame = x[8000:8320] * np.hanning(321)[:-1]
    a = lpc_batch(frame[None], 20)[0]
    r = np.correlate(frame, frame, "full")[319:319 + 21]
    ref = scipy.linalg.solve_toeplitz(r[:20], -r[1:21])
    assert np.allclose(a[1:], ref, rtol=1e-4, atol=1e-6)
    a_new = mcadams_lpc(a[None], 0.8)[0]
    ang = np.sort(np.abs(np.angle(np.roots(a))))
    ang_new = np.sort(np.abs(np.angle(np.roots(a_new))))
    cplx = (ang > 1e-6) & (ang < np.pi - 1e-6)
    assert np.allclose(np.sort(ang[cplx] ** 0.8), np.sort(ang_new[cplx]), atol=1e-6)
    assert np.all(np.abs(np.roots(a_new)) < 1)                 # still stable


def test_mcadams_contract_and_effect(vctk_voices):
    x = vctk_voices["p225"][2]
    tr = McAdamsTransformer(build_mcadams())
    y = tr.transform(x, SR)
    check_contract(x, y)
    # alpha = 1 is analysis-synthesis only; alpha < 1 raises the poles below 1 rad (2.5 kHz), where most speech
    # energy lies, so the spectral centroid rises, the more so the smaller alpha
    for xx in (vctk_voices["p225"][1], vctk_voices["p228"][1]):
        c = spectral_centroid(xx)
        c10, c8, c6 = (spectral_centroid(tr.transform(xx, SR, draw={"alpha": a})) for a in (1.0, 0.8, 0.6))
        assert c10 == pytest.approx(c, rel=0.03)
        assert c8 > 1.1 * c10 and c6 > 1.1 * c8
    assert np.array_equal(tr.transform(x, SR), y)
    y_rand = McAdamsTransformer(build_mcadams(alpha_range=[0.7, 0.9]), seed=1).transform(x, SR)
    check_contract(x, y_rand)


def test_mcadams_alpha_one_returns_the_input(vctk_voices):
    """The analysis/synthesis window pair reconstructs exactly: alpha = 1 is the identity, edges included (the
    former Hann-at-both-ends pair modulated the gain between 0.5 and 1 every 10 ms)."""
    from pydeid.voice.mcadams import McAdamsParams, anonymize
    x = vctk_voices["p226"][0].astype(np.float64)
    y = anonymize(x, SR, 1.0)
    assert len(y) == len(x)
    assert np.max(np.abs(y - x)) < 1e-6 * np.max(np.abs(x))
    # other overlaps are normalised by the summed window: still the identity
    y3 = anonymize(x, SR, 1.0, McAdamsParams(shift_ms=5.0))
    assert np.max(np.abs(y3 - x)) < 1e-6 * np.max(np.abs(x))
    # and a real change below 1: the signal differs by far more than rounding
    y8 = anonymize(x, SR, 0.8)
    assert np.sqrt(np.mean((y8 - x) ** 2)) > 0.05 * np.sqrt(np.mean(x ** 2))


# ---- VTLN ------------------------------------------------------------------------------------------------------
def test_vtln_male_to_female_raises_f0_and_centroid(vctk_voices, vctk_targets):
    src = vctk_voices["p226"]                                   # male
    tr = VtlnTransformer(vctk_targets).fit(src[:6], SR, seed=0)
    al = tr.alignment("p228")
    assert al["global_alpha"] > 0 and np.mean(al["alphas"]) > 0  # formants moved up towards the female target
    assert sorted(al["pairs"]) == list(range(8))                 # one-to-one class matching
    tgt_f0 = float(np.exp(vctk_targets.models["p228"].log_f0[0]))
    for x in src[10:12]:                                        # sentences not used for fitting
        y = tr.transform(x, "p228", SR)
        check_contract(x, y)
        assert median_f0(y) > 1.4 * median_f0(x)
        assert median_f0(y) == pytest.approx(tgt_f0, rel=0.25)
        assert spectral_centroid(y) > spectral_centroid(x)


def test_vtln_female_to_male_lowers_f0(vctk_voices):
    from pydeid.voice import build_vtln
    targets = build_vtln({"p226": vctk_voices["p226"][:6]}, k=8, seed=0)
    tr = VtlnTransformer(targets).fit(vctk_voices["p228"][:6], SR)
    x = vctk_voices["p228"][11]
    y = tr.transform(x, "p226", SR)
    check_contract(x, y)
    assert median_f0(y) < 0.75 * median_f0(x)


def test_vtln_targets_roundtrip(tmp_path, vctk_targets, vctk_voices):
    from pydeid.voice import VtlnTargets
    vctk_targets.save(tmp_path / "pool.npz")
    back = VtlnTargets.load(tmp_path / "pool.npz")
    assert sorted(back.models) == ["p225", "p228"] and back.k == 8 and back.world == vctk_targets.world
    x = vctk_voices["p227"][11]
    a = VtlnTransformer(vctk_targets).fit(vctk_voices["p227"][:3], SR).transform(x, "p225", SR)
    b = VtlnTransformer(back).fit(vctk_voices["p227"][:3], SR).transform(x, "p225", SR)
    assert np.array_equal(a, b)


def test_world_harvest_option(vctk_voices):
    x = vctk_voices["p225"][0][:16000]
    f = analyze(x, SR, WorldConfig(f0_method="harvest", frame_period=10.0))
    assert f.sp.shape[0] == len(f.f0) == int(len(x) / SR * 100) + 1
    with pytest.raises(ValueError):
        WorldConfig(f0_method="yin")
