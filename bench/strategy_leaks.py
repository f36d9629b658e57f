"""Leak share of every text strategy on a tagged Kaldi data dir: identifying entity tokens of the tags used that
survive in the transformed text (pydeid.text.metrics.leak_rate with the output tags), per type, several seeds.

    python bench/strategy_leaks.py [--avoid-original] [--seeds 0,1,2] [--strategies a,b] [--gold=G1,-]
        DATA TAGS [DATA TAGS ...]

--gold: per DATA TAGS pair, gold tags to count the leaks against ("-": the TAGS themselves); with a tagger's TAGS,
the leak then includes what the tagger missed.

Prints one markdown row per (data, strategy, type): leaked / identifying tokens summed over the seeds, the share
and its 95 % Wilson interval (over tokens; tokens of one sentence are not independent, so read it as indicative).
"""

from __future__ import annotations

import argparse
import sys

from pydeid.text.categories.annotated import wilson
from pydeid.text.datadir import load_tagged_text
from pydeid.text.dialogue import dialogue_ids
from pydeid.text.metrics import leak_rate
from pydeid.text.pools import Pools
from pydeid.text.strategies import STRATEGIES
from pydeid.text.transform import TextTransformer, TransformConfig

SKIP = {"keep"}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("pairs", nargs="+", help="DATA TAGS pairs")
    ap.add_argument("--seeds", default="0,1,2", help="comma-separated")
    ap.add_argument("--avoid-original", action="store_true")
    ap.add_argument("--gold", default="", help="comma-separated, one per pair ('-': the pair's own tags)")
    ap.add_argument("--no-propagate", action="store_true", help="TransformConfig(propagate_names=False)")
    ap.add_argument("--strategies", default=",".join(sorted(set(STRATEGIES) - SKIP)), help="comma-separated")
    a = ap.parse_args(argv)
    a.seeds = [int(x) for x in a.seeds.split(",")]
    a.strategies = a.strategies.split(",")
    if len(a.pairs) % 2:
        ap.error("give DATA TAGS pairs")
    print(f"avoid_original={a.avoid_original}, propagate_names={not a.no_propagate}, seeds {a.seeds}, p=1")
    print("| data | strategy | type | leaked / tokens | share % [95 %] |\n|---|---|---|---|---|")
    golds = a.gold.split(",") if a.gold else ["-"] * (len(a.pairs) // 2)
    if len(golds) != len(a.pairs) // 2:
        ap.error("--gold needs one entry per DATA TAGS pair")
    for (data, tags), gold_file in zip(zip(a.pairs[::2], a.pairs[1::2]), golds):
        utts, sents = load_tagged_text(data, tags)
        gold = sents if gold_file == "-" else load_tagged_text(data, gold_file)[1]
        label = data.rstrip("/").split("/")[-1] + ("" if gold_file == "-" else " (vs gold)")
        dlg, _ = dialogue_ids(utts, None, "strip-speaker")
        pools = Pools(sents)
        for name in a.strategies:
            tot: dict[str, list[int]] = {}
            for seed in a.seeds:
                cfg = TransformConfig(strategies={"default": name}, p=1.0, seed=seed, avoid_original=a.avoid_original,
                                      propagate_names=not a.no_propagate)
                res = TextTransformer(cfg, pools).transform(sents, dlg)
                lk = leak_rate([s.tokens for s in gold], [s.spans() for s in gold],
                               [s.tokens for s in res.sentences], [s.tags for s in res.sentences])
                for t, (n, k) in lk["per_type_counts"].items():
                    c = tot.setdefault(t, [0, 0])
                    c[0] += n
                    c[1] += k
            tot["ALL"] = [sum(v[0] for v in tot.values()), sum(v[1] for v in tot.values())]
            for t, (n, k) in tot.items():
                lo, hi = wilson(k, n)
                print(f"| {label} | {name} | {t} | {k} / {n} | {100 * k / n:.2f} "
                      f"[{100 * lo:.2f}, {100 * hi:.2f}] |")
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
