"""The `pydeid` command: subcommands are discovered from the modules of this package.

A subcommand module `pydeid/cli/<name>.py` defines
    COMMAND = "transform-text"          # the subcommand name
    HELP = "one line for pydeid --help"
    def add_arguments(parser): ...      # argparse options
    def run(args) -> int | None: ...    # the work; heavy imports go inside run()
Module import must stay light (no torch/espnet at import time): `pydeid --help` imports them all.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import pkgutil
import signal
import sys

from pydeid.io.errors import FormatError


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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pydeid", description="De-identification of spoken-dialogue corpora.")
    parser.add_argument("--log-level", default="INFO", choices=["DEBUG", "INFO", "WARNING", "ERROR"])
    sub = parser.add_subparsers(dest="command", metavar="<command>")
    for name, mod in _commands().items():
        p = sub.add_parser(name, help=getattr(mod, "HELP", ""), description=getattr(mod, "HELP", ""),
                           formatter_class=argparse.ArgumentDefaultsHelpFormatter)
        mod.add_arguments(p)
        p.set_defaults(_run=mod.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(level=getattr(logging, args.log_level),
                        format="%(asctime)s (%(module)s:%(lineno)d) %(levelname)s: %(message)s")
    # run.pl/slurm/queue stop jobs with SIGTERM: turn it into SystemExit so atomic writers clean their temp files.
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    if not getattr(args, "_run", None):
        parser.print_help()
        return 2
    return run_parsed(args)


def run_parsed(args) -> int:
    """Run a parsed subcommand; bad input ends in one clear line naming file and line, no traceback."""
    try:
        rc = args._run(args)
    except FormatError as e:
        print(f"pydeid {args.command}: ERROR: {e}", file=sys.stderr)
        return 1
    return int(rc or 0)


if __name__ == "__main__":
    sys.exit(main())
