"""Per-category precision/recall of the default detectors on the annotated category sets, cased and lower-cased.

    python bench/categories_eval.py [--sets test,heldout,blind] [--partial] [--errors]

Detectors: the default set (spacy, grammar, gazetteer, categories) with the grammar's e-mail and phone spans typed
EMAIL and PHONE. Rates carry 95 % Wilson intervals; counts are spans. Each set is scored as written (cased; the blind
set is also punctuated, a mark a token) and as its lower-case/no-punctuation copy (every token lower-cased,
punctuation-only tokens dropped, gold spans remapped)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from pydeid.text.categories import CATEGORY_TYPES  # noqa: E402
from pydeid.text.categories.annotated import read_annotated, score, variant, wilson  # noqa: E402
from pydeid.text.detectors import Detection, DetectionConfig  # noqa: E402

EVAL_CONFIG = dict(grammar={"type_map": {"email": "EMAIL", "phone": "PHONE"}})


def detect(det, sents):
    return [[(x.start, x.end, x.type) for x in sp] for sp in det.detect_many([s for s, _ in sents])]


def _rate(k, n):
    lo, hi = wilson(k, n)
    return f"{100 * k / n:5.1f} [{100 * lo:4.1f}-{100 * hi:5.1f}]" if n else "   - (no span)    "


def print_plain(path, n, lower, partial, res):
    form = "lower-case/no-punctuation" if lower else "cased, as written"
    print(f"\n{path.relative_to(REPO)} ({n} sentences, {form}, {'partial' if partial else 'exact'} match)")
    print(f"{'type':12s} {'gold':>4s} {'pred':>4s}  {'recall':>18s}  {'precision':>18s}")
    for t, r in res.items():
        print(f"{t:12s} {r['gold']:4d} {r['pred']:4d}  {_rate(r['tp_recall'], r['gold']):>18s}"
              f"  {_rate(r['tp_precision'], r['pred']):>18s}")


def print_markdown(path, n, partial, by_variant):
    """One table per set: spans, then recall and precision (95 % Wilson) cased and lower-case/no-punctuation."""
    cased, low = by_variant[False], by_variant[True]
    print(f"\n`{path.relative_to(REPO)}`: {n} sentences, {'partial' if partial else 'exact'} span match\n")
    print("| type | gold spans | recall, cased | precision, cased (pred) | recall, lower/no-punct "
          "| precision, lower/no-punct (pred) |")
    print("|---|---:|---|---|---|---|")
    for t in cased:
        c, lw = cased[t], low[t]
        print(f"| {t} | {c['gold']} | {_rate(c['tp_recall'], c['gold'])} | {_rate(c['tp_precision'], c['pred'])} "
              f"({c['pred']}) | {_rate(lw['tp_recall'], lw['gold'])} | {_rate(lw['tp_precision'], lw['pred'])} "
              f"({lw['pred']}) |")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sets", default="test,heldout,blind")
    ap.add_argument("--partial", action="store_true")
    ap.add_argument("--markdown", action="store_true", help="one markdown table per set (bench/results/)")
    ap.add_argument("--errors", action="store_true", help="print the errors (never on the held-out set)")
    a = ap.parse_args()
    det = Detection(DetectionConfig(**EVAL_CONFIG))
    for name in a.sets.split(","):
        path = REPO / "tests" / "text" / "data" / f"categories_{name}.txt"
        if not path.is_file():
            sys.exit(f"categories_eval.py: no annotated set {path}")
        written = read_annotated(path)
        by_variant = {}
        for lower in (False, True):
            sents = variant(written, lower)
            pred = detect(det, sents)
            res = score([g for _, g in sents], pred, CATEGORY_TYPES, partial=a.partial)
            by_variant[lower] = res
            if not a.markdown:
                print_plain(path, len(sents), lower, a.partial, res)
            if a.errors and name != "heldout":
                for (toks, g), p in zip(sents, pred):
                    gs = {x for x in g}
                    ps = {x for x in p if x[2] in CATEGORY_TYPES}
                    if gs != ps:
                        show = lambda S: [(" ".join(toks[x:y]), t) for x, y, t in sorted(S)]  # noqa: E731
                        print("  ", " ".join(toks), "| miss", show(gs - ps), "| extra", show(ps - gs))
        if a.markdown:
            print_markdown(path, len(written), a.partial, by_variant)


if __name__ == "__main__":
    main()
