"""egs/speechocean762/s5 with a phone-class VTLN config (--voice-configs vtln:3_phcmnw): stage 3 aligns the sets it
converts and the target voices (pocketsphinx phone CTMs, exp/align_ph/<set>) and converts with them."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

SHARED = Path(os.environ.get("PYDEID_SHARED_DATA", Path(__file__).resolve().parents[2].parent / "shared" / "data"))


def _tiny_stage3(recipe_copy, tmp_path, *options) -> Path:
    """Stages 0-3 of a private copy of the speechocean762 recipe at tiny settings; the copy's path, after checking
    that every set it converts, and the target voices, hold a phone CTM with real phones in it."""
    root = SHARED / "speechocean762_adults"
    if not root.is_dir():
        pytest.skip(f"real data subset {root} is absent (read in place from ../shared/data, never committed)")
    rec = recipe_copy("speechocean762", tmp_path / "s5")
    p = subprocess.run(["./run.sh", "--size", "tiny", "--corpus-root", str(root), "--nj", "1", "--stop-stage", "3",
                        "--same-draws", "false", *options], cwd=rec, capture_output=True, text=True, timeout=1800)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    return rec


def _has_phones(rec: Path, sets) -> None:
    for s in sets:
        ctm = rec / "exp" / "align_ph" / s / "phn_ali" / "ctm"
        assert ctm.is_file() and any(line.split()[4] == "IY" for line in ctm.read_text().splitlines()), s


@pytest.mark.slow
def test_tiny_phone_class_conversions(repo_root, tmp_path, recipe_copy):
    """Stages 0-3 at tiny settings with vtln:3_phcmnw: the phone CTMs of test_trial, test_enroll, train_xv and
    train_vtln exist, every converted party's data dir exists, the plans hold the phone-class options, the pool
    is the phone-class pool (~1.5 CPU-min)."""
    rec = _tiny_stage3(recipe_copy, tmp_path, "--voice-configs", "vtln:3_phcmnw", "--shifted-configs", "")
    _has_phones(rec, ("test_trial", "test_enroll", "train_xv", "train_vtln"))
    # no party converts train_xvc here (no informed-same-draws, no parameter-shifted row): nothing aligns it
    assert not (rec / "exp" / "align_ph" / "train_xvc").exists()
    d = rec / "data"
    for x in ("test_trial_vtln3_phcmnw", "test_wer_vtln3_phcmnw", "test_enroll_vtln3_phcmnw_a",
              "train_xv_vtln3_phcmnw_a"):
        assert (d / x / "wav.scp").is_file(), x
    plan = json.loads((rec / "exp/voice/test_trial_vtln3_phcmnw/secrets/voice_plan.json").read_text())
    assert plan["params"]["classes"] == "phones" and plan["params"]["warp_scale"] == 0.0
    assert (rec / "exp/voice/vtln_pool_pub_ph_s0.npz").is_file() and not (rec / "exp/voice/vtln_pool_pub_s0.npz").exists()


@pytest.mark.slow
def test_tiny_frame_select_segments(repo_root, tmp_path, recipe_copy):
    """Stages 0-3 at tiny settings with frame_select:seg (conf/voice/frame_select_seg.yaml, match segments): the
    phone CTMs of the converted sets and of the target voices (train_xv) exist, every party's data dir exists, the
    plans hold match segments and the pools the phone labels; the outputs of one config share one matching set."""
    rec = _tiny_stage3(recipe_copy, tmp_path, "--voice-configs", "frame_select:seg")
    _has_phones(rec, ("test_trial", "test_enroll", "train_xv", "train_xvc"))
    d = rec / "data"
    for x in ("test_trial_frame_selectseg", "test_wer_frame_selectseg", "test_enroll_frame_selectseg_a",
              "train_xv_frame_selectseg_a", "train_xv_frame_selectseg_ps"):
        assert (d / x / "wav.scp").is_file(), x
    from pydeid.voice.frame_select import FramePool
    for x, k in (("test_trial_frame_selectseg", 8), ("train_xv_frame_selectseg_ps", 4)):   # publisher / shifted
        plan = json.loads((rec / f"exp/voice/{x}/secrets/voice_plan.json").read_text())
        assert plan["params"]["match"] == "segments" and plan["params"]["k"] == k
        assert FramePool.load(rec / f"exp/voice/{x}/frame_pool.npz").meta["phones"] is True
    # one matching set per config and target data, analysed once and copied to each of its outputs
    shared = rec / "exp/voice/frame_pool_frame_select_seg_train_xv.npz"
    assert shared.is_file() and (rec / "exp/voice/frame_pool_frame_select_seg_shifted_b_train_xv.npz").is_file()
    assert all((rec / f"exp/voice/{x}/frame_pool.npz").read_bytes() == shared.read_bytes()
               for x in ("test_trial_frame_selectseg", "test_enroll_frame_selectseg_a", "train_xv_frame_selectseg_a"))
