"""Class means of the unvoiced frames (pydeid/voice/vtln/unvoiced_classes.py; VTLN options unvoiced_shift, pause_shift,
pause_level with classes: phones, conf/voice/vtln_u*.yaml): frames of a hand-made phone CTM on real speech get the
target's class mean, voiced frames are untouched, shifts 0 are bit-identical, source = target is the identity."""

from __future__ import annotations

import numpy as np
import pytest

from pydeid.voice import analyze
from pydeid.voice.vtln import phone_classes as P
from pydeid.voice.vtln import unvoiced_classes as U
from pydeid.voice.vtln import VtlnTargets, VtlnTransformer, build_vtln_params, normalised_log
from pydeid.voice.world import WorldConfig
from test_phone_classes import _ali_dir
from test_voice_cli import src_dir, tgt_dir  # noqa: F401 (fixtures)

SR = 16000
FP = 5.0
CYCLE = ["SIL", "IY", "S", "AA", "T", "N", "D", "EH", "SH", "UW", "F", "AH", "+NSN+", "K", "ER"]


def _labels(tmp_path, f, name, cycle=CYCLE, step=0.06):
    """Frame labels of a hand-made CTM over the whole utterance: `step`-second phones cycling through `cycle`."""
    lines, t, i = [], 0.0, 0
    while t < len(f.f0) * FP / 1000:
        lines.append(f"u 1 {t:.3f} {step:.3f} {cycle[i % len(cycle)]}")
        t, i = t + step, i + 1
    return P.PhoneAlignment.read(_ali_dir(tmp_path, lines, name=name)).frame_classes("u", len(f.f0), FP)


@pytest.fixture(scope="module")
def feats(vctk_voices):
    """Two real 4-second sentences of two speakers (VCTK p227, p225), WORLD features."""
    return {s: analyze(vctk_voices[s][0], SR) for s in ("p227", "p225")}


def test_frame_classes_from_the_ctm(tmp_path):
    """Voiceless obstruents get their phone's class, voiced obstruents their group, vowels and sonorants
    "sonorant", silence, fillers and unaligned frames "pause"; without the phones (a plain array) the voiceless
    obstruents get their group; a slice of the labels no longer carries the phones."""
    ali = P.PhoneAlignment.read(_ali_dir(tmp_path, ["u1 1 0.000 0.050 SIL", "u1 1 0.050 0.050 S", "u1 1 0.100 0.050 T",
                                                    "u1 1 0.150 0.050 D", "u1 1 0.200 0.050 IY1",
                                                    "u1 1 0.250 0.050 +NSN+"]))
    lab = ali.frame_classes("u1", 70, FP)
    c = U.frame_classes(lab)
    want = ["pause", "S", "T", "voiced_obstruent", "sonorant", "pause", "pause"]
    for i, w in enumerate(want):
        assert (c[i * 10:(i + 1) * 10] == U.INDEX[w]).all(), (i, w)
    plain = U.frame_classes(np.asarray(lab))
    assert (plain[10:30] == U.INDEX["voiceless_obstruent"]).all() and (plain[:10] == U.I_PAUSE).all()
    assert lab[5:].phones is None and (U.frame_classes(lab[10:20]) == U.INDEX["voiceless_obstruent"]).all()


def test_model_class_means_and_backoff(feats, tmp_path):
    """A class spectrum is the mean normalised log envelope of its unvoiced frames; a phone below min_frames backs
    off to voiceless_obstruent (the frames of every voiceless phone), an absent phone (CH) too; the pause level is
    the pause frames' mean level relative to the speech frames' level."""
    f = feats["p227"]
    lab = _labels(tmp_path, f, "a")
    uc = U.frame_classes(lab)
    u = ~f.voiced
    L = normalised_log(f.sp)
    n = {k: int((u & (uc == U.INDEX[k])).sum()) for k in ("S", "SH", "T", "F", "K", "pause")}
    assert min(n.values()) > 0 and n["pause"] > 20, n
    st = U.UnvoicedStats()
    st.add(f, lab)
    lo = sorted(n[k] for k in ("S", "SH", "T", "F", "K"))[2]     # the middle count: some phones above, some below
    spec, lev = st.model(min_frames=lo)
    vl = u & np.isin(uc, [U.INDEX[p] for p in U.UNVOICED_PHONES])
    for k in ("S", "SH", "T", "F", "K"):
        own = u & (uc == U.INDEX[k])
        want = L[own].mean(0) if n[k] >= lo else L[vl].mean(0)
        assert np.allclose(spec[U.INDEX[k]], want), k
    assert np.allclose(spec[U.INDEX["CH"]], L[vl].mean(0))
    assert not np.allclose(spec[U.INDEX["S"]], spec[U.I_PAUSE], atol=0.1)
    pa = u & (uc == U.I_PAUSE)
    lg = np.log(f.sp)
    assert np.isclose(lev[U.I_PAUSE], lg[pa].mean() - U.speech_level(f))
    assert lev[U.I_PAUSE] < lev[U.INDEX["S"]]        # silence is quieter than a fricative
    assert U.UnvoicedStats().model(5) == (None, None)


