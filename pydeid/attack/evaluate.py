"""Score a trial list with each back-end and compute every privacy metric, per subset (pooled, male, female).

Output directory: scores_<backend> (Kaldi style `<enroll-speaker> <utterance> <score>`, one per trial),
metrics.json (all figures plus the run's labels: scenario, method, strategy, data dirs), det_<backend>.png,
linkability_<backend>.png, and results.txt (one line per figure, grep-able like Kaldi's results).
"""

from __future__ import annotations

import json
import logging
import os
import time
from pathlib import Path

import numpy as np

from pydeid.io import DataDir, FormatError, atomic_write_text, read_kaldi_map

from . import metrics as M
from .embeddings import read_vectors
from .scoring import Backend
from .trials import check_trials, read_trials, trial_subset

log = logging.getLogger(__name__)
SUBSETS = ("pooled", "male", "female")
P_TARGETS = (0.01, 0.05)  # minDCF operating points, C_miss = C_fa = 1
MIN_MATED_FOR_LINKABILITY = 20
N_BOOT = 1000            # speaker-bootstrap resamples behind the 95 % EER interval (metrics.BOOTSTRAP_METHOD)


def _matrix(vectors: dict, keys: list[str], where: Path) -> np.ndarray:
    missing = [k for k in keys if k not in vectors]
    if missing:
        raise FormatError(where, None, f"no embedding for {len(missing)} utterance(s), e.g. '{missing[0]}': "
                          "re-run steps/extract_xvectors.sh on this data dir")
    dims = {len(vectors[k]) for k in keys}
    if len(dims) > 1:
        raise FormatError(where, None, f"embeddings of different dimensions {sorted(dims)}")
    x = np.stack([vectors[k] for k in keys])
    bad = np.flatnonzero(~np.isfinite(x).all(axis=1))
    if len(bad):
        raise FormatError(where, None, f"{len(bad)} embedding(s) hold NaN or infinity, e.g. '{keys[bad[0]]}'")
    return x


def voice_distinctiveness(backend, name: str, orig: tuple, test_x: np.ndarray, test_utts: list[str],
                          test_spk: list[str]) -> dict:
    """G_VD (metrics.voice_distinctiveness_gain) of the converted trial utterances against the original ones,
    both scored utterance against utterance by this attacker and back-end, over the speakers of both sets."""
    ox, outts, ospk = orig
    common = sorted(set(ospk) & set(test_spk))
    if len(common) < 2:
        return {"gvd_db": None}
    m_oo = M.voice_similarity_matrix(backend.score(name, ox, outts, outts, ox), ospk, common)
    m_pp = M.voice_similarity_matrix(backend.score(name, test_x, test_utts, test_utts, test_x), test_spk, common)
    g = M.voice_distinctiveness_gain(m_oo, m_pp)
    return {"gvd_db": None if not np.isfinite(g) else g, "d_diag_oo": M.diagonal_dominance(m_oo),
            "d_diag_pp": M.diagonal_dominance(m_pp), "gvd_speakers": len(common)}


def backend_dim(vectors: dict, keys: list[str]) -> int:
    return len(vectors[keys[0]])


def subset_metrics(tar: np.ndarray, non: np.ndarray) -> dict:
    out = {"n_target": int(len(tar)), "n_nontarget": int(len(non))}
    if len(tar) == 0 or len(non) == 0:
        return out
    e, thr = M.eer(tar, non)
    out["eer_pct"] = 100 * e
    out["eer_threshold"] = thr
    for p in P_TARGETS:
        out[f"min_dcf_p{p:g}"] = M.min_dcf(tar, non, p_target=p)[0]
    # D_sys uses min(#mated / 10, 100) histogram bins: with fewer than 20 mated scores there is a single bin and
    # D_sys is 0 whatever the scores, so it is reported as undefined rather than as "unlinkable"
    out["linkability"] = M.linkability(tar, non)[0] if len(tar) >= MIN_MATED_FOR_LINKABILITY else None
    return out


