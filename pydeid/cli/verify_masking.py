"""`pydeid verify-masking`: leak check of a masked data dir; exit status 1 on any leak."""

COMMAND = "verify-masking"
HELP = "check that every tagged interval is silent and no hidden token survives in the text (exit 1 on a leak)"


def add_arguments(p):
    from pydeid.cli._types import TAGS_HELP, entity_tags, nonnegative_float
    p.add_argument("--tags", dest="tagset", default="all", type=entity_tags, help=TAGS_HELP)
    p.add_argument("--threshold-dbfs", type=float, default=-50.0,
                   help="a 10 ms frame inside a hidden interval louder than this is a leak")
    p.add_argument("--tolerance", type=nonnegative_float, default=0.0,
                   help="seconds trimmed from both ends of each reference interval before checking")
    p.add_argument("--orig-data", default=None, help="original data dir: flag wav.scp entries pointing to it")
    p.add_argument("--results", default=None, help="RESULTS.md to update (section 'verify-masking')")
    p.add_argument("--name", default=None, help="row label in RESULTS.md")
    p.add_argument("--max-print", type=int, default=20, help="leaks listed on stderr")
    p.add_argument("masked", help="masked data dir")
    p.add_argument("tags_file", help="CoNLL tags of the ORIGINAL utterances")
    p.add_argument("ctm", help="reference word CTM to check against (e.g. the gold one)")


def run(args):
    import json
    import sys

    from pydeid.mask.verify import verify_masking
    from pydeid.text.hidden_types import describe, parse_tags

    rep = verify_masking(args.masked, args.tags_file, args.ctm, args.tagset, args.threshold_dbfs,
                         args.tolerance, args.orig_data)
    s = rep.summary()
    for kind in ("audio_leaks", "text_leaks", "unverifiable"):
        for x in getattr(rep, kind)[: args.max_print]:
            print(f"LEAK {kind}: {json.dumps(x)}", file=sys.stderr)
    for x in rep.original_audio_refs[: args.max_print]:
        print(f"LEAK original_audio_refs: {x}", file=sys.stderr)
    print(f"{args.masked}: {s['entities']} entities in {s['utterances']} utterances; leaks: audio {s['audio_leaks']}, "
          f"text {s['text_leaks']}, unverifiable {s['unverifiable']}, original audio refs "
          f"{s['original_audio_refs']} (threshold {args.threshold_dbfs} dBFS, tolerance {args.tolerance} s; "
          f"{describe(parse_tags(args.tagset))})")
    if args.results:
        _results(args, s)
    return 1 if rep.n_leaks else 0


def _results(args, s):
    from pydeid.report.tables import upsert_results_row

    key = "verify-masking"
    headers = ["masked data / reference CTM", "entities", "audio leaks", "text leaks", "unverifiable",
               "threshold (dBFS)", "tolerance (ms)"]
    name = args.name or f"{args.masked} / {args.ctm}"
    row = [name, str(s["entities"]), str(s["audio_leaks"]), str(s["text_leaks"]), str(s["unverifiable"]),
           f"{args.threshold_dbfs:g}", f"{1000 * args.tolerance:g}"]
    upsert_results_row(args.results, key, headers, row, "Word masking: leaks found by verify-masking")
