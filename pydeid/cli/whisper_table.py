"""`pydeid whisper-table`: the Whisper utility table (pydeid.report.whisper_table)."""

OUTPUTS = ("out",)
COMMAND = "whisper-table"
HELP = ("WER of every condition under the Whisper meter with 95-percent intervals, the paired difference vs original "
        "speech, guard counts and pocketsphinx as second column: <out>.md/.json and a RESULTS.md section")


def add_arguments(p):
    p.add_argument("--original", default="original", help="the condition that is the baseline of the differences")
    p.add_argument("--results", default=None, help="RESULTS.md to update")
    p.add_argument("--key", default="whisper-utility", help="RESULTS.md section key")
    p.add_argument("--title", default="Utility under the Whisper meter")
    p.add_argument("--ps-label", default="pocketsphinx", help="name of the second column's meter")
    p.add_argument("--bootstrap", type=int, default=1000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("specs", nargs="+", metavar="NAME=WHISPER_DIR[,PS_DIR]")
    p.add_argument("out", help="output markdown file (a .json beside it)")


def run(args):
    from pydeid.io import UsageError
    from pydeid.report.whisper_table import whisper_table, write_table

    specs = []
    for s in args.specs:
        if "=" not in s:
            raise UsageError("specs", f"expected NAME=WHISPER_DIR[,PS_DIR], got '{s}'")
        name, dirs = s.split("=", 1)
        w, _, ps = dirs.partition(",")
        specs.append((name, w, ps or None))
    t = whisper_table(specs, original=args.original, n_boot=args.bootstrap, seed=args.seed)
    print(write_table(t, args.out, args.results, args.key, args.title, args.ps_label))
