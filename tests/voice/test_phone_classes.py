"""Phone-level classes for VTLN and the class-mean replacement (pydeid/voice/vtln/phone_classes.py; VTLN plan option
classes: phones, conf/voice/vtln_ph*.yaml): frames labelled by a phone CTM, label-identical pairing, one-line
errors for missing alignments."""

from __future__ import annotations

import json

import numpy as np
import pytest

from pydeid.io import FormatError
from pydeid.voice import analyze
from pydeid.voice.vtln import phone_classes as P
from pydeid.voice.vtln import (VtlnParams, VtlnTargets, VtlnTransformer, build_vtln_params, normalised_log,
                               speech_frames)
from test_voice_cli import cli, src_dir, tgt_dir  # noqa: F401 (fixtures)

SR = 16000
FP = 5.0   # ms, the VTLN WORLD frame period


def _ali_dir(tmp_path, lines, failed=None, name="ali"):
    d = tmp_path / name
    (d / "phn_ali").mkdir(parents=True)
    (d / "phn_ali" / "ctm").write_text("".join(line + "\n" for line in lines))
    if failed is not None:
        (d / "report.json").write_text(json.dumps({"counts": {}, "failed": failed}))
    return d


def test_ctm_to_frame_classes(tmp_path):
    """Stress is stripped, silence and fillers leave frames unlabelled (-1), obstruents get their group's class,
    frame t (at t * 5 ms) takes the phone whose segment holds it; failed utterances are all unlabelled."""
    d = _ali_dir(tmp_path, ["u1 1 0.000 0.100 SIL", "u1 1 0.100 0.050 IY1", "u1 1 0.150 0.020 s",
                            "u1 1 0.170 0.030 +NSN+", "u1 1 0.200 0.100 AA0"], failed={"u2": "no path"})
    ali = P.PhoneAlignment.read(d)
    c = ali.frame_classes("u1", 70, FP)
    assert (c[:20] == -1).all() and (c[20:30] == P.INDEX["IY"]).all()
    assert (c[30:34] == P.INDEX["voiceless_obstruent"]).all() and (c[34:40] == -1).all()
    assert (c[40:60] == P.INDEX["AA"]).all() and (c[60:] == -1).all()
    assert (ali.frame_classes("u2", 30, FP) == -1).all()
    ali.check_covers(["u1", "u2"])
    with pytest.raises(FormatError, match="u3"):
        ali.check_covers(["u1", "u3"])


def test_ctm_errors_name_the_file(tmp_path):
    with pytest.raises(FormatError, match=r"phn_ali/ctm.*steps/align.sh --phones true"):
        P.PhoneAlignment.read(tmp_path / "nowhere")
    with pytest.raises(FormatError, match=r"ctm:2: 'QQ' is not an ARPAbet phone"):
        P.PhoneAlignment.read(_ali_dir(tmp_path, ["u1 1 0 0.1 AA", "u1 1 0.1 0.1 QQ"], name="a"))
    with pytest.raises(FormatError, match="empty phone CTM"):
        P.PhoneAlignment.read(_ali_dir(tmp_path, [], name="b"))
    with pytest.raises(FormatError, match=r"ctm:1: start/duration"):
        P.PhoneAlignment.read(_ali_dir(tmp_path, ["u1 1 x 0.1 AA"], name="c"))


@pytest.fixture(scope="module")
def utterance(vctk_voices):
    """A real 4-second sentence (VCTK p227), its WORLD features and speech frames."""
    x = vctk_voices["p227"][0]
    f = analyze(x, SR)
    return x, f, speech_frames(f)


