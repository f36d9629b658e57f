"""Verification and identification metrics on target (mated) and non-target (non-mated) scores.

EER and minDCF follow speechbrain.utils.metric_stats.EER / minDCF exactly (same candidate thresholds: every
distinct score and every midpoint between consecutive ones; a trial is accepted when score > threshold), but
sorted and vectorised: speechbrain's EER loops in Python over thresholds and its minDCF builds a
thresholds x scores matrix, both too slow or too big for the ~10^5 trials of a LibriSpeech test set. The tests
check that both agree with speechbrain on random scores and with hand-computed cases.

minDCF is reported normalised (divided by min(C_miss * P_target, C_fa * (1 - P_target)), the NIST SRE and
Kaldi convention, so 1.0 means "no better than always rejecting"); speechbrain returns it unnormalised.

Linkability is the global measure D_sys of Gomez-Barrero et al. (2017) as used by the VoicePrivacy Challenge
2022: histograms of mated and non-mated scores over min(#mated / 10, 100) bins spanning all scores,
local D(s) = 2 * omega*LR / (1 + omega*LR) - 1 where omega*LR > 1 (0 elsewhere; 1 where only mated scores fall),
integrated (trapezoid over bin centres) against the mated score density.
"""

from __future__ import annotations

import numpy as np


def _as_arrays(tar, non) -> tuple[np.ndarray, np.ndarray]:
    tar = np.asarray(tar, dtype=np.float64).reshape(-1)
    non = np.asarray(non, dtype=np.float64).reshape(-1)
    if len(tar) == 0 or len(non) == 0:
        raise ValueError(f"need target and non-target scores (got {len(tar)} and {len(non)})")
    if not (np.isfinite(tar).all() and np.isfinite(non).all()):
        raise ValueError("scores contain NaN or infinity")
    return tar, non


def error_rates(tar, non) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(thresholds, p_miss, p_fa) on speechbrain's candidate thresholds; accept when score > threshold."""
    tar, non = _as_arrays(tar, non)
    uniq = np.unique(np.concatenate([tar, non]))
    thr = np.sort(np.concatenate([uniq, (uniq[:-1] + uniq[1:]) / 2]))
    tar_s, non_s = np.sort(tar), np.sort(non)
    p_miss = np.searchsorted(tar_s, thr, side="right") / len(tar)           # target score <= threshold
    p_fa = (len(non) - np.searchsorted(non_s, thr, side="right")) / len(non)  # non-target score > threshold
    return thr, p_miss, p_fa


def eer(tar, non) -> tuple[float, float]:
    """Equal error rate in [0, 1] and its threshold: at the threshold where |P_fa - P_miss| is smallest
    (the first one in increasing order on ties), EER = (P_fa + P_miss) / 2."""
    thr, p_miss, p_fa = error_rates(tar, non)
    i = int(np.argmin(np.abs(p_fa - p_miss)))
    return float((p_fa[i] + p_miss[i]) / 2), float(thr[i])


def min_dcf(tar, non, p_target: float = 0.01, c_miss: float = 1.0, c_fa: float = 1.0,
            normalized: bool = True) -> tuple[float, float]:
    """Minimum detection cost C = C_miss P_miss P_target + C_fa P_fa (1 - P_target) over thresholds."""
    thr, p_miss, p_fa = error_rates(tar, non)
    c = c_miss * p_miss * p_target + c_fa * p_fa * (1 - p_target)
    i = int(np.argmin(c))
    value = float(c[i])
    if normalized:
        value /= min(c_miss * p_target, c_fa * (1 - p_target))
    return value, float(thr[i])


def det_points(tar, non) -> tuple[np.ndarray, np.ndarray]:
    """(P_fa, P_miss) along all thresholds, plus the accept-all end point: the DET curve."""
    _, p_miss, p_fa = error_rates(tar, non)
    return np.concatenate([[1.0], p_fa]), np.concatenate([[0.0], p_miss])


