"""`pydeid report-summary`: the closing section of a recipe's RESULTS.md: which tables it holds and where the
plots (DET curves, linkability histograms, training curves) and logs of the run are; with --not-run, the tables this
run left out and where they come from (e.g. the demo's tables that run with `--tables full` only)."""

COMMAND = "report-summary"
HELP = "list the tables of a RESULTS.md and the plots under an exp dir in a closing section"


def add_arguments(p):
    p.add_argument("--results", required=True, help="RESULTS.md to update")
    p.add_argument("--exp", default="exp", help="experiment dir holding the plots")
    p.add_argument("--not-run", action="append", default=[], metavar="TABLE=WHY",
                   help="a table this run did not make and why / how to make it (repeatable)")


def run(args):
    import re
    from pathlib import Path

    from pydeid.io.errors import UsageError
    from pydeid.report import update_results_section

    not_run = []
    for spec in args.not_run:
        table, sep, why = spec.partition("=")
        if not sep or not table.strip() or not why.strip():
            raise UsageError("--not-run", f"expected TABLE=WHY, got '{spec}'")
        not_run.append((table.strip(), why.strip()))
    results = Path(args.results)
    text = results.read_text(encoding="utf-8") if results.exists() else ""
    titles = [t for t in re.findall(r"^## (.+)$", text, re.M) if t != "Run summary"]
    plots = sorted(p for p in Path(args.exp).rglob("*.png"))
    lines = ["Tables in this file:", ""] + [f"- {t}" for t in titles]
    if not_run:
        lines += ["", "Not in this run:", ""] + [f"- {t}: {why}" for t, why in not_run]
    lines += ["", f"Plots ({len(plots)}) under `{args.exp}/`:", ""]
    lines += [f"- `{p}`" for p in plots[:200]]
    if len(plots) > 200:
        lines.append(f"- ... and {len(plots) - 200} more")
    update_results_section(results, "summary", "\n".join(lines), "Run summary")
    print(f"{results}: {len(titles)} tables, {len(plots)} plots")