def evaluate(train_xvec: str | os.PathLike, enroll_data: str | os.PathLike, enroll_xvec: str | os.PathLike,
             trial_data: str | os.PathLike, trial_xvec: str | os.PathLike, trials_path: str | os.PathLike,
             out_dir: str | os.PathLike, backends=("cosine", "plda"), info: dict | None = None,
             lda_dim: int = 150, plda_rank: int = 100, orig_trial: str | os.PathLike | None = None,
             pitch_max_utts: int = 200, plots: bool = True, pitch_cache: str | os.PathLike | None = None,
             n_boot: int = N_BOOT, boot_seed: int = 0,
             orig_trial_xvec: str | os.PathLike | None = None, pitch: bool = True) -> dict:
    t0 = time.time()
    out_dir = Path(out_dir)
    train_xvec, enroll_xvec, trial_xvec = Path(train_xvec), Path(enroll_xvec), Path(trial_xvec)
    enroll, trial = DataDir.read(enroll_data), DataDir.read(trial_data)
    trials = read_trials(trials_path)
    import hashlib
    boot_key = hashlib.sha1(f"{sorted(trials)}|{n_boot}|{boot_seed}".encode()).hexdigest()[:16]
    check_trials(trials, enroll, trial, trials_path)

    train_utt2spk = read_kaldi_map(train_xvec / "utt2spk")
    train_vecs = read_vectors(train_xvec / "xvector.scp")
    train_utts = [u for u in train_utt2spk if u in train_vecs]
    if len(set(train_utt2spk[u] for u in train_utts)) < 2:
        raise FormatError(train_xvec / "utt2spk", None, "the back-end needs training embeddings of >= 2 speakers")
    backend = Backend(_matrix(train_vecs, train_utts, train_xvec / "xvector.scp"),
                      [train_utt2spk[u] for u in train_utts], lda_dim=lda_dim, plda_rank=plda_rank)

    speakers = enroll.speakers
    enroll_utts = enroll.utts
    enroll_x = _matrix(read_vectors(enroll_xvec / "xvector.scp"), enroll_utts, enroll_xvec / "xvector.scp")
    enroll_spk = [enroll.utt2spk[u] for u in enroll_utts]
    test_utts = trial.utts
    test_x = _matrix(read_vectors(trial_xvec / "xvector.scp"), test_utts, trial_xvec / "xvector.scp")

    if not enroll_x.shape[1] == test_x.shape[1] == backend_dim(train_vecs, train_utts):
        raise FormatError(trial_xvec / "xvector.scp", None, f"embedding dimension {test_x.shape[1]} differs from the "
                          f"enrollment ({enroll_x.shape[1]}) or training ones: embeddings of another model?")
    spk_index = {s: i for i, s in enumerate(speakers)}
    utt_index = {u: j for j, u in enumerate(test_utts)}
    labels = np.array([t[2] == "target" for t in trials])
    subset_of = np.array([trial_subset(enroll, trial, s, u) or "" for s, u, _ in trials])
    masks = {"pooled": np.ones(len(trials), bool), "male": subset_of == "m", "female": subset_of == "f"}
    utt_gender = np.array([trial.gender(u) or "" for u in test_utts])
    utt_masks = {"pooled": np.ones(len(test_utts), bool), "male": utt_gender == "m", "female": utt_gender == "f"}

    results: dict = {"info": dict(info or {}), "backends": {}}
    results["info"].update({"enroll_data": str(enroll_data), "trial_data": str(trial_data),
                            "train_xvectors": str(train_xvec), "trials": str(trials_path),
                            "enroll_speakers": len(speakers), "trial_utterances": len(test_utts),
                            "train_speakers": len(set(train_utt2spk[u] for u in train_utts)),
                            "min_dcf": "normalised; C_miss = C_fa = 1; P_target as in the key",
                            "eer_ci": {"method": M.BOOTSTRAP_METHOD, "resamples": n_boot, "seed": boot_seed,
                                       "level": 0.95, "key": boot_key}})
    lines = []
    trial_spk = np.array([trial.utt2spk[u] for _, u, _ in trials])
    enroll_of = np.array([s for s, _, _ in trials])
    rows = np.array([spk_index[s] for s, _, _ in trials])
    cols = np.array([utt_index[u] for _, u, _ in trials])
    orig = None
    if orig_trial is not None and orig_trial_xvec is not None:   # G_VD: the same attacker on the original trials
        o = DataDir.read(orig_trial)
        orig = (_matrix(read_vectors(Path(orig_trial_xvec) / "xvector.scp"), o.utts,
                        Path(orig_trial_xvec) / "xvector.scp"), o.utts, [o.utt2spk[u] for u in o.utts])
    for name in backends:
        mat = backend.score(name, enroll_x, enroll_spk, speakers, test_x)
        scores = mat[rows, cols]
        atomic_write_text(out_dir / f"scores_{name}",
                          "".join(f"{s} {u} {v:.6f}\n" for (s, u, _), v in zip(trials, scores)))
        per = {}
        curves = {}
        for sub in SUBSETS:
            m = masks[sub]
            tar, non = scores[m & labels], scores[m & ~labels]
            per[sub] = subset_metrics(tar, non)
            if n_boot and len(tar) and len(non):
                boot = 100 * M.eer_bootstrap(scores[m], labels[m], enroll_of[m], trial_spk[m], n_boot, boot_seed)
                per[sub]["eer_ci95_pct"] = M.percentile_ci(boot)
                per[sub]["n_speakers"] = len(set(enroll_of[m]) | set(trial_spk[m]))
                # the resamples (same speakers + seed = same resamples): paired differences between attacks
                per[sub]["eer_boot_pct"] = [None if not np.isfinite(v) else round(float(v), 3) for v in boot]
            keep = utt_masks[sub]
            acc, n_acc = M.closed_set_accuracy(mat[:, keep], speakers, [u for u, k in zip(test_utts, keep) if k],
                                               trial.utt2spk)
            per[sub]["acc_pct"] = None if acc is None else 100 * acc
            per[sub]["n_acc"] = n_acc
            if len(tar) and len(non):
                curves[f"{sub} (EER {per[sub]['eer_pct']:.1f}%)"] = M.det_points(tar, non)
            for k, v in per[sub].items():
                if v is not None and not k.startswith("n_") and not k.startswith("eer_boot") \
                        and not k.startswith("eer_ci"):
                    lines.append(f"{name} {sub} {k} {v:.4f}")
            if per[sub].get("eer_ci95_pct"):
                lo, hi = per[sub]["eer_ci95_pct"]
                lines.append(f"{name} {sub} eer_ci95_pct {lo:.4f} {hi:.4f}")
        if orig is not None:
            per["pooled"].update(voice_distinctiveness(backend, name, orig, test_x, test_utts,
                                                       [trial.utt2spk[u] for u in test_utts]))
            if per["pooled"]["gvd_db"] is not None:
                lines.append(f"{name} pooled gvd_db {per['pooled']['gvd_db']:.4f}")
        results["backends"][name] = per
        if plots and curves:
            from pydeid.report.plots import det_plot, linkability_plot
            title = " ".join(str(results["info"].get(k, "")) for k in ("scenario", "method", "strategy")).strip()
            det_plot(curves, out_dir / f"det_{name}.png", title=f"{title} [{name}]".strip())
            tar, non = scores[labels], scores[~labels]
            if len(tar) and len(non):
                dsys, d, centers, _ = M.linkability(tar, non)
                linkability_plot(tar, non, dsys, d, centers, out_dir / f"linkability_{name}.png",
                                 title=f"{title} [{name}]".strip())
    if orig_trial is not None and pitch:   # (pitch=False: rho_F0 is the conversion's, measured by another attack)
        from .pitch import cached_pitch_correlation, pitch_correlation
        pc = pitch_correlation(orig_trial, trial_data, max_utts=pitch_max_utts) if pitch_cache is None else \
            cached_pitch_correlation(orig_trial, trial_data, pitch_cache, max_utts=pitch_max_utts)
        results["pitch"] = {k: v for k, v in pc.items() if k != "per_utt"}
        results["pitch"]["orig_trial"] = str(orig_trial)
        if pc["pitch_correlation"] is not None:
            lines.append(f"pitch_correlation {pc['pitch_correlation']:.4f}")
    results["info"]["seconds"] = round(time.time() - t0, 2)
    atomic_write_text(out_dir / "metrics.json", json.dumps(results, indent=1, sort_keys=True) + "\n")
    atomic_write_text(out_dir / "results.txt", "".join(line + "\n" for line in lines))
    return results
