"""Cells of the utility experiments (seed 002 §4.1): transform the training set with a row, train M' on T', score it
on T' (M'(T')) and on the ORIGINAL test set V (M'(V)); the baseline row "none" gives M(V); delta = M'(V) - M(V)
paired by seed. One JSON per (dataset, row, seed) under <exp>/<dataset>/<row>/seed<k>.json, so runs resume.

Tasks: intent accuracy (pydeid.nlu_utility.intent, every seed) and NER F1 (the project's flair BiLSTM-CRF,
pydeid.text.flair_ner, on a fixed subset of the training set: see NerSpec).
"""

from __future__ import annotations

import json
import logging
import re
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Sequence

import numpy as np

from pydeid.io import atomic_write_text
from pydeid.io.conll import Sentence

from .intent import IntentClassifier, bootstrap_accuracy, evaluate_intents, intent_of
from .rows import Row, apply_row

log = logging.getLogger(__name__)


NER_MODELS = ("linear", "flair")


@dataclass
class NerSpec:
    """NER column. model "linear" (pydeid.nlu_utility.tagger): trained on the whole transformed training set, every
    seed. model "flair": the project's BiLSTM-CRF (config YAML) trained on n_train sentences of the transformed
    training set taken evenly across it, model selection on n_dev other evenly spaced sentences (transformed alike).
    Both are scored on the whole original test set (exact-match span micro F1)."""
    config: str = "conf/text/ner_cpu.yaml"
    n_train: int = 700
    n_dev: int = 150
    max_epochs: int = 6
    model: str = "linear"


def slug(spec: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.+-]+", "_", spec.replace("@", "_at_").replace(":", "_"))


