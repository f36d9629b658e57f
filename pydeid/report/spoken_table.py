"""The spoken-pseudonym table: ASR models trained on each neutral corpus, decoded on original and transformed
test sets; WER/CER with utterance-bootstrap 95 % intervals, and NER phrase F1 of the tagger run on the ASR output.

NER phrase F1 (as SLUE's phrase-level F1 for NER from speech): per utterance, the multiset of (type, lower-cased
entity words) the tagger finds in the hypothesis against the multiset in the reference tags; an entity counts only
when both its type and all its words are right. Micro-averaged over the test set.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import numpy as np

from pydeid.io import read_conll

_PER_UTT = re.compile(r"^(\S+) words=(\d+) sub=(\d+) del=(\d+) ins=(\d+)")


def per_utt_errors(decode_dir) -> dict[str, tuple[int, int]]:
    out = {}
    for line in (Path(decode_dir) / "scoring" / "per_utt").read_text().splitlines():
        m = _PER_UTT.match(line)
        if m:
            u, w, s, d, i = m.groups()
            out[u] = (int(w), int(s) + int(d) + int(i))
    return out


def bootstrap_ci(num: np.ndarray, den: np.ndarray, n: int = 1000, seed: int = 0) -> tuple[float, float]:
    """95 % interval of sum(num)/sum(den) over utterances resampled with replacement."""
    rng = np.random.default_rng(seed)
    k = len(num)
    idx = rng.integers(0, k, size=(n, k))
    r = num[idx].sum(1) / np.maximum(den[idx].sum(1), 1)
    return float(np.percentile(r, 2.5)), float(np.percentile(r, 97.5))


def phrases(path) -> dict[str, Counter]:
    out = {}
    for s in read_conll(path):
        out[s.id] = Counter((t.upper(), " ".join(x.lower() for x in s.tokens[a:b])) for a, b, t in s.spans())
    return out


def phrase_f1(gold_path, pred_path, seed: int = 0) -> dict:
    gold, pred = phrases(gold_path), phrases(pred_path)
    utts = sorted(gold)
    tp = np.array([sum((gold[u] & pred.get(u, Counter())).values()) for u in utts], float)
    ng = np.array([sum(gold[u].values()) for u in utts], float)
    npred = np.array([sum(pred.get(u, Counter()).values()) for u in utts], float)
    f = lambda t, g, p: 2 * t.sum() / max(g.sum() + p.sum(), 1)  # noqa: E731
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(utts), size=(1000, len(utts)))
    boots = 2 * tp[idx].sum(1) / np.maximum(ng[idx].sum(1) + npred[idx].sum(1), 1)
    return {"f1": 100 * f(tp, ng, npred), "ci": [100 * float(np.percentile(boots, 2.5)),
                                                  100 * float(np.percentile(boots, 97.5))],
            "gold": int(ng.sum()), "pred": int(npred.sum()), "tp": int(tp.sum()),
            "precision": 100 * tp.sum() / max(npred.sum(), 1), "recall": 100 * tp.sum() / max(ng.sum(), 1)}


def cell_row(model: str, test: str, decode_dir, gold_tags=None, pred_tags=None) -> list[str]:
    res = json.loads((Path(decode_dir) / "scoring" / "results.json").read_text())["all"]
    pu = per_utt_errors(decode_dir)
    w = np.array([v[0] for v in pu.values()], float)
    e = np.array([v[1] for v in pu.values()], float)
    lo, hi = bootstrap_ci(e, w)
    row = [f"{model} -> {test}", str(res["sents"]), str(res["words"]), f"{res['wer']:.1f} [{100 * lo:.1f}, {100 * hi:.1f}]",
           f"{res['cer']:.1f}"]
    if gold_tags and pred_tags:
        f = phrase_f1(gold_tags, pred_tags)
        row += [f"{f['f1']:.1f} [{f['ci'][0]:.1f}, {f['ci'][1]:.1f}]", f"{f['tp']} / {f['gold']} / {f['pred']}"]
    else:
        row += ["-", "-"]
    return row


HEADERS = ["ASR trained on -> decoded on", "utts", "words", "WER % [95 % CI]", "CER %",
           "NER phrase F1 % [95 % CI]", "entities right / reference / found"]


SEED_HEADERS = ["ASR trained on -> decoded on", "seeds", "utts", "words", "WER % mean +- std",
                "WER % per seed [95 % CI]",
                "CER % mean +- std", "NER phrase F1 % mean +- std"]


def _seed_wer(decode_dir, wer: float) -> str:
    """A seed's WER with its utterance-bootstrap 95 % interval (when steps/score.sh's per_utt is there)."""
    if not (Path(decode_dir) / "scoring" / "per_utt").exists():
        return f"{wer:.1f}"
    pu = per_utt_errors(decode_dir)
    lo, hi = bootstrap_ci(np.array([v[1] for v in pu.values()], float), np.array([v[0] for v in pu.values()], float))
    return f"{wer:.1f} [{100 * lo:.1f}, {100 * hi:.1f}]"


def seeds_row(label: str, cells: list[tuple]) -> list[str]:
    """One row over training seeds: cells are (decode_dir[, gold_tags, pred_tags]) of the same model recipe and
    test set, one per seed; mean +- sample std (ddof 1) of WER, CER and NER phrase F1 across seeds, and each
    seed's WER with its utterance-bootstrap interval."""
    wer, cer, f1, sents, words, per_seed = [], [], [], set(), set(), []
    for c in cells:
        res = json.loads((Path(c[0]) / "scoring" / "results.json").read_text())["all"]
        per_seed.append(_seed_wer(c[0], res["wer"]))
        wer.append(res["wer"])
        cer.append(res["cer"])
        sents.add(res["sents"])
        words.add(res["words"])
        if len(c) == 3:
            f1.append(phrase_f1(c[1], c[2])["f1"])
    if len(sents) != 1 or len(words) != 1:
        raise ValueError(f"{label}: the seeds were scored on different test sets ({sorted(words)} words)")

    def ms(v):
        return f"{np.mean(v):.1f} +- {np.std(v, ddof=1):.1f}" if len(v) > 1 else (f"{v[0]:.1f}" if v else "-")
    return [label, str(len(cells)), str(sents.pop()), str(words.pop()), ms(wer), "; ".join(per_seed),
            ms(cer), ms(f1) if len(f1) == len(cells) else "-"]
