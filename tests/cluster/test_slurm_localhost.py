"""slurm.pl against a real single-node Slurm cluster on localhost (Debian slurm-wlm + munge).

Runs when the tests run as root (as CI does): the set-up installs the packages with apt-get if needed, starts
munged, slurmctld and slurmd privately (temp folder, free ports) and stops them by pid at the end. Skipped with
the reason otherwise. A recipe-like stage splits a data dir with --nj 2 and runs pydeid commands per part
through slurm.pl; a deliberately failing task must make the stage fail naming its log.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "utils"))
from datadir_helpers import REPO, STAGE, UTT2DUR, build_vctk_dir, utils_env  # noqa: E402
from slurm_localhost import LocalSlurm, install_packages, missing_programs  # noqa: E402


@pytest.fixture(scope="module")
def slurm(tmp_path_factory):
    if os.geteuid() != 0:
        pytest.skip("needs root: the set-up installs slurm-wlm + munge with apt-get and runs slurmctld/slurmd "
                    "(CI runs as root)")
    t0 = time.time()
    if missing_programs():
        if shutil.which("apt-get") is None:
            pytest.skip(f"Slurm programs missing ({' '.join(missing_programs())}) and no apt-get to install them")
        ok, out = install_packages()
        if not ok or missing_programs():
            pytest.skip(f"apt-get install slurm-wlm munge failed (no package mirror?): {out[-300:]}")
    install_s = time.time() - t0
    root = tmp_path_factory.mktemp("slurm")
    root.chmod(0o700)
    cluster = LocalSlurm(root, cpus=2)
    try:
        cluster.start()
    except Exception as e:
        pytest.fail(f"could not start the local Slurm cluster: {e}\n{cluster.logs()}")
    print(f"slurm set-up: install {install_s:.1f}s, daemons up after {time.time() - t0:.1f}s")
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def recipe(tmp_path, vctk_dir):
    """A recipe dir as egs/*/s5: utils, conf symlinked; local/ with a small python job; data/vctk."""
    (tmp_path / "utils").symlink_to(REPO / "utils")
    (tmp_path / "conf").mkdir()
    shutil.copy(REPO / "conf/slurm.conf", tmp_path / "conf/slurm.conf")
    (tmp_path / "local").mkdir()
    (tmp_path / "local/utt2dur.py").write_text(UTT2DUR)
    (tmp_path / "run_stage.sh").write_text(STAGE)
    (tmp_path / "run_stage.sh").chmod(0o755)
    build_vctk_dir(vctk_dir, tmp_path / "data/vctk", max_per_spk=2)
    return tmp_path


def test_stage_through_slurm_nj2(slurm, recipe):
    env = dict(utils_env(), SLURM_CONF=str(slurm.conf))
    t0 = time.time()
    p = subprocess.run(["./run_stage.sh", "data/vctk", "exp/dur"], cwd=recipe, env=env, capture_output=True,
                       text=True, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr + slurm.logs()
    print(f"stage through slurm.pl: {time.time() - t0:.1f}s")
    n = len((recipe / "data/vctk/utt2spk").read_text().splitlines())
    assert f"stage done: {n} utterances" in p.stdout
    durs = dict(line.split() for line in (recipe / "exp/dur/utt2dur").read_text().splitlines())
    assert len(durs) == n and all(float(v) > 0.5 for v in durs.values())
    for j in (1, 2):
        log = (recipe / f"exp/dur/log/validate.{j}.log").read_text()
        assert log.startswith("# Running on ") and f"data/vctk/split2/{j}: OK" in log and "with status 0" in log
        log = (recipe / f"exp/dur/log/utt2dur.{j}.log").read_text()
        assert "utterances" in log and "with status 0" in log
    qlog = (recipe / "exp/dur/q/utt2dur.log").read_text()
    assert "Submitted batch job" in qlog
    script = (recipe / "exp/dur/q/utt2dur.sh").read_text()
    assert "# sbatch --export=PATH --ntasks-per-node=1 --mem-per-cpu 100M" in script and "--array 1-2 " in script


def test_failing_task_fails_the_stage_naming_its_log(slurm, recipe):
    env = dict(utils_env(), SLURM_CONF=str(slurm.conf))
    subprocess.run(["utils/split_data.sh", "data/vctk", "2"], cwd=recipe, env=env, check=True)
    part2 = recipe / "data/vctk/split2/2/wav.scp"
    lines = part2.read_text().splitlines()
    lines[0] = lines[0].split()[0] + " /nonexistent/audio.wav"
    part2.write_text("\n".join(lines) + "\n")
    p = subprocess.run(["utils/slurm.pl", "--config", "conf/slurm.conf", "--max-jobs-run", "1", "JOB=1:2",
                        "exp/bad/log/validate.JOB.log", "pydeid", "validate-data-dir", "--check-audio",
                        "data/vctk/split2/JOB"], cwd=recipe, env=env, capture_output=True, text=True, timeout=300)
    assert p.returncode == 1, p.stderr + slurm.logs()
    assert "1 / 2 failed, log is in exp/bad/log/validate.*.log" in p.stderr
    assert "exp/bad/log/validate.2.log" in p.stderr and "validate.1.log" not in p.stderr.replace("*", "")
    log2 = (recipe / "exp/bad/log/validate.2.log").read_text()
    assert "wav.scp:1" in log2 and "with status 1" in log2
    assert "with status 0" in (recipe / "exp/bad/log/validate.1.log").read_text()
    assert "--array 1-2%1 " in (recipe / "exp/bad/q/validate.sh").read_text()


def _wait_running(env, timeout=60) -> str:
    deadline = time.time() + timeout
    while time.time() < deadline:
        # %F: the array's job id (the one slurm.pl submitted), the same for every task
        out = subprocess.run(["squeue", "-h", "-t", "R", "-o", "%F"], env=env, capture_output=True, text=True).stdout
        if out.split():
            return out.split()[0]
        time.sleep(0.3)
    raise AssertionError("no job started running")


def _queue_empty(env, timeout=30) -> bool:
    deadline = time.time() + timeout
    while time.time() < deadline:
        if not subprocess.run(["squeue", "-h"], env=env, capture_output=True, text=True).stdout.strip():
            return True
        time.sleep(0.3)
    return False


def test_cancelled_job_is_reported_and_killed_runner_cancels(slurm, recipe):
    env = dict(utils_env(), SLURM_CONF=str(slurm.conf), PYDEID_JOBS_CHECK_INTERVAL="1", PYDEID_JOBS_GRACE="1")
    runner = ["utils/slurm.pl", "--config", "conf/slurm.conf", "JOB=1:2", "exp/c/log/sleep.JOB.log", "sleep", "120"]
    procs = []
    try:
        # the job disappears from the queue (scancel, time limit, node failure): the runner notices, names the logs
        procs.append(subprocess.Popen(runner, cwd=recipe, env=env, stderr=subprocess.PIPE, text=True))
        job = _wait_running(env)
        subprocess.run(["scancel", job], env=env, check=True)
        _, err = procs[-1].communicate(timeout=60)
        assert procs[-1].returncode == 1, err
        assert "left the queue without finishing" in err and "exp/c/log/sleep.1.log" in err and "2 / 2 failed" in err
        assert _queue_empty(env)
        # the runner is killed (Ctrl-C on the recipe): it cancels its job instead of leaving it running
        procs.append(subprocess.Popen(runner, cwd=recipe, env=env, stderr=subprocess.PIPE, text=True))
        _wait_running(env)
        procs[-1].terminate()
        _, err = procs[-1].communicate(timeout=40)
        assert procs[-1].returncode != 0 and "cancelled job" in err, err
        assert _queue_empty(env), "the runner left its job in the queue"
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