def _targets(f, lab, min_frames=5):
    return VtlnTargets({"t": P.phone_speaker_model([(f, lab)], min_frames=min_frames)}, P.K, WorldConfig(),
                       classes="phones")


def _envelopes(monkeypatch, tr, f, x, lab):
    """The converted log envelope the transformer hands to the WORLD synthesis."""
    import pydeid.voice.vtln.core as V   # the module whose synthesize the conversion calls
    got = {}
    real = V.synthesize

    def spy(feats, f0=None, sp=None, ap=None):
        got["sp"], got["f0"] = sp, f0
        return real(feats, f0=f0, sp=sp, ap=ap)
    monkeypatch.setattr(V, "synthesize", spy)
    y = tr.transform_features(f, "t", x, labels=lab)
    return np.log(got["sp"]), got["f0"]


def test_unvoiced_frames_get_the_target_class_mean(feats, vctk_voices, tmp_path, monkeypatch):
    """p227 converted towards p225 (no warp, class means replaced, smoothing 1): every unvoiced frame's normalised
    envelope minus its own deviation from the source class mean is the target's class mean (pause frames: pause
    shift, others: unvoiced shift), its level moves by the difference of the class levels only on pause frames with
    pause_level (pause_residual 0: all pause frames alike); the voiced frames are those of the voiced-only conversion (vtln:3_phanycmnw) bit for bit."""
    f, g = feats["p227"], feats["p225"]
    x = vctk_voices["p227"][0]
    lab, glab = _labels(tmp_path, f, "s"), _labels(tmp_path, g, "t")
    targets = _targets(g, glab)
    base = dict(classes="phones", phone_min_frames=5, warp_scale=0.0, class_shift=1.0)
    out, f0s = {}, {}
    for name, kw in (("voiced", {}), ("u", dict(unvoiced_shift=1.0, pause_shift=1.0)),
                     ("ul", dict(unvoiced_shift=1.0, pause_shift=1.0, pause_level=1.0)),
                     ("p", dict(pause_shift=1.0)),
                     ("flat", dict(unvoiced_shift=1.0, pause_shift=1.0, pause_level=1.0, pause_residual=0.0)),
                     ("fv", dict(unvoiced_shift=1.0, pause_shift=1.0, pause_level=1.0, pause_residual=0.0,
                                 pause_voiced=True))):
        tr = VtlnTransformer(targets, smooth_frames=1, params=build_vtln_params(**base, **kw))
        tr.fit_features([f], labels=[lab])
        out[name], f0s[name] = _envelopes(monkeypatch, tr, f, x, lab)
    src, tgt = tr.source_, targets.models["t"]
    v, u = f.voiced, ~f.voiced
    uc = U.frame_classes(lab)[u]
    Y = np.log(np.maximum(f.sp[u], 1e-30))             # warp_scale 0: the unvoiced frames are the source's
    S = src.unvoiced_spectra - src.unvoiced_spectra.mean(1, keepdims=True)
    T = tgt.unvoiced_spectra - tgt.unvoiced_spectra.mean(1, keepdims=True)
    for name in ("u", "ul", "flat"):
        assert np.array_equal(out[name][v], out["voiced"][v]), name
    for name in ("u", "ul"):
        Z = out[name][u]
        dev = Y - Y.mean(1, keepdims=True) - S[uc]
        assert np.allclose(Z - Z.mean(1, keepdims=True) - dev, T[uc], atol=1e-8), name
    assert np.allclose(out["u"][u].mean(1), Y.mean(1))                 # levels kept without pause_level
    dl = out["ul"][u].mean(1) - Y.mean(1)
    pause = uc == U.I_PAUSE
    assert np.allclose(dl[pause], (tgt.unvoiced_levels - src.unvoiced_levels)[U.I_PAUSE])
    assert np.allclose(dl[~pause], 0) and abs(dl[pause][0]) > 0.05
    # pause_shift alone: the pause frames as with both shifts, the others as the source made them
    assert np.allclose(out["p"][u][pause], out["u"][u][pause])
    assert np.allclose(out["p"][u][~pause], out["voiced"][u][~pause], atol=1e-9)
    assert not np.allclose(out["u"][u][~pause], out["voiced"][u][~pause], atol=0.1)
    # pause_residual 0: every pause frame is the target's mean pause envelope at the speech level + the target's
    # pause level; the other unvoiced frames as with residual 1
    Z = out["flat"][u]
    assert np.allclose(Z[pause] - Z[pause].mean(1, keepdims=True), T[U.I_PAUSE], atol=1e-8)
    assert np.allclose(Z[pause].mean(1), U.speech_level(f) + tgt.unvoiced_levels[U.I_PAUSE])
    assert np.allclose(Z[~pause], out["ul"][u][~pause])
    # pause_voiced: the voiced frames without a phone are pause frames too (the target's flat pause, F0 0); the
    # voiced frames of phones and every F0 elsewhere as without it
    vp = v & (np.asarray(lab) < 0)
    assert vp.sum() > 5 and (f0s["fv"][vp] == 0).all() and (f0s["flat"][vp] > 0).all()
    assert np.array_equal(f0s["fv"][~vp], f0s["flat"][~vp])
    assert np.array_equal(out["fv"][v & ~vp], out["voiced"][v & ~vp])
    Z = out["fv"][vp]
    assert np.allclose(Z - Z.mean(1, keepdims=True), T[U.I_PAUSE], atol=1e-8)
    assert np.allclose(Z.mean(1), U.speech_level(f) + tgt.unvoiced_levels[U.I_PAUSE])


