"""Train-on-transformed / test-on-original utility of text strategies (seed 002 §4.1, seed 004 §4.2, table 7).

For every strategy S and data variant (cased/uncased x punct/nopunct): transform the training and development
sets with the gold tags, S(T) and S(V); train the tagger on S(T) (model selection on S(V)); evaluate it on the
*original* test set. The baseline row ("none") trains on the original data; delta = F1(S) - F1(none) (seed 002).
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


def run_utility(splits: dict, exp_dir: str | Path, ner_cfg: NerConfig, strategies: Sequence[str] = TABLE7_STRATEGIES,
                variants: Sequence[str] = VARIANTS, p: float = 1.0, seed: int = 0,
                dialogue_of: dict | None = None) -> dict:
    """splits: {"punct": (train, dev, test), "nopunct": (train, dev, test)} CoNLL sentences (the written form
    with punctuation and the spoken form; the same lists may serve both). Returns {variant: {strategy: {...}}};
    resumable (one results.json per cell)."""
    exp_dir = Path(exp_dir)
    results: dict = {}
    for variant in variants:
        train, dev, test = splits["nopunct" if variant.endswith("nopunct") else "punct"]
        tr_v, dv_v, te_v = (variant_data(x, variant) for x in (train, dev, test))
        dlg_tr = [dialogue_of.get(s.id, s.id) for s in tr_v] if dialogue_of else None
        dlg_dv = [dialogue_of.get(s.id, s.id) for s in dv_v] if dialogue_of else None
        pools = Pools(tr_v)
        for strat in strategies:
            cell = exp_dir / variant / strat
            done = cell / "results.json"
            if done.exists():
                results.setdefault(variant, {})[strat] = json.loads(done.read_text())
                continue
            t0 = time.time()
            if strat == "none":
                tr_s, dv_s = tr_v, dv_v
            else:
                cfg = TransformConfig(strategies={"default": strat}, p=p, seed=seed)
                tr_s = TextTransformer(cfg, pools).transform(tr_v, dlg_tr).sentences
                cfg_dev = replace(cfg, seed=seed + 1)
                dv_s = TextTransformer(cfg_dev, pools).transform(dv_v, dlg_dv).sentences
            model = cell / "model"
            train_tagger(tr_s, dv_s, model, replace(ner_cfg, lowercase=False))
            r = evaluate(model, te_v)
            r["seconds"] = time.time() - t0
            cell.mkdir(parents=True, exist_ok=True)
            atomic_write_text(done, json.dumps(r, indent=1) + "\n")   # its presence marks the cell done
            results.setdefault(variant, {})[strat] = r
            log.info("%s %s: macro F1 %.3f (%.0f s)", variant, strat, r["macro_f1"], r["seconds"])
    return results


def utility_table(results: dict, metric: str = "macro_f1") -> str:
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
            row.append(None if r is None else f"{100 * r[metric]:.1f}%")
        rows.append(row)
    heads = ["Replacement strategy"] + [v.replace("-", ", ") for v in variants]
    return markdown_table(heads, rows)


def read_split(data_dir: str | Path, variant_punct: bool) -> list[Sentence]:
    """written.conll (written form with punctuation) for punct variants when the data dir has one, else tags.conll."""
    d = Path(data_dir)
    if d.is_file():
        return read_conll(d)
    if variant_punct and (d / "written.conll").exists():
        return read_conll(d / "written.conll")
    return read_conll(d / "tags.conll")
