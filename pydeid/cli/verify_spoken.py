"""`pydeid verify-spoken`: every sample inside a spoken-pseudonym interval is the insert or silence (exit 1 if not)."""

COMMAND = "verify-spoken"
HELP = "re-render every insert of a mask-spoken data dir and check no other sample lies inside its intervals"


def add_arguments(p):
    from pydeid.cli._types import TAGS_HELP, entity_tags
    p.add_argument("--tags", dest="tagset", default="all", type=entity_tags, help=TAGS_HELP)
    p.add_argument("--secret-dir", required=True, help="the --secret-dir given to mask-spoken")
    p.add_argument("--orig-data", default=None, help="original data dir: flag wav.scp entries pointing to it")
    p.add_argument("--results", default=None, help="RESULTS.md to update (section 'verify-spoken')")
    p.add_argument("--name", default=None, help="row label in RESULTS.md")
    p.add_argument("--max-print", type=int, default=20, help="leaks listed on stderr")
    p.add_argument("--published", default=None,
                   help="the published conversion of <masked> (pydeid convert-spoken): check it is the conversion "
                        "of the verified fill (needs --conversion and --orig-data)")
    p.add_argument("--conversion", default=None, help="exp dir of the original data dir's conversion")
    p.add_argument("--check-utts", type=int, default=0,
                   help="utterances re-converted and compared with --published (0: all)")
    p.add_argument("--check-seed", type=int, default=0, help="seed of the --check-utts draw")
    p.add_argument("masked", help="mask-spoken output data dir")
    p.add_argument("tags_file", help="CoNLL tags of the ORIGINAL utterances")
    p.add_argument("ctm", help="reference word CTM of the original (e.g. the gold one)")


def run(args):
    import json
    import sys

    from pydeid.mask.verify_spoken import verify_spoken
    from pydeid.text.hidden_types import describe, parse_tags

    from pydeid.io import UsageError
    if args.published and not (args.conversion and args.orig_data):
        raise UsageError("--published", "needs --conversion and --orig-data")
    rep = verify_spoken(args.masked, args.secret_dir, args.tags_file, args.ctm, args.tagset, args.orig_data,
                        published=args.published, conversion=args.conversion, check_utts=args.check_utts,
                        check_seed=args.check_seed)
    s = rep.summary()
    for kind in ("audio_leaks", "uncovered", "unverifiable", "said_originals"):
        for x in getattr(rep, kind)[: args.max_print]:
            print(f"LEAK {kind}: {json.dumps(x)}", file=sys.stderr)
    for x in rep.conversion_mismatch[: args.max_print]:
        print(f"LEAK conversion_mismatch: {x} (published audio is not the conversion of the verified fill)",
              file=sys.stderr)
    for x in rep.original_audio_refs[: args.max_print]:
        print(f"LEAK original_audio_refs: {x}", file=sys.stderr)
    print(f"{args.masked}: {s['intervals']} intervals ({s['inserts']} spoken) in {s['utterances']} utterances, "
          f"{s['samples_checked']} samples checked; leaks: audio {s['audio_leaks']}, uncovered entities "
          f"{s['uncovered']}, unverifiable {s['unverifiable']}, inserts saying an original {s['said_originals']}, "
          f"original audio refs {s['original_audio_refs']}"
          + (f"; published = conversion of the fill: {s['conversion_checked'] - s['conversion_mismatch']}/"
             f"{s['conversion_checked']} utterances re-converted" if args.published else "")
          + f"; {describe(parse_tags(args.tagset))}")
    if args.results:
        from pydeid.report.tables import upsert_results_row
        row = [args.name or args.masked, str(s["utterances"]), str(s["intervals"]), str(s["inserts"]),
               str(s["samples_checked"]), str(s["audio_leaks"]), str(s["uncovered"]), str(s["unverifiable"]),
               str(s["said_originals"]),
               f"{s['conversion_checked'] - s['conversion_mismatch']}/{s['conversion_checked']}"
               if args.published else "-"]
        upsert_results_row(args.results, "verify-spoken",
                           ["spoken-pseudonym data", "utterances", "intervals", "spoken inserts", "samples checked",
                            "foreign samples (intervals)", "uncovered entities", "unverifiable",
                            "inserts saying an original",
                            "published = conversion of the fill (utts re-converted)"], row,
                           "Spoken pseudonyms: every interval sample is the re-rendered insert or silence")
    return 1 if rep.n_leaks else 0
