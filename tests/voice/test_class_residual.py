"""Class-mean replacement after VTLN (pydeid/voice/vtln/class_residual.py; VTLN plan options class_shift and
residual_scale, conf/voice/vtln_cm.yaml and vtln_avgcm.yaml)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from pydeid.voice import VtlnTransformer, analyze, build_vtln
from pydeid.voice.vtln.class_residual import band_profile, paired_target_spectra, replace_class_means
from pydeid.voice.vtln import VtlnParams, build_vtln_params, dct_basis, normalised_log
from test_voice_cli import check_output_corpus, cli, src_dir, tgt_dir  # noqa: F401 (fixtures)

SR = 16000


def _toy(T=40, F=33, k=3, seed=0):
    rng = np.random.default_rng(seed)
    S = rng.normal(size=(k, F))
    S -= S.mean(1, keepdims=True)
    Tg = rng.normal(size=(k, F))
    Tg -= Tg.mean(1, keepdims=True)
    cls = rng.integers(k, size=T)
    dev = 0.3 * rng.normal(size=(T, F))
    level = rng.normal(size=(T, 1)) * 3
    Y = S[cls] + dev + level
    voiced = rng.random(T) > 0.25
    return Y, voiced, cls, S, Tg, dev, level


def test_limits_of_the_formula():
    """beta 0 / lambda 1 is VTLN bit for bit; beta 1 gives each voiced frame its class's target spectrum plus its
    own deviation; lambda 0 leaves the target spectrum alone; levels and unvoiced frames are kept."""
    Y, voiced, cls, S, Tg, dev, level = _toy()
    alpha = np.zeros(len(Y))
    assert np.array_equal(replace_class_means(Y, voiced, cls, alpha, S, Tg, 0.0, 1.0), Y)
    out = replace_class_means(Y, voiced, cls, alpha, S, Tg, 1.0, 1.0, smooth_frames=1)
    assert np.allclose(out[voiced], (Tg[cls] + dev + level)[voiced])
    assert np.array_equal(out[~voiced], Y[~voiced])
    assert np.allclose(out.mean(1), Y.mean(1))
    only = replace_class_means(Y, voiced, cls, alpha, S, Tg, 1.0, 0.0, smooth_frames=1)
    assert np.allclose(only[voiced], (Tg[cls] + Y.mean(1, keepdims=True))[voiced])
    half = replace_class_means(Y, voiced, cls, alpha, S, Tg, 0.5, 1.0, smooth_frames=1)
    assert np.allclose(half[voiced], ((Y + out) / 2)[voiced])
    # smoothing: a frame among neighbours of its own class is unchanged by it, a class change is averaged
    sm = replace_class_means(Y, voiced, cls, alpha, S, Tg, 1.0, 1.0, smooth_frames=5)
    assert not np.allclose(sm[voiced], out[voiced]) and np.array_equal(sm[~voiced], Y[~voiced])
    with pytest.raises(ValueError):
        replace_class_means(Y, voiced, cls, alpha, S, Tg, 1.5, 1.0)


def test_upper_band_only():
    """class_shift_from_hz: bins below it keep VTLN's envelope exactly, bins from twice it get the full shift."""
    Y, voiced, cls, S, Tg, dev, level = _toy(F=65)
    alpha = np.zeros(len(Y))
    b = band_profile(65, 16000, 2000.0)
    f = np.linspace(0, 8000, 65)
    assert np.all(b[f <= 2000] == 0) and np.all(b[f >= 4000] == 1) and np.all(np.diff(b) >= 0)
    assert np.array_equal(band_profile(65, 16000, 0.0), np.ones(65))
    full = replace_class_means(Y, voiced, cls, alpha, S, Tg, 1.0, 1.0, smooth_frames=1)
    hi = replace_class_means(Y, voiced, cls, alpha, S, Tg, 1.0, 1.0, smooth_frames=1, band=b)
    assert np.allclose(hi[:, f <= 2000], Y[:, f <= 2000]) and np.allclose(hi[:, f >= 4000], full[:, f >= 4000])
    assert not np.allclose(hi[voiced][:, f >= 4000], Y[voiced][:, f >= 4000])
    with pytest.raises(ValueError):
        build_vtln_params(class_shift_from_hz=-1.0)


