"""The speechocean762 attack grid (run.sh stage 6) for the pretrained GE2E attacker in ONE process: the same
model dirs, embedding caches and score dirs as `steps/attack.sh --xvector-config conf/xvector/ge2e.yaml --backends
cosine,lda,plda` per attack (exp/attack/ge2e_<fe>/<scenario>_<v>/scores/metrics.json; run.sh stage 6 then skips
them), without a Python start-up per attack (on a loaded shared machine most of an attack's CPU). Attacks whose
data dirs are not there yet are skipped; a rerun resumes.

    python ../../../bench/ge2e_grid.py --fe energy       (from egs/speechocean762/s5)
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

VCS = ("voicemask:-", "vtln:1", "vtln:2", "vtln:3", "mcadams:-", "vtln:3_ufvphanycmnw")


def ready(d: str) -> bool:
    p = Path(d)
    try:
        return all((p / f).is_file() for f in ("utt2spk", "wav.scp")) and \
            len((p / "wav.scp").read_text().splitlines()) == len((p / "utt2spk").read_text().splitlines())
    except OSError:
        return False


def main() -> None:
    import torch

    from pydeid.attack.config import load_config
    from pydeid.attack.embeddings import extraction_done, finalize_xvector_dir
    from pydeid.attack.evaluate import evaluate
    from pydeid.attack.extract import extract_data_dir
    from pydeid.attack.train import train_attacker
    from pydeid.io import DataDir, atomic_write_text

    ap = argparse.ArgumentParser()
    ap.add_argument("--fe", default="energy")
    ap.add_argument("--config", default="conf/xvector/ge2e.yaml")
    ap.add_argument("--only", default="", help="comma-separated attack names (default: all)")
    a = ap.parse_args()
    torch.set_num_threads(1)
    adir = Path(f"exp/attack/ge2e_{a.fe}")
    cfg = load_config(a.config, {"vad": a.fe})

    def model(d: Path, train: str) -> Path:
        if not (d / "embedding_model.ckpt").is_file():
            s = train_attacker(train, d, cfg, seed=0 if d.name == "xvector_original" else 1)
            s["data"] = train
            atomic_write_text(d / "train_summary.json", json.dumps(s, indent=1) + "\n")
        return d

    def embed(m: Path, data: str, out: Path) -> Path:
        done, _, _ = extraction_done(m, DataDir.read(data), out / "xvector.scp")
        if not done or not (out / "utt2spk").is_file():
            t0 = time.process_time()
            extract_data_dir(m, data, out / "xvector.ark", out / "xvector.scp", progress=False)
            finalize_xvector_dir(data, out)
            print(f"  embedded {data} -> {out} ({time.process_time() - t0:.1f} CPU-s)", flush=True)
        return out

    attacks = [("original", "original", "none", "-", "data/train_xv", "data/test_enroll", "data/test_trial", True)]
    for sc in ("semi-informed", "lazy-informed", "ignorant"):   # semi-informed first: the ranking's scenario
        for vc in VCS:
            m, st = vc.split(":")
            v = m if st == "-" else f"{m}{st}"
            train = f"data/train_xv_{v}_a" if sc == "semi-informed" else "data/train_xv"
            enroll = "data/test_enroll" if sc == "ignorant" else f"data/test_enroll_{v}_a"
            attacks.append((sc, f"{sc}_{v}", m, st, train, enroll, f"data/test_trial_{v}", sc != "semi-informed"))
    only = set(filter(None, a.only.split(",")))
    orig = model(adir / "xvector_original", "data/train_xv")
    for sc, name, m, st, train, enroll, trial, shared in attacks:
        d = adir / name
        if (only and name not in only) or (d / "scores" / "metrics.json").is_file():
            continue
        if not all(ready(x) for x in (train, enroll, trial)):
            print(f"skip {name}: data not ready", flush=True)
            continue
        t0, c0 = time.time(), time.process_time()
        print(f"{time.strftime('%H:%M:%S')} {d}", flush=True)
        if shared:
            mdir = orig
            train_xv, enroll_xv = mdir / f"xvectors_{Path(train).name}", mdir / f"xvectors_{Path(enroll).name}"
        else:
            mdir = model(d / "xvector_nnet", train)
            train_xv, enroll_xv = d / "xvectors_train", d / "xvectors_enroll"
        embed(mdir, train, train_xv)
        embed(mdir, enroll, enroll_xv)
        embed(mdir, trial, d / "xvectors_trial")
        opts = {}
        if sc != "original":
            orig_xv = d / "xvectors_orig_trial" if not shared else mdir / "xvectors_test_trial"
            embed(mdir, "data/test_trial", orig_xv)
            # rho_F0 belongs to the conversion, not to the attacker: left to the x-vector attacks (CPU)
            opts = {"orig_trial": "data/test_trial", "orig_trial_xvec": orig_xv, "pitch": False}
        res = evaluate(train_xv, enroll, enroll_xv, trial, d / "xvectors_trial", f"{trial}/trials", d / "scores",
                       backends=("cosine", "lda", "plda"),
                       info={"scenario": sc, "method": m, "strategy": st, "how": "bench/ge2e_grid.py"}, **opts)
        cost = {"cpu_seconds": round(time.process_time() - c0, 1), "wall_seconds": round(time.time() - t0, 1)}
        atomic_write_text(d / "cost.json", json.dumps(cost) + "\n")
        print("  " + "; ".join(f"{b} {p['pooled']['eer_pct']:.2f} {p['pooled'].get('eer_ci95_pct')} "
                               f"gvd {p['pooled'].get('gvd_db')}" for b, p in res["backends"].items())
              + f" ({cost['cpu_seconds']} CPU-s)", flush=True)


if __name__ == "__main__":
    main()
