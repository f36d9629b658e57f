"""Frame selection (pydeid.voice.frame_select) and target selection (pydeid.voice.target_selection) on real VCTK
voices of ../shared/data: the output is made of target frames only, the target choices are seeded and consistent
where they say so, and the method runs through the registry, the CLI and steps/transform_voice.sh."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

from pydeid.voice import target_selection as TS

REPO = Path(__file__).resolve().parents[2]


def _pool(vctk_voices, content):
    from pydeid.voice.frame_select import build_frame_select
    from pydeid.voice.frame_select.pool import FramePool
    from pydeid.voice.world import WorldConfig
    p = build_frame_select(content=content)
    world = WorldConfig(frame_period=10.0)
    pool = FramePool.build({s: vctk_voices[s][:4] for s in ("p226", "p227", "p228")}, world, p.n_mcep,
                           p.n_content, p.delta_weight, content_kind=content, whisper_model=p.whisper_model)
    return p, world, pool


@pytest.fixture(scope="module")
def fs_pool(vctk_voices):
    return _pool(vctk_voices, "mcep")


@pytest.fixture(scope="module")
def fs_pool_whisper(vctk_voices):
    from pydeid.asr.whisper_models import WhisperModelMissing
    try:
        return _pool(vctk_voices, "whisper")
    except WhisperModelMissing as e:
        pytest.skip(str(e))


@pytest.mark.parametrize("which", ["fs_pool", "fs_pool_whisper"])
def test_output_frames_are_averages_of_target_frames_only(which, request, vctk_voices):
    """Every output envelope/aperiodicity frame is exactly the mean of k target-pool frames, and no output
    envelope frame is (close to) any frame of the source utterance, whatever the content feature matched on."""
    from pydeid.voice.frame_select import FrameSelectTransformer
    from pydeid.voice.frame_select.features import code_frames
    from pydeid.voice.world import analyze
    p, world, pool = request.getfixturevalue(which)
    tr = FrameSelectTransformer(p, world, pool)
    src = vctk_voices["p225"][0]
    feats = analyze(np.asarray(src, dtype=np.float64), 16000, world)
    f0, mcep, bap, idx = tr.convert_features(feats, ["p228"], wav=src)
    t = pool.speakers["p228"]
    assert idx.shape == (len(feats.f0), p.k) and idx.max() < len(t.mcep)
    np.testing.assert_allclose(mcep, t.mcep[idx].mean(axis=1), rtol=0, atol=1e-6)
    np.testing.assert_allclose(bap, t.bap[idx].mean(axis=1), rtol=0, atol=1e-6)
    # voiced source frames take voiced target frames only (and unvoiced, unvoiced)
    assert np.all(t.voiced[idx[feats.f0 > 0]]) and not np.any(t.voiced[idx[feats.f0 == 0]])
    s = code_frames(feats, p.n_mcep).mcep
    d = np.sqrt(((mcep[:, None, :] - s[None, :, :]) ** 2).sum(-1)).min(axis=1)   # nearest source frame
    assert d.min() > 0.2 and np.median(d) > 0.5   # measured 0.50 / 1.16 (mcep), 0.55 / 1.40 (whisper); frame norms ~11
    # the F0 moved to the target's range: its voiced log-F0 mean is the target's
    v = f0 > 0
    assert abs(np.log(f0[v]).mean() - t.log_f0[0]) < 0.05
    # a two-voice target draws from both voices' frames
    _, _, _, idx2 = tr.convert_features(feats, ["p227", "p228"], wav=src)
    n227 = len(pool.speakers["p227"].mcep)
    assert (idx2 < n227).any() and (idx2 >= n227).any()


def test_level_source_keeps_only_the_source_frame_level(fs_pool, vctk_voices):
    """level: source: every output frame's c0 is the source frame's, every other coefficient still the target
    frames' average (the same frames as with level: target); level: pauses only lowers the source's pauses."""
    from pydeid.voice.frame_select import FrameSelectTransformer, build_frame_select
    from pydeid.voice.frame_select.features import code_frames
    from pydeid.voice.world import analyze
    p, world, pool = fs_pool
    src = vctk_voices["p225"][1]
    feats = analyze(np.asarray(src, dtype=np.float64), 16000, world)
    _, m_t, _, idx_t = FrameSelectTransformer(p, world, pool).convert_features(feats, ["p228"])
    _, m_s, _, idx_s = FrameSelectTransformer(build_frame_select(level="source"), world, pool).convert_features(
        feats, ["p228"])
    np.testing.assert_array_equal(idx_s, idx_t)
    np.testing.assert_allclose(m_s[:, 1:], m_t[:, 1:], rtol=0, atol=1e-6)
    np.testing.assert_allclose(m_s[:, 0], code_frames(feats, p.n_mcep).mcep[:, 0], rtol=0, atol=1e-5)
    assert np.abs(m_s[:, 0] - m_t[:, 0]).max() > 0.1   # the level did change
    # pauses: voiced frames keep the target frames' level, some unvoiced ones are made quieter, none louder
    _, m_p, _, _ = FrameSelectTransformer(build_frame_select(level="pauses"), world, pool).convert_features(
        feats, ["p228"])
    v = feats.f0 > 0
    np.testing.assert_array_equal(m_p[v], m_t[v])
    np.testing.assert_allclose(m_p[:, 1:], m_t[:, 1:], rtol=0, atol=1e-6)
    assert np.all(m_p[:, 0] <= m_t[:, 0]) and np.any(m_p[~v, 0] < m_t[~v, 0] - 0.1)
    with pytest.raises(ValueError, match="unknown level"):
        build_frame_select(level="loud")


def test_pool_roundtrip_and_mismatch(tmp_path, fs_pool):
    from pydeid.voice.frame_select import FramePool, FrameSelectTransformer, build_frame_select
    p, world, pool = fs_pool
    pool.save(tmp_path / "pool.npz")
    back = FramePool.load(tmp_path / "pool.npz")
    assert sorted(back.speakers) == sorted(pool.speakers) == FramePool.speaker_names(tmp_path / "pool.npz")
    assert back.meta == pool.meta
    np.testing.assert_array_equal(back.speakers["p227"].mcep, pool.speakers["p227"].mcep)
    with pytest.raises(ValueError, match="other features"):
        FrameSelectTransformer(build_frame_select(n_content=12), world, back)
    with pytest.raises(ValueError, match="absent from the frame pool"):
        FrameSelectTransformer(p, world, back).convert_features(None, ["nobody"])
    with pytest.raises(ValueError, match="other features"):   # a mel-cepstral pool for a whisper plan
        FrameSelectTransformer(build_frame_select(content="whisper"), world, back)
    old = FramePool(back.speakers, {k: v for k, v in back.meta.items() if k not in ("version", "content")})
    with pytest.raises(ValueError, match="older frame selection"):   # a pool saved before the content option
        FrameSelectTransformer(p, world, old)
    with pytest.raises(ValueError, match="unknown content 'wavlm'"):
        build_frame_select(content="wavlm")


def test_target_selection_modes_are_seeded_and_consistent():
    pool = [f"t{i}" for i in range(12)]
    genders = {t: "f" if i % 2 else "m" for i, t in enumerate(pool)}
    srcs = [("a", "f"), ("b", "f"), ("c", "m"), ("d", "m")]
    utts = [(s, g, f"{s}_{j}") for s, g in srcs for j in range(6)]

    def run(mode, seed=3):
        return {u: TS.select(mode, pool, seed, s, u, g, genders) for s, g, u in utts}

    for mode in TS.MODES:
        r = run(mode)
        assert r == run(mode), mode   # seeded: the same draws again
        for s, g, u in utts:          # VoicePrivacy's rule: same-gender voices only
            assert all(genders[t] == g for t in r[u]), mode
    per_utt, per_spk, per_gender, pooled = (run(m) for m in TS.MODES)
    by = lambda r, key: {key(s, g): {tuple(r[u]) for s2, g2, u in utts if key(s2, g2) == key(s, g)}  # noqa: E731
                         for s, g, _ in utts}
    assert all(len(v) == 1 for v in by(per_spk, lambda s, g: s).values())        # one target per speaker
    assert all(len(v) == 1 for v in by(per_gender, lambda s, g: g).values())     # one per gender
    assert all(len(v) == 1 for v in by(pooled, lambda s, g: g).values())         # one pseudo-speaker per gender
    assert all(len(set(v)) == TS.POOL_VOICES for v in pooled.values())           # made of 4 distinct voices
    assert len({tuple(v) for v in per_utt.values()}) > 2                        # per utterance: they vary
    assert run("per_gender_pseudo", 3) != run("per_gender_pseudo", 4) or run("per_speaker", 3) != run("per_speaker", 4)
    with pytest.raises(ValueError, match="unknown target_selection"):
        TS.select("per_gendr", pool, 0, "a", "a_1", "f", genders)


def test_target_selection_maps_onto_vtln_and_voicemask():
    from pydeid.cli.transform_voice import _target_selection
    from pydeid.io import FormatError
    from pydeid.voice import registry

    def ns(**kw):
        return argparse.Namespace(**{"target_selection": None, "config": "c.yaml", "strategy": 3,
                                     "method": "vtln", **kw})
    a, conf = ns(target_selection="pooled_pseudo"), {}
    assert _target_selection(a, registry.get("vtln"), conf) == "pooled_pseudo"
    assert a.strategy == 1 and conf["n_average"] == TS.POOL_VOICES
    a, conf = ns(), {"target_selection": "per_speaker"}
    _target_selection(a, registry.get("vtln"), conf)
    assert a.strategy == 2 and "target_selection" not in conf
    a = ns(method="voicemask")
    _target_selection(a, registry.get("voicemask"), {"pitch_mode": "target", "target_selection": "per_gender_pseudo"})
    assert a.strategy == 1
    with pytest.raises(FormatError, match="no target voices"):
        _target_selection(ns(method="mcadams"), registry.get("mcadams"), {"target_selection": "per_speaker"})
    a, conf = ns(method="frame_select", target_selection="per_speaker"), {"target_selection": "pooled_pseudo"}
    assert _target_selection(a, registry.get("frame_select"), conf) == "per_speaker" == conf["target_selection"]


def test_unknown_selection_in_config_names_the_line(tmp_path):
    from pydeid.io import FormatError
    from pydeid.voice.configs import load_config
    f = tmp_path / "fs.yaml"
    f.write_text("k: 4\ntarget_selection: per_gendr\n")
    with pytest.raises(FormatError, match=r"fs.yaml.*2.*per_gendr"):
        load_config(f, "frame_select")


def _data_dirs(vctk_dir, tmp_path):
    import sys
    sys.path.insert(0, str(Path(__file__).parent))
    from voice_helpers import vctk_data_dir
    return (vctk_data_dir(vctk_dir, tmp_path / "src", ["p225", "p226"], 2),
            vctk_data_dir(vctk_dir, tmp_path / "tgt", ["p227", "p228"], 4))


@pytest.mark.slow
def test_transform_voice_sh_frame_select(vctk_dir, tmp_path):
    """steps/transform_voice.sh --method frame_select on a tiny data dir (2 jobs): a valid converted data dir,
    the plan's targets per speaker, and the same audio again from the same seed."""
    import soundfile as sf
    src, tgt = _data_dirs(vctk_dir, tmp_path)
    env = dict(os.environ)

    def run(out):
        r = subprocess.run(["steps/transform_voice.sh", "--nj", "2", "--method", "frame_select", "--voice-config",
                            "conf/voice/frame_select.yaml", "--target-selection", "per_speaker", "--target-data",
                            str(tgt), "--seed", "5", str(src), str(tmp_path / f"exp_{out}"), str(tmp_path / out)],
                           cwd=REPO, env=env, capture_output=True, text=True)
        assert r.returncode == 0, r.stderr + r.stdout
        return tmp_path / out
    a = run("a")
    plan = json.loads((tmp_path / "exp_a" / "secrets" / "voice_plan.json").read_text())
    assert plan["target_selection"] == "per_speaker"
    spk_t = {}
    for u, e in plan["utt"].items():
        spk_t.setdefault(u.split("_")[0], set()).add(tuple(e["targets"]))
    assert all(len(v) == 1 for v in spk_t.values())
    assert spk_t["p225"] == {("p228",)} and spk_t["p226"] == {("p227",)}   # same gender (the only one each)
    b = run("b")
    for w in sorted((a / "wav").glob("*.wav")):
        x, y = sf.read(w)[0], sf.read(b / "wav" / w.name)[0]
        assert len(x) > 16000 and np.array_equal(x, y)
    assert "/work/shared" not in (a / "wav.scp").read_text() and str(vctk_dir) not in (a / "wav.scp").read_text()


