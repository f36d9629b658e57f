"""`pydeid map-ids`: original utterance (or speaker) ids -> their pseudonyms in a published data dir, read from the
secret id map (for the scoring stages that compare the neutral corpus with the originals)."""

COMMAND = "map-ids"
HELP = "print the pseudonyms of the original ids (first field of each input line) in a published data dir"


def add_arguments(p):
    p.add_argument("--secret-dir", default="exp/secrets", help="where publish-data-dir kept the id map")
    p.add_argument("--kind", default="utterances", choices=["utterances", "speakers", "recordings"])
    p.add_argument("--reverse", action="store_true", help="pseudonyms -> original ids")
    p.add_argument("--keep-rest", action="store_true", help="print the rest of each line after the mapped id")
    p.add_argument("published", help="the published data dir")
    p.add_argument("ids", nargs="?", default="-", help="a file whose lines start with an id ('-': stdin)")


def run(args):
    import sys

    from pydeid.io.kaldi_map import kaldi_sort_key
    from pydeid.io.pseudonyms import read_id_map

    m = read_id_map(args.secret_dir, args.published)[args.kind]
    if args.reverse:
        m = {v: k for k, v in m.items()}
    f = sys.stdin if args.ids == "-" else open(args.ids, encoding="utf-8")
    out = []
    with f:
        for line in f:
            parts = line.rstrip("\n").split(maxsplit=1)
            if parts and parts[0] in m:   # an id the published dir does not hold (dropped as untimed) is skipped
                out.append(m[parts[0]] + (" " + parts[1] if args.keep_rest and len(parts) > 1 else ""))
    out.sort(key=lambda ln: kaldi_sort_key(ln.split(maxsplit=1)[0]))
    sys.stdout.write("".join(ln + "\n" for ln in out))
    return 0
