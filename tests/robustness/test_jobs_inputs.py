"""Job runners: Kaldi's refusals (--max-jobs-run 0, JOB=0:2), and no job outlives a SIGKILLed run.pl."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
RUN_PL = REPO / "utils" / "run.pl"


def run_pl(*args, cwd):
    return subprocess.run([sys.executable, str(RUN_PL), *map(str, args)], capture_output=True, text=True, cwd=cwd,
                          timeout=60)


@pytest.mark.parametrize("opts,name", [
    (["--max-jobs-run", "0"], "--max-jobs-run"),
    (["--max-jobs-run", "-3"], "--max-jobs-run"),
    (["--max-jobs-run", "two"], "--max-jobs-run"),
    (["JOB=0:2"], "JOB=0:2"),
    (["JOB=3:1"], "JOB=3:1"),
])
def test_run_pl_refuses_like_kaldi(tmp_path, opts, name):
    log = tmp_path / "log" / ("x.JOB.log" if any(o.startswith("JOB") for o in opts) else "x.log")
    p = run_pl(*opts, log, "touch", tmp_path / "ran.JOB", cwd=tmp_path)
    assert p.returncode == 1, p.stderr
    lines = [l for l in p.stderr.splitlines() if l.strip()]
    assert len(lines) == 1 and name in lines[0], p.stderr
    assert "Traceback" not in p.stderr
    assert not (tmp_path / "log").exists() and not list(tmp_path.glob("ran.*"))


def test_jobs_die_with_a_sigkilled_run_pl(tmp_path):
    """Before: the jobs kept running and writing after the step had reported failure."""
    proc = subprocess.Popen([sys.executable, str(RUN_PL), "JOB=1:2", tmp_path / "log" / "j.JOB.log",
                             "sleep", "2", "&&", "touch", tmp_path / "late.JOB"], cwd=tmp_path,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 10
    while time.time() < deadline and len(list((tmp_path / "log").glob("j.*.log"))) < 2:
        time.sleep(0.05)
    time.sleep(0.5)
    assert "Ended" not in (tmp_path / "log" / "j.1.log").read_text()   # the jobs are running
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    time.sleep(3)
    assert not list(tmp_path.glob("late.*")), "a job kept running after run.pl was killed"
    # the same jobs complete when run.pl is left alone (the test can fail)
    p = run_pl("JOB=1:2", tmp_path / "log2" / "j.JOB.log", "sleep", "0.2", "&&", "touch", tmp_path / "ok.JOB",
               cwd=tmp_path)
    assert p.returncode == 0 and len(list(tmp_path.glob("ok.*"))) == 2, p.stderr
