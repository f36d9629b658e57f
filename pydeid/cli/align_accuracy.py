"""`pydeid align-accuracy`: word-boundary error of a hypothesis CTM against a gold CTM."""

COMMAND = "align-accuracy"
HELP = "mean absolute word-boundary error and share within a tolerance, hyp CTM vs gold CTM (-> RESULTS.md)"


def add_arguments(p):
    p.add_argument("--tolerance", type=float, default=0.05, help="seconds")
    p.add_argument("--results", default=None, help="RESULTS.md to update (section 'align-accuracy')")
    p.add_argument("--name", default=None, help="row label in RESULTS.md (default: the hyp path)")
    p.add_argument("gold", help="gold word CTM")
    p.add_argument("hyp", help="hypothesis word CTM (e.g. <ali-dir>/wrd_ali/ctm)")


def run(args):
    import json

    from pydeid.align.accuracy import boundary_accuracy
    from pydeid.io import ctm_by_utt, read_ctm

    acc = boundary_accuracy(ctm_by_utt(read_ctm(args.gold)), ctm_by_utt(read_ctm(args.hyp)), args.tolerance)
    d = acc.as_dict()
    print(json.dumps(d))
    if args.results:
        update_accuracy_results(args.results, args.name or args.hyp, d, args.tolerance)
    return 0


def update_accuracy_results(results, name, d, tolerance):
    """One row per alignment run; rows of other runs are kept (parsed back from the section)."""
    from pydeid.report.tables import upsert_results_row

    key = "align-accuracy"
    tol = int(round(tolerance * 1000))
    headers = ["alignment", "utterances", "paired words / gold", "mean abs boundary error (ms)",
               "median (ms)", f"boundaries within {tol} ms"]
    row = [name, str(d["utterances"]), f"{d['paired_words']} / {d['gold_words']}", f"{d['mean_abs_error_ms']:.1f}",
           f"{d['median_abs_error_ms']:.1f}", f"{100 * d[f'within_{tol}ms']:.1f}%"]
    upsert_results_row(results, key, headers, row, "Forced alignment accuracy (word boundaries vs gold CTM)",
                       footer="\nBoundaries = word starts and ends of words paired by sequence alignment with the "
                              "gold CTM; both count.\n")
