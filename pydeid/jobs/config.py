"""Kaldi's scheduler config files (conf/slurm.conf, conf/queue.conf): runner options -> scheduler options.

Format (one rule a line, `#` starts a comment):
    command sbatch --export=PATH          the submission command and its fixed options (required)
    option mem=* --mem-per-cpu $0         `--mem 4G` adds `--mem-per-cpu 4G` ($0 = the value given)
    option mem=0                          `--mem 0` adds nothing
    option gpu=1 -p gpu --gres=gpu:1      a rule for one specific value wins over the `*` rule
    default gpu=0                         the value used when the option is not given (put it first)
A runner option (`--foo-bar X` -> foo_bar) that no rule covers is an error, as in Kaldi.
Lines are applied in order, so a `default` line only counts for `option` lines after it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from .cmdline import UsageError

# Kaldi's built-in configs, used when no --config is given and conf/<runner>.conf does not exist.
DEFAULT_SLURM_CONFIG = """\
command sbatch --export=PATH --ntasks-per-node=1
option time=* --time $0
option mem=* --mem-per-cpu $0
option mem=0          # nothing added
option num_threads=* --cpus-per-task $0 --ntasks-per-node=1
option num_threads=1 --cpus-per-task 1 --ntasks-per-node=1
default gpu=0
option gpu=0 -p shared
option gpu=* -p gpu --gres=gpu:$0 --time 4:0:0
"""

DEFAULT_QUEUE_CONFIG = """\
command qsub -v PATH -cwd -S /bin/bash -j y -l arch=*64*
option name=* -N $0
option mem=* -l mem_free=$0,ram_free=$0
option mem=0          # nothing added
option num_threads=* -pe smp $0
option num_threads=1  # nothing added
option max_jobs_run=* -tc $0
option num_nodes=* -pe mpi $0
default gpu=0
option gpu=0
option gpu=* -l gpu=$0 -q '*.q'
"""


@dataclass
class Translation:
    command: str            # submission command with its fixed options, e.g. "sbatch --export=PATH"
    options: list[str]      # translated option strings, in command-line order
    max_jobs_run: str | None = None  # for runners that handle it themselves (slurm.pl: --array a-b%N)
    config_name: str = ""

    @property
    def full(self) -> str:
        return " ".join([self.command, *[o for o in self.options if o]])


def load_config_text(prog: str, cli: dict[str, str], default_path: str, default_text: str) -> tuple[str, str]:
    """(text, name): --config if given (must exist), else default_path if it exists, else Kaldi's default."""
    if "config" in cli:
        p = Path(cli["config"])
        if not p.is_file():
            raise UsageError(f"{prog}: could not open config file {p}")
        return p.read_text(), str(p)
    p = Path(default_path)
    if p.is_file():
        return p.read_text(), str(p)
    return default_text, "default config"


def translate(prog: str, text: str, name: str, cli: dict[str, str], array: bool,
              self_handled: tuple[str, ...] = ()) -> Translation:
    """Apply a Kaldi config to the runner options `cli` (option name -> value, dashes already underscores).

    self_handled: options the runner implements itself (slurm.pl: max_jobs_run), never looked up.
    """
    cli = dict(cli)
    command = None
    star_rules: dict[str, str] = {}               # option -> options with $0 substituted (given options only)
    value_rules: dict[tuple[str, str], str] = {}  # (option, value) -> options
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = re.sub(r"\s*#.*", "", raw).strip()
        if not line:
            continue
        m = re.match(r"^command (.+)$", line)
        if m:
            command = m.group(1).strip()
            continue
        m = re.match(r"^option ([^=\s]+)=\* (.+)$", line)
        if m:
            opt, arg = m.group(1), m.group(2)
            if opt in cli:
                star_rules[opt] = arg.replace("$0", cli[opt])
            continue
        m = re.match(r"^option ([^=\s]+)=(\S+)\s?(.*)$", line)
        if m:
            opt, value, arg = m.group(1), m.group(2), m.group(3).strip()
            if opt in cli:
                value_rules[(opt, value)] = arg
            continue
        m = re.match(r"^default (\S+?)=(\S+)", line)
        if m:
            cli.setdefault(m.group(1), m.group(2))
            continue
        raise UsageError(f"{prog}: unable to parse line {lineno} '{raw.strip()}' in config file ({name})")
    if command is None:
        raise UsageError(f"{prog}: config file ({name}) does not contain the line \"command ...\"")
    out = Translation(command=command, options=[], config_name=name)
    for opt, value in cli.items():
        if opt == "config":
            continue
        if opt == "max_jobs_run" and not array:
            continue  # meaningless for a single job (Kaldi ignores it too)
        if opt in self_handled:
            if opt == "max_jobs_run":
                out.max_jobs_run = value
            continue
        if (opt, value) in value_rules:
            out.options.append(value_rules[(opt, value)])
        elif opt in star_rules:
            out.options.append(star_rules[opt])
        elif (opt, "*") in value_rules:
            out.options.append(value_rules[(opt, "*")])
        else:
            raise UsageError(f"{prog}: command line option --{opt.replace('_', '-')} not described in {name} "
                             f"(or value '{value}' not allowed)")
    return out
