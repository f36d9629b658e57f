"""`pydeid text-utility-report`: the tables and the plot of egs/snips/s5 from the cells of `pydeid text-utility`."""

COMMAND = "text-utility-report"
HELP = ("seed 000 table 2 (one column per task), seed 002 protocol tables (delta), the privacy-utility curve "
        "(table + PNG) and the SanText table into RESULTS.md sections")


def add_arguments(p):
    p.add_argument("--table-rows", required=True, help="rows of table 2 (space/comma list, as text-utility --rows)")
    p.add_argument("--intent-datasets", required=True, help="comma list of the datasets with intent columns")
    p.add_argument("--ner-datasets", default="", help="comma list of the datasets with a NER column")
    p.add_argument("--curve-strategies", default="same_type,redact")
    p.add_argument("--curve-p", default="0,0.5,0.7,0.9,1", help="p values of the curve (0: the original text)")
    p.add_argument("--santext-rows", default="", help="SanText rows of the SanText table")
    p.add_argument("--privacy", default=None, help="JSON of pydeid santext-privacy (comma list: merged)")
    p.add_argument("--plot", default=None, help="PNG of the privacy-utility curve")
    p.add_argument("--results", default=None, help="RESULTS.md to update")
    p.add_argument("--expect-seeds", type=int, default=3, help="seeds every cell should have (missing ones listed)")
    p.add_argument("--source", default="", help="one line naming the data (printed under each table)")
    p.add_argument("exp_dir")


