"""run.pl: run Kaldi-style (array) jobs on this machine, at most --max-jobs-run at a time.

Each task's log file gets, as in Kaldi:
    # <command with JOB replaced>
    # Started at <date>
    #
    <stdout and stderr of the command>
    # Accounting: time=<s> threads=<n>
    # Ended (code <status>) at <date>, elapsed time <s> seconds
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from .cmdline import JobSpec, UsageError, parse

PROG = "run.pl"

# The watchdog: a tiny process that learns the process group of every running job through a pipe from run.pl
# ("+pgid" / "-pgid" lines). When the pipe closes, run.pl is gone -- finished, or killed even by SIGKILL, which it
# cannot catch -- and the watchdog stops the jobs it left running (SIGTERM, then SIGKILL after 5 s), so no job keeps
# writing after the step has been reported as failed.
_WATCHDOG = r"""
import os, signal, sys, time
groups = set()
for line in sys.stdin:
    line = line.strip()
    if line[:1] == "+":
        groups.add(int(line[1:]))
    elif line[:1] == "-":
        groups.discard(int(line[1:]))
def alive(g):
    try:
        os.killpg(g, 0)
        return True
    except (ProcessLookupError, PermissionError):
        return False
for g in list(groups):
    try:
        os.killpg(g, signal.SIGTERM)
    except (ProcessLookupError, PermissionError):
        groups.discard(g)
deadline = time.time() + 5
while groups and time.time() < deadline:
    groups = {g for g in groups if alive(g)}
    time.sleep(0.1)
