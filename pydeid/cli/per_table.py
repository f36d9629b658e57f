"""`pydeid per-table`: the PER utility table of a recipe (exp/utility/per.tsv) from scored phone decodings."""

COMMAND = "per-table"
HELP = ("PER per method with speaker-bootstrap 95 %% intervals, paired differences vs the original speech and "
        "between methods, beside the word WER: <out> (per.tsv) and <out-dir>/per_pairs.tsv")
OUTPUTS = ("out",)


def add_arguments(p):
    p.add_argument("--utt2spk", required=True, help="utt2spk of the scored utterances (the bootstrap's speakers)")
    p.add_argument("--pairs", default=None, help="also write the between-method differences here (tsv)")
    p.add_argument("--bootstrap", type=int, default=1000, help="bootstrap resamples (speakers)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("specs", nargs="+", metavar="method=phone-decode-dir[,word-decode-dir]",
                   help="the first is the original speech (the meter's own PER and WER)")
    p.add_argument("out", help="per.tsv to write")


def run(args):
    from pathlib import Path

    from pydeid.asr.phone_decode import PER_COLUMNS, per_table, write_tsv
    from pydeid.io import UsageError, read_kaldi_map

    specs, seen = [], set()
    for s in args.specs:
        m, eq, dirs = s.partition("=")
        if not eq or not m or not dirs:
            raise UsageError("specs", f"'{s}' is not method=phone-decode-dir[,word-decode-dir]")
        if m in seen:
            raise UsageError("specs", f"method '{m}' given twice")
        seen.add(m)
        p, _, w = dirs.partition(",")
        specs.append((m, p, w or None))
    if args.bootstrap < 1:
        raise UsageError("--bootstrap", f"must be >= 1, not {args.bootstrap}")
    rows, pairs = per_table(specs, read_kaldi_map(args.utt2spk), args.bootstrap, args.seed)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    write_tsv(args.out, rows, PER_COLUMNS)
    if args.pairs:
        write_tsv(args.pairs, pairs, ("a", "b", "per_a", "per_b", "diff", "ci_low", "ci_high", "beyond_noise"))
    for r in rows:
        ci = "" if r["ci_low"] is None else f" [{r['ci_low']:.1f}, {r['ci_high']:.1f}]"
        print(f"{r['method']}: PER {r['per']:.1f}{ci} on {r['n_phones']} phones")
