"""`pydeid text-results`: write the text-side tables of a recipe's RESULTS.md."""

COMMAND = "text-results"
HELP = "RESULTS.md tables for entity tagging (metrics.json) and text transformation (report.json)"


def _pairs(items):
    out = []
    for it in items or []:
        if "=" not in it:
            raise SystemExit(f"text-results: expected NAME=PATH, got '{it}'")
        name, path = it.rsplit("=", 1)  # names may hold "=" (p=0.9); paths may not
        out.append((name, path))
    return out


def add_arguments(p):
    p.add_argument("--results", required=True, help="RESULTS.md to update")
    p.add_argument("--tagging", action="append", metavar="NAME=METRICS_JSON", help="text-metrics --json output")
    p.add_argument("--transform", action="append", metavar="NAME=REPORT_JSON", help="transform-text report.json")


def run(args):
    from pydeid.report import update_results_section
    from pydeid.report.text_tables import tagging_table, transform_table
    if args.tagging:
        update_results_section(args.results, "text-tagging", tagging_table(_pairs(args.tagging)),
                               "Entity detection on the test set (flair BiLSTM-CRF + grammars, union)")
    if args.transform:
        update_results_section(args.results, "text-transform", transform_table(_pairs(args.transform)),
                               "Text transformation: strategies, differential-privacy epsilon, leaks")
