"""slurm.pl / queue.pl: submit a Kaldi-style (array) job to Slurm or Grid Engine, wait, check every task.

As Kaldi's runners do: the options are translated through conf/slurm.conf or conf/queue.conf (pydeid.jobs.config),
a job script is written to <logdir>/../q/<name>.sh (the scheduler's own output goes to q/<name>.log), the job
is submitted as one array job, and the runner waits until every task has written its done file
(q/done.<pid>.<task>, holding the task's exit status), checking now and then that the job is still known to
the scheduler. Each task writes its own log in Kaldi's queue.pl format:
    # Running on <host>
    # Started at <date>
    # <command with JOB replaced>
    #
    <stdout and stderr>
    # Accounting: time=<s> threads=<n>
    # Finished at <date> with status <code>
Unlike Kaldi, JOB is replaced literally per task inside the script (a `case` on the task id), exactly as run.pl
does, so a command behaves the same under every runner even where JOB sits inside quotes.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from .cmdline import JobSpec, UsageError, parse
from .config import DEFAULT_QUEUE_CONFIG, DEFAULT_SLURM_CONFIG, Translation, load_config_text, translate
from .local import report_failures


@dataclass
class Backend:
    prog: str
    default_config: str
    default_text: str
    task_var: str
    self_handled: tuple[str, ...]
    job_id_re: str
    status_cmd: list[str]   # + job id; exit status != 0 or empty output: the job is gone
    cancel_cmd: list[str]   # + job id

    def submit_string(self, tr: Translation, raw_opts: list[str], spec: JobSpec, queue_log: str,
                      script: str) -> str:
        raw = " ".join(raw_opts)
        q = shlex.quote
        if self.prog == "slurm.pl":
            array = ""
            if spec.array:
                array = f"--array {spec.start}-{spec.end}"
                if tr.max_jobs_run:
                    array += f"%{tr.max_jobs_run}"
            parts = [tr.command, raw, *tr.options, "--open-mode=append", f"-e {q(queue_log)}",
                     f"-o {q(queue_log)}", array, q(script)]
        else:
            array = f"-t {spec.start}:{spec.end}" if spec.array else ""
            parts = [tr.command, f"-o {q(queue_log)}", raw, *tr.options, array, q(script)]
        return " ".join(p for p in parts if p) + f" >>{q(queue_log)} 2>&1"


SLURM = Backend("slurm.pl", "conf/slurm.conf", DEFAULT_SLURM_CONFIG, "SLURM_ARRAY_TASK_ID", ("max_jobs_run",),
                r"Submitted batch job (\d+)", ["squeue", "-h", "-o", "%i %T", "-j"], ["scancel"])
QUEUE = Backend("queue.pl", "conf/queue.conf", DEFAULT_QUEUE_CONFIG, "SGE_TASK_ID", (),
                r"Your job(?:-array)? (\d+)", ["qstat", "-j"], ["qdel"])


def queue_paths(logfile: str, jobname: str | None) -> tuple[Path, Path, Path]:
    """(qdir, queue log, script) as Kaldi: exp/x/log/foo.JOB.log -> exp/x/q/foo.log and exp/x/q/foo.sh."""
    d = os.path.dirname(logfile) or "."
    base = os.path.basename(logfile)
    qdir = re.sub(r"/(log|LOG)/*q$", "/q", f"{d}/q")
    if jobname:
        base = re.sub(r"\.?" + re.escape(jobname), "", base, count=1) or "job.log"
    queue_log = Path(qdir) / base
    script = Path(re.sub(r"\.[A-Za-z]{1,5}$", ".sh", str(queue_log)))
    if script == queue_log:
        script = Path(f"{queue_log}.sh")
    return Path(qdir), queue_log, script


def write_script(path: Path, spec: JobSpec, backend: Backend, done_prefix: Path, num_threads: str) -> None:
    q = shlex.quote
    lines = [
        "#!/bin/bash",
        f"# written by {backend.prog}; submitted with the command at the end of this file",
        f"cd {q(os.getcwd())}",
        "[ -f ./path.sh ] && . ./path.sh",
    ]
    if spec.array:
        lines += [f'task=${{{backend.task_var}:-}}', 'case "$task" in']
        for t in spec.task_ids:
            cmd, log = spec.for_task(t)
            lines += [f"  {t})", f"    log={q(log)}", f"    cmd_text={q(cmd)}",
                      f"    run_task() {{\n{cmd}\n    }}", "    ;;"]
        lines += ['  *) echo "$0: unknown task id \'$task\' (expected ' + f'{spec.start}..{spec.end})" >&2; exit 1 ;;',
                  "esac", f'done_file={q(str(done_prefix))}."$task"']
    else:
        cmd, log = spec.for_task(0)
        lines += [f"log={q(log)}", f"cmd_text={q(cmd)}", f"run_task() {{\n{cmd}\n}}",
                  f"done_file={q(str(done_prefix))}"]
    lines += [
        'mkdir -p "$(dirname "$log")"',
        "( echo \"# Running on $(hostname)\"",
        "  echo \"# Started at $(date)\"",
        "  echo \"# $cmd_text\"",
        "  echo \"#\" ) > \"$log\"",
        "time1=$(date +%s)",
        "set -o pipefail",
        '( run_task ) >> "$log" 2>&1',
        "ret=$?",
        "sync || true",
        "time2=$(date +%s)",
        'echo "# Accounting: begin_time=$time1" >> "$log"',
        'echo "# Accounting: end_time=$time2" >> "$log"',
        f'echo "# Accounting: time=$((time2 - time1)) threads={num_threads}" >> "$log"',
        'echo "# Finished at $(date) with status $ret" >> "$log"',
        'echo "$ret" > "$done_file.tmp" && mv "$done_file.tmp" "$done_file"',
        "exit $(( ret ? 1 : 0 ))",
    ]
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + f".tmp{os.getpid()}")
    tmp.write_text("\n".join(lines) + "\n")
    os.chmod(tmp, 0o755)
    os.replace(tmp, path)


def _job_alive(backend: Backend, job_id: str) -> bool | None:
    """True/False when the scheduler answers, None when its status command is unavailable."""
    if shutil.which(backend.status_cmd[0]) is None:
        return None
    try:
        p = subprocess.run(backend.status_cmd + [job_id], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if p.returncode != 0:
        return False
    if backend.prog == "slurm.pl":
        return bool(p.stdout.strip())
    return True


def _status_from_log(log: str) -> int | None:
    try:
        with open(log, errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    for line in reversed(lines[-5:]):
        m = re.match(r"# Finished at .* with status (-?\d+)$", line)
        if m:
            return int(m.group(1))
    return None


def wait_for_tasks(backend: Backend, job_id: str | None, done: dict[int, Path], poll_max: float = 2.0,
                   check_every: float = 10.0, grace: float = 10.0) -> dict[int, int | None]:
    """Wait until every done file exists; a task whose job left the queue without one gets None."""
    status: dict[int, int | None] = {}
    delay, last_check, gone_since = 0.1, time.time(), None
    while True:
        for t, f in done.items():
            if t not in status and f.exists():
                try:
                    status[t] = int(f.read_text().strip() or 1)
                except ValueError:
                    status[t] = 1
        if len(status) == len(done):
            return status
        now = time.time()
        if job_id and now - last_check >= check_every:
            last_check = now
            alive = _job_alive(backend, job_id)
            if alive is False:
                gone_since = gone_since or now
                if now - gone_since >= grace:  # allow a shared file system to catch up
                    for t in done:
                        status.setdefault(t, None)
                    return status
            elif alive:
                gone_since = None
        time.sleep(delay)
        delay = min(poll_max, delay * 1.5)


def main(argv: list[str], backend: Backend) -> int:
    prog = backend.prog
    try:
        spec = parse(argv, prog)
        text, name = load_config_text(prog, spec.options, backend.default_config, backend.default_text)
        tr = translate(prog, text, name, spec.options, spec.array, backend.self_handled)
    except UsageError as e:
        print(e, file=sys.stderr)
        return 1
    if spec.array and spec.start <= 0:
        print(f"{prog}: invalid job range {spec.jobname}={spec.start}:{spec.end}, start must be strictly positive "
              f"(a Grid Engine limitation Kaldi keeps for every scheduler)", file=sys.stderr)
        return 1
    num_threads = spec.options.get("num_threads", "1")
    qdir, queue_log, script = queue_paths(spec.logfile, spec.jobname)
    qdir.mkdir(parents=True, exist_ok=True)
    Path(os.path.dirname(spec.logfile) or ".").mkdir(parents=True, exist_ok=True)
    script = script if script.is_absolute() else Path(os.getcwd()) / script
    done_prefix = (qdir / f"done.{os.getpid()}").absolute()
    tasks = list(spec.task_ids) if spec.array else [0]
    done = {t: Path(f"{done_prefix}.{t}") if spec.array else done_prefix for t in tasks}
    for f in done.values():
        f.unlink(missing_ok=True)
    queue_log.unlink(missing_ok=True)
    write_script(script, spec, backend, done_prefix, num_threads)
    submit = backend.submit_string(tr, spec.raw_opts, spec, str(queue_log), str(script))
    with open(script, "a") as f:
        f.write(f"## submitted with:\n# {submit}\n")
    rc = subprocess.run(["bash", "-c", submit]).returncode
    qtext = queue_log.read_text(errors="replace") if queue_log.exists() else ""
    if rc != 0:
        print(f"{prog}: error submitting jobs to queue (return status was {rc})\n"
              f"queue log file is {queue_log}, command was\n  {submit}", file=sys.stderr)
        for line in qtext.splitlines()[-5:]:
            print(f"  {line}", file=sys.stderr)
        return 1
    m = re.search(backend.job_id_re, qtext)
    job_id = m.group(1) if m else None
    if job_id is None:
        print(f"{prog}: warning: no job id in {queue_log}; cannot notice a job that dies without finishing",
              file=sys.stderr)

    def on_signal(signum, frame):
        if job_id and shutil.which(backend.cancel_cmd[0]):
            try:  # bounded: an unreachable scheduler must not keep the runner alive
                r = subprocess.run(backend.cancel_cmd + [job_id], capture_output=True, timeout=20)
                what = "cancelled" if r.returncode == 0 else "could not cancel"
            except subprocess.TimeoutExpired:
                what = "timed out cancelling"
            print(f"{prog}: caught signal {signum}, {what} job {job_id}", file=sys.stderr)
        os._exit(128 + signum)

    old = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
    # how often to ask the scheduler whether the job still exists, and how long to wait for done files after it
    # left (a shared file system may lag); environment knobs for slow clusters and for tests
    check = float(os.environ.get("PYDEID_JOBS_CHECK_INTERVAL", "10"))
    grace = float(os.environ.get("PYDEID_JOBS_GRACE", "10"))
    try:
        status = wait_for_tasks(backend, job_id, done, check_every=check, grace=grace)
    finally:
        for s, h in old.items():
            signal.signal(s, h)
    for f in done.values():
        f.unlink(missing_ok=True)
    results = []
    for t in tasks:
        log = spec.for_task(t)[1]
        st = status[t]
        if st is None:
            st = _status_from_log(log)
            if st is None:
                print(f"{prog}: task {t if spec.array else ''} of job {job_id} left the queue without finishing "
                      f"(killed? time or memory limit?); see {log} and {queue_log}", file=sys.stderr)
                st = 1
        results.append((t, st, log))
    return report_failures(prog, spec, results)
