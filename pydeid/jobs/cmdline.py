"""Parse a Kaldi job-runner command line: options, the `JOB=1:N` range, the log file and the command."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_RANGE = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)=(\d+):(\d+)$")
_SINGLE = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)=(\d+)$")


class UsageError(Exception):
    """Bad runner command line; printed as one line and exit status 1."""


@dataclass
class JobSpec:
    options: dict[str, str] = field(default_factory=dict)  # "--mem 4G" -> {"mem": "4G"} (dashes -> underscores)
    raw_opts: list[str] = field(default_factory=list)      # scheduler options given as is: -l x, -pe smp 4, -V
    jobname: str | None = None                              # "JOB" in JOB=1:N, None for a plain job
    start: int = 1
    end: int = 1
    logfile: str = ""
    command: str = ""                                       # one shell string, Kaldi quoting

    @property
    def array(self) -> bool:
        return self.jobname is not None

    @property
    def task_ids(self) -> range:
        return range(self.start, self.end + 1)

    def for_task(self, task: int | str) -> tuple[str, str]:
        """(command, logfile) with the job name replaced, as Kaldi's plain `s/JOB/n/g`."""
        if self.jobname is None:
            return self.command, self.logfile
        return self.command.replace(self.jobname, str(task)), self.logfile.replace(self.jobname, str(task))


def kaldi_join(args: list[str]) -> str:
    """Join argv into a shell string the way Kaldi's runners do.

    Arguments without white space pass unquoted (so `|`, `>` and `$VAR` keep their shell meaning, which recipes
    rely on); an argument with white space is double-quoted, or single-quoted if it contains a double quote.
    """
    out = []
    for a in args:
        if re.fullmatch(r"\S+", a):
            out.append(a)
        elif '"' in a:
            out.append(f"'{a}'")
        else:
            out.append(f'"{a}"')
    return " ".join(out)


def _take_options(argv: list[str], spec: JobSpec, prog: str) -> None:
    while len(argv) >= 2 and argv[0].startswith("-"):
        switch = argv.pop(0)
        if switch == "-V":
            spec.raw_opts.append(switch)
            continue
        arg = argv.pop(0)
        if switch == "-pe":  # -pe smp 4: two values
            if not argv:
                raise UsageError(f"{prog}: -pe needs two arguments")
            arg2 = argv.pop(0)
            spec.raw_opts += [switch, arg, arg2]
            spec.options.setdefault("num_threads", arg2)
        elif switch.startswith("--"):
            spec.options[switch[2:].replace("-", "_")] = arg
        else:
            spec.raw_opts += [switch, arg]


def parse(argv: list[str], prog: str) -> JobSpec:
    """Kaldi syntax: options, then optionally JOB=a:b (or JOB=a), options again, then <log> <command...>."""
    argv = list(argv)
    spec = JobSpec()
    _take_options(argv, spec, prog)
    if argv:
        m = _RANGE.match(argv[0]) or _SINGLE.match(argv[0])
        if m:
            argv.pop(0)
            spec.jobname = m.group(1)
            spec.start = int(m.group(2))
            spec.end = int(m.group(3)) if m.re is _RANGE else spec.start
            if spec.end < spec.start:
                raise UsageError(f"{prog}: invalid job range {m.group(0)}")
            if spec.start < 1:  # as Kaldi's runners (a GridEngine limitation they all keep)
                raise UsageError(f"{prog}: invalid job range {m.group(0)}: the first job number must be >= 1")
            _take_options(argv, spec, prog)
        elif re.match(r"^[A-Za-z_][A-Za-z0-9_]*=[^/]*:[^/]*$", argv[0]):  # e.g. JOB=1: with an empty $nj
            raise UsageError(f"{prog}: invalid job range '{argv[0]}' (expected e.g. JOB=1:4)")
    if len(argv) < 2:
        raise UsageError(
            f"usage: {prog} [options] [JOB=1:n] <log-file> <command...>\n"
            f"e.g.: {prog} JOB=1:4 exp/foo/log/bar.JOB.log pydeid some-command --part JOB\n"
            f"options: --max-jobs-run N --mem 4G --num-threads N --gpu N --time T --config conf/<runner>.conf")
    spec.logfile = argv.pop(0)
    if spec.jobname is not None and spec.jobname not in spec.logfile and spec.end > spec.start:
        raise UsageError(f"{prog}: you are running an array job {spec.jobname}={spec.start}:{spec.end} but the "
                         f"log file '{spec.logfile}' does not contain {spec.jobname}: the tasks would overwrite "
                         f"each other's log")
    spec.command = kaldi_join(argv)
    return spec