def linkability(tar, non, omega: float = 1.0, n_bins: int | None = None):
    """Global linkability D_sys in [0, 1] and the local measure: returns (dsys, D, bin_centers, bin_edges)."""
    tar, non = _as_arrays(tar, non)
    if n_bins is None:
        n_bins = min(len(tar) // 10, 100)
    n_bins = max(int(n_bins), 1)
    lo, hi = min(tar.min(), non.min()), max(tar.max(), non.max())
    edges = np.linspace(lo, hi, n_bins + 1)
    centers = (edges[1:] + edges[:-1]) / 2
    y_mated = np.histogram(tar, bins=edges, density=True)[0]
    y_non = np.histogram(non, bins=edges, density=True)[0]
    lr = np.divide(y_mated, y_non, out=np.ones_like(y_mated), where=y_non != 0)
    d = 2 * (omega * lr / (1 + omega * lr)) - 1
    d[omega * lr <= 1] = 0
    d[(y_non == 0) & (y_mated != 0)] = 1
    dsys = float(np.trapezoid(d * y_mated, x=centers))
    return dsys, d, centers, edges


def closed_set_accuracy(score_matrix: np.ndarray, enroll_speakers: list[str], trial_utts: list[str],
                        utt2spk: dict[str, str]) -> tuple[float | None, int]:
    """Speaker identification among the enrolled speakers: a trial utterance is right when its best-scoring
    enrolled speaker is its own. score_matrix is [speakers x utterances]; utterances whose speaker is not
    enrolled are left out. Returns (accuracy or None, number of utterances evaluated)."""
    index = {s: i for i, s in enumerate(enroll_speakers)}
    cols = [j for j, u in enumerate(trial_utts) if utt2spk.get(u) in index]
    if not cols:
        return None, 0
    best = np.argmax(score_matrix[:, cols], axis=0)
    truth = np.array([index[utt2spk[trial_utts[j]]] for j in cols])
    return float(np.mean(best == truth)), len(cols)


BOOTSTRAP_METHOD = ("speaker bootstrap: the speakers of the trial list (enrolled and trial-utterance speakers) "
                    "are resampled with replacement; a trial weighs the product of the multiplicities of its "
                    "enrolled speaker and of its utterance's speaker; percentile interval")


def weighted_eer(scores: np.ndarray, is_target: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """EER in [0, 1] of trials with non-negative weights, one row of `weights` per resample ([B x N] -> [B]):
    the EER of the trial list in which each trial is repeated `weight` times, on the thresholds of `eer`
    (accept when score > threshold; every distinct score is a candidate). NaN where a row has no target or no
    non-target weight."""
    scores = np.asarray(scores, dtype=np.float64)
    order = np.argsort(scores, kind="stable")
    s = scores[order]
    tar = np.asarray(is_target, bool)[order]
    w = np.atleast_2d(np.asarray(weights, dtype=np.float64))[:, order]
    wt, wn = w * tar, w * ~tar
    tot_t, tot_n = wt.sum(1), wn.sum(1)
    # threshold candidates: after the last of each group of equal scores (k scores <= threshold)
    last = np.flatnonzero(np.append(s[1:] != s[:-1], True))
    with np.errstate(invalid="ignore", divide="ignore"):
        p_miss = np.cumsum(wt, 1)[:, last] / tot_t[:, None]
        p_fa = 1.0 - np.cumsum(wn, 1)[:, last] / tot_n[:, None]
        i = np.argmin(np.abs(p_fa - p_miss), axis=1)
        rows = np.arange(len(w))
        out = (p_fa[rows, i] + p_miss[rows, i]) / 2
    out[(tot_t <= 0) | (tot_n <= 0)] = np.nan
    return out


def speaker_bootstrap_weights(enroll_spk, trial_spk, n_boot: int, seed: int = 0) -> np.ndarray:
    """[n_boot x N] trial weights of the speaker bootstrap (BOOTSTRAP_METHOD); seeded, and the same resamples for
    the same speaker set and seed (so two attacks on one trial list are compared pair-wise)."""
    speakers = sorted(set(enroll_spk) | set(trial_spk))
    index = {s: i for i, s in enumerate(speakers)}
    e = np.array([index[s] for s in enroll_spk])
    t = np.array([index[s] for s in trial_spk])
    rng = np.random.default_rng(seed)
    n = len(speakers)
    counts = rng.multinomial(n, np.full(n, 1.0 / n), size=n_boot).astype(np.float64)
    return counts[:, e] * counts[:, t]


def eer_bootstrap(scores, is_target, enroll_spk, trial_spk, n_boot: int = 1000, seed: int = 0,
                  chunk: int = 100) -> np.ndarray:
    """EERs (in [0, 1]) of n_boot speaker-bootstrap resamples (NaN where a resample lacks targets or
    non-targets), computed `chunk` resamples at a time."""
    scores = np.asarray(scores, dtype=np.float64)
    w_all = speaker_bootstrap_weights(enroll_spk, trial_spk, n_boot, seed)
    out = [weighted_eer(scores, is_target, w_all[b:b + chunk]) for b in range(0, n_boot, chunk)]
    return np.concatenate(out) if out else np.zeros(0)


def percentile_ci(samples, level: float = 0.95) -> tuple[float, float] | None:
    x = np.asarray(samples, dtype=np.float64)
    x = x[np.isfinite(x)]
    if len(x) == 0:
        return None
    a = (1 - level) / 2
    return float(np.quantile(x, a)), float(np.quantile(x, 1 - a))


# ---- voice distinctiveness (VoicePrivacy Challenge 2020 evaluation plan, section 3.3; Noé et al. 2020) -------------
# A voice-similarity matrix M over N speakers holds M(i, j) = sigmoid(mean of the scores of every utterance pair
# (one of speaker i, one of speaker j)), an utterance never paired with itself. Its diagonal dominance
# D_diag(M) = |mean of the diagonal - mean of the off-diagonal entries| says how distinguishable the voices are;
# the gain of voice distinctiveness G_VD = 10 log10(D_diag(M_pp) / D_diag(M_oo)) compares protected (converted)
# speech with original speech: 0 dB = as distinguishable as before, negative = less (a loss of distinctiveness,
# what a conversion mapping many speakers to few pseudo-voices shows), -inf = no speaker distinguishable.


def voice_similarity_matrix(scores: np.ndarray, utt_spk: list[str], speakers: list[str] | None = None) -> np.ndarray:
    """[N x N] matrix of one utterance set scored against itself (scores: [U x U], utt_spk: the U speakers);
    the diagonal of `scores` (an utterance with itself) is left out."""
    scores = np.asarray(scores, dtype=np.float64)
    spk = np.asarray(utt_spk)
    if scores.shape != (len(spk), len(spk)):
        raise ValueError(f"scores {scores.shape} do not match {len(spk)} utterances")
    speakers = sorted(set(spk)) if speakers is None else list(speakers)
    idx = [np.flatnonzero(spk == s) for s in speakers]
    m = np.full((len(speakers), len(speakers)), np.nan)
    for i, a in enumerate(idx):
        for j, b in enumerate(idx):
            block = scores[np.ix_(a, b)]
            if i == j:
                block = block[~np.eye(len(a), dtype=bool)]
            if block.size:
                m[i, j] = 1.0 / (1.0 + np.exp(-np.mean(block)))
    return m


def diagonal_dominance(m: np.ndarray) -> float:
    m = np.asarray(m, dtype=np.float64)
    off = ~np.eye(len(m), dtype=bool)
    return float(abs(np.nanmean(np.diag(m)) - np.nanmean(m[off])))


def voice_distinctiveness_gain(m_oo: np.ndarray, m_pp: np.ndarray) -> float:
    """G_VD in dB (see above)."""
    d_oo, d_pp = diagonal_dominance(m_oo), diagonal_dominance(m_pp)
    if d_oo <= 0:
        raise ValueError("the original voices are not distinguishable (D_diag(M_oo) = 0): G_VD is undefined")
    return float("-inf") if d_pp == 0 else float(10 * np.log10(d_pp / d_oo))