def test_shift_zero_is_bit_identical_and_identity(feats, vctk_voices, tmp_path):
    """Shifts 0 give the audio of today's conversion bit for bit (also after a save/load of the pool, which keeps
    the unvoiced classes); source = target (its own model as the only target) changes no frame: the output is the
    voiced-only conversion's (and WORLD copy synthesis'). Seeded: the same call gives the same audio."""
    f = feats["p227"]
    x = vctk_voices["p227"][0]
    lab = _labels(tmp_path, f, "s")
    targets = _targets(f, lab)
    targets.save(tmp_path / "pool.npz")
    loaded = VtlnTargets.load(tmp_path / "pool.npz")
    assert np.array_equal(loaded.models["t"].unvoiced_spectra, targets.models["t"].unvoiced_spectra)
    assert np.array_equal(loaded.models["t"].unvoiced_levels, targets.models["t"].unvoiced_levels)
    base = dict(classes="phones", phone_min_frames=5, class_shift=1.0)
    ys = {}
    for name, pool, kw in (("today", targets, {}), ("zero", loaded, dict(unvoiced_shift=0.0, pause_shift=0.0)),
                           ("self", loaded, dict(unvoiced_shift=1.0, pause_shift=1.0, pause_level=1.0))):
        tr = VtlnTransformer(pool, params=build_vtln_params(**base, **kw))
        tr.fit_features([f], labels=[lab])
        ys[name] = tr.transform_features(f, "t", x, labels=lab)
        assert np.array_equal(ys[name], tr.transform_features(f, "t", x, labels=lab))
    assert np.array_equal(ys["zero"], ys["today"])
    assert np.allclose(ys["self"], ys["today"], atol=1e-6)