def test_cli_plan_keeps_the_configs_k(vctk_dir, tmp_path):
    """k of a frame_select config reaches the plan's parameters (the CLI once took it as VTLN's pool option and
    converted with the default k = 4 whatever the config said)."""
    src, tgt = _data_dirs(vctk_dir, tmp_path)
    conf = tmp_path / "fs.yaml"
    conf.write_text((REPO / "conf/voice/frame_select.yaml").read_text().replace("\nk: 4", "\nk: 7"))
    r = subprocess.run(["pydeid", "transform-voice", "--method", "frame_select", "--target-data", str(tgt),
                        "--config", str(conf), "--seed", "5", "--exp-dir", str(tmp_path / "exp"), "--part", "plan",
                        str(src), str(tmp_path / "out")], cwd=REPO, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    plan = json.loads((tmp_path / "exp" / "secrets" / "voice_plan.json").read_text())
    assert plan["params"]["k"] == 7


def test_content_both_is_mcep_beside_weighted_whisper(fs_pool, vctk_voices):
    """content both: the pool's and the source's features are the mel-cepstral ones with the Whisper frames times
    whisper_weight beside them; a pool of another weight is refused."""
    from pydeid.asr.whisper_models import WhisperModelMissing
    from pydeid.voice.frame_select import FramePool, FrameSelectTransformer, build_frame_select
    from pydeid.voice.world import analyze
    p_m, world, pool_m = fs_pool
    p = build_frame_select(content="both", whisper_weight=3.0)
    try:
        pool = FramePool.build({s: vctk_voices[s][:4] for s in ("p226", "p227", "p228")}, world, p.n_mcep,
                               p.n_content, p.delta_weight, content_kind="both", whisper_weight=3.0)
    except WhisperModelMissing as e:
        pytest.skip(str(e))
    c, c_m = pool.speakers["p228"].content.astype(np.float32), pool_m.speakers["p228"].content
    assert c.shape == (len(c_m), c_m.shape[1] + 384)
    np.testing.assert_allclose(c[:, :c_m.shape[1]], c_m, atol=0.02)                    # float16 storage
    np.testing.assert_allclose(np.linalg.norm(c[:, c_m.shape[1]:], axis=1), 3.0, atol=0.02)
    src = vctk_voices["p225"][0]
    feats = analyze(np.asarray(src, dtype=np.float64), 16000, world)
    q = FrameSelectTransformer(p, world, pool).source_content(feats, src)
    assert q.shape == (len(feats.f0), c.shape[1])
    with pytest.raises(ValueError, match="other features"):
        FrameSelectTransformer(build_frame_select(content="both", whisper_weight=2.0), world, pool)
    with pytest.raises(ValueError, match="whisper_weight"):
        build_frame_select(content="both", whisper_weight=0)


def test_cli_shares_one_matching_set_between_outputs(vctk_dir, tmp_path):
    """--pool-file: the second output of the same target data and features copies the first's matching set instead
    of analysing the target voices again (another k, seed or output does not matter); other features rebuild it."""
    src, tgt = _data_dirs(vctk_dir, tmp_path)
    shared = tmp_path / "pools" / "fs.npz"

    def plan(name, conf_text):
        conf = tmp_path / f"{name}.yaml"
        conf.write_text(conf_text)
        r = subprocess.run(["pydeid", "transform-voice", "--method", "frame_select", "--target-data", str(tgt),
                            "--config", str(conf), "--seed", name[-1], "--exp-dir", str(tmp_path / name),
                            "--pool-file", str(shared), "--part", "plan", str(src), str(tmp_path / f"out_{name}")],
                           cwd=REPO, capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        return r.stderr, (tmp_path / name / "frame_pool.npz").read_bytes()

    base = (REPO / "conf/voice/frame_select.yaml").read_text()
    log1, pool1 = plan("e1", base)
    assert "reused" not in log1 and shared.read_bytes() == pool1
    log2, pool2 = plan("e2", base.replace("\nk: 4", "\nk: 7"))          # another k and seed: the same frames
    assert f"frame-select pool: reused {shared}" in log2 and pool2 == pool1
    log3, pool3 = plan("e3", base.replace("\nn_mcep: 40", "\nn_mcep: 30"))   # other features: built again
    assert "reused" not in log3 and pool3 != pool1 and shared.read_bytes() == pool3
    assert json.loads(shared.with_name("fs.npz.json").read_text())["n_mcep"] == 30
