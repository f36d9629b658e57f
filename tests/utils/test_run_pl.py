"""utils/run.pl: JOB substitution, per-job Kaldi logs, the parallelism limit, failure propagation."""

from __future__ import annotations

import re
import subprocess
import time
from pathlib import Path

from datadir_helpers import UTILS, utils_env

RUN = str(UTILS / "run.pl")


def run(args, cwd, check=False):
    p = subprocess.run([RUN, *args], cwd=cwd, env=utils_env(), capture_output=True, text=True, timeout=60)
    if check and p.returncode != 0:
        raise AssertionError(p.stderr)
    return p


def test_job_substitution_and_logs(tmp_path):
    p = run(["JOB=1:3", "exp/log/echo.JOB.log", "echo", "task", "JOB", "a b", ">", "out.JOB.txt"], tmp_path,
            check=True)
    assert p.returncode == 0
    for j in (1, 2, 3):
        assert (tmp_path / f"out.{j}.txt").read_text() == f"task {j} a b\n"
        log = (tmp_path / f"exp/log/echo.{j}.log").read_text().splitlines()
        assert log[0] == f'# echo task {j} "a b" > out.{j}.txt'
        assert re.match(r"# Started at \w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d \w+ \d{4}$", log[1]), log[1]
        assert log[2] == "#"
        assert re.match(r"# Accounting: time=\d+ threads=1$", log[-2])
        assert re.match(r"# Ended \(code 0\) at .*, elapsed time \d+ seconds$", log[-1])
    assert not (tmp_path / "exp/log/echo.JOB.log").exists()


def test_output_goes_to_log_and_pipes_work(tmp_path):
    run(["JOB=2:3", "log/p.JOB.log", "echo", "hello-JOB", "|", "tr", "a-z", "A-Z", ";", "echo", "err", ">&2"],
        tmp_path, check=True)
    assert not (tmp_path / "log/p.1.log").exists()
    body = (tmp_path / "log/p.3.log").read_text()
    assert "HELLO-3\n" in body and "err\n" in body


def test_plain_job_and_options_accepted(tmp_path):
    p = run(["--mem", "4G", "--num-threads", "2", "--gpu", "1", "--time", "1:00:00", "log/one.log",
             "python3", "-c", "print( 'single' )"], tmp_path, check=True)
    assert p.returncode == 0
    log = (tmp_path / "log/one.log").read_text()
    assert "single\n" in log and "threads=2" in log and "(code 0)" in log


def test_failure_names_failed_logs_and_count(tmp_path):
    p = run(["JOB=1:4", "log/f.JOB.log", "bash", "-c", "echo trying JOB; test JOB != 2 && test JOB != 4"],
            tmp_path)
    assert p.returncode == 1
    assert "2 / 4 failed, log is in log/f.*.log" in p.stderr
    assert "log/f.2.log" in p.stderr and "log/f.4.log" in p.stderr
    assert "log/f.1.log" not in p.stderr and "log/f.3.log" not in p.stderr
    assert "# Ended (code 1)" in (tmp_path / "log/f.2.log").read_text()
    assert "# Ended (code 0)" in (tmp_path / "log/f.3.log").read_text()


def test_single_failure_message(tmp_path):
    p = run(["log/x.log", "exit", "7"], tmp_path)
    assert p.returncode == 1
    assert "job failed, log is in log/x.log" in p.stderr
    assert "# Ended (code 7)" in (tmp_path / "log/x.log").read_text()


def test_pipeline_failure_is_not_hidden(tmp_path):
    p = run(["log/pipe.log", "false", "|", "cat"], tmp_path)
    assert p.returncode == 1


def _intervals(tmp_path, n):
    out = []
    for j in range(1, n + 1):
        a, b = (tmp_path / f"t.{j}").read_text().split()
        out.append((float(a), float(b)))
    return out


