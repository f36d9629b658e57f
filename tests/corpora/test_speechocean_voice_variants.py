"""egs/speechocean762/s5 --voice-configs with VTLN config variants (vtln:<N>_<variant>, conf/voice/vtln_*.yaml) and
chains of a method's variant on them (<variant>+vtln<N>[_<variant>]) (issue 19)."""

from __future__ import annotations

import json
import subprocess

import pytest
from recipe_refusal import assert_refused_before_any_stage

from test_speechocean_recipe import SHARED


@pytest.mark.parametrize("configs, message", [
    ("vtln:3_nosuch", "--voice-configs vtln:3_nosuch: no config conf/voice/vtln_nosuch.yaml"),
    ("vtln:3 mcadams:mild+vtln3_avg",
     "--voice-configs mcadams:mild+vtln3_avg chains on VTLN S3_avg: add vtln:3_avg to --voice-configs"),
    ("vtln:3_avg mcadams:nosuch+vtln3_avg",
     "--voice-configs mcadams:nosuch+vtln3_avg: no config conf/voice/mcadams_nosuch.yaml"),
])
def test_vtln_variants_and_chains_are_checked(repo_root, tmp_path, configs, message, recipe_copy):
    assert_refused_before_any_stage(recipe_copy("speechocean762", tmp_path / "s5"), ["--voice-configs", configs],
                                    message)


def test_vtln_variants_and_chains_accepted(repo_root, tmp_path, recipe_copy):
    rec = recipe_copy("speechocean762", tmp_path / "s5")
    p = subprocess.run(["./run.sh", "--voice-configs", "vtln:3 vtln:3_avg vtln:3_jitter mcadams:mild+vtln3_avg "
                        "mcadams:vtln3_jitter", "--stage", "99"], cwd=rec, capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr


@pytest.mark.slow
def test_tiny_conversions_of_vtln_variants(repo_root, tmp_path, recipe_copy):
    """Stages 0-3 at tiny settings with a VTLN variant and a chain of McAdams mild on it: every party's data dir
    exists, each VTLN config's draws are in its secret plan, the parameter-shifted conversions are made only for
    what --shifted-configs attacks (~1 CPU-min)."""
    root = SHARED / "speechocean762_adults"
    if not root.is_dir():
        pytest.skip(f"real data subset {root} is absent (read in place from ../shared/data, never committed)")
    rec = recipe_copy("speechocean762", tmp_path / "s5")
    p = subprocess.run(["./run.sh", "--size", "tiny", "--corpus-root", str(root), "--nj", "1", "--stop-stage", "3",
                        "--voice-configs", "vtln:3 vtln:3_avg mcadams:mild+vtln3_avg", "--same-draws", "false",
                        "--shifted-configs", "mcadams:mild+vtln3_avg"], cwd=rec, capture_output=True, text=True,
                       timeout=1800)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    d = rec / "data"
    for v in ("vtln3", "vtln3_avg", "mcadamsmild+vtln3_avg"):
        assert (d / f"test_trial_{v}" / "wav.scp").is_file() and (d / f"test_enroll_{v}_a" / "wav.scp").is_file()
        assert (d / f"train_xv_{v}_a" / "wav.scp").is_file() and (d / f"test_wer_{v}" / "wav.scp").is_file()
        assert not (d / f"test_enroll_{v}_p").exists()                   # --same-draws false
    # the shifted conversions: the chain's and its VTLN base's, not those of vtln:3
    assert (d / "test_enroll_vtln3_avg_ps").is_dir() and (d / "test_enroll_mcadamsmild+vtln3_avg_ps").is_dir()
    assert not (d / "test_enroll_vtln3_ps").exists()
    plan = json.loads((rec / "exp" / "voice" / "test_trial_vtln3_avg" / "secrets" / "voice_plan.json").read_text())
    assert plan["params"] == {"n_average": 8} and all(len(e["targets"]) >= 2 for e in plan["utt"].values())
    base = json.loads((rec / "exp" / "voice" / "test_trial_vtln3" / "secrets" / "voice_plan.json").read_text())
    assert base["params"] == {} and all("targets" not in e for e in base["utt"].values())
    mc = json.loads((rec / "exp" / "voice" / "test_trial_mcadamsmild+vtln3_avg" / "secrets" / "voice_plan.json")
                    .read_text())
    assert mc["params"]["alpha_range"] == [0.85, 0.95]
    assert all(0.85 <= e["alpha"] <= 0.95 for e in mc["utt"].values())
