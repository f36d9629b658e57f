"""Speaker-bootstrap 95 % intervals for the real-voice tables, in the dict layout of its report: thin adapters
over the project-wide estimators (pydeid.attack.metrics.eer_bootstrap for EER, pydeid.asr.score.wer_bootstrap_ci
for WER), so every table of the project states the same method: speakers resampled with replacement (a trial
weighted by the multiplicities of its enrolled and its trial speaker), 2.5 / 97.5 percentiles, seeded.
"""

from __future__ import annotations

import numpy as np

from pydeid.attack.metrics import eer, eer_bootstrap, percentile_ci


def eer_with_ci(scores: np.ndarray, labels: np.ndarray, speakers: list[str], n_boot: int = 1000,
                seed: int = 0, trial_speakers: list[str] | None = None) -> dict:
    """EER (%) of target/non-target scores and its speaker-bootstrap 95 % interval; `speakers` is the enrolled
    speaker of each trial, `trial_speakers` the speaker of its trial utterance (default: the enrolled one, as
    for target trials)."""
    scores, labels = np.asarray(scores, float), np.asarray(labels, bool)
    n_tar, n_non = int(labels.sum()), int((~labels).sum())
    if not n_tar or not n_non:
        return {"eer_pct": None, "ci": None, "n_target": n_tar, "n_nontarget": n_non, "speakers": 0}
    point = 100 * eer(scores[labels], scores[~labels])[0]
    boot = eer_bootstrap(scores, labels, speakers, trial_speakers or speakers, n_boot=n_boot, seed=seed)
    ci = percentile_ci(100 * boot)
    return {"eer_pct": float(point), "ci": [ci[0], ci[1]] if ci else None, "n_target": n_tar, "n_nontarget": n_non,
            "speakers": len(set(speakers) | set(trial_speakers or [])), "bootstrap": int(np.isfinite(boot).sum())}


def wer_with_ci(errors: list[int], words: list[int], speakers: list[str], n_boot: int = 1000,
                seed: int = 0) -> dict:
    """WER (%) = sum errors / sum reference words, with its speaker-bootstrap 95 % interval."""
    from pydeid.asr.score import wer_bootstrap_ci
    e, w = np.asarray(errors, float), np.asarray(words, float)
    if w.sum() == 0:
        return {"wer_pct": None, "ci": None, "words": 0, "utterances": len(errors), "speakers": 0}
    utts = [f"u{i:06d}" for i in range(len(errors))]
    per_utt = {u: {"sub": float(x), "del": 0, "ins": 0, "words": float(n)} for u, x, n in zip(utts, e, w)}
    ci = wer_bootstrap_ci(per_utt, utts, dict(zip(utts, speakers)), n_boot=n_boot, seed=seed)
    return {"wer_pct": float(100 * e.sum() / w.sum()), "ci": [ci[0], ci[1]] if ci else None,
            "words": int(w.sum()), "utterances": len(errors), "speakers": len(set(speakers))}
