"""pydeid.voice.vtln.f0_map: the F0 mapping options of VTLN (issue 19, part V): the shift of the log-F0 mean capped at n
semitones, the source's log-F0 range kept; the defaults are today's conversion bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

from pydeid.voice.common import convert_log_f0
from pydeid.voice.vtln.f0_map import map_f0, mapped_target
from pydeid.voice.vtln import VtlnTransformer, build_vtln_params
from voice_helpers import median_f0

SR = 16000
ST = np.log(2.0) / 12


def semitones(a, b):
    return 12 * np.log2(a / b)


@pytest.fixture
def track():
    rng = np.random.default_rng(0)
    f0 = np.exp(np.log(210.0) + 0.15 * rng.standard_normal(400))   # a female-like contour, std 0.15 in log
    f0[rng.random(400) < 0.3] = 0.0                                 # unvoiced frames
    return f0


def test_defaults_are_the_log_gaussian_conversion(track):
    src, tgt = (np.log(210.0), 0.15), (np.log(115.0), 0.10)
    assert np.array_equal(map_f0(track, src, tgt), convert_log_f0(track, src, tgt))


def test_the_shift_is_capped_and_a_small_one_kept(track):
    src = (np.log(210.0), 0.15)
    far, near = (np.log(115.0), 0.10), (np.log(210.0) - 2 * ST, 0.10)   # -10.4 and -2 semitones
    out = map_f0(track, src, far, max_shift=4.0)
    v = track > 0
    assert np.array_equal(out > 0, v)                                   # voicing unchanged
    assert np.allclose(out, convert_log_f0(track, src, (np.log(210.0) - 4 * ST, 0.10)))   # moved 4 semitones
    assert np.log(out[v]).std() == pytest.approx(0.10 / 0.15 * np.log(track[v]).std(), rel=1e-9)
    assert np.array_equal(map_f0(track, src, near, max_shift=4.0), convert_log_f0(track, src, near))
    up = mapped_target((np.log(115.0), 0.1), (np.log(210.0), 0.1), max_shift=3.0)   # upwards the same way
    assert up[0] == pytest.approx(np.log(115.0) + 3 * ST)


def test_keep_range_moves_the_mean_only(track):
    src, tgt = (np.log(210.0), 0.15), (np.log(115.0), 0.05)
    out = map_f0(track, src, tgt, keep_range=True)
    v = track > 0
    assert np.allclose(np.log(out[v]) - np.log(track[v]), np.log(115.0) - np.log(210.0))   # the contour, shifted


@pytest.mark.parametrize("opt,msg", [
    ({"f0_max_shift": -1}, "f0_max_shift must be a number in [0, 24] (semitones; 0: no cap), got -1"),
    ({"f0_max_shift": "4"}, "f0_max_shift must be a number"),
    ({"f0_keep_range": "yes"}, "f0_keep_range must be true or false, got 'yes'"),
    ({"f0_max_shift": 4.0, "convert_f0": False}, "f0_max_shift / f0_keep_range need convert_f0 true"),
])
def test_bad_f0_options_fail_in_one_line(opt, msg):
    with pytest.raises(ValueError) as e:
        build_vtln_params(**opt)
    assert msg in str(e.value) and "\n" not in str(e.value)


def test_a_male_voice_to_a_female_target_moves_at_most_the_cap(vctk_voices, vctk_targets):
    """p227 (male) converted to p225 (female, pool of the fixture): the default moves the median F0 up by more than
    5 semitones (most of the gender gap); f0_max_shift 3 keeps it within 3 semitones (plus the estimator's error)
    of the source's."""
    x = vctk_voices["p227"][12]
    fit = vctk_voices["p227"][:3]
    dflt = VtlnTransformer(vctk_targets).fit(fit, SR).transform(x, "p225", SR)
    capped = VtlnTransformer(vctk_targets, params=build_vtln_params(f0_max_shift=3.0)).fit(fit, SR)
    y = capped.transform(x, "p225", SR)
    s = median_f0(x)
    assert semitones(median_f0(dflt), s) > 5.0
    assert 1.5 < semitones(median_f0(y), s) < 4.0
