"""`pydeid data-dir <op>`: the Python behind utils/{split,subset,copy,combine,fix}_data_dir*.sh."""

COMMAND = "data-dir"
HELP = "split / subset / copy / combine / fix Kaldi data dirs (behind the utils/*.sh of the same names)"

SUBSET_USAGE = """usage:
  subset_data_dir.sh [--speakers|--first|--last|--per-spk|--shortest] <srcdir> <num-utt> <destdir>
  subset_data_dir.sh --utt-list <utt-list-file> <srcdir> <destdir>
  subset_data_dir.sh --spk-list <spk-list-file> <srcdir> <destdir>
  (also accepted: --first N <srcdir> <destdir>, --per-spk N <srcdir> <destdir>)
Without a flag, <num-utt> utterances evenly spaced over the sorted list are kept (as Kaldi's subset_scp.pl);
--per-spk keeps <num-utt> utterances of every speaker, --first/--last the first/last <num-utt> utterances,
--shortest the shortest ones (needs utt2dur), --speakers whole speakers, evenly spaced, until <num-utt> is reached."""


def add_arguments(p):
    sub = p.add_subparsers(dest="op", metavar="<op>")
    s = sub.add_parser("split", help="utils/split_data.sh: <data> <N> -> <data>/split<N>/<n>")
    s.add_argument("--per-utt", action="store_true", help="split by utterance instead of by speaker")
    s.add_argument("--force", action="store_true", help="rewrite even an up-to-date split")
    s.add_argument("data")
    s.add_argument("num", type=int)
    s = sub.add_parser("subset", help="utils/subset_data_dir.sh", usage=SUBSET_USAGE, add_help=False)
    s.add_argument("rest", nargs="*")
    s = sub.add_parser("copy", help="utils/copy_data_dir.sh")
    for opt in ("--utt-prefix", "--utt-suffix", "--spk-prefix", "--spk-suffix"):
        s.add_argument(opt, default="")
    s.add_argument("--validate", default="true", choices=["true", "false"])
    s.add_argument("src")
    s.add_argument("dest")
    s = sub.add_parser("combine", help="utils/combine_data.sh: <dest> <src1> <src2> ...")
    s.add_argument("--extra-files", default="", help="accepted for Kaldi compatibility; side files are automatic")
    s.add_argument("dest")
    s.add_argument("srcs", nargs="+")
    s = sub.add_parser("fix", help="utils/fix_data_dir.sh: sort and make consistent, in place")
    s.add_argument("--no-backup", action="store_true")
    s.add_argument("data")


def _subset(rest: list[str]) -> int:
    import sys
    from pydeid.io.datadir_ops import read_id_list, subset_data_dir
    mode, value, args = None, None, list(rest)
    while args and args[0].startswith("--"):
        opt = args.pop(0)
        if opt in ("--utt-list", "--spk-list"):
            if not args:
                raise SystemExit(f"subset_data_dir.sh: {opt} needs a file\n{SUBSET_USAGE}")
            mode, value = opt, args.pop(0)
        elif opt in ("--first", "--last", "--per-spk", "--shortest", "--speakers"):
            mode = opt
            if len(args) == 3 and args[0].isdigit():  # --first N <src> <dest>
                value = int(args.pop(0))
        elif opt in ("--help", "-h"):
            print(SUBSET_USAGE)
            return 0
        else:
            raise SystemExit(f"subset_data_dir.sh: unknown option {opt}\n{SUBSET_USAGE}")
    if mode in ("--utt-list", "--spk-list") or value is not None:
        if len(args) != 2:
            raise SystemExit(SUBSET_USAGE)
        src, dest = args
    else:
        if len(args) != 3 or not args[1].isdigit():
            raise SystemExit(SUBSET_USAGE)
        src, value, dest = args[0], int(args[1]), args[2]
    kw = {}
    if mode == "--utt-list":
        kw["utt_list"] = read_id_list(value)
    elif mode == "--spk-list":
        kw["spk_list"] = read_id_list(value)
    elif mode == "--speakers":
        kw["utt_list"] = _whole_speakers(src, value)
    elif mode is None:
        kw["num_utt"] = value
    else:
        kw[mode[2:].replace("-", "_")] = value
    sub = subset_data_dir(src, dest, **kw)
    print(f"subset_data_dir.sh: {dest}: {len(sub.core.utt2spk)} utterances, {len(sub.core.spk2utt)} speakers",
          file=sys.stderr)
    return 0


def _whole_speakers(src, num_utt: int) -> list[str]:
    from pydeid.io import DataDir
    from pydeid.io.datadir_ops import evenly_spaced
    d = DataDir.read(src)
    spk2utt = d.spk2utt
    order = evenly_spaced(list(spk2utt), len(spk2utt))
    # spread the choice: take speakers evenly spaced, widening until enough utterances are covered
    for k in range(1, len(order) + 1):
        chosen = evenly_spaced(order, k)
        utts = [u for s in chosen for u in spk2utt[s]]
        if len(utts) >= num_utt:
            return utts
    return d.utts


def run(args):
    import sys
    from pydeid.io import datadir_ops as ops
    if args.op is None:
        print("pydeid data-dir: give an operation: split, subset, copy, combine, fix", file=sys.stderr)
        return 2
    try:
        if args.op == "split":
            parts = ops.split_data(args.data, args.num, per_utt=args.per_utt, force=args.force)
            print(f"split_data.sh: {parts[0].parent} ({len(parts)} parts)", file=sys.stderr)
        elif args.op == "subset":
            return _subset(args.rest)
        elif args.op == "copy":
            ops.copy_data_dir(args.src, args.dest, utt_prefix=args.utt_prefix, utt_suffix=args.utt_suffix,
                              spk_prefix=args.spk_prefix, spk_suffix=args.spk_suffix,
                              validate=args.validate == "true")
            print(f"copy_data_dir.sh: copied data from {args.src} to {args.dest}", file=sys.stderr)
        elif args.op == "combine":
            out = ops.combine_data(args.dest, args.srcs, args.extra_files.split())
            print(f"combine_data.sh: combined {len(args.srcs)} dirs into {args.dest} "
                  f"({len(out.core.utt2spk)} utterances)", file=sys.stderr)
        elif args.op == "fix":
            kept, before = ops.fix_data_dir(args.data, backup=not args.no_backup)
            print(f"fix_data_dir.sh: kept {kept} utterances out of {before}"
                  + ("" if args.no_backup else f"; old files are in {args.data}/.backup"), file=sys.stderr)
    except ValueError as e:  # bad request (e.g. too few speakers to split): one line, exit 1
        print(f"pydeid data-dir {args.op}: ERROR: {e}", file=sys.stderr)
        return 1
    return 0
