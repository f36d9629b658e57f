"""utils/queue.pl and utils/slurm.pl: the submission commands generated through conf/queue.conf and
conf/slurm.conf, checked with fake qsub/sbatch/qstat programs on PATH that record their arguments and run the
job script locally (task by task, as the scheduler would). The real-Slurm test is tests/cluster/."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from datadir_helpers import REPO, UTILS, utils_env

FAKE_QSUB = r"""#!/bin/bash
printf '%s\n' "$@" > "$FAKE_RECORD"
script="${@: -1}"; t=""
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do [ "${args[i]}" = "-t" ] && t=${args[i+1]}; done
echo "Your job-array 4242.${t:-1}:1 (\"x\") has been submitted"
[ -n "${FAKE_NORUN:-}" ] && exit 0
if [ -n "$t" ]; then for ((k = ${t%%:*}; k <= ${t##*:}; k++)); do SGE_TASK_ID=$k bash "$script"; done
else bash "$script"; fi
exit 0
"""

FAKE_SBATCH = r"""#!/bin/bash
printf '%s\n' "$@" > "$FAKE_RECORD"
script="${@: -1}"; a=""
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do [ "${args[i]}" = "--array" ] && a=${args[i+1]}; done
echo "Submitted batch job 777"
a=${a%%\%*}
if [ -n "$a" ]; then for ((k = ${a%%-*}; k <= ${a##*-}; k++)); do SLURM_ARRAY_TASK_ID=$k bash "$script"; done
else bash "$script"; fi
"""

FAKE_QSTAT_GONE = "#!/bin/bash\necho 'Following jobs do not exist: '$1 >&2\nexit 1\n"


@pytest.fixture
def fake_env(tmp_path):
    b = tmp_path / "bin"
    b.mkdir()
    for name, body in (("qsub", FAKE_QSUB), ("sbatch", FAKE_SBATCH)):
        (b / name).write_text(body)
        (b / name).chmod(0o755)
    env = utils_env()
    env["PATH"] = f"{b}:{env['PATH']}"
    env["FAKE_RECORD"] = str(tmp_path / "record")
    return env


def run(prog, args, cwd, env):
    return subprocess.run([str(UTILS / prog), *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=60)


def recorded(tmp_path) -> list[str]:
    return (tmp_path / "record").read_text().splitlines()


def test_queue_pl_translates_options_through_queue_conf(tmp_path, fake_env):
    work = tmp_path / "w"
    work.mkdir()
    p = run("queue.pl", ["--config", str(REPO / "conf/queue.conf"), "--mem", "2G", "--num-threads", "4",
                         "--max-jobs-run", "2", "--gpu", "1", "--time", "1:00:00", "-q", "all.q",
                         "JOB=1:3", "exp/a/log/x.JOB.log", "echo", "hi", "JOB"], work, fake_env)
    assert p.returncode == 0, p.stderr
    script = str(work / "exp/a/q/x.sh")
    assert recorded(tmp_path) == [
        "-v", "PATH", "-cwd", "-S", "/bin/bash", "-j", "y", "-l", "arch=*64*",  # command line of queue.conf
        "-o", "exp/a/q/x.log",
        "-q", "all.q",                                  # raw scheduler options pass through first
        "-l", "mem_free=2G,ram_free=2G",                # --mem 2G
        "-pe", "smp", "4",                              # --num-threads 4
        "-tc", "2",                                     # --max-jobs-run 2
        "-l", "gpu=1", "-q", "g.q",                     # --gpu 1
        "-l", "h_rt=1:00:00",                           # --time
        "-t", "1:3", script]
    for j in (1, 2, 3):
        log = (work / f"exp/a/log/x.{j}.log").read_text()
        assert f"# echo hi {j}\n" in log and f"\nhi {j}\n" in log and "with status 0" in log
        assert "threads=4" in log
    assert "qsub -v PATH" in (work / "exp/a/q/x.sh").read_text()  # the script records how it was submitted
    assert not list((work / "exp/a/q").glob("done.*"))


def test_queue_pl_kaldi_default_config_and_defaults(tmp_path, fake_env):
    # no --config and no conf/queue.conf in the working dir: Kaldi's built-in config; gpu defaults to 0
    p = run("queue.pl", ["log/one.log", "true"], tmp_path, fake_env)
    assert p.returncode == 0, p.stderr
    rec = recorded(tmp_path)
    assert rec[:9] == ["-v", "PATH", "-cwd", "-S", "/bin/bash", "-j", "y", "-l", "arch=*64*"]
    assert "-t" not in rec and "gpu=0" not in " ".join(rec)
    assert rec[-1] == str(tmp_path / "log/q/one.sh")


def test_queue_pl_rejects_options_the_config_does_not_describe(tmp_path, fake_env):
    conf = tmp_path / "q.conf"
    conf.write_text("command qsub -cwd\noption mem=* -l mem_free=$0\n")
    p = run("queue.pl", ["--config", str(conf), "--num-threads", "2", "log/x.log", "true"], tmp_path, fake_env)
    assert p.returncode == 1 and "--num-threads not described in" in p.stderr
    conf.write_text("option mem=* -l mem_free=$0\n")
    p = run("queue.pl", ["--config", str(conf), "log/x.log", "true"], tmp_path, fake_env)
    assert p.returncode == 1 and 'does not contain the line "command' in p.stderr
    p = run("queue.pl", ["--config", str(tmp_path / "nope.conf"), "log/x.log", "true"], tmp_path, fake_env)
    assert p.returncode == 1 and "could not open config file" in p.stderr


def test_queue_pl_specific_value_rule_wins(tmp_path, fake_env):
    conf = tmp_path / "q.conf"
    conf.write_text("command qsub\ndefault gpu=0\noption gpu=0 -q cpu.q\noption gpu=2 -q big.q -l gpu=2\n"
                    "option gpu=* -q gpu.q -l gpu=$0\n")
    for gpu, expect in ((None, ["-q", "cpu.q"]), ("1", ["-q", "gpu.q", "-l", "gpu=1"]),
                        ("2", ["-q", "big.q", "-l", "gpu=2"])):
        args = ["--config", str(conf)] + (["--gpu", gpu] if gpu else []) + ["log/g.log", "true"]
        p = run("queue.pl", args, tmp_path, fake_env)
        assert p.returncode == 0, p.stderr
        rec = recorded(tmp_path)
        assert rec[2:-1] == expect, rec


def test_queue_pl_failure_names_the_log(tmp_path, fake_env):
    p = run("queue.pl", ["--config", str(REPO / "conf/queue.conf"), "JOB=1:3", "log/f.JOB.log",
                         "test", "JOB", "-ne", "2"], tmp_path, fake_env)
    assert p.returncode == 1
    assert "1 / 3 failed, log is in log/f.*.log" in p.stderr and "log/f.2.log" in p.stderr
    assert "with status 1" in (tmp_path / "log/f.2.log").read_text()


def test_queue_pl_notices_a_job_that_left_the_queue(tmp_path, fake_env):
    (Path(fake_env["PATH"].split(":")[0]) / "qstat").write_text(FAKE_QSTAT_GONE)
    (Path(fake_env["PATH"].split(":")[0]) / "qstat").chmod(0o755)
    env = dict(fake_env, FAKE_NORUN="1", PYDEID_JOBS_CHECK_INTERVAL="0.2", PYDEID_JOBS_GRACE="0.3")
    p = run("queue.pl", ["--config", str(REPO / "conf/queue.conf"), "JOB=1:2", "log/v.JOB.log", "true"],
            tmp_path, env)
    assert p.returncode == 1
    assert "left the queue without finishing" in p.stderr and "log/v.1.log" in p.stderr
    assert "2 / 2 failed" in p.stderr


def test_slurm_pl_translates_options_through_slurm_conf(tmp_path, fake_env):
    p = run("slurm.pl", ["--config", str(REPO / "conf/slurm.conf"), "--mem", "2G", "--num-threads", "2",
                         "--max-jobs-run", "1", "--time", "0:10:00", "JOB=2:3", "exp/b/log/y.JOB.log",
                         "echo", "task", "JOB", "|", "tr", "a-z", "A-Z"], tmp_path, fake_env)
    assert p.returncode == 0, p.stderr
    assert recorded(tmp_path) == [
        "--export=PATH", "--ntasks-per-node=1",
        "--mem-per-cpu", "2G",
        "--cpus-per-task", "2", "--ntasks-per-node=1",
        "--time", "0:10:00",
        "--open-mode=append", "-e", "exp/b/q/y.log", "-o", "exp/b/q/y.log",
        "--array", "2-3%1", str(tmp_path / "exp/b/q/y.sh")]
    assert "TASK 3" in (tmp_path / "exp/b/log/y.3.log").read_text()
    assert not (tmp_path / "exp/b/log/y.1.log").exists()


def test_slurm_pl_gpu_and_kaldi_default(tmp_path, fake_env):
    p = run("slurm.pl", ["--config", str(REPO / "conf/slurm.conf"), "--gpu", "1", "log/t.log", "true"],
            tmp_path, fake_env)
    assert p.returncode == 0, p.stderr
    rec = recorded(tmp_path)
    assert rec[2:4] == ["-p", "gpu"] and "--gres=gpu:1" in rec and "--array" not in rec
    p = run("slurm.pl", ["log/t.log", "true"], tmp_path, fake_env)  # Kaldi's built-in config: gpu=0 -> -p shared
    assert p.returncode == 0, p.stderr
    assert recorded(tmp_path)[2:4] == ["-p", "shared"]
