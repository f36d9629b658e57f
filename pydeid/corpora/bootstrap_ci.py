"""Speaker-level bootstrap 95 % intervals for EER and WER (the real-voice recipe's tables).

Trials and utterances of one speaker are not independent, so the resampling unit is the speaker: B times, draw
the speakers of the set with replacement (within a gender for the per-gender figures) and recompute the rate
over everything they contribute (EER: the trials of the drawn enrolled speakers; WER: errors and reference words
of the drawn speakers' utterances). The interval is the 2.5 / 97.5 percentile of the B values. Seeded.
(A recipe-local implementation; the scenarios issue brings the project-wide one.)
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from pydeid.attack.metrics import eer


def _groups(keys: list[str]) -> dict[str, np.ndarray]:
    idx: dict[str, list[int]] = defaultdict(list)
    for i, k in enumerate(keys):
        idx[k].append(i)
    return {k: np.array(v) for k, v in sorted(idx.items())}


def eer_with_ci(scores: np.ndarray, labels: np.ndarray, speakers: list[str], n_boot: int = 1000,
                seed: int = 0) -> dict:
    """EER (%) of target/non-target scores and its speaker-bootstrap 95 % interval; `speakers` is the enrolled
    speaker of each trial."""
    scores, labels = np.asarray(scores, float), np.asarray(labels, bool)
    n_tar, n_non = int(labels.sum()), int((~labels).sum())
    if not n_tar or not n_non:
        return {"eer_pct": None, "ci": None, "n_target": n_tar, "n_nontarget": n_non, "speakers": 0}
    point = 100 * eer(scores[labels], scores[~labels])[0]
    groups = _groups(speakers)
    names = list(groups)
    rng = np.random.default_rng(seed)
    vals = []
    for _ in range(n_boot):
        pick = rng.integers(0, len(names), len(names))
        idx = np.concatenate([groups[names[k]] for k in pick])
        lab = labels[idx]
        if lab.all() or not lab.any():
            continue
        vals.append(100 * eer(scores[idx][lab], scores[idx][~lab])[0])
    ci = [float(np.percentile(vals, 2.5)), float(np.percentile(vals, 97.5))] if vals else None
    return {"eer_pct": float(point), "ci": ci, "n_target": n_tar, "n_nontarget": n_non, "speakers": len(names),
            "bootstrap": len(vals)}


def wer_with_ci(errors: list[int], words: list[int], speakers: list[str], n_boot: int = 1000,
                seed: int = 0) -> dict:
    """WER (%) = sum errors / sum reference words, with its speaker-bootstrap 95 % interval."""
    e, w = np.asarray(errors, float), np.asarray(words, float)
    if w.sum() == 0:
        return {"wer_pct": None, "ci": None, "words": 0, "utterances": len(errors), "speakers": 0}
    groups = _groups(speakers)
    names = list(groups)
    spk_e = np.array([e[groups[n]].sum() for n in names])
    spk_w = np.array([w[groups[n]].sum() for n in names])
    rng = np.random.default_rng(seed)
    picks = rng.integers(0, len(names), (n_boot, len(names)))
    tot_w = spk_w[picks].sum(1)
    vals = 100 * spk_e[picks].sum(1)[tot_w > 0] / tot_w[tot_w > 0]
    return {"wer_pct": float(100 * e.sum() / w.sum()),
            "ci": [float(np.percentile(vals, 2.5)), float(np.percentile(vals, 97.5))] if len(vals) else None,
            "words": int(w.sum()), "utterances": len(errors), "speakers": len(names)}