def test_warped_class_reference():
    """The source class spectrum is warped with the frame's own factor before the difference is taken: a frame
    that is its class spectrum warped by alpha becomes exactly the target class spectrum (beta 1)."""
    from pydeid.voice.warping import bilinear, bin_omegas, warp_log_envelope
    Y, voiced, cls, S, Tg, _, _ = _toy(F=257)
    S = np.stack([np.sin(np.linspace(0, 3 * np.pi * (j + 1), 257)) for j in range(len(S))])
    S -= S.mean(1, keepdims=True)
    alpha = np.full(len(Y), 0.1)
    read = bilinear(bin_omegas(257)[None, :], -alpha[:, None])
    Yw = warp_log_envelope(S[cls], read)
    out = replace_class_means(Yw, np.ones(len(Y), bool), cls, alpha, S, Tg, 1.0, 1.0, smooth_frames=1)
    assert np.allclose(out - out.mean(1, keepdims=True), Tg[cls], atol=1e-9)
    wrong = replace_class_means(Yw, np.ones(len(Y), bool), cls, alpha * 0, S, Tg, 1.0, 1.0, smooth_frames=1)
    assert not np.allclose(wrong - wrong.mean(1, keepdims=True), Tg[cls], atol=1e-3)


def test_paired_target_spectra_average():
    class M:
        def __init__(self, s):
            self.class_spectra = s
    a, b = np.arange(6.0).reshape(3, 2), np.arange(6.0, 12.0).reshape(3, 2)
    got = paired_target_spectra(3, [M(a), M(b)], [[2, 0, 1], [0, 1, 2]])
    want = (a[[2, 0, 1]] + b) / 2
    assert np.allclose(got, want - want.mean(1, keepdims=True))
    with pytest.raises(ValueError):
        paired_target_spectra(4, [M(a)], [[0, 1, 2]])


def test_params_checked():
    assert build_vtln_params() == VtlnParams(class_shift=0.0, residual_scale=1.0)
    for bad in ({"class_shift": -0.1}, {"class_shift": 1.5}, {"residual_scale": 2}, {"class_shift": True},
                {"residual_scale": "1"}):
        with pytest.raises(ValueError):
            build_vtln_params(**bad)


def test_transformer_moves_class_means_to_the_target(vctk_voices):
    """On real voices: with class_shift 1 the converted speech's class means (frames labelled as the input's) lie
    much closer to the paired target class spectra than plain VTLN's; default params are plain VTLN bit for bit;
    seeded (same input, same output)."""
    targets = build_vtln({s: vctk_voices[s][:6] for s in ("p225", "p228")}, k=8, seed=0)
    plain = VtlnTransformer(targets).fit(vctk_voices["p227"][:6], SR, seed=0)
    cm = VtlnTransformer(targets, params=VtlnParams(class_shift=1.0)).fit(vctk_voices["p227"][:6], SR, seed=0)
    x = vctk_voices["p227"][10]
    feats = analyze(x, SR, targets.world)
    y0 = plain.transform_features(feats, "p225", x)
    assert np.array_equal(y0, VtlnTransformer(targets, params=VtlnParams()).fit(
        vctk_voices["p227"][:6], SR, seed=0).transform_features(feats, "p225", x))
    y1 = cm.transform_features(feats, "p225", x)
    assert np.array_equal(y1, cm.transform_features(feats, "p225", x))
    assert len(y1) == len(x) and np.isfinite(y1).all() and not np.array_equal(y0, y1)
    src = cm.source_
    v = feats.voiced
    cls = ((normalised_log(feats.sp[v]) @ dct_basis(feats.sp.shape[1]))[:, None, :]
           - src.centroids[None]).__pow__(2).sum(2).argmin(1)
    tspec = paired_target_spectra(8, [targets.models["p225"]], [cm.alignment("p225")["pairs"]])

    def dist(y):
        g = analyze(y, SR, targets.world)
        L = normalised_log(g.sp[v])
        d = [((L[cls == c].mean(0) - tspec[c]) ** 2).mean() for c in range(8) if (cls == c).sum() >= 10]
        return float(np.mean(d))
    d0, d1 = dist(y0), dist(y1)
    assert d1 < 0.6 * d0, (d0, d1)


