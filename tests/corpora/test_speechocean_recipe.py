"""egs/speechocean762/s5 end to end at tiny settings on the real speechocean762 subset: 6 test and 6 train
speakers, 8 utterances each, McAdams only; every stage runs and the report holds WER, EER per scenario with
intervals and rho_F0."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

SHARED = Path(os.environ.get("PYDEID_SHARED_DATA", Path(__file__).resolve().parents[2].parent / "shared" / "data"))


def _recipe_copy(repo_root: Path, dst: Path) -> Path:
    src = repo_root / "egs" / "speechocean762" / "s5"
    dst.mkdir()
    for name in ("steps", "utils", "local", "path.sh", "cmd.sh", "conf"):
        os.symlink((src / name).resolve(), dst / name)
    for name in ("run.sh", "db.sh"):
        shutil.copy(src / name, dst / name)
    return dst


def test_tiny_recipe_end_to_end(repo_root, tmp_path):
    root = SHARED / "speechocean762_adults"
    if not root.is_dir():
        pytest.skip(f"real data subset {root} is absent (read in place from ../shared/data, never committed)")
    rec = _recipe_copy(repo_root, tmp_path / "s5")
    args = ["./run.sh", "--size", "tiny", "--corpus-root", str(root), "--voice-configs", "mcadams:-",
            "--general-lm", "false", "--bootstrap", "50", "--nj", "2"]
    p = subprocess.run(args, cwd=rec, capture_output=True, text=True, timeout=900)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    res = (rec / "RESULTS.md").read_text()
    row = next(ln for ln in res.splitlines() if ln.startswith("| McAdams"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    # WER converted, WER masked, EER x 4 scenarios (with [lo, hi]), rho_F0
    assert len(cells) == 8
    for c in cells[1:7]:
        m = re.fullmatch(r"(\d+\.\d) \[(\d+\.\d), (\d+\.\d)\]", c)
        assert m, c
        assert float(m.group(2)) <= float(m.group(1)) <= float(m.group(3))
    assert 0.0 < float(cells[7]) < 1.0   # McAdams keeps the pitch contour: rho_F0 high, not 1
    rep = json.loads((rec / "exp" / "report.json").read_text())
    assert rep["counts"]["enroll_speakers"] == 6 and rep["counts"]["wer_speakers"] == 6
    assert set(rep["eer"]) == {"plda", "cosine"}
    assert set(rep["eer"]["plda"]) == {"original", "ignorant_mcadams", "lazy-informed_mcadams", "informed_mcadams",
                               "parameter-shifted_mcadams"}
    # the attackers' enrollment is converted from ORIGINAL enrollment audio with their own seed / parameters
    assert (rec / "data" / "test_enroll_mcadams_a").is_dir() and (rec / "data" / "test_enroll_mcadams_ps").is_dir()
    # the LM never saw a test transcript; the masked set leaks nothing
    lm_text = (rec / "exp" / "lm_train" / "lm_info.json").read_text()
    assert json.loads(lm_text)["sentences"] == 48
    assert "leaks: audio 0, text 0" in p.stdout
    # a rerun finds everything done and rewrites the same tables
    p2 = subprocess.run(args + ["--stage", "1"], cwd=rec, capture_output=True, text=True, timeout=600)
    assert p2.returncode == 0, p2.stderr[-2000:]
    assert (rec / "RESULTS.md").read_text().split("# RESULTS")[-1].count("| McAdams") == 2  # plda, cosine


def test_unknown_method_is_refused(repo_root, tmp_path):
    rec = _recipe_copy(repo_root, tmp_path / "s5")
    p = subprocess.run(["./run.sh", "--voice-configs", "pitchshift:-", "--stop-stage", "0"], cwd=rec,
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 1 and "unknown method in --voice-configs: pitchshift:-" in p.stderr


@pytest.mark.parametrize("configs, message", [
    ("mcadams:nosuch", "--voice-configs mcadams:nosuch: no config conf/voice/mcadams_nosuch.yaml"),
    ("mcadams:vtln3", "--voice-configs mcadams:vtln3 chains on VTLN S3: add vtln:3 to --voice-configs"),
    ("vtln:4", "--voice-configs vtln:4: vtln takes a target strategy 1, 2 or 3"),
])
def test_voice_config_variants_are_checked(repo_root, tmp_path, configs, message):
    """<method>:<variant> names a config pair that must exist; a chain names a VTLN run that must be listed."""
    rec = _recipe_copy(repo_root, tmp_path / "s5")
    p = subprocess.run(["./run.sh", "--voice-configs", configs, "--stop-stage", "0"], cwd=rec,
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 1 and p.stderr.strip().endswith(message), p.stderr
    assert not (rec / "data").exists()   # refused before any stage ran


def test_voice_config_variants_accepted(repo_root, tmp_path):
    rec = _recipe_copy(repo_root, tmp_path / "s5")
    p = subprocess.run(["./run.sh", "--voice-configs", "vtln:3 mcadams:range mcadams:vtln3 voicemask:target",
                        "--stage", "99"], cwd=rec, capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
