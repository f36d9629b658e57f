"""The `pydeid` command: subcommands are discovered from the modules of this package.

A subcommand module `pydeid/cli/<name>.py` defines
    COMMAND = "transform-text"          # the subcommand name
    HELP = "one line for pydeid --help"
    def add_arguments(parser): ...      # argparse options
    def run(args) -> int | None: ...    # the work; heavy imports go inside run()
    OUTPUTS = ("out_data",)             # optional: the args naming what the command writes (or a function
                                        # outputs(args) -> list of paths)
Module import must stay light (no torch/espnet at import time): `pydeid --help` imports them all.

One error path (run_parsed): bad input (FormatError: file, line, message), a bad option value (UsageError: exit
status 2, like argparse), an unreadable file (OSError) or any other exception ends in ONE line on stderr
`pydeid <command>: ERROR: <file>:<line>: <message>`, exit status 1, no traceback (`pydeid --debug <command>` or
PYDEID_DEBUG=1 shows it). An output named in OUTPUTS that did not exist before a failed run is removed, so a refused
run leaves nothing behind (outputs that existed are only ever replaced atomically, so they stay unchanged). A
signal (SIGTERM, SIGINT) is not an error: what was written stays for --resume.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import logging
import os
import pkgutil
import shutil
import signal
import sys
from pathlib import Path

from pydeid.io.errors import FormatError, UsageError


def _commands() -> dict[str, object]:
    found = {}
    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("_"):
            continue
        mod = importlib.import_module(f"{__name__}.{info.name}")
        name = getattr(mod, "COMMAND", None)
        if name:
            found[name] = mod
    return dict(sorted(found.items()))


def _named_command(argv: list[str]) -> dict[str, object] | None:
    """{name: module} of the subcommand argv names when its module is pydeid/cli/<name with '_'>.py, else None.
    Importing every subcommand module to run one cost about 0.2 CPU s of each process's start-up."""
    i = 0
    while i < len(argv) and argv[i].startswith("-"):     # the options before the command
        if argv[i] == "--log-level":
            i += 2
        elif argv[i] == "--debug" or argv[i].startswith("--log-level="):
            i += 1
        else:
            return None                                  # -h, a typo: the whole parser answers
    if i >= len(argv):
        return None
    name = argv[i]
    modname = name.replace("-", "_")
    if modname.startswith("_") or not modname.isidentifier() or \
            importlib.util.find_spec(f"{__name__}.{modname}") is None:
        return None
    mod = importlib.import_module(f"{__name__}.{modname}")
    return {name: mod} if getattr(mod, "COMMAND", None) == name else None


def build_parser(commands: dict[str, object] | None = None) -> argparse.ArgumentParser:
    """The parser of every subcommand, or only of `commands` ({name: module}, as _named_command gives)."""
    parser = argparse.ArgumentParser(prog="pydeid", description="De-identification of spoken-dialogue corpora.")
    parser.add_argument("--log-level", default="INFO", choices=["DEBUG", "INFO", "WARNING", "ERROR"])
    parser.add_argument("--debug", action="store_true",
                        help="show the Python traceback of an error (default: one line naming the file)")
    sub = parser.add_subparsers(dest="command", metavar="<command>")
    for name, mod in (commands if commands is not None else _commands()).items():
        p = sub.add_parser(name, help=getattr(mod, "HELP", ""), description=getattr(mod, "HELP", ""),
                           formatter_class=argparse.ArgumentDefaultsHelpFormatter)
        mod.add_arguments(p)
        try:  # `pydeid <command> --debug` works as well as `pydeid --debug <command>`
            p.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
        except argparse.ArgumentError:
            pass
        p.set_defaults(_run=mod.run, _outputs=getattr(mod, "outputs", None) or tuple(getattr(mod, "OUTPUTS", ())))
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(_named_command(argv))
    args = parser.parse_args(argv)
    logging.basicConfig(level=getattr(logging, args.log_level),
                        format="%(asctime)s (%(module)s:%(lineno)d) %(levelname)s: %(message)s")
    # run.pl/slurm/queue stop jobs with SIGTERM: turn it into SystemExit so atomic writers clean their temp files.
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    if not getattr(args, "_run", None):
        parser.print_help()
        return 2
    return run_parsed(args)


def _output_paths(args) -> list[Path]:
    spec = getattr(args, "_outputs", ())
    values = spec(args) if callable(spec) else [getattr(args, name, None) for name in spec]
    out = []
    for v in values:
        for x in (v if isinstance(v, (list, tuple)) else [v]):
            if x:
                out.append(Path(x))
    return out


def _remove_new(paths: list[Path], existed: dict[Path, bool]) -> None:
    for p in paths:
        if existed.get(p) or not (p.exists() or p.is_symlink()):
            continue
        if p.is_dir() and not p.is_symlink():
            shutil.rmtree(p, ignore_errors=True)
        else:
            p.unlink(missing_ok=True)
        logging.getLogger("pydeid").info("removed %s (written by the failed run)", p)


def error_line(e: BaseException) -> tuple[str, int]:
    """(message, exit status) of an exception a user can cause."""
    if isinstance(e, UsageError):
        return str(e), 2
    if isinstance(e, FormatError):
        return str(e), 1
    if isinstance(e, UnicodeDecodeError):
        return f"<input>: not UTF-8: {e}", 1
    if isinstance(e, OSError) and e.filename:
        return f"{e.filename}: {e.strerror or e}", 1
    msg = " ".join(str(e).split()) or type(e).__name__
    return f"{type(e).__name__}: {msg} (unexpected; rerun with pydeid --debug for the traceback)", 1


def run_parsed(args) -> int:
    """Run a parsed subcommand; an error ends in one clear line naming file and line, no traceback."""
    debug = getattr(args, "debug", False) or os.environ.get("PYDEID_DEBUG", "") not in ("", "0")
    outputs = _output_paths(args)
    existed = {p: p.exists() or p.is_symlink() for p in outputs}
    try:
        rc = args._run(args)
    except SystemExit as e:
        if isinstance(e.code, str):  # raise SystemExit("message") in a subcommand: an error like any other
            _remove_new(outputs, existed)
            first, *rest = e.code.splitlines() or [""]
            print(f"pydeid {args.command}: ERROR: {first}", file=sys.stderr)
            for line in rest:  # a usage text after the error line
                print(line, file=sys.stderr)
            return 1
        raise
    except Exception as e:  # noqa: BLE001 - the one error path of the CLI
        _remove_new(outputs, existed)
        if debug:
            raise
        msg, status = error_line(e)
        msg = " | ".join(x.strip() for x in msg.splitlines() if x.strip())  # one line, whatever the message holds
        print(f"pydeid {args.command}: ERROR: {msg}", file=sys.stderr)
        return status
    return int(rc or 0)


if __name__ == "__main__":
    sys.exit(main())