def test_one_line_errors(vctk_targets, feats, tmp_path):
    """Bad values and k-means classes are refused in one line; a pool built before the unvoiced classes (no
    unvoiced spectra) is refused with the advice to rebuild it."""
    for bad, msg in (({"unvoiced_shift": 1.5}, "unvoiced_shift must be a number in"),
                     ({"pause_shift": "x"}, "pause_shift must be a number in"),
                     ({"pause_level": True}, "pause_level must be a number in"),
                     ({"pause_residual": -0.1}, "pause_residual must be a number in"),
                     ({"pause_residual": 0.5}, "need classes: phones"),
                     ({"pause_voiced": 1}, "pause_voiced must be true or false"),
                     ({"pause_voiced": True}, "pause_voiced needs classes: phones"),
                     ({"unvoiced_shift": 1.0}, "need classes: phones")):
        with pytest.raises(ValueError, match=msg):
            build_vtln_params(**bad)
    f = feats["p227"]
    old = _targets(f, _labels(tmp_path, f, "s"))
    old.models["t"].unvoiced_spectra = old.models["t"].unvoiced_levels = None
    old.save(tmp_path / "old.npz")
    with pytest.raises(ValueError, match=r"no unvoiced class spectra .*'t'.*rebuild it"):
        VtlnTransformer(VtlnTargets.load(tmp_path / "old.npz"),
                        params=build_vtln_params(classes="phones", pause_shift=1.0))
    VtlnTransformer(VtlnTargets.load(tmp_path / "old.npz"), params=build_vtln_params(classes="phones"))


def test_unvoiced_configs_load(repo_root):
    """Every conf/voice/vtln_u*.yaml is a valid VTLN config with phone classes and some unvoiced option, and its
    copies under egs/*/s5/conf/voice are identical."""
    from pydeid.cli.transform_voice import _load_config
    confs = sorted((repo_root / "conf" / "voice" / "tuning").glob("vtln_u*.yaml"))
    assert len(confs) >= 3
    for c in confs:
        conf = _load_config(c, "vtln")
        for k in ("world", "k", "target_gender"):
            conf.pop(k, None)
        p = build_vtln_params(**conf)
        assert p.classes == "phones" and (p.unvoiced_shift or p.pause_shift or p.pause_level or p.pause_voiced), \
            c.name
        for copy in repo_root.glob(f"egs/*/s5/conf/voice/{c.name}"):
            assert copy.read_text() == c.read_text(), copy


def test_cli_unvoiced_config_and_stale_pool(src_dir, tgt_dir, tmp_path, repo_root):  # noqa: F811
    """conf/voice/vtln_ufvphanycmnw.yaml through transform-voice: the options are in the secret plan, the pool holds
    the unvoiced classes, the audio differs from the voiced-only conversion (vtln_phanycmnw.yaml) with the same
    draws; a pool shared with --pool-file before the unvoiced classes existed (its key lacks them) is rebuilt, not
    reused."""
    import json

    import soundfile as sf

    from test_phone_classes import _cycle_ctm
    from test_voice_cli import cli
    src_ali, tgt_ali = _cycle_ctm(src_dir, tmp_path), _cycle_ctm(tgt_dir, tmp_path)
    shared = tmp_path / "pool.npz"
    outs = {}
    for name in ("phanycmnw", "ufvphanycmnw"):
        out, exp = tmp_path / f"out_{name}", tmp_path / f"exp_{name}"
        cli("transform-voice", "--method", "vtln", "--config", repo_root / f"conf/voice/vtln_{name}.yaml",
            "--target-data", tgt_dir, "--exp-dir", exp, "--ali-dir", src_ali, "--target-ali-dir", tgt_ali,
            "--pool-file", shared, src_dir, out)
        outs[name] = (out, json.loads((exp / "secrets" / "voice_plan.json").read_text()))
        if name == "phanycmnw":   # make the shared pool one of before: no unvoiced classes, a key without them
            old = VtlnTargets.load(shared)
            for m in old.models.values():
                m.unvoiced_spectra = m.unvoiced_levels = None
            old.save(shared)
            key = json.loads((tmp_path / "pool.npz.json").read_text())
            assert key.pop("unvoiced_classes") == 1
            (tmp_path / "pool.npz.json").write_text(json.dumps(key))
    (a, pa), (b, pb) = outs["phanycmnw"], outs["ufvphanycmnw"]
    assert pb["params"]["pause_voiced"] is True and pb["params"]["pause_residual"] == 0.0
    assert {u: e["target"] for u, e in pa["utt"].items()} == {u: e["target"] for u, e in pb["utt"].items()}
    assert all(m.unvoiced_spectra is not None for m in VtlnTargets.load(shared).models.values())
    for u in pa["utt"]:
        x, y = sf.read(a / "wav" / f"{u}.wav")[0], sf.read(b / "wav" / f"{u}.wav")[0]
        assert len(x) == len(y) and np.isfinite(y).all() and not np.array_equal(x, y)
