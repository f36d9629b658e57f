"""`pydeid spoken-results`: rows of the spoken-pseudonym table (WER/CER with 95 % intervals, NER phrase F1)."""

COMMAND = "spoken-results"
HELP = "add rows (model, test set, decode dir[, gold tags, tagger tags on the ASR output]) to RESULTS.md"


def add_arguments(p):
    p.add_argument("--results", required=True, help="RESULTS.md to update (section 'spoken-pseudonyms')")
    p.add_argument("--footer", default="", help="text under the table (data sources)")
    p.add_argument("--seeds", action="store_true",
                   help="cells are label::decode-dir[::gold::pred] per training seed (same label = one row): the "
                        "mean +- std table 'spoken-pseudonyms-seeds'")
    p.add_argument("cells", nargs="+",
                   help="model::test::decode-dir[::gold-tags::pred-tags] (decode dir scored by steps/score.sh)")


def _cell(c: str, n_head: int, expected: str) -> list[str]:
    """Split a cell into its fields and check that its decode dir is scored and its tag files exist; n_head = the
    fields before the decode dir (label, or model and test)."""
    from pathlib import Path

    from pydeid.io import FormatError

    parts = c.split("::")
    if len(parts) not in (n_head + 1, n_head + 3):
        raise FormatError("spoken-results", None, f"cell '{c}': expected {expected}")
    for f in [Path(parts[n_head]) / "scoring" / "results.json"] + [Path(x) for x in parts[n_head + 1:]]:
        if not f.exists():
            raise FormatError(f, None, "missing (decode and score first, tag the ASR output)")
    return parts


def run(args):
    from pydeid.io import FormatError
    from pydeid.report.spoken_table import HEADERS, SEED_HEADERS, cell_row, seeds_row
    from pydeid.report.tables import upsert_results_row

    if args.seeds:
        groups: dict[str, list[tuple]] = {}
        for c in args.cells:
            parts = _cell(c, 1, "label::decode-dir[::gold::pred]")
            groups.setdefault(parts[0], []).append(tuple(parts[1:]))
        for label, cells in groups.items():
            try:
                row = seeds_row(label, cells)
            except ValueError as e:
                raise FormatError("spoken-results", None, str(e)) from None
            print(" | ".join(row))
            upsert_results_row(args.results, "spoken-pseudonyms-seeds", SEED_HEADERS, row,
                               "Spoken pseudonyms: WER over ASR training seeds", args.footer)
        return 0

    for c in args.cells:
        row = cell_row(*_cell(c, 2, "model::test::decode-dir[::gold::pred]"))
        print(" | ".join(row))
        upsert_results_row(args.results, "spoken-pseudonyms", HEADERS, row,
                           "Spoken pseudonyms: ASR trained on each neutral corpus (silence vs spoken surrogates)",
                           args.footer)
    return 0