def test_cli_config_cm(src_dir, tgt_dir, tmp_path, repo_root):
    """conf/voice/vtln_cm.yaml through transform-voice: the options are in the secret plan, the audio differs from
    plain VTLN with the same draws; a value out of range names the config file."""
    out, exp = tmp_path / "out", tmp_path / "exp"
    cli("transform-voice", "--method", "vtln", "--config", repo_root / "conf/voice/vtln_cm.yaml",
        "--target-data", tgt_dir, "--exp-dir", exp, src_dir, out)
    secret = check_output_corpus(src_dir, out, exp)
    assert secret["params"] == {"class_shift": 1.0, "residual_scale": 1.0}
    plain_out, plain_exp = tmp_path / "plain", tmp_path / "plain_exp"
    cli("transform-voice", "--method", "vtln", "--config", repo_root / "conf/voice/vtln.yaml",
        "--target-data", tgt_dir, "--exp-dir", plain_exp, src_dir, plain_out)
    plain = json.loads((plain_exp / "secrets" / "voice_plan.json").read_text())
    assert {u: e["target"] for u, e in plain["utt"].items()} == {u: e["target"] for u, e in secret["utt"].items()}
    import soundfile as sf
    differ = [not np.array_equal(sf.read(out / "wav" / f"{u}.wav")[0], sf.read(plain_out / "wav" / f"{u}.wav")[0])
              for u in secret["utt"]]
    assert all(differ)
    bad = tmp_path / "bad.yaml"
    bad.write_text("classes:\n  k: 8\n  class_shift: 2.0\n")
    r = cli("transform-voice", "--method", "vtln", "--config", bad, "--target-data", tgt_dir, "--exp-dir",
            tmp_path / "exp4", src_dir, tmp_path / "out4", check=False)
    assert r.returncode != 0 and "bad.yaml" in r.stderr and "class_shift" in r.stderr and "Traceback" not in r.stderr


def test_filled_conversion_applies_the_plan_options(src_dir, tgt_dir, tmp_path):
    """convert-spoken (pydeid.voice.spoken_convert) converts a fill with the plan of the original conversion: with
    the class-mean replacement, averaged targets and per-utterance offsets in the plan, converting the original
    audio itself as the "fill" gives the published audio bit for bit (before: plain VTLN to the first target)."""
    import soundfile as sf

    from pydeid.io import DataDir
    from pydeid.voice.spoken_convert import convert_filled
    conf = tmp_path / "opts.yaml"
    conf.write_text("classes:\n  k: 4\n  class_shift: 1.0\nwarping:\n  n_average: 2\n  warp_jitter: 0.05\n"
                    "f0:\n  pitch_jitter_semitones: 2.0\n")
    out, exp = tmp_path / "out", tmp_path / "exp"
    cli("transform-voice", "--method", "vtln", "--strategy", "3", "--config", conf, "--target-data", tgt_dir,
        "--exp-dir", exp, src_dir, out)
    rep = convert_filled(src_dir, src_dir, exp, tmp_path / "again")
    pub, again = DataDir.read(out), DataDir.read(tmp_path / "again")
    assert rep["converted"] == len(pub.utts) > 0
    for u in pub.utts:
        assert np.array_equal(sf.read(pub.wav_scp[u], dtype="int16")[0], sf.read(again.wav_scp[u], dtype="int16")[0])
