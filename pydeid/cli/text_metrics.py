"""`pydeid text-metrics`: detection P/R/F1 (exact, partial), all-or-nothing recall, leak rate of a transformation."""

COMMAND = "text-metrics"
HELP = "exact/partial P/R/F1 per type, all-or-nothing recall per dialogue, leak rate of transformed text"


OUTPUTS = ("json",)


def add_arguments(p):
    p.add_argument("--pred", default=None, help="predicted CoNLL (tag-entities output) for P/R/F1 and AON recall")
    p.add_argument("--transformed", default=None, help="transformed data dir (or CoNLL) for the leak rate")
    p.add_argument("--data", default=None, help="data dir of the gold text (utt2spk/utt2dialogue for dialogues)")
    p.add_argument("--dialogue-mode", default="auto")
    p.add_argument("--dialogue-sep", default="-")
    p.add_argument("--json", default=None, help="also write the figures as JSON here")
    p.add_argument("gold", help="gold CoNLL (or data dir holding tags.conll)")


def print_prf(gold_spans, pred_spans, out=None):
    from pydeid.report import markdown_table
    from pydeid.text.metrics import macro_f1, span_prf
    res = span_prf(gold_spans, pred_spans)
    order = sorted(t for t in res if t not in ("ALL", "ANY-TYPE")) + ["ALL", "ANY-TYPE"]
    rows = [[t, res[t].n_gold, res[t].n_pred, *res[t].exact, *res[t].partial] for t in order if t in res]
    print(markdown_table(["type", "gold", "pred", "P exact", "R exact", "F1 exact", "P partial", "R partial",
                          "F1 partial"], rows, ".3f"), end="")
    print(f"macro F1 exact {macro_f1(res, 'exact'):.3f}  partial {macro_f1(res, 'partial'):.3f}")
    if out is not None:
        out["prf"] = {t: {"gold": v.n_gold, "pred": v.n_pred, "exact": v.exact, "partial": v.partial}
                      for t, v in res.items()}
        out["macro_f1_exact"] = macro_f1(res, "exact")
    return res


def run(args):
    import json
    from pathlib import Path

    from pydeid.io.conll import read_conll
    from pydeid.text.datadir import read_sentences
    from pydeid.text.metrics import all_or_nothing_recall, leak_rate

    gold = read_sentences(args.gold)
    ids = [s.id for s in gold]
    out: dict = {}
    if args.pred:
        pred = {s.id: s for s in read_conll(args.pred)}
        missing = [i for i in ids if i not in pred]
        if missing:
            raise SystemExit(f"text-metrics: {len(missing)} gold sentences have no prediction (e.g. {missing[0]})")
        ps = [pred[i].spans() for i in ids]
        print_prf([s.spans() for s in gold], ps, out)
        if args.data:
            from pydeid.text.datadir import read_utt2spk
            from pydeid.text.dialogue import dialogue_ids
            dlg, how = dialogue_ids(ids, read_utt2spk(args.data), args.dialogue_mode, args.data, args.dialogue_sep)
        else:
            dlg, how = ids, "one dialogue per sentence (no --data)"
        aon = all_or_nothing_recall([s.tokens for s in gold], [s.spans() for s in gold], ps, dlg)
        print(f"all-or-nothing recall: {aon['aon_recall']:.3f} over {aon['entities']} (dialogue, entity) pairs; "
              f"dialogues fully covered: {aon['dialogues_fully_covered']:.3f} of {aon['dialogues']} ({how})")
        out["all_or_nothing"] = aon
    if args.transformed:
        tr = {s.id: s for s in read_sentences(args.transformed)}
        g = [s for s in gold if s.id in tr]
        leak = leak_rate([s.tokens for s in g], [s.spans() for s in g], [tr[s.id].tokens for s in g],
                         [tr[s.id].tags for s in g])
        print(f"leak rate: {leak['leak_rate']:.4f} of {leak['tokens']} identifying gold entity tokens survive "
              f"({leak['leak_rate_all_tokens']:.4f} of all {leak['all_tokens']} entity tokens); per type: "
              + ", ".join(f"{t} {v:.3f}" for t, v in leak["per_type"].items()))
        out["leak"] = leak
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1, sort_keys=True, default=list) + "\n")
    return 0
