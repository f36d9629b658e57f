"""The recipe stages steps/tag_entities.sh and steps/transform_text.sh (Kaldi calling convention) on mini."""

import os
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest


def _run(repo_root, args, tmp_path):
    env = dict(os.environ, PATH=f"{repo_root}/utils:{repo_root}/steps:{Path(sys.executable).parent}:"
                               f"{os.environ['PATH']}")
    return subprocess.run(["bash", *args], cwd=repo_root, env=env, capture_output=True, text=True, timeout=300)


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is needed for the steps scripts")
def test_tag_then_transform_steps(repo_root, mini_corpus, tmp_path):
    data = tmp_path / "mini_test"
    shutil.copytree(mini_corpus / "mini_test", data)
    r = _run(repo_root, ["steps/tag_entities.sh", "--nj", "2", "--detectors", "grammar,capitalisation", str(data), "-",
                         str(tmp_path / "tag")], tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "tag" / "tags.conll").exists() and "all-or-nothing" in r.stdout
    out = tmp_path / "deid"
    r = _run(repo_root, ["steps/transform_text.sh", "--strategy", "PER=pseudonymize,default=typed_placeholder",
                         "--secret-dir", str(tmp_path / "secrets"), "--exp-dir", str(tmp_path / "exp"),
                         "--gold-tags", str(data / "tags.conll"), str(data), str(tmp_path / "tag" / "tags.conll"),
                         str(out)], tmp_path)
    assert r.returncode == 0, r.stderr
    assert "epsilon" in r.stdout and "leak rate (gold tags)" in r.stdout
    assert (out / "text").exists() and (tmp_path / "exp" / "report.json").exists()
    secret = next((tmp_path / "secrets").iterdir())
    assert stat.S_IMODE(secret.stat().st_mode) == 0o600
    # a wrong argument count fails with the usage line
    r = _run(repo_root, ["steps/transform_text.sh", str(data)], tmp_path)
    assert r.returncode != 0 and "Usage" in r.stderr


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is needed for the steps scripts")
def test_ner_utility_steps_in_two_lanes(repo_root, mini_corpus, tmp_path):
    """steps/ner_utility.sh --nj 2 (the recipe's stage 3): every strategy cell trained once, in its own lane; one
    table written from all cells in the order asked; a rerun retrains nothing."""
    m, exp, results = mini_corpus, tmp_path / "exp", tmp_path / "RESULTS.md"
    args = ["steps/ner_utility.sh", "--nj", "2", "--strategies", "none,placeholder,same_type", "--variants",
            "cased-punct", "--max-epochs", "2", "--results", str(results), "--cmd", "run.pl",
            str(m / "mini_train"), str(m / "mini_dev"), str(m / "mini_test"), str(exp)]
    r = _run(repo_root, args, tmp_path)
    assert r.returncode == 0, r.stderr + r.stdout
    cells = {s: exp / "cased-punct" / s / "results.json" for s in ("none", "placeholder", "same_type")}
    assert all(c.exists() for c in cells.values())
    lanes = {n: (exp / "log" / f"ner_utility.{n}.log").read_text() for n in (1, 2)}
    assert "none" in lanes[1] and "same_type" in lanes[1] and "placeholder" in lanes[2]
    lines = results.read_text().splitlines()
    rows = [ln for ln in lines if ln.startswith(("| Replace all", "| No")) and "%" in ln]
    assert [r.split("|")[1].strip() for r in rows] == [
        "No replacement", "Replace all NEs with placeholders", "Replace all NEs with same-type NE"]
    assert all(re.search(r"\d+\.\d%", r) for r in rows)
    # seed 002's protocol: M'(T'), M'(V'), M'(V) and delta = M'(V) - M(V) (one seed: std 0)
    proto = [ln for ln in lines if ln.startswith(("| Replace all", "| No")) and "%" not in ln]
    assert len(proto) == 3 and proto[0].split("|")[5].strip() == "-"
    cells_ = [[c.strip() for c in ln.split("|")[2:6]] for ln in proto[1:]]
    assert all(re.fullmatch(r"-?\d+\.\d \+- 0\.0", c) for row in cells_ for c in row), cells_
    import json
    same = json.loads((exp / "cased-punct" / "same_type" / "results.json").read_text())
    none = json.loads((exp / "cased-punct" / "none" / "results.json").read_text())
    assert f"{100 * (same['macro_f1'] - none['macro_f1']):.1f} +- 0.0" == cells_[1][3]
    assert none["transformed_test_macro_f1"] == none["macro_f1"]    # no replacement: V' = V
    mtimes = {s: c.stat().st_mtime_ns for s, c in cells.items()}
    r = _run(repo_root, args, tmp_path)
    assert r.returncode == 0, r.stderr
    assert {s: c.stat().st_mtime_ns for s, c in cells.items()} == mtimes


@pytest.mark.slow   # 35 s: the cells-only variant; the default run keeps test_ner_utility_steps_in_two_lanes
@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is needed for the steps scripts")
def test_ner_utility_cells_only_side_by_side_then_table(repo_root, mini_corpus, tmp_path):
    """--cells-only (the recipe's stage 2 queues cells beside its own tagger): two single-cell jobs at once write
    their cells and no table; the table call then trains nothing and tabulates both."""
    m, exp, results = mini_corpus, tmp_path / "exp", tmp_path / "RESULTS.md"
    common = ["steps/ner_utility.sh", "--variants", "cased-punct", "--max-epochs", "2", "--cmd", "run.pl"]
    data = [str(m / "mini_train"), str(m / "mini_dev"), str(m / "mini_test"), str(exp)]
    env = dict(os.environ, PATH=f"{repo_root}/utils:{repo_root}/steps:{Path(sys.executable).parent}:"
                               f"{os.environ['PATH']}")
    jobs = [subprocess.Popen(["bash", *common, "--cells-only", "true", "--strategies", s, *data], cwd=repo_root,
                             env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for s in ("none", "placeholder")]
    for j in jobs:
        out, err = j.communicate(timeout=300)
        assert j.returncode == 0, err + out
    cells = {s: exp / "cased-punct" / s / "results.json" for s in ("none", "placeholder")}
    assert all(c.exists() for c in cells.values()) and not results.exists()
    assert (exp / "log" / "cells.none.log").exists() and (exp / "log" / "cells.placeholder.log").exists()
    mtimes = {s: c.stat().st_mtime_ns for s, c in cells.items()}
    r = _run(repo_root, [*common, "--strategies", "none,placeholder", "--results", str(results), *data], tmp_path)
    assert r.returncode == 0, r.stderr
    assert {s: c.stat().st_mtime_ns for s, c in cells.items()} == mtimes
    rows = [ln for ln in results.read_text().splitlines() if ln.startswith(("| Replace all", "| No")) and "%" in ln]
    assert len(rows) == 2 and all(re.search(r"\d+\.\d%", r) for r in rows)
