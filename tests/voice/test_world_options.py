"""pydeid.voice.world: the WORLD analysis options beyond f0_method / frame_period / fft_size (issue 19, part V):
validation in one line, defaults identical to pyworld's own defaults (today's outputs unchanged), each option
reaching pyworld, and the options carried by a plan, a target pool and the pool's sharing key."""

from __future__ import annotations

import numpy as np
import pytest

from pydeid.voice.world import EXTRA_DEFAULTS, WorldConfig, analyze, f0_track, synthesize

SR = 16000


@pytest.fixture(scope="module")
def voice(vctk_voices):
    return np.asarray(vctk_voices["p225"][0][:2 * SR], np.float64)   # 2 s of a real female voice


def test_default_analysis_is_pyworlds_default_analysis(voice):
    import pyworld as pw
    f0, t = pw.dio(voice, SR, f0_floor=71.0, f0_ceil=800.0, frame_period=5.0)
    f0 = pw.stonemask(voice, f0, t, SR)
    f = analyze(voice, SR, WorldConfig())
    assert np.array_equal(f.f0, f0)
    assert np.array_equal(f.sp, pw.cheaptrick(voice, f0, t, SR))
    assert np.array_equal(f.ap, pw.d4c(voice, f0, t, SR))
    assert WorldConfig().extras() == {}
    assert WorldConfig().to_dict() == {"f0_method": "dio", "frame_period": 5.0, "fft_size": None}


def test_d4c_threshold_0_keeps_every_voiced_frame_periodic(voice):
    """d4c's own voicing decision (0.85) turns some F0-voiced frames into noise (aperiodicity 1 over the whole band);
    threshold 0 leaves every F0-voiced frame as the F0 estimator voiced it. Same F0 and envelope either way."""
    a, b = analyze(voice, SR, WorldConfig()), analyze(voice, SR, WorldConfig(d4c_threshold=0.0))
    noise = lambda f: (f.ap.min(axis=1) > 0.999) & (f.f0 > 0)   # noqa: E731
    assert noise(a).sum() > 0 and noise(b).sum() == 0
    assert np.array_equal(a.f0, b.f0) and np.array_equal(a.sp, b.sp)


def test_each_analysis_option_reaches_pyworld(voice):
    base = analyze(voice, SR, WorldConfig())
    assert analyze(voice, SR, WorldConfig(fft_size=2048)).sp.shape == (len(base.f0), 1025)
    assert not np.array_equal(analyze(voice, SR, WorldConfig(cheaptrick_q1=0.0)).sp, base.sp)
    for opt in ({"stonemask": False}, {"dio_speed": 4}, {"dio_channels_in_octave": 4.0},
                {"dio_allowed_range": 0.2}, {"f0_floor": 100.0}):
        f0, _ = f0_track(voice, SR, WorldConfig(**opt))
        assert len(f0) == len(base.f0) and not np.array_equal(f0, base.f0), opt
    # a floor above the voice's octave-down errors: no voiced frame below it; the envelope keeps its resolution
    # (cheaptrick's FFT size would follow its floor and no longer match d4c's: pyworld refuses to synthesise)
    f = analyze(voice, SR, WorldConfig(f0_floor=100.0, f0_ceil=500.0))
    assert f.f0[f.f0 > 0].min() >= 95.0 and f.f0.max() <= 500.0
    assert f.sp.shape == f.ap.shape == base.sp.shape
    assert len(synthesize(f)) == len(voice)


@pytest.mark.parametrize("opt,msg", [
    ({"fft_size": 1000}, "fft_size must be a power of two >= 128, got 1000"),
    ({"fft_size": 64}, "fft_size must be a power of two"),
    ({"f0_floor": 0}, "f0_floor must be a number in [20, 1000], got 0"),
    ({"f0_floor": 300.0, "f0_ceil": 200.0}, "f0_ceil (200) must be above f0_floor (300)"),
    ({"stonemask": "no"}, "stonemask must be true or false, got 'no'"),
    ({"dio_speed": 1.5}, "dio_speed must be an integer in [1, 12], got 1.5"),
    ({"dio_speed": 13}, "dio_speed must be an integer in [1, 12], got 13"),
    ({"dio_allowed_range": -0.1}, "dio_allowed_range must be a number in [0, 1]"),
    ({"d4c_threshold": 1.5}, "d4c_threshold must be a number in [0, 1], got 1.5"),
    ({"d4c_threshold": True}, "d4c_threshold must be a number"),
    ({"cheaptrick_q1": float("nan")}, "cheaptrick_q1 must be a number"),
    ({"f0_method": "harvest", "stonemask": False}, "stonemask applies to f0_method dio only"),
    ({"f0_method": "harvest", "dio_speed": 2}, "dio_speed applies to f0_method dio only"),
])
def test_bad_world_options_fail_in_one_line(opt, msg):
    with pytest.raises(ValueError) as e:
        WorldConfig(**opt)
    assert msg in str(e.value) and "\n" not in str(e.value)


def test_options_travel_with_the_plan_the_pool_and_the_pool_key(tmp_path, vctk_voices):
    from pydeid.voice import build_vtln
    from pydeid.voice.convert import pool_key
    from pydeid.voice.vtln import VtlnTargets
    w = WorldConfig(fft_size=2048, d4c_threshold=0.0, f0_floor=90.0)
    assert w.extras() == {"d4c_threshold": 0.0, "f0_floor": 90.0}
    assert WorldConfig(**w.to_dict()) == w                       # a plan's world block rebuilds the same config
    pool = build_vtln({"p225": vctk_voices["p225"][:2]}, k=2, world=w, seed=0)
    pool.save(tmp_path / "pool.npz")
    back = VtlnTargets.load(tmp_path / "pool.npz")
    assert back.world == w and back.models["p225"].class_spectra.shape[1] == 1025
    # default settings: the pool file and the sharing key hold no new field (old shared pools still match)
    d = tmp_path / "d"
    d.mkdir()
    (d / "wav.scp").write_text("u1 /x.wav\n")
    assert "world_extras" not in pool_key(d, 10, 0, 8, WorldConfig())
    assert pool_key(d, 10, 0, 8, w)["world_extras"] == {"d4c_threshold": 0.0, "f0_floor": 90.0}
    assert set(EXTRA_DEFAULTS) == {"f0_floor", "f0_ceil", "stonemask", "dio_speed", "dio_channels_in_octave",
                                   "dio_allowed_range", "cheaptrick_q1", "d4c_threshold"}


def test_v_configs_load(repo_root):
    """Every conf/voice/vtln_v*.yaml (issue 19 part V) is a valid VTLN config: its parameters and its world block."""
    from pydeid.cli.transform_voice import _load_config
    from pydeid.voice.vtln import build_vtln_params
    confs = sorted((repo_root / "conf" / "voice" / "tuning").glob("vtln_v*.yaml"))
    assert len(confs) >= 3
    for c in confs:
        conf = _load_config(c, "vtln")
        WorldConfig(**(conf.pop("world", None) or {}))
        conf.pop("k", None)
        conf.pop("target_gender", None)
        assert build_vtln_params(**conf).classes == "phones", c.name
