"""`pydeid chain`: several pydeid subcommands run one after the other in one process.

    pydeid chain extract-xvectors --job 1 M d1 x1 ::: score-trials ... d1 x1 out

Each part is parsed and run exactly as `pydeid <part>` would be; the chain stops at the first part that fails and
returns its status. What it saves is the start of a Python process per part: a step script whose parts each spend
seconds importing torch and speechbrain for a second of work (steps/attack.sh) runs them as one job.
"""

COMMAND = "chain"
HELP = "run several pydeid subcommands in one process, separated by ':::' (stops at the first failure)"
SEPARATOR = ":::"


def add_arguments(p):
    import argparse
    p.add_argument("parts", nargs=argparse.REMAINDER, help=f"<command> [args] {SEPARATOR} <command> [args] ...")


def run(args):
    import logging
    import sys

    from pydeid.cli import build_parser, run_parsed
    from pydeid.io import FormatError

    parts, cur = [], []
    for tok in args.parts:
        if tok == SEPARATOR:
            parts.append(cur)
            cur = []
        else:
            cur.append(tok)
    parts.append(cur)
    if any(not p for p in parts):
        raise FormatError(None, None, f"empty part in the chain (expected <command> [args] {SEPARATOR} ...)")
    parser = build_parser()
    for n, part in enumerate(parts, 1):
        if part[0] == COMMAND:
            raise FormatError(None, None, "a chain cannot contain a chain")
        sub = parser.parse_args(part)
        if getattr(args, "debug", False):
            sub.debug = True
        logging.getLogger("chain").info("part %d/%d: pydeid %s", n, len(parts), " ".join(part))
        rc = run_parsed(sub)
        if rc:
            print(f"pydeid chain: part {n} ({sub.command}) failed with status {rc}", file=sys.stderr)
            return rc
    return 0