def test_speaker_model_classes_follow_the_labels(utterance, tmp_path):
    """A hand-made CTM labels the first half of the speech IY, the next 20 speech frames IH, the rest AA: each
    class spectrum is the mean normalised log envelope of the speech frames of its phone; a phone below min_frames
    (IH) takes its group's (front: IY + IH frames), a phone without frames its group's (UW: back = AA) or, when the
    group has none either, the pooled spectrum (OY); the class weights count the frames of each label."""
    x, f, sp = utterance
    T = len(f.f0)
    end = T * FP / 1000
    idx = np.flatnonzero(sp)
    a, b = idx[len(idx) // 2] * FP / 1000, idx[len(idx) // 2 + 20] * FP / 1000
    ali = P.PhoneAlignment.read(_ali_dir(tmp_path, [f"u 1 0.0 {a:.3f} IY", f"u 1 {a:.3f} {b - a:.3f} IH",
                                                    f"u 1 {b:.3f} {end - b:.3f} AA"]))
    lab = ali.frame_classes("u", T, FP)
    L = normalised_log(f.sp)
    n_ih = int((sp & (lab == P.INDEX["IH"])).sum())
    assert 10 < n_ih <= 20, n_ih
    m = P.phone_speaker_model([(f, lab)], min_frames=n_ih + 1)

    def mean(*phones):
        sel = sp & np.isin(lab, [P.INDEX[p] for p in phones])
        return L[sel].mean(0)
    assert np.allclose(m.class_spectra[P.INDEX["IY"]], mean("IY"))
    assert np.allclose(m.class_spectra[P.INDEX["AA"]], mean("AA"))
    assert np.allclose(m.class_spectra[P.INDEX["IH"]], mean("IY", "IH"))
    assert np.allclose(m.class_spectra[P.INDEX["UW"]], mean("AA"))
    assert np.allclose(m.class_spectra[P.INDEX["OY"]], L[sp].mean(0))
    assert not np.allclose(mean("IY"), mean("AA"), atol=0.1)
    counts = np.round(m.class_weights * m.n_frames).astype(int)
    assert counts[P.INDEX["IH"]] == n_ih and counts[P.INDEX["IY"]] == int((sp & (lab == P.INDEX["IY"])).sum())
    assert m.n_frames == int(sp.sum()) and counts.sum() == m.n_frames
    # with a lower threshold IH keeps its own spectrum
    m2 = P.phone_speaker_model([(f, lab)], min_frames=n_ih)
    assert np.allclose(m2.class_spectra[P.INDEX["IH"]], mean("IH"))
    with pytest.raises(ValueError, match="frame labels"):
        P.phone_speaker_model([(f, lab[:-1])])


def test_identity_source_equals_target(utterance, tmp_path):
    """Source = target (the same phone-class model): every class's warping factor is 0 and the class-mean
    replacement (class_shift 1) changes nothing: the output is the phone-class VTLN output without it, and both
    are WORLD copy synthesis of the input. Seeded: the same call gives the same audio."""
    from pydeid.voice.world import WorldConfig, finalize, synthesize
    x, f, _ = utterance
    T = len(f.f0)
    lines, t, cyc = [], 0.0, ["SIL", "IY", "N", "AA", "S", "EH", "L", "UW", "D", "AH"]
    while t < T * FP / 1000:
        lines.append(f"u 1 {t:.3f} 0.080 {cyc[len(lines) % len(cyc)]}")
        t += 0.08
    lab = P.PhoneAlignment.read(_ali_dir(tmp_path, lines)).frame_classes("u", T, FP)
    model = P.phone_speaker_model([(f, lab)], min_frames=5)
    targets = VtlnTargets({"me": model}, P.K, WorldConfig(), classes="phones")
    out = {}
    for beta in (0.0, 1.0):
        tr = VtlnTransformer(targets, params=build_vtln_params(classes="phones", class_shift=beta,
                                                               phone_min_frames=5))
        tr.fit_features([f], labels=[lab])
        al = tr.alignment("me")
        assert np.all(al["alphas"] == 0) and al["global_alpha"] == 0 and np.array_equal(al["pairs"], np.arange(P.K))
        out[beta] = tr.transform_features(f, "me", x, labels=lab)
        assert np.array_equal(out[beta], tr.transform_features(f, "me", x, labels=lab))
    copy = finalize(synthesize(f), x)
    assert np.allclose(out[1.0], out[0.0], atol=1e-6)
    assert np.allclose(out[0.0], copy, atol=1e-6)
    with pytest.raises(ValueError, match="phone class of every frame"):
        tr.transform_features(f, "me", x)


def test_label_pairing(utterance, vctk_voices, tmp_path):
    """Classes are paired by label (the identity), each with its own factor near the global one (no-warp
    conversions use VtlnParams.warp_scale 0, applied to every frame's factor whatever the classes)."""
    x, f, _ = utterance
    g = analyze(vctk_voices["p225"][0], SR)
    lines = [f"u 1 {t / 10:.3f} 0.100 {['IY', 'AA', 'N', 'S'][t % 4]}" for t in range(40)]
    ali = P.PhoneAlignment.read(_ali_dir(tmp_path, lines))
    a = P.phone_speaker_model([(f, ali.frame_classes("u", len(f.f0), FP))], min_frames=5)
    b = P.phone_speaker_model([(g, ali.frame_classes("u", len(g.f0), FP))], min_frames=5)
    grid = np.round(np.arange(-0.25, 0.2501, 0.01), 4)
    full = P.align_phones(a, b, grid)
    assert np.any(full["alphas"] != 0)
    assert np.all(np.abs(full["alphas"] - full["global_alpha"]) <= 0.1 + 1e-9)
    assert np.array_equal(full["pairs"], np.arange(P.K))


def test_params_and_pool_checks(vctk_targets):
    assert build_vtln_params().classes == "kmeans"
    for bad in ({"classes": "phonemes"}, {"phone_min_frames": 0}, {"phone_min_frames": 2.5},
                {"classes": "phones", "class_temperature": 0.5}):
        with pytest.raises(ValueError):
            build_vtln_params(**bad)
    with pytest.raises(ValueError, match="k-means|kmeans"):
        VtlnTransformer(vctk_targets, params=VtlnParams(classes="phones"))


def _cycle_ctm(data_dir, path_dir):
    """A hand-made phone CTM of every utterance of a data dir: 80 ms phones cycling through vowels, sonorants and
    obstruents (the classes follow these labels, not the speech)."""
    import soundfile as sf

    from pydeid.io import DataDir
    d = DataDir.read(data_dir)
    cyc = ["SIL", "IY", "N", "AA", "S", "EH", "L", "UW", "D", "AH", "M", "IH", "R", "OW"]
    lines = []
    for u in d.utts:
        dur = sf.info(d.wav_scp[u]).duration
        t, i = 0.0, 0
        while t < dur:
            lines.append(f"{u} 1 {t:.3f} 0.080 {cyc[i % len(cyc)]}")
            t, i = t + 0.08, i + 1
    return _ali_dir(path_dir, lines, failed={}, name=f"ali_{data_dir.name}")


def test_cli_phone_classes(src_dir, tgt_dir, tmp_path, repo_root):  # noqa: F811
    """conf/voice/vtln_phcm.yaml through transform-voice with the alignments (--ali-dir, --target-ali-dir): the
    options are in the secret plan, the audio differs from the k-means class-mean conversion with the same draws;
    no alignment, a missing CTM or an utterance absent from it are one-line errors naming the option or file."""
    import soundfile as sf
    src_ali, tgt_ali = _cycle_ctm(src_dir, tmp_path), _cycle_ctm(tgt_dir, tmp_path)
    conf = repo_root / "conf/voice/vtln_phcm.yaml"
    out, exp = tmp_path / "out", tmp_path / "exp"
    cli("transform-voice", "--method", "vtln", "--config", conf, "--target-data", tgt_dir, "--exp-dir", exp,
        "--ali-dir", src_ali, "--target-ali-dir", tgt_ali, src_dir, out)
    plan = json.loads((exp / "secrets" / "voice_plan.json").read_text())
    assert plan["params"]["classes"] == "phones" and plan["params"]["class_shift"] == 1.0
    assert VtlnTargets.load(exp / "vtln_targets.npz").classes == "phones"
    km_out, km_exp = tmp_path / "km", tmp_path / "km_exp"
    cli("transform-voice", "--method", "vtln", "--config", repo_root / "conf/voice/vtln_cm.yaml", "--target-data",
        tgt_dir, "--exp-dir", km_exp, src_dir, km_out)
    km = json.loads((km_exp / "secrets" / "voice_plan.json").read_text())
    assert {u: e["target"] for u, e in km["utt"].items()} == {u: e["target"] for u, e in plan["utt"].items()}
    for u in plan["utt"]:
        a, b = sf.read(out / "wav" / f"{u}.wav")[0], sf.read(km_out / "wav" / f"{u}.wav")[0]
        assert len(a) == len(b) and np.isfinite(a).all() and not np.array_equal(a, b)

    def fails(*extra, name):
        r = cli("transform-voice", "--method", "vtln", "--config", conf, "--target-data", tgt_dir, "--exp-dir",
                tmp_path / f"exp_{name}", *extra, src_dir, tmp_path / f"out_{name}", check=False)
        assert r.returncode != 0 and "Traceback" not in r.stderr, r.stderr
        assert not (tmp_path / f"out_{name}").exists()
        return r.stderr.strip().splitlines()[-1]
    assert "--ali-dir" in fails(name="none") and "vtln_phcm.yaml" in fails(name="none2")
    assert "--target-ali-dir" in fails("--ali-dir", src_ali, name="notgt")
    assert "nowhere/phn_ali/ctm" in fails("--ali-dir", tmp_path / "nowhere", "--target-ali-dir", tgt_ali,
                                          name="nofile")
    ctm = (src_ali / "phn_ali" / "ctm").read_text().splitlines()
    first = ctm[0].split()[0]
    partial = _ali_dir(tmp_path, [x for x in ctm if not x.startswith(first + " ")], name="partial")
    msg = fails("--ali-dir", partial, "--target-ali-dir", tgt_ali, name="partial")
    assert first in msg and "partial/phn_ali/ctm" in msg


def test_phone_configs_load(repo_root):
    """Every conf/voice/vtln_ph*.yaml is a valid VTLN config with phone classes (a typo in one would only show in a
    recipe run)."""
    from pydeid.cli.transform_voice import _load_config
    confs = sorted((repo_root / "conf" / "voice" / "tuning").glob("vtln_ph*.yaml"))
    assert len(confs) >= 3
    for c in confs:
        conf = _load_config(c, "vtln")
        conf.pop("world", None)
        conf.pop("k", None)
        conf.pop("target_gender", None)
        assert build_vtln_params(**conf).classes == "phones", c.name
