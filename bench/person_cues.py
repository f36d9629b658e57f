"""Cost and gain of the person cues (cue_names.person_cues) in the default detectors: PER and any-type precision
and recall with and without them, on real text the cues were not tuned on (SLURP devel: lower-case home-assistant
commands; SNIPS valid: cased). The cues were written from the issue's examples and checked on SNIPS train only.

    python bench/person_cues.py [--sets slurp_devel,snips_valid] [--json out.json]

Figures: bench/results/text_leaks.md.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

SETS = {"slurp_devel": "text_slurp/slurp_devel.conll", "snips_valid": "text_snips/snips_valid.conll",
        "snips_train": "text_snips/snips_train.conll"}


def score(gold, pred) -> dict:
    from pydeid.text.categories.annotated import wilson
    from pydeid.text.metrics import span_prf
    prf = span_prf(gold, pred)
    out = {}
    for t in ("PER", "ANY-TYPE"):
        r = prf.get(t)
        if r is None:
            continue
        # counts behind the partial-match rates: predicted spans overlapping a gold span, gold spans overlapped
        p, rec = r.partial[0], r.partial[1]
        kp, kr = round(p * r.n_pred), round(rec * r.n_gold)
        out[t] = {"gold": r.n_gold, "pred": r.n_pred, "exact_p": r.exact[0], "exact_r": r.exact[1],
                  "partial_p": p, "partial_p_ci": wilson(kp, r.n_pred), "partial_r": rec,
                  "partial_r_ci": wilson(kr, r.n_gold)}
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sets", default="slurp_devel,snips_valid")
    ap.add_argument("--json", default=None)
    a = ap.parse_args(argv)
    from pydeid.io.conll import read_conll
    from pydeid.text import cue_names
    from pydeid.text.detectors import Detection, DetectionConfig
    root = Path(os.environ.get("PYDEID_SHARED_DATA", Path(__file__).resolve().parents[2] / "shared" / "data"))
    res = {}
    for name in a.sets.split(","):
        sents = read_conll(root / SETS[name])
        gold = [s.spans() for s in sents]
        toks = [s.tokens for s in sents]
        res[name] = {"sentences": len(sents)}
        for on in (False, True):
            cue_names.PERSON_CUES = on
            pred = [[(s.start, s.end, s.type) for s in sp] for sp in Detection(DetectionConfig()).detect_many(toks)]
            res[name]["with" if on else "without"] = score(gold, pred)
            if on:   # the spans the person cues add, and how many of them overlap a gold PER
                added = [[s for s in cue_names.person_cues(t)] for t in toks]
                n = sum(len(x) for x in added)
                ok = sum(any(s.start < b and a_ < s.end and ty == "PER" for a_, b, ty in g)
                         for x, g in zip(added, gold) for s in x)
                res[name]["cue_spans"] = {"spans": n, "overlap_gold_per": ok}
            r = res[name]["with" if on else "without"]
            print(name, "with" if on else "without", json.dumps(r), flush=True)
        print(name, "cue spans", res[name]["cue_spans"], flush=True)
    if a.json:
        Path(a.json).write_text(json.dumps(res, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    sys.exit(main())
