"""Attacker benchmark: train on mini_train, embed, score the shipped trials on original speech.

Reports wall-clock training time (and CPU time), extraction real-time factor, EER / minDCF / ACC per subset,
into a Markdown table. The corpus is built (or reused) with pydeid.corpora.mini.build_corpus.
"""

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path


def run(*args):
    t0 = time.time()
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "pydeid", "--log-level", "WARNING", *map(str, args)], check=True)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.time() - t0, (r1.ru_utime + r1.ru_stime) - (r0.ru_utime + r0.ru_stime)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", required=True)
    ap.add_argument("--size", default="default")
    ap.add_argument("--config", default="conf/xvector/mini.yaml")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    from pydeid.corpora.mini import build_corpus
    from pydeid.report import markdown_table
    work = Path(a.work)
    corpus = build_corpus(work / f"mini_{a.size}", seed=0, size=a.size)
    model = work / f"model_seed{a.seed}"
    rows = []
    if not (model / "embedding_model.ckpt").exists():
        wall, cpu = run("train-xvector", "--config", a.config, "--seed", a.seed, "--num-threads", a.threads,
                        corpus / "mini_train", model)
        rows.append(["train-xvector", f"{wall:.1f}", f"{cpu:.1f}", ""])
    summ = json.loads((model / "train_summary.json").read_text())
    for name in ("mini_train", "mini_test_enroll", "mini_test_trial"):
        out = work / f"xv_seed{a.seed}_{name}"
        wall, cpu = run("extract-xvectors", "--job", 1, "--num-threads", 1, model, corpus / name, out)
        run("extract-xvectors", "--finalize", 1, "-", corpus / name, out)
        speed = json.loads((out / "log" / "xvector.1.speed.json").read_text()) \
            if (out / "log" / "xvector.1.speed.json").exists() else {}
        rows.append([f"extract {name}", f"{wall:.1f}", f"{cpu:.1f}",
                     f"{speed.get('audio_seconds', '-')} s audio, RTF {speed.get('rtf', '-')} (1 thread)"])
    scores = work / f"scores_seed{a.seed}"
    wall, cpu = run("score-trials", "--scenario", "original", work / f"xv_seed{a.seed}_mini_train",
                    corpus / "mini_test_enroll", work / f"xv_seed{a.seed}_mini_test_enroll",
                    corpus / "mini_test_trial", work / f"xv_seed{a.seed}_mini_test_trial", scores)
    rows.append(["score-trials (cosine + PLDA, plots)", f"{wall:.1f}", f"{cpu:.1f}", ""])
    m = json.loads((scores / "metrics.json").read_text())
    metric_rows = []
    for b, per in m["backends"].items():
        for sub in ("pooled", "male", "female"):
            v = per[sub]
            metric_rows.append([b, sub, v.get("eer_pct"), v.get("min_dcf_p0.01"), v.get("min_dcf_p0.05"),
                                v.get("linkability"), v.get("acc_pct"), f"{v['n_target']}/{v['n_nontarget']}"])
    text = [f"# x-vector attacker on mini ({a.size}), {a.config}, seed {a.seed}", "",
            f"Training: {summ['speakers']} speakers, {summ['utterances']} utterances "
            f"({summ['audio_hours']} h), {summ['epochs']} epochs, {summ['steps']} steps, "
            f"{summ['train_seconds']} s in-process, final train-acc {summ['history'][-1]['train_acc']:.3f}. "
            f"Machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at the end.", "",
            markdown_table(["step", "wall s", "CPU s", "notes"], rows), "",
            markdown_table(["back-end", "subset", "EER %", "minDCF 0.01", "minDCF 0.05", "linkability", "ACC %",
                            "tar/non"], metric_rows)]
    Path(a.out).write_text("\n".join(text) + "\n")
    print("\n".join(text))


if __name__ == "__main__":
    main()
