"""The recipe stages steps/tag_entities.sh and steps/transform_text.sh (Kaldi calling convention) on mini."""

import os
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