def ner_subset(n: int, n_train: int, n_dev: int) -> tuple[list[int], list[int]]:
    """Evenly spaced indices: n_train for training and n_dev others for development (deterministic)."""
    idx = np.linspace(0, n - 1, num=min(n, n_train + n_dev)).round().astype(int)
    idx = list(dict.fromkeys(idx.tolist()))
    if len(idx) < n_train + n_dev:   # a small training set: keep the proportions
        n_dev = int(round(len(idx) * n_dev / (n_train + n_dev)))
    dev = idx[1::max(1, len(idx) // max(1, n_dev))][:n_dev] if n_dev else []
    dev_set = set(dev)
    return [i for i in idx if i not in dev_set][:n_train], dev


def linear_ner_cell(train_t: Sequence[Sentence], test: Sequence[Sentence], seed: int) -> dict:
    from .tagger import LinearTagger, span_f1
    c0 = time.process_time()
    m = LinearTagger(seed=seed).fit(train_t)
    return {"model": "linear", "test": span_f1(test, m.predict([s.tokens for s in test])),
            "train": span_f1(train_t, m.predict([s.tokens for s in train_t])), "n_train": len(train_t),
            "n_dev": 0, "n_test": len(test), "max_epochs": m.max_iter, "cpu_seconds": time.process_time() - c0}


def ner_cell(train_t: Sequence[Sentence], test: Sequence[Sentence], spec: NerSpec, seed: int, model_dir: Path) -> dict:
    if spec.model == "linear":
        return linear_ner_cell(train_t, test, seed)
    from pydeid.text.flair_ner import NerConfig, train_tagger
    from pydeid.text.metrics import macro_f1, span_prf
    from pydeid.text.flair_ner import FlairDetector
    tr_idx, dv_idx = ner_subset(len(train_t), spec.n_train, spec.n_dev)
    cfg = NerConfig.from_yaml(spec.config, max_epochs=spec.max_epochs, seed=seed)
    t0 = time.time()
    c0 = time.process_time()
    train_tagger([train_t[i] for i in tr_idx], [train_t[i] for i in dv_idx], model_dir, replace(cfg, lowercase=False))
    det = FlairDetector(model_dir)

    def score(sents):
        pred = det.detect_many([s.tokens for s in sents])
        res = span_prf([s.spans() for s in sents], [[(x.start, x.end, x.type) for x in p] for p in pred])
        return {"micro_f1": res["ALL"].exact[2] if "ALL" in res else 0.0, "macro_f1": macro_f1(res, "exact")}
    out = {"model": "flair", "test": score(test), "train": score([train_t[i] for i in tr_idx]), "n_train": len(tr_idx),
           "n_dev": len(dv_idx), "n_test": len(test), "max_epochs": spec.max_epochs, "config": spec.config,
           "seconds": time.time() - t0, "cpu_seconds": time.process_time() - c0}
    for p in model_dir.glob("*.pt"):   # the table needs the scores, not 20 MB per cell
        p.unlink()
    return out


def run_cell(dataset: str, train: Sequence[Sentence], test: Sequence[Sentence], row: Row, seed: int,
             exp_dir: Path, ner: NerSpec | None = None, santext_cache: dict | None = None) -> dict:
    """One (dataset, row, seed) cell; resumes from its JSON (adds the NER task when asked and missing)."""
    path = exp_dir / dataset / slug(row.spec) / f"seed{seed}.json"
    r = json.loads(path.read_text()) if path.exists() else None
    if r is not None and (ner is None or r.get("ner", {}).get("model", "flair") == ner.model):
        return r
    t0 = time.time()
    if row.kind == "santext" and santext_cache is not None:
        train_t, info = _santext_cached(row, train, seed, santext_cache, dataset)
    else:
        train_t, info = apply_row(row, train, seed)
    if r is None:
        clf = IntentClassifier(seed=seed).fit([s.tokens for s in train_t], [intent_of(s) for s in train_t])
        v = evaluate_intents(clf, test, boot_seed=seed)
        pred = clf.predict([s.tokens for s in test])
        r = {"dataset": dataset, "row": row.spec, "label": row.label, "seed": seed, "info": info,
             "intent": {"test": v, "train": evaluate_intents(clf, train_t, boot_seed=seed),
                        "correct": "".join("1" if p == intent_of(s) else "0" for p, s in zip(pred, test))}}
    if ner is not None:
        r["ner"] = ner_cell(train_t, test, ner, seed, path.parent / f"ner.seed{seed}")
    r["seconds"] = r.get("seconds", 0.0) + time.time() - t0
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, json.dumps(r, indent=1) + "\n")
    log.info("%s %s seed %d: intent %.3f%s (%.1f s)", dataset, row.spec, seed, r["intent"]["test"]["accuracy"],
             f", NER F1 {r['ner']['test']['micro_f1']:.3f}" if "ner" in r else "", time.time() - t0)
    return r


def _santext_cached(row, train, seed, cache: dict, dataset: str):
    """SanText tables depend on the vocabulary, vectors and eps, not on the seed: build once per (dataset, row),
    redraw per seed."""
    from .rows import build_santext, sanitize_sentences
    key = (dataset, row.spec)
    if key not in cache:
        cache.clear()           # one |V| x |V| table in memory at a time
        cache[key] = build_santext(row, train, seed)
    st = cache[key]
    st.reseed(seed)
    return sanitize_sentences(st, train)


def run_grid(datasets: dict, rows: Sequence[Row], seeds: Sequence[int], exp_dir: str | Path,
             ner: NerSpec | None = None, ner_datasets: Sequence[str] = (), ner_rows: Sequence[str] | None = None,
             ner_seeds: Sequence[int] | None = None) -> dict:
    """datasets: name -> (train, test). Returns {dataset: {row spec: {seed: cell}}}."""
    exp_dir = Path(exp_dir)
    out: dict = {}
    cache: dict = {}
    for name, (train, test) in datasets.items():
        for row in rows:
            for k in seeds:
                want_ner = (ner is not None and name in ner_datasets
                            and (ner_rows is None or row.spec in ner_rows)
                            and (ner_seeds is None or k in ner_seeds))
                out.setdefault(name, {}).setdefault(row.spec, {})[k] = run_cell(
                    name, train, test, row, k, exp_dir, ner if want_ner else None, cache)
        cache.clear()
    return out


# ---------------------------------------------------------------- summaries

def mean_std(v: Sequence[float]) -> tuple[float, float]:
    v = [x for x in v if x is not None]
    if not v:
        return float("nan"), float("nan")
    return float(np.mean(v)), float(np.std(v, ddof=1)) if len(v) > 1 else 0.0


def intent_summary(cells: dict) -> dict:
    """Mean +- std over seeds of M'(V) and M'(T'), and the 95 % bootstrap interval (over test sentences) of the
    accuracy averaged over the seeds."""
    runs = list(cells.values())
    acc = [c["intent"]["test"]["accuracy"] for c in runs]
    tr = [c["intent"]["train"]["accuracy"] for c in runs]
    corr = np.array([[ch == "1" for ch in c["intent"]["correct"]] for c in runs], dtype=np.float64)
    lo, hi = bootstrap_accuracy(corr.mean(axis=0), seed=0)
    return {"mean": mean_std(acc)[0], "std": mean_std(acc)[1], "train_mean": mean_std(tr)[0],
            "train_std": mean_std(tr)[1], "ci95": (lo, hi), "n_test": runs[0]["intent"]["test"]["n"],
            "seeds": len(runs), "by_seed": {c["seed"]: c["intent"]["test"]["accuracy"] for c in runs}}


def ner_summary(cells: dict) -> dict | None:
    runs = [c for c in cells.values() if "ner" in c]
    if not runs:
        return None
    f = [c["ner"]["test"]["micro_f1"] for c in runs]
    ft = [c["ner"]["train"]["micro_f1"] for c in runs]
    return {"mean": mean_std(f)[0], "std": mean_std(f)[1], "train_mean": mean_std(ft)[0], "seeds": len(runs),
            "by_seed": {c["seed"]: c["ner"]["test"]["micro_f1"] for c in runs}, "n_train": runs[0]["ner"]["n_train"],
            "n_test": runs[0]["ner"]["n_test"], "max_epochs": runs[0]["ner"]["max_epochs"],
            "model": runs[0]["ner"].get("model", "flair"),
            "cpu_seconds": sum(c["ner"].get("cpu_seconds", 0.0) for c in runs)}


def delta(cells: dict, base: dict, task: str = "intent") -> tuple[float, float]:
    """seed 002: M'(V) - M(V), paired by seed (mean +- std over the seeds both have)."""
    def val(c):
        if task == "intent":
            return c["intent"]["test"]["accuracy"]
        return c["ner"]["test"]["micro_f1"] if "ner" in c else None
    d = []
    for k, c in cells.items():
        b = base.get(k)
        if b is not None and val(c) is not None and val(b) is not None:
            d.append(val(c) - val(b))
    return mean_std(d)
