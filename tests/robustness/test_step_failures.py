"""A step whose job fails prints ONE line naming the cause and the log (utils/job_failed.sh), no traceback.

The steps run for real (bash, run.pl) on the suite's tiny data dir with one input broken: the pydeid job writes
its one-line error into its log, and the step must bring that line to the user's terminal, with the log's path.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _step(*argv, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PATH=f"{ROOT / '.venv' / 'bin'}:{os.environ['PATH']}")
    for d in ("steps", "utils"):
        if not (cwd / d).exists():
            (cwd / d).symlink_to(ROOT / d)
    return subprocess.run(["bash", *map(str, argv)], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=300)


def _failure_line(p: subprocess.CompletedProcess, nj: int) -> str:
    """The step's one line. With nj > 1 run.pl says first which tasks failed, as Kaldi's does; the step's line
    comes last."""
    assert p.returncode != 0, p.stdout + p.stderr
    assert "Traceback" not in p.stderr
    lines = [l for l in p.stderr.splitlines() if l.strip()]
    if nj == 1:
        assert len(lines) == 1, p.stderr
    else:
        assert any(l.startswith("run.pl: ") for l in lines[:-1]), p.stderr
    return lines[-1]


@pytest.mark.parametrize("nj", [1, 2])
def test_mask_words_failure_names_the_broken_file_and_the_log(base, nj):
    tags = base / "tags.conll"
    lines = tags.read_text().splitlines()
    lines[1] = "call\tQ-PER"                          # line 2 of the tags file: not a BIO tag
    tags.write_text("\n".join(lines) + "\n")
    p = _step("steps/mask_words.sh", "--nj", nj, "data", "tags.conll", "words.ctm", "exp/mask", "masked", cwd=base)
    line = _failure_line(p, nj)
    assert line.startswith("steps/mask_words.sh: masking failed: ")
    assert "tags.conll:2: tag 'Q-PER'" in line, line                # the pydeid error: file and line
    log = line.rsplit("(log: ", 1)[1].rstrip(")")
    assert (base / log).is_file() and "mask" in log
    assert not (base / "masked").exists()


def test_job_failed_reads_the_failed_job_among_several_logs(tmp_path):
    ok, bad = tmp_path / "x.1.log", tmp_path / "x.2.log"
    ok.write_text("# started\nall fine\n# Ended (code 0) at now\n")
    bad.write_text("# started\nTraceback (most recent call last):\n  File \"a.py\", line 1\n"
                   "ValueError: k must be >= 1, got 0\n# Ended (code 1) at now\n")
    p = subprocess.run(["bash", str(ROOT / "utils/job_failed.sh"), "steps/x.sh: x failed", str(ok), str(bad)],
                       capture_output=True, text=True)
    assert p.returncode == 1
    assert p.stderr == f"steps/x.sh: x failed: ValueError: k must be >= 1, got 0 (log: {bad})\n"
    p = subprocess.run(["bash", str(ROOT / "utils/job_failed.sh"), "steps/x.sh: x failed", str(tmp_path / "none.log")],
                       capture_output=True, text=True)
    assert p.returncode == 1 and p.stderr.count("\n") == 1 and "no log written" in p.stderr