for g in groups:
    try:
        os.killpg(g, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
"""


class _Watchdog:
    def __init__(self):
        try:
            self.proc = subprocess.Popen([sys.executable, "-c", _WATCHDOG], stdin=subprocess.PIPE,
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                         start_new_session=True, text=True)
        except OSError:
            self.proc = None

    def tell(self, line: str) -> None:
        if self.proc is None:
            return
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, ValueError):
            pass

    def close(self) -> None:
        if self.proc is not None:
            try:
                self.proc.stdin.close()
            except BrokenPipeError:
                pass


def kaldi_date(t: float | None = None) -> str:
    """The output of `date` in the C locale (what Kaldi writes into its logs)."""
    return time.strftime("%a %b %e %H:%M:%S %Z %Y", time.localtime(t))


def shell_argv(command: str) -> list[str]:
    # Kaldi runs `( $cmd )` through the shell; pipefail so a failure inside a pipeline is not hidden.
    return ["bash", "-c", f"set -o pipefail\n( {command}\n)"]


class _Runner:
    def __init__(self, spec: JobSpec, num_threads: str):
        self.spec = spec
        self.num_threads = num_threads
        self.procs: dict[int, subprocess.Popen] = {}
        self.lock = threading.Lock()
        self.aborted = False
        self.watchdog = _Watchdog()

    def run_task(self, task: int) -> tuple[int, str]:
        command, logfile = self.spec.for_task(task)
        d = os.path.dirname(logfile)
        if d:
            os.makedirs(d, exist_ok=True)
        t0 = time.time()
        with open(logfile, "w") as f:
            f.write(f"# {command}\n# Started at {kaldi_date(t0)}\n#\n")
        with self.lock:
            if self.aborted:
                rc = 130
                proc = None
            else:
                with open(logfile, "a") as f:
                    stdin = subprocess.DEVNULL if self.spec.array else None
                    proc = subprocess.Popen(shell_argv(command), stdout=f, stderr=subprocess.STDOUT, stdin=stdin,
                                            start_new_session=True)
                self.procs[task] = proc
                self.watchdog.tell(f"+{proc.pid}")
        if proc is not None:
            rc = proc.wait()
            with self.lock:
                self.procs.pop(task, None)
                self.watchdog.tell(f"-{proc.pid}")
            if rc < 0:  # killed by a signal: report it like the shell does
                rc = 128 - rc
        t1 = time.time()
        el = int(round(t1 - t0))
        with open(logfile, "a") as f:
            f.write(f"# Accounting: time={el} threads={self.num_threads}\n")
            f.write(f"# Ended (code {rc}) at {kaldi_date(t1)}, elapsed time {el} seconds\n")
        return rc, logfile

    def kill_all(self, signum: int) -> None:
        with self.lock:
            self.aborted = True
            for p in self.procs.values():
                try:
                    os.killpg(p.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass


def default_max_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


def report_failures(prog: str, spec: JobSpec, results: list[tuple[int, int, str]]) -> int:
    """Print Kaldi's failure line plus every failed log; return the exit status (0 or 1)."""
    failed = [(task, rc, log) for task, rc, log in results if rc != 0]
    if not failed:
        return 0
    if spec.array:
        for task, rc, log in failed:
            print(f"{prog}: task {task} failed (code {rc}), log is in {log}", file=sys.stderr)
    if len(results) == 1:
        print(f"{prog}: job failed, log is in {failed[0][2]}", file=sys.stderr)
    else:
        pattern = spec.logfile.replace(spec.jobname, "*") if spec.jobname else spec.logfile
        print(f"{prog}: {len(failed)} / {len(results)} failed, log is in {pattern}", file=sys.stderr)
    tail = _log_tail(failed[0][2])
    if tail:
        print(f"{prog}: last lines of {failed[0][2]}:", file=sys.stderr)
        for line in tail:
            print(f"  {line}", file=sys.stderr)
    return 1


def _log_tail(log: str, n: int = 5) -> list[str]:
    try:
        with open(log, errors="replace") as f:
            lines = [l.rstrip("\n") for l in f]
    except OSError:
        return []
    header = 0
    while header < len(lines) and lines[header].startswith("#") and header < 4:
        header += 1  # "# <command>", "# Started at", "# Running on", "#"
    body = [l for l in lines[header:] if not l.startswith(("# Accounting:", "# Ended (code", "# Finished at"))]
    return body[-n:]


def succeeded(log: str) -> bool:
    """Whether a task's log says it finished with status 0 (its last '# Ended (code N)' line, as run.pl writes)."""
    try:
        with open(log, errors="replace") as f:
            ended = [l for l in f if l.startswith("# Ended (code ")]
    except OSError:
        return False
    return bool(ended) and ended[-1].startswith("# Ended (code 0)")


PICKS = ("all", "failed")


def main(argv: list[str]) -> int:
    try:
        spec = parse(argv, PROG)
        given = spec.options.get("max_jobs_run")
        max_jobs = int(given) if given is not None else -1
    except UsageError as e:
        print(e, file=sys.stderr)
        return 1
    except ValueError:
        print(f"{PROG}: --max-jobs-run needs a positive integer, got '{given}'", file=sys.stderr)
        return 1
    if given is not None and max_jobs <= 0:  # Kaldi: "invalid number of jobs"
        print(f"{PROG}: --max-jobs-run needs a positive integer, got '{given}'", file=sys.stderr)
        return 1
    if max_jobs <= 0:  # not given: the number of processors, as Kaldi
        max_jobs = default_max_jobs()
    # --mem, --gpu, --time, --config, -l ...: meaningful for a scheduler only; accepted and ignored here.
    pick = spec.options.get("pick", "all")
    if pick not in PICKS:
        print(f"{PROG}: --pick must be one of {', '.join(PICKS)}, got '{pick}'", file=sys.stderr)
        return 1
    runner = _Runner(spec, spec.options.get("num_threads", "1"))
    tasks = list(spec.task_ids)
    done: list[tuple[int, int, str]] = []
    if pick == "failed":   # Kaldi's --pick failed: rerun only the tasks whose log does not end with code 0
        for t in list(tasks):
            log = spec.for_task(t)[1]
            if succeeded(log):
                tasks.remove(t)
                done.append((t, 0, log))
        if not tasks:
            print(f"{PROG}: --pick failed: all {len(done)} task(s) already succeeded, nothing rerun", file=sys.stderr)
            return 0

    def on_signal(signum, frame):
        runner.kill_all(signum)
        print(f"{PROG}: caught signal {signum}, killed the running jobs", file=sys.stderr)
        os._exit(128 + signum)

    old = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        if len(tasks) == 1:
            rc, log = runner.run_task(tasks[0])
            results = sorted(done + [(tasks[0], rc, log)])
        else:
            with ThreadPoolExecutor(max_workers=min(max_jobs, len(tasks))) as pool:
                outs = list(pool.map(runner.run_task, tasks))
            results = sorted(done + [(t, rc, log) for t, (rc, log) in zip(tasks, outs)])
    finally:
        for s, h in old.items():
            signal.signal(s, h)
        runner.watchdog.close()
    return report_failures(PROG, spec, results)
