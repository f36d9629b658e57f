"""Is the semi-informed figure of the pretrained (GE2E) attacker an overestimate of privacy because the converted
training data holds few distinct voices (arXiv 2507.22534: an attacker trained on few output voices is
under-trained)? Per method, from a finished run of steps/attack.sh (egs/speechocean762/s5 stage 6 with
--attackers ge2e:...):

- pseudo-voices: the distinct VTLN targets in the attacker's converted training data (its secret voice plan);
- how many training speakers stay apart after conversion: leave-one-out closed-set identification of the 30
  training speakers among themselves from the converted utterances (GE2E cosine), and the G_VD of the converted
  training utterances against the original ones;
- the semi-informed attacker again with a back-end trained on MORE and other voices: the converted training data
  of every method pooled (each method's speaker a class of its own) plus the original training data, scored on the
  same trials (exp/attack/ge2e_<fe>/semi-informed-pooled_<v>/scores).

    python bench/ge2e_collapse_check.py --fe energy --out exp/attack/ge2e_energy/collapse_check.json   (from s5/)
        [--methods "vtln1 vtln2"]   (the methods checked and pooled; default: every method of the run)
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

VS = ("voicemask", "vtln1", "vtln2", "vtln3", "mcadams", "vtln3_ufvphanycmnw", "frame_selectseg")


def pseudo_voices(plan_path: Path) -> dict:
    if not plan_path.is_file():
        return {"targets": None}
    plan = json.loads(plan_path.read_text())
    # VTLN's one target per utterance, or a target-based method's list of pool voices (pooled pseudo-speakers)
    targets = {u: p.get("target") or (tuple(p["targets"]) if p.get("targets") else None)
               for u, p in plan.get("utt", {}).items() if isinstance(p, dict)}
    targets = {u: t for u, t in targets.items() if t}
    if not targets:
        return {"targets": None, "method": plan.get("method")}
    return {"targets": len(set(targets.values())), "utterances": len(targets), "method": plan.get("method")}


def loo_identification(x: np.ndarray, spk: list[str]) -> float:
    """Leave-one-out nearest speaker mean (cosine) among the training speakers: % of utterances right."""
    x = x / np.linalg.norm(x, axis=1, keepdims=True)
    lab = np.array(spk)
    speakers = sorted(set(spk))
    sums = np.stack([x[lab == s].sum(0) for s in speakers])
    counts = np.array([(lab == s).sum() for s in speakers])
    right = 0
    for i in range(len(x)):
        k = speakers.index(lab[i])
        means = sums.copy()
        means[k] -= x[i]
        n = counts.astype(float).copy()
        n[k] -= 1
        means /= np.clip(n, 1, None)[:, None]
        means /= np.clip(np.linalg.norm(means, axis=1, keepdims=True), 1e-10, None)
        right += int(np.argmax(means @ x[i]) == k)
    return 100 * right / len(x)


def main() -> None:
    from pydeid.attack import metrics as M
    from pydeid.attack.embeddings import read_vectors, write_vectors
    from pydeid.attack.evaluate import evaluate
    from pydeid.io import read_kaldi_map, write_kaldi_map

    ap = argparse.ArgumentParser()
    ap.add_argument("--fe", default="energy")
    ap.add_argument("--runs", default=".", help="the run whose exp/voice holds the voice plans")
    ap.add_argument("--out", required=True)
    ap.add_argument("--methods", default=" ".join(VS))
    a = ap.parse_args()
    adir = Path(f"exp/attack/ge2e_{a.fe}")
    orig_dir = adir / "xvector_original" / "xvectors_train_xv"
    orig = read_vectors(orig_dir / "xvector.scp")
    orig_u2s = read_kaldi_map(orig_dir / "utt2spk")
    out = {"front_end": a.fe, "methods": {}}
    conv = {}
    for v in a.methods.split():
        d = adir / f"semi-informed_{v}" / "xvectors_train"
        if not (d / "xvector.scp").is_file() or not (d.parent / "scores" / "metrics.json").is_file():
            continue
        conv[v] = (read_vectors(d / "xvector.scp"), read_kaldi_map(d / "utt2spk"))
    ou = sorted(orig)
    ox, ospk = np.stack([orig[u] for u in ou]), [orig_u2s[u] for u in ou]
    out["original_train"] = {"loo_id_pct": round(loo_identification(ox, ospk), 2)}
    for v, (vec, u2s) in conv.items():
        us = sorted(vec)
        x, spk = np.stack([vec[u] for u in us]), [u2s[u] for u in us]
        sim = lambda z: z @ z.T / np.outer(np.linalg.norm(z, axis=1), np.linalg.norm(z, axis=1))  # noqa: E731
        g = M.voice_distinctiveness_gain(M.voice_similarity_matrix(sim(ox), ospk),
                                         M.voice_similarity_matrix(sim(x), spk))
        out["methods"][v] = {"pseudo_voices": pseudo_voices(Path(a.runs) / "exp/voice" / f"train_xv_{v}_a" /
                                                            "secrets" / "voice_plan.json"),
                             "loo_id_pct": round(loo_identification(x, spk), 2), "train_gvd_db": round(g, 3)}
    # the pooled back-end: every method's converted training speakers as classes of their own + the originals
    pool = Path(adir) / "pooled_train"
    vecs, u2s = {f"orig-{u}": orig[u] for u in orig}, {f"orig-{u}": f"orig-{orig_u2s[u]}" for u in orig}
    for v, (vec, m) in conv.items():
        vecs.update({f"{v}-{u}": vec[u] for u in vec})
        u2s.update({f"{v}-{u}": f"{v}-{m[u]}" for u in vec})
    write_vectors(pool / "xvector.ark", pool / "xvector.scp", vecs)
    write_kaldi_map(pool / "utt2spk", u2s)
    out["pooled_backend"] = {"utterances": len(vecs), "classes": len(set(u2s.values()))}
    for v in conv:
        d = adir / f"semi-informed_{v}"
        m = json.loads((d / "scores" / "metrics.json").read_text())
        info = m["info"]
        res = evaluate(pool, info["enroll_data"], d / "xvectors_enroll", info["trial_data"], d / "xvectors_trial",
                       info["trials"], adir / f"semi-informed-pooled_{v}" / "scores", backends=("lda", "plda"),
                       info={"scenario": "semi-informed", "method": v, "strategy": "pooled back-end"},
                       lda_dim=100, plda_rank=100, plots=False)
        out["methods"][v]["semi_informed"] = {
            b: {"eer_pct": round(p["pooled"]["eer_pct"], 2), "ci": p["pooled"].get("eer_ci95_pct")}
            for b, p in m["backends"].items()}
        out["methods"][v]["semi_informed_pooled_backend"] = {
            b: {"eer_pct": round(p["pooled"]["eer_pct"], 2), "ci": p["pooled"].get("eer_ci95_pct")}
            for b, p in res["backends"].items()}
        print(v, json.dumps(out["methods"][v]), flush=True)
    Path(a.out).write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