def _max_overlap(iv):
    events = sorted([(a, 1) for a, _ in iv] + [(b, -1) for _, b in iv], key=lambda e: (e[0], e[1]))
    cur = best = 0
    for _, d in events:
        cur += d
        best = max(best, cur)
    return best


# an argument holding a double quote is single-quoted by the runner (Kaldi's rule)
SLEEPER = ("python3", "-c", "import time,sys; a=time.time(); time.sleep(0.4); "
           "open(sys.argv[1],\"w\").write(f\"{a} {time.time()}\")", "t.JOB")


def test_max_jobs_run_limits_parallelism(tmp_path):
    t0 = time.time()
    run(["--max-jobs-run", "2", "JOB=1:6", "log/s.JOB.log", *SLEEPER], tmp_path, check=True)
    assert _max_overlap(_intervals(tmp_path, 6)) == 2
    assert time.time() - t0 >= 1.2  # 3 waves of 0.4 s


def test_jobs_run_in_parallel(tmp_path):
    run(["--max-jobs-run", "4", "JOB=1:4", "log/s.JOB.log", *SLEEPER], tmp_path, check=True)
    assert _max_overlap(_intervals(tmp_path, 4)) >= 2


def test_usage_errors(tmp_path):
    assert run(["JOB=1:3", "log/same.log", "true"], tmp_path).returncode == 1  # tasks would share one log
    p = run(["JOB=1:", "log/x.JOB.log", "true"], tmp_path)  # e.g. an empty $nj
    assert p.returncode == 1 and "invalid job range" in p.stderr
    assert run(["log/only.log"], tmp_path).returncode == 1


def test_killed_runner_kills_its_jobs(tmp_path):
    proc = subprocess.Popen([RUN, "JOB=1:2", "log/k.JOB.log", "sleep", "30", ";", "touch", "survived.JOB"],
                            cwd=tmp_path, env=utils_env())
    deadline = time.time() + 10
    while time.time() < deadline and not (tmp_path / "log/k.2.log").exists():
        time.sleep(0.05)
    time.sleep(0.3)
    proc.terminate()
    assert proc.wait(timeout=10) != 0
    out = subprocess.run(["pgrep", "-f", f"sleep 30"], capture_output=True, text=True).stdout.split()
    for pid in out:  # any "sleep 30" left must not be ours (another user's): ours had cwd=tmp_path
        try:
            assert Path(f"/proc/{pid}/cwd").resolve() != tmp_path.resolve()
        except FileNotFoundError:
            pass
    assert not list(tmp_path.glob("survived.*"))


def test_pick_failed_reruns_only_the_failed_tasks(tmp_path):
    """Before: --pick failed was accepted and ignored (every task ran again)."""
    (tmp_path / "t.sh").write_text('#!/bin/bash\necho "$1" >>runs.txt\n[ "$1" != 2 ] || [ -f ok ]\n')
    (tmp_path / "t.sh").chmod(0o755)
    p = run(["JOB=1:3", "log/t.JOB.log", "./t.sh", "JOB"], tmp_path)
    assert p.returncode == 1 and "task 2 failed" in p.stderr
    (tmp_path / "ok").touch()
    p = run(["--pick", "failed", "JOB=1:3", "log/t.JOB.log", "./t.sh", "JOB"], tmp_path)
    assert p.returncode == 0, p.stderr
    assert sorted((tmp_path / "runs.txt").read_text().split()) == ["1", "2", "2", "3"]   # only task 2 again
    assert "Ended (code 0)" in (tmp_path / "log/t.2.log").read_text()
    p = run(["--pick", "failed", "JOB=1:3", "log/t.JOB.log", "./t.sh", "JOB"], tmp_path)
    assert p.returncode == 0 and "nothing rerun" in p.stderr
    assert len((tmp_path / "runs.txt").read_text().split()) == 4
    p = run(["--pick", "bogus", "JOB=1:3", "log/t.JOB.log", "./t.sh", "JOB"], tmp_path)
    assert p.returncode == 1 and p.stderr.strip().count("\n") == 0 and "--pick" in p.stderr
