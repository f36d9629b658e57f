"""Throughput of the text stage: detection + replacement (sentences/s) and SanText sampling (tokens/s).

Usage (repository root, after `. ./path.sh`):
    python bench/text_bench.py [--model <flair model dir>] [--work /tmp/pydeid_bench_text] [--out bench/results/text.md]
Corpora: the embedded mini corpus (default size, built into --work if needed) and the real SNIPS utterances of
../shared/data/text_snips when present. Sentences are replicated to a few thousand so timings are stable.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from collections import Counter
from pathlib import Path

import numpy as np


def _sentences(work: Path):
    from pydeid.corpora.mini import build_corpus
    from pydeid.io import read_conll
    sets = {}
    mini = build_corpus(work / "mini", seed=0, size="default")
    sets["mini (spoken, cased)"] = read_conll(mini / "mini_train" / "tags.conll")
    snips = Path(os.environ.get("PYDEID_SHARED_DATA", Path(__file__).resolve().parents[2] / "shared" / "data"))
    snips = snips / "text_snips" / "snips_train.conll"
    if snips.exists():
        sets["SNIPS (written, real)"] = read_conll(snips)
    return sets


def bench_detect_replace(sents, model, n_target=4000):
    from pydeid.text.detectors import Detection, DetectionConfig
    from pydeid.text.pools import Pools
    from pydeid.text.strategies import parse_strategy_spec
    from pydeid.text.transform import TextTransformer, TransformConfig
    reps = max(1, n_target // len(sents))
    data = [s for _ in range(reps) for s in sents]
    toks = [s.tokens for s in data]
    rows = []
    det_sets = [["grammar", "capitalisation"]] + ([["flair", "grammar"]] if model else [])
    for dets in det_sets:
        det = Detection(DetectionConfig(detectors=dets, flair_model=model))
        t0 = time.perf_counter()
        spans = det.detect_many(toks)
        t_det = time.perf_counter() - t0
        pools = Pools()            # value dissociation: the pool is the corpus as tagged
        for s, sp in zip(sents, spans[:len(sents)]):
            pools.add(s.tokens, [(x.start, x.end, x.type) for x in sp])
        for strat in ("PER=pseudonymize,NUM=random_digits,default=same_type", "default=full_entity",
                      "default=typed_placeholder"):
            tr = TextTransformer(TransformConfig(strategies=parse_strategy_spec(strat), p=1.0, seed=0), pools)
            t0 = time.perf_counter()
            tr.transform(data, [s.id.split("-")[1] if s.id and "-" in s.id else "d" for s in data],
                         [[(x.start, x.end, x.type) for x in sp] for sp in spans])
            t_rep = time.perf_counter() - t0
            rows.append(["+".join(dets), strat, len(data), len(data) / t_det, len(data) / t_rep,
                         len(data) / (t_det + t_rep)])
    return rows


def bench_santext(sents, n_tokens=1_000_000):
    from pydeid.text.santext import SanText, SanTextConfig, corpus_vectors
    toks = [s.tokens for s in sents]
    vocab, vecs = corpus_vectors(toks, dim=100, epochs=5)
    freq = Counter(t for ts in toks for t in ts)
    flat = [t for ts in toks for t in ts]
    stream = (flat * (n_tokens // len(flat) + 1))[:n_tokens]
    rows = []
    for plus in (False, True):
        t0 = time.perf_counter()
        st = SanText(vocab, vecs, freq, SanTextConfig(epsilon=3.0, plus=plus))
        t_build = time.perf_counter() - t0
        ids = np.array([st.index[t] for t in stream])
        t0 = time.perf_counter()
        st.sample_ids(ids)
        t_samp = time.perf_counter() - t0
        rows.append(["SanText+" if plus else "SanText", len(vocab), t_build, n_tokens, n_tokens / t_samp])
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default=None)
    ap.add_argument("--work", default="/tmp/pydeid_bench_text")
    ap.add_argument("--out", default="bench/results/text.md")
    args = ap.parse_args()
    from pydeid.report import markdown_table
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    out = [f"# Text stage throughput\n\nMachine: {platform.machine()}, {os.cpu_count()} CPU(s) shared, "
           f"OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', '-')}; `python bench/text_bench.py"
           f"{' --model ' + args.model if args.model else ''}` on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}.\n"]
    for name, sents in _sentences(work).items():
        rows = bench_detect_replace(sents, args.model)
        out.append(f"\n## Detection + replacement, {name} ({len(sents)} sentences replicated to {rows[0][2]})\n\n")
        out.append(markdown_table(["detectors", "strategies", "sentences", "detect sent/s", "replace sent/s",
                                   "detect+replace sent/s"], rows, ".0f"))
        srows = bench_santext(sents)
        out.append(f"\n## SanText sampling, {name} (epsilon 3, w 0.9, p 0.3, 100-d corpus vectors)\n\n")
        out.append(markdown_table(["mechanism", "vocabulary", "matrix build s", "tokens sampled", "tokens/s"],
                                  [[r[0], r[1], f"{r[2]:.2f}", r[3], f"{r[4]:.0f}"] for r in srows]))
    text = "".join(out)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(text)
    print(text)


if __name__ == "__main__":
    main()
