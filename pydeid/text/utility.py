"""Train-on-transformed / test-on-original utility of text strategies (seed 002 §4.1, seed 004 §4.2, table 7).

For every strategy S, data variant (cased/uncased x punct/nopunct) and seed: transform the training and development
sets with the gold tags, T' = S(T) and S(dev); train the tagger M' on T' (model selection on S(dev)); evaluate it
on T' (M'(T')), on the transformed test set V' = S(V) (M'(V')) and on the *original* test set V (M'(V), the
table 7 figure). The baseline row ("none") trains on the original data: M(V); seed 002's delta = M'(V) - M(V),
paired by seed. With several seeds (each seed draws the transformation and initialises the tagger) every figure is
reported as mean +- standard deviation over the seeds (seed 000, seed 002: 3 runs).
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import replace
from pathlib import Path
from typing import Sequence

from pydeid.io import atomic_write_text
from pydeid.io.conll import Sentence, read_conll

from .flair_ner import FlairDetector, NerConfig, train_tagger
from .metrics import macro_f1, span_prf
from .pools import Pools
from .transform import TextTransformer, TransformConfig, lowercase_sentences, strip_punct

log = logging.getLogger(__name__)

VARIANTS = ("cased-punct", "cased-nopunct", "uncased-punct", "uncased-nopunct")
TABLE7_STRATEGIES = ("none", "placeholder", "placeholder_entity", "same_type", "single_same_type", "full_entity")
ROW_NAMES = {
    "none": "No replacement",
    "placeholder": "Replace all NEs with placeholders",
    "placeholder_entity": "Replace all multi-word NEs with placeholders",
    "same_type": "Replace all NEs with same-type NE",
    "single_same_type": "Replace all multi-word NEs with a single same-type NE",
    "full_entity": "Replace all multi-word NEs with a multi-word same-type NE",
    "redact": "Redact (IIIII)",
    "typed_placeholder": "Typed placeholder",
    "named_placeholder": "Named placeholder",
    "faker": "Value distortion (faker)",
    "pseudonymize": "Consistent pseudonymization",
    "random_digits": "Random same-length digits",
}


def variant_data(sents: Sequence[Sentence], variant: str) -> list[Sentence]:
    out = list(sents)
    if variant.startswith("uncased"):
        out = lowercase_sentences(out)
    if variant.endswith("nopunct"):
        out = strip_punct(out)
    return out


def evaluate(model_dir: str | Path, test: Sequence[Sentence]) -> dict:
    det = FlairDetector(model_dir)
    pred = det.detect_many([s.tokens for s in test])
    res = span_prf([s.spans() for s in test], [[(x.start, x.end, x.type) for x in p] for p in pred])
    return {"macro_f1": macro_f1(res, "exact"), "micro_f1": res["ALL"].exact[2] if "ALL" in res else 0.0,
            "partial_f1": res["ALL"].partial[2] if "ALL" in res else 0.0}


def cell_dir(exp_dir: Path, variant: str, strategy: str, seed: int, first_seed: int) -> Path:
    """<exp>/<variant>/<strategy> for the first seed (the layout of single-seed runs), <strategy>.seed<k> else."""
    return exp_dir / variant / (strategy if seed == first_seed else f"{strategy}.seed{seed}")


def _complete(r: dict, model: Path, sets: dict) -> bool:
    """Add the missing seed 002 evaluations (M'(T'), M'(V')) of a cell; True when something was added."""
    added = False
    for key, data in sets.items():
        if key not in r and (model / "tagger.pt").exists():
            r[key] = evaluate(model, data())["macro_f1"]
            added = True
    return added


def run_utility(splits: dict, exp_dir: str | Path, ner_cfg: NerConfig, strategies: Sequence[str] = TABLE7_STRATEGIES,
                variants: Sequence[str] = VARIANTS, p: float = 1.0, seed: int = 0,
                dialogue_of: dict | None = None, seeds: Sequence[int] | None = None) -> dict:
    """splits: {"punct": (train, dev, test), "nopunct": (train, dev, test)} CoNLL sentences (the written form
    with punctuation and the spoken form; the same lists may serve both). Returns {variant: {strategy: {...}}}
    (the first seed's cell, with "runs": {seed: cell} when there are several seeds); resumable (one results.json
    per cell)."""
    seeds = list(seeds) if seeds else [seed]
    results: dict = {}
    for k in seeds:
        one = _run_seed(splits, Path(exp_dir), ner_cfg, strategies, variants, p, k, dialogue_of, seeds[0])
        for variant, row in one.items():
            for strat, r in row.items():
                cell = results.setdefault(variant, {}).setdefault(strat, dict(r) if k == seeds[0] else {})
                if len(seeds) > 1:
                    cell.setdefault("runs", {})[str(k)] = r
    return results


def _run_seed(splits, exp_dir, ner_cfg, strategies, variants, p, seed, dialogue_of, first_seed) -> dict:
    results: dict = {}
    ner_cfg = replace(ner_cfg, seed=seed)
    for variant in variants:
        train, dev, test = splits["nopunct" if variant.endswith("nopunct") else "punct"]
        tr_v, dv_v, te_v = (variant_data(x, variant) for x in (train, dev, test))
        dlg_tr = [dialogue_of.get(s.id, s.id) for s in tr_v] if dialogue_of else None
        dlg_dv = [dialogue_of.get(s.id, s.id) for s in dv_v] if dialogue_of else None
        pools = Pools(tr_v)
        dlg_te = None
        for strat in strategies:
            cell = cell_dir(exp_dir, variant, strat, seed, first_seed)
            done = cell / "results.json"
            model = cell / "model"

            def transformed(which, strat=strat):   # S(T), S(dev), S(V): seeds k, k+1, k+2
                if strat == "none":
                    return {"train": tr_v, "dev": dv_v, "test": te_v}[which]
                # seed 004's table replicated: pseudonymize draws from the corpus, as its section 3.3.2 does
                cfg = TransformConfig(strategies={"default": strat}, p=p, pseudonym_source="corpus",
                                      seed=seed + {"train": 0, "dev": 1, "test": 2}[which])
                data, dlg = {"train": (tr_v, dlg_tr), "dev": (dv_v, dlg_dv), "test": (te_v, dlg_te)}[which]
                return TextTransformer(cfg, pools).transform(data, dlg).sentences

            protocol = {"train_macro_f1": lambda: transformed("train"),             # M'(T')
                        "transformed_test_macro_f1": lambda: transformed("test")}    # M'(V')
            if done.exists():
                r = json.loads(done.read_text())
                if _complete(r, model, protocol):   # cells of an earlier version: the evaluations they lack
                    atomic_write_text(done, json.dumps(r, indent=1) + "\n")
                results.setdefault(variant, {})[strat] = r
                continue
            t0 = time.time()
            tr_s, dv_s = transformed("train"), transformed("dev")
            train_tagger(tr_s, dv_s, model, replace(ner_cfg, lowercase=False))
            r = evaluate(model, te_v)
            r["seed"] = seed
            r["train_macro_f1"] = evaluate(model, tr_s)["macro_f1"]
            r["transformed_test_macro_f1"] = evaluate(model, transformed("test"))["macro_f1"]
            r["seconds"] = time.time() - t0
            cell.mkdir(parents=True, exist_ok=True)
            atomic_write_text(done, json.dumps(r, indent=1) + "\n")   # its presence marks the cell done
            results.setdefault(variant, {})[strat] = r
            log.info("%s %s: macro F1 %.3f (%.0f s)", variant, strat, r["macro_f1"], r["seconds"])
    return results


def _runs(r: dict) -> list[dict]:
    return list(r["runs"].values()) if r.get("runs") else [r]


def mean_std(values) -> tuple[float, float] | None:
    """Mean and sample standard deviation (0 for one value)."""
    import statistics
    v = [x for x in values if x is not None]
    if not v:
        return None
    return statistics.fmean(v), (statistics.stdev(v) if len(v) > 1 else 0.0)


def _fmt_ms(ms, pct=True) -> str | None:
    if ms is None:
        return None
    k = 100 if pct else 1
    return f"{k * ms[0]:.1f} +- {k * ms[1]:.1f}"


def utility_table(results: dict, metric: str = "macro_f1") -> str:
    """Seed 004 table 7: strategies x variants, M'(V) (macro F1 on the original test set); mean +- std over the
    seeds when there are several."""
    from pydeid.report import markdown_table
    variants = [v for v in VARIANTS if v in results] + [v for v in results if v not in VARIANTS]
    strategies: list[str] = []
    for v in variants:
        for s in results[v]:
            if s not in strategies:
                strategies.append(s)
    rows = []
    for s in strategies:
        row = [ROW_NAMES.get(s, s)]
        for v in variants:
            r = results[v].get(s)
            if r is None:
                row.append(None)
            elif r.get("runs"):
                m = mean_std(x.get(metric) for x in _runs(r))
                row.append(f"{100 * m[0]:.1f}% +- {100 * m[1]:.1f}")
            else:
                row.append(f"{100 * r[metric]:.1f}%")
        rows.append(row)
    heads = ["Replacement strategy"] + [v.replace("-", ", ") for v in variants]
    return markdown_table(heads, rows)


def protocol_table(results: dict, variant: str) -> str:
    """Seed 002 table 3 layout for one variant: rows strategies; M'(T'), M'(V'), M'(V) and delta = M'(V) - M(V)
    (paired by seed with the "none" row), mean +- std over the seeds."""
    from pydeid.report import markdown_table
    row_of = results.get(variant, {})
    base = {str(x.get("seed")): x.get("macro_f1") for x in _runs(row_of["none"])} if "none" in row_of else {}
    rows = []
    for s, r in row_of.items():
        runs = _runs(r)
        deltas = None
        if s != "none" and base:
            deltas = mean_std(x["macro_f1"] - base[str(x.get("seed"))] for x in runs
                              if base.get(str(x.get("seed"))) is not None)
        rows.append([ROW_NAMES.get(s, s), _fmt_ms(mean_std(x.get("train_macro_f1") for x in runs)),
                     _fmt_ms(mean_std(x.get("transformed_test_macro_f1") for x in runs)),
                     _fmt_ms(mean_std(x.get("macro_f1") for x in runs)),
                     "-" if s == "none" else _fmt_ms(deltas), len(runs)])
    return markdown_table(["Training data", "M'(T')", "M'(V')", "M'(V)", "delta = M'(V) - M(V)", "runs"], rows)


def read_split(data_dir: str | Path, variant_punct: bool) -> list[Sentence]:
    """written.conll (written form with punctuation) for punct variants when the data dir has one, else tags.conll."""
    d = Path(data_dir)
    if d.is_file():
        return read_conll(d)
    if variant_punct and (d / "written.conll").exists():
        return read_conll(d / "written.conll")
    return read_conll(d / "tags.conll")