def run(args):
    import json
    from pathlib import Path

    from pydeid.io.errors import UsageError
    from pydeid.report import update_results_section
    from pydeid.nlu_utility import report as R
    from pydeid.nlu_utility.rows import parse_rows

    cells = R.load_cells(args.exp_dir)
    if not cells:
        raise SystemExit(f"{args.exp_dir}: no cell (run pydeid text-utility first)")
    ids = [x for x in args.intent_datasets.split(",") if x.strip()]
    nds = [x for x in args.ner_datasets.split(",") if x.strip()]
    for d in ids + nds:
        if d not in cells:
            raise UsageError("--intent-datasets" if d in ids else "--ner-datasets",
                             f"no cell of dataset {d!r} under {args.exp_dir} (has {', '.join(cells)})")
    try:
        rows = [r.spec for r in parse_rows(args.table_rows)]
        st_rows = [r.spec for r in parse_rows(args.santext_rows)] if args.santext_rows.strip() else []
        ps = [float(x) for x in args.curve_p.split(",") if x.strip()]
    except ValueError as e:
        raise UsageError("--table-rows", str(e)) from None
    strategies = [x for x in args.curve_strategies.split(",") if x.strip()]
    src = (args.source + "\n") if args.source else ""
    sections = []
    t2 = R.table2(cells, rows, ids, nds)
    first = next(iter(next(iter(cells.values())).values()))
    n_seeds = {d: max(len(v) for v in cells[d].values()) for d in ids}
    ner_note = ""
    for d in nds:
        s = R.ner_summary(cells[d].get("none", {}))
        if s and s["model"] == "flair":
            ner_note = (f" NER: exact-match micro F1 of the flair BiLSTM-CRF (conf/text/ner_cpu.yaml, {s['max_epochs']}"
                        f" epochs) trained on {s['n_train']} evenly spaced sentences of the transformed training set"
                        f", scored on all {s['n_test']} original test sentences; mean +- std over the seeds run for NER"
                        f" (a cell marked '1 seed' has no spread).")
        elif s:
            ner_note = (" NER: exact-match span micro F1 % of the linear BIO tagger (pydeid.nlu_utility.tagger: SGD over "
                        "hashed word/shape/affix/context features) trained on the whole transformed training set, "
                        "scored on the original test set; mean +- std over the seeds.")
    sections.append(("text_utility_table2", "Seed 000 table 2 layout: utility of models trained on transformed text, "
                     "tested on original text",
                     t2 + f"\n{src}Cells: mean +- std over seeds {', '.join(f'{d}: {n}' for d, n in n_seeds.items())}"
                     f" (each seed draws the transformation and the model); ID: intent accuracy % of the linear "
                     f"TF-IDF classifier (pydeid.nlu_utility.intent), [95 % CI] = bootstrap over the test sentences of "
                     f"the accuracy averaged over the seeds; gold tags, p = 1 unless stated.{ner_note}\n"))
    prot = []
    for d in ids:
        prot.append(f"**{d.upper()} intent accuracy** ({R.intent_summary(cells[d]['none'])['n_test']} test "
                    f"sentences):\n\n" + R.protocol_table(cells, d, rows + [r for r in cells[d] if r not in rows]))
    for d in nds:
        prot.append(f"**{d.upper()} NER micro F1**:\n\n" + R.protocol_table(cells, d, rows + [r for r in cells[d]
                                                                                              if r not in rows], "ner"))
    sections.append(("text_utility_protocol", "Seed 002 protocol: M'(T'), M'(V) and delta = M'(V) - M(V)",
                     "\n".join(prot) + "\nDelta is paired by seed with the 'No replacement' row; epsilon: seed 000 "
                     "eq. 2 of the policy used (entity types public); SanText rows carry their own guarantee "
                     "(seed 003 Theorems 1-2).\n"))
    pts = [pt for s in strategies for pt in R.curve_points(cells, s, ps)]
    curve = R.curve_table(pts, ids, nds)
    body = curve + "\n" + src + ("p = 0 is the original text. Epsilon: the strict seed 000 eq. 2 of pydeid's "
                                 "transform report (pydeid.text.dp), which counts every private unit of the "
                                 "training set: inf at p < 1 as soon as one of them is outside the policy's support "
                                 "(pi(t) = 0); 'over pi's support' is eq. 2 with the minimum of pi over the pool's "
                                 "words only, the way seed 000 computes it (p = 0.9 -> 6.75 on VerbMobil). Redact "
                                 "at p < 1: inf by the strict eq. 2, 0 by seed 000's reading of a placeholder. The "
                                 "right panel of the plot shows finite epsilon only (word-by-word, over pi's "
                                 "support).\n")
    if args.plot:
        R.curve_plot(pts, args.plot, ids, nds, "utility vs p and epsilon (seed 000 fig. 1)")
        body += f"\n![privacy-utility curve]({Path(args.plot).name})\n"
    sections.append(("text_utility_curve", "Seed 000 figure 1: utility against p and epsilon", body))
    if st_rows:
        priv = {}
        for f in (args.privacy or "").split(","):
            if f.strip() and Path(f.strip()).exists():
                priv.update(json.loads(Path(f.strip()).read_text()))
            elif f.strip():
                print(f"{f.strip()}: absent (santext-privacy not finished): its N_x / S_x cells show '-'")
        sections.append(("text_utility_santext", "SanText / SanText+ against epsilon (seed 003)",
                         R.santext_table(cells, priv, st_rows, ids, nds) + "\n" + src +
                         "N_x = Pr[M(x) = x] and S_x = distinct outputs of x over the training vocabulary (pydeid "
                         "santext-privacy draws); median d(x,y) = median Euclidean distance between vocabulary words, "
                         "the scale epsilon multiplies (seed 003 eq. 1). SanText+: w = 0.9, p = 0.3 (seed 003). "
                         "Tokens changed: share of training tokens the draw replaced (seed 0).\n"))
    want = [r.spec for r in parse_rows(" ".join([args.table_rows, args.santext_rows]))]
    want += [s if p == 1 else f"{s}@{p:g}" for s in strategies for p in ps if 0 < p]
    missing = [f"{d}/{r} ({len(cells.get(d, {}).get(r, {}))} of {args.expect_seeds})" for d in ids
               for r in dict.fromkeys(want) if len(cells.get(d, {}).get(r, {})) < args.expect_seeds]
    if missing:
        note = (f"\n**Incomplete run**: {len(missing)} dataset/row pairs have fewer than {args.expect_seeds} seeds "
                f"(a '-' or a smaller spread in the tables): {', '.join(missing)}.\n")
        sections = [(k, t, x + note) for k, t, x in sections]
    for key, title, text in sections:
        print(f"## {title}\n\n{text}")
        if args.results:
            update_results_section(args.results, key, text, title)
    _ = first
    return 0
