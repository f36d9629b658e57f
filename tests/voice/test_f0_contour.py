"""pydeid.voice.vtln.f0_contour: the mapped log-F0 smoothed inside each voiced run (VTLN option f0_smooth_frames):
voicing and each run's mean kept, the fast movements gone; on a real voice the converted contour is smoother."""

from __future__ import annotations

import numpy as np
import pytest

from pydeid.voice.vtln import VtlnTransformer, build_vtln_params
from pydeid.voice.vtln.f0_contour import smooth_contour, voiced_runs
from pydeid.voice.world import WorldConfig, analyze

SR = 16000


@pytest.fixture
def track():
    rng = np.random.default_rng(0)
    f0 = np.exp(np.log(180.0) + 0.12 * rng.standard_normal(600))
    f0[100:130] = 0.0
    f0[400:420] = 0.0
    f0[595:] = 0.0
    return f0


def test_runs_voicing_and_means_kept(track):
    assert voiced_runs(track) == [(0, 100), (130, 400), (420, 595)]
    out = smooth_contour(track, 40)
    assert np.array_equal(out > 0, track > 0)
    for a, b in voiced_runs(track):
        assert np.log(out[a:b]).mean() == pytest.approx(np.log(track[a:b]).mean(), abs=1e-12)
        # the frame-to-frame jumps of white log-F0 noise fall by far more than half
        assert np.abs(np.diff(np.log(out[a:b]))).mean() < 0.2 * np.abs(np.diff(np.log(track[a:b]))).mean()


def test_off_and_flat(track):
    assert np.array_equal(smooth_contour(track, 0), track)
    flat = smooth_contour(track, 10000)   # longer than every run: each run at its mean
    for a, b in voiced_runs(track):
        assert np.allclose(flat[a:b], np.exp(np.log(track[a:b]).mean()))


@pytest.mark.parametrize("opt,msg", [
    ({"f0_smooth_frames": -1}, "f0_smooth_frames must be an integer in [0, 10000] (0: off), got -1"),
    ({"f0_smooth_frames": 2.5}, "f0_smooth_frames must be an integer"),
    ({"f0_smooth_frames": 40, "convert_f0": False}, "f0_smooth_frames needs convert_f0 true"),
])
def test_bad_option_fails_in_one_line(opt, msg):
    with pytest.raises(ValueError) as e:
        build_vtln_params(**opt)
    assert msg in str(e.value) and "\n" not in str(e.value)


def test_a_real_voice_gets_a_smoother_contour(vctk_voices, vctk_targets):
    """p226 (male) converted to p225: with f0_smooth_frames 40 (200 ms) the re-analysed F0 of the output moves less
    from frame to frame than the default conversion's, at about the same median (within 1 semitone)."""
    x, fit = vctk_voices["p226"][12], vctk_voices["p226"][:3]
    outs = {}
    for n in (0, 40):
        t = VtlnTransformer(vctk_targets, params=build_vtln_params(f0_smooth_frames=n)).fit(fit, SR)
        f0 = analyze(t.transform(x, "p225", SR), SR, WorldConfig()).f0
        both = (f0[1:] > 0) & (f0[:-1] > 0)
        outs[n] = (np.abs(np.diff(np.log(np.maximum(f0, 1e-3))))[both].mean(), np.median(f0[f0 > 0]))
    assert outs[40][0] < 0.7 * outs[0][0]
    assert abs(12 * np.log2(outs[40][1] / outs[0][1])) < 1.0
