"""Error analysis of pydeid's default detectors on the tuning splits (never the scored sets): SNIPS train and the
even-numbered SLURP devel sentences. Prints token recall / precision, false negatives per gold type (with the most
frequent missed words) and false positives per detector (with the most frequent wrongly flagged words).

  python bench/text_vs_presidio_errors.py --conll ../shared/data/text_snips/snips_train.conll [--part tune] [--dump F]
"""

from __future__ import annotations

import argparse
import collections
import sys
import time

sys.path.insert(0, "bench")
from text_vs_presidio import read_conll, select   # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--conll", required=True)
    ap.add_argument("--part", default="all", choices=["all", "tune"])
    ap.add_argument("--config", default=None)
    ap.add_argument("--detectors", default=None)
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--dump", default=None, help="write every sentence with an error here")
    a = ap.parse_args(argv)
    from pydeid.text.detectors import Detection, DetectionConfig
    sents = select(read_conll(a.conll), a.part)
    over = {"detectors": a.detectors.split(",")} if a.detectors else {}
    det = Detection(DetectionConfig.from_yaml(a.config, **over))
    t0 = time.perf_counter()
    spans = det.detect_many([t for _, t, _ in sents])
    dt = time.perf_counter() - t0
    g = p = tp = 0
    fn_type, fn_words = collections.Counter(), collections.defaultdict(collections.Counter)
    fp_det, fp_words = collections.Counter(), collections.defaultdict(collections.Counter)
    tp_det = collections.Counter()
    dump = open(a.dump, "w") if a.dump else None
    for (sid, toks, tags), sp in zip(sents, spans):
        who = {}
        for s in sp:
            for i in range(s.start, s.end):
                who[i] = (s.type, "+".join(sorted(s.detectors)))
        gold = {i for i, t in enumerate(tags) if t != "O"}
        g += len(gold)
        p += len(who)
        tp += len(gold & set(who))
        err = False
        for i in gold - set(who):
            fn_type[tags[i][2:]] += 1
            fn_words[tags[i][2:]][toks[i].lower()] += 1
            err = True
        for i, (typ, d) in who.items():
            dd = d.split("+")[0].split(":")[0] if "+" not in d else "multi"
            if i in gold:
                tp_det[d] += 1
            else:
                fp_det[d] += 1
                fp_words[d][toks[i].lower()] += 1
                err = True
        if dump and err:
            line = " ".join((f"[{t}|{tags[i][2:] or 'O'}>{who[i][0] if i in who else '-'}:{who[i][1] if i in who else ''}]"
                             if (i in gold) != (i in who) else
                             (f"<{t}>" if i in gold else t)) for i, t in enumerate(toks))
            dump.write(f"{sid}\t{line}\n")
    print(f"{a.conll} part={a.part}: {len(sents)} sentences, {len(sents) / dt:.0f} sent/s")
    print(f"recall {100 * tp / g:.1f} ({tp}/{g})  precision {100 * tp / p:.1f} ({tp}/{p})")
    print("\nfalse negatives per gold type:")
    for t, n in fn_type.most_common():
        print(f"  {t:6s} {n:5d}  " + ", ".join(f"{w}:{c}" for w, c in fn_words[t].most_common(a.top)))
    print("\nfalse positives per detector (tp beside):")
    for d, n in fp_det.most_common():
        print(f"  {d:40s} fp {n:5d} tp {tp_det[d]:5d}  " + ", ".join(f"{w}:{c}" for w, c in fp_words[d].most_common(a.top)))
    print("\ntrue positives of detectors with no fp:")
    for d, n in tp_det.most_common():
        if d not in fp_det:
            print(f"  {d:40s} tp {n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
