"""`pydeid verify-ids`: every file of a published data dir (names, lines, audio header metadata) searched for every
original speaker, utterance and recording id and their parts; fails naming the file and line (pydeid.io.id_leaks)."""

COMMAND = "verify-ids"
HELP = "fail when any original speaker/utterance/recording id (or a part of one) occurs anywhere in a published dir"


def add_arguments(p):
    p.add_argument("--gender", default="refuse", choices=["refuse", "allow"],
                   help="refuse: a gender or age file in the published dir is an error too")
    p.add_argument("published", help="the published data dir")
    p.add_argument("orig_data", nargs="+", help="the data dirs holding the original ids")


def run(args):
    from pathlib import Path

    from pydeid.io import FormatError
    from pydeid.io.id_leaks import find_id_leaks, ids_of_data_dir

    ids = {}
    for o in args.orig_data:
        ids.update({k: v for k, v in ids_of_data_dir(o).items() if k not in ids})
    leaks = find_id_leaks(args.published, ids)
    if leaks:
        raise FormatError(leaks[0].path, leaks[0].line, f"{str(leaks[0]).split(': ', 1)[1]} "
                                                        f"({len(leaks)} place(s) found)")
    if args.gender == "refuse":
        for p in sorted(Path(args.published).iterdir()):
            if any(w in p.name for w in ("gender", "age")) and p.is_file():
                raise FormatError(p, None, "a gender/age file in the published dir (publish without it, or "
                                           "--gender allow when it was asked for)")
    print(f"{args.published}: no original id in any file ({len(ids)} ids and id parts checked)")
    return 0
