"""Frame selection's `match: segments` (pydeid.voice.frame_select.segments): each aligned phone of the source is
rebuilt from whole target segments of the same phone, on real VCTK voices of ../shared/data with hand-made phone
labels (the mechanics follow the labels, not the speech), and through transform-voice with its alignment options."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from pydeid.voice.frame_select.segments import SegmentIndex, runs, select_segments, warp

sys.path.insert(0, str(Path(__file__).parent))
from test_phone_classes import _cycle_ctm  # noqa: E402
from test_voice_cli import all_text, check_output_corpus, cli, src_dir, tgt_dir  # noqa: E402,F401 (fixtures)

CYCLE = [-1, 3, 7, 1, 9, 4, 8]   # phone indices of hand-made labels, -1 = no phone (silence)


def _labels(n, seg=8, shift=0):
    """(n,) phone labels cycling through CYCLE in runs of `seg` frames."""
    return np.array([CYCLE[((i + shift) // seg) % len(CYCLE)] for i in range(n)], dtype=np.int64)


def test_runs_warp_and_index_bounds():
    assert runs(np.array([5, 5, -1, 2, 2, 2])) == [(5, 0, 2), (-1, 2, 3), (2, 3, 6)]
    assert runs(np.array([], dtype=int)) == []
    np.testing.assert_array_equal(warp(10, 14, 4), [10, 11, 12, 13])
    np.testing.assert_array_equal(warp(10, 12, 5), [10, 10, 10, 11, 11])   # stretched: each frame repeated
    np.testing.assert_array_equal(warp(0, 9, 3), [0, 4, 8])                  # squeezed: evenly spread
    assert warp(4, 8, 1).tolist() == [5]
    # a run of the same phone across an utterance start is two segments, each knowing its own neighbours
    ix = SegmentIndex(np.array([-1, 3, 3, 3, 3, -1]), bounds=[3])
    assert ix.by_phone[3].tolist() == [[1, 3, -1, -1], [3, 5, -1, -1]]
    ix = SegmentIndex(np.array([7, 3, 3, 9]))
    assert ix.by_phone[3].tolist() == [[1, 3, 7, 9]] and ix.by_phone[7].tolist() == [[0, 1, -1, 3]]


def test_select_segments_takes_whole_target_segments_of_the_same_phone():
    rng = np.random.default_rng(0)
    tl = _labels(400, seg=10)
    tc = rng.normal(size=(400, 6)).astype(np.float32)
    sl = _labels(90, seg=7, shift=3)
    sc = rng.normal(size=(90, 6)).astype(np.float32)
    idx = select_segments(sc, np.ones(90, bool), sl, tc, np.ones(400, bool), SegmentIndex(tl), k=3)
    assert idx.shape == (90, 3)
    for p, a, b in runs(sl):
        if p < 0:
            continue
        assert np.all(tl[idx[a:b]] == p)                   # the same phone's frames only
        for j in range(3):                                 # each column is one target segment, in time order
            col = idx[a:b, j]
            assert np.all(np.diff(col) >= 0) and col[-1] - col[0] <= 9
    # the best-fitting segment wins: a target segment that IS the source segment's content is chosen first
    p, a, b = next(r for r in runs(sl) if r[0] >= 0 and r[2] - r[1] == 7)
    seg = np.flatnonzero(tl == p)[:10]
    tc2 = tc.copy()
    tc2[seg] = sc[a + (np.arange(10) * 7) // 10]
    idx2 = select_segments(sc, np.ones(90, bool), sl, tc2, np.ones(400, bool), SegmentIndex(tl), k=3)
    assert set(idx2[a:b, 0]) <= set(seg)
    # a phone the target never says: frame kNN (any target frame of its voicing)
    sl3 = sl.copy()
    sl3[a:b] = 42
    idx3 = select_segments(sc, np.ones(90, bool), sl3, tc, np.ones(400, bool), SegmentIndex(tl), k=3)
    from pydeid.voice.frame_select.match import select
    np.testing.assert_array_equal(idx3[a:b], select(sc, np.ones(90, bool), tc, np.ones(400, bool), 3)[a:b])
    np.testing.assert_array_equal(idx3[:a], idx[:a])


@pytest.fixture(scope="module")
def seg_pool(vctk_voices):
    from pydeid.voice.frame_select import build_frame_select
    from pydeid.voice.frame_select.pool import FramePool
    from pydeid.voice.world import WorldConfig
    p = build_frame_select(content="mcep", match="segments", k=4)
    world = WorldConfig(frame_period=10.0)
    spk = {s: vctk_voices[s][:4] for s in ("p227", "p228")}
    labels = {s: [lambda n, i=i: _labels(n, seg=9, shift=5 * i) for i in range(4)] for s in spk}
    pool = FramePool.build(spk, world, p.n_mcep, p.n_content, p.delta_weight, content_kind="mcep",
                           phone_labels=labels)
    return p, world, pool


def test_segments_on_real_voices_use_target_frames_of_the_phone_only(seg_pool, vctk_voices, tmp_path):
    """On a real utterance: every labelled source frame is rebuilt from target frames of its own label, the output
    envelope is the average of the chosen target frames and far from every source frame; the pool keeps the labels
    and utterance starts through save/load; a frames pool or no source labels is refused."""
    from pydeid.voice.frame_select import FramePool, FrameSelectTransformer, build_frame_select
    from pydeid.voice.frame_select.features import code_frames
    from pydeid.voice.world import analyze
    p, world, pool = seg_pool
    pool.save(tmp_path / "pool.npz")
    back = FramePool.load(tmp_path / "pool.npz")
    assert back.meta["phones"] is True
    np.testing.assert_array_equal(back.speakers["p228"].phone, pool.speakers["p228"].phone)
    assert back.speakers["p228"].bounds.tolist()[0] == 0 and len(back.speakers["p228"].bounds) == 4
    tr = FrameSelectTransformer(p, world, back)
    src = vctk_voices["p225"][2]
    feats = analyze(np.asarray(src, dtype=np.float64), 16000, world)
    sl = _labels(len(feats.f0), seg=6)
    f0, mcep, bap, idx = tr.convert_features(feats, ["p228"], phones=lambda n: sl)
    t = back.speakers["p228"]
    lab = sl >= 0
    assert np.all(t.phone[idx[lab]] == sl[lab][:, None])
    np.testing.assert_allclose(mcep, t.mcep[idx].mean(axis=1), rtol=0, atol=1e-6)
    s = code_frames(feats, p.n_mcep).mcep
    d = np.sqrt(((mcep[:, None, :] - s[None, :, :]) ** 2).sum(-1)).min(axis=1)
    assert d.min() > 0.2 and np.median(d) > 0.5
    y = tr.transform(src, 16000, {"targets": ["p228"]}, phones=lambda n: _labels(n, seg=6))
    assert len(y) == len(src) and np.isfinite(y).all() and np.abs(y).max() > 0.01
    with pytest.raises(ValueError, match="--ali-dir"):
        tr.convert_features(feats, ["p228"])
    frames_pool = FramePool(back.speakers, {k: v for k, v in back.meta.items() if k != "phones"})
    with pytest.raises(ValueError, match="--target-ali-dir"):
        FrameSelectTransformer(p, world, frames_pool)
    with pytest.raises(ValueError, match="unknown match 'phones'"):
        build_frame_select(match="phones")


def test_cli_match_segments(src_dir, tgt_dir, tmp_path, repo_root):  # noqa: F811
    """transform-voice --method frame_select with `match: segments`: the alignments are required (one line naming
    the option), the plan records the match, the pool the labels, and the audio differs from frame matching with
    the same draws."""
    import soundfile as sf
    src_ali, tgt_ali = _cycle_ctm(src_dir, tmp_path), _cycle_ctm(tgt_dir, tmp_path)
    conf = tmp_path / "seg.yaml"
    base = (repo_root / "conf/voice/frame_select.yaml").read_text()
    conf.write_text(base.replace("\ncontent: both", "\ncontent: mcep") + "match: segments\n")
    fconf = tmp_path / "frames.yaml"
    fconf.write_text(base.replace("\ncontent: both", "\ncontent: mcep"))

    def run(name, config, *extra, check=True):
        return cli("transform-voice", "--method", "frame_select", "--config", config, "--target-data", tgt_dir,
                   "--seed", "3", "--exp-dir", tmp_path / f"exp_{name}", *extra, src_dir, tmp_path / name,
                   check=check)
    r = run("none", conf, check=False)
    assert r.returncode != 0 and "Traceback" not in r.stderr and "--ali-dir" in r.stderr.strip().splitlines()[-1]
    assert not (tmp_path / "none").exists()
    r = run("notgt", conf, "--ali-dir", src_ali, check=False)
    assert r.returncode != 0 and "--target-ali-dir" in r.stderr.strip().splitlines()[-1]
    run("seg", conf, "--ali-dir", src_ali, "--target-ali-dir", tgt_ali)
    run("frm", fconf)
    plan = check_output_corpus(src_dir, tmp_path / "seg", tmp_path / "exp_seg")   # no original path, plan secret
    assert plan["params"]["match"] == "segments"
    # nothing of the target pool in the output: no matching set, no alignment, no target speaker or audio path
    out_files = [q.name for q in (tmp_path / "seg").rglob("*")]
    assert "frame_pool.npz" not in out_files and "ctm" not in out_files
    from pydeid.io import DataDir
    tgt = DataDir.read(tgt_dir)
    text = all_text(tmp_path / "seg")
    assert not any(spk in text for spk in tgt.speakers)
    assert not any(w in text for w in tgt.wav_scp.values())
    from pydeid.voice.frame_select import FramePool
    assert FramePool.load(tmp_path / "exp_seg" / "frame_pool.npz").meta["phones"] is True
    frm = json.loads((tmp_path / "exp_frm" / "secrets" / "voice_plan.json").read_text())
    assert {u: e["targets"] for u, e in frm["utt"].items()} == {u: e["targets"] for u, e in plan["utt"].items()}
    for u in plan["utt"]:
        a, b = sf.read(tmp_path / "seg" / "wav" / f"{u}.wav")[0], sf.read(tmp_path / "frm" / "wav" / f"{u}.wav")[0]
        assert len(a) == len(b) and np.isfinite(a).all() and not np.array_equal(a, b)
