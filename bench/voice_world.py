"""What the WORLD F0 estimator (dio+stonemask vs harvest) and frame period cost in quality and speed.

Real speech has no ground-truth F0, so the F0 figures use resynthesised references: a real VCTK utterance is
analysed with a reference estimator R, resynthesised by WORLD (its F0 and voicing are then known exactly), and every
estimator E is run on that signal. Both R = dio and R = harvest are used, so neither estimator is favoured by the
reference. Figures: GPE (voiced-in-both frames off by > 20 %), VDE (frames with a wrong voicing decision), fine
error (std of the error in cents on the other frames). Copy-synthesis distortion: log-spectral distance (dB) between
the original and its analysis-synthesis with E (frames within 40 dB of the loudest). Speed: analysis CPU time / audio
duration on one core.

Usage: python bench/voice_world.py [--per-speaker 6] [--out bench/results/voice_world.json]
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import json  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import soundfile as sf  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
SR = 16000


def stft_db(x):
    fr = np.lib.stride_tricks.sliding_window_view(np.asarray(x, np.float64), 512)[::160] * np.hanning(512)
    return 10 * np.log10(np.abs(np.fft.rfft(fr, axis=1)) ** 2 + 1e-12)


def lsd(x, y):
    X, Y = stft_db(x), stft_db(y)
    e = X.mean(axis=1)
    keep = e > e.max() - 40
    return float(np.sqrt(((X[keep] - Y[keep]) ** 2).mean(axis=1)).mean())


def f0_errors(ref, est):
    n = min(len(ref), len(est))
    ref, est = ref[:n], est[:n]
    rv, ev = ref > 0, est > 0
    both = rv & ev
    rel = np.abs(est[both] - ref[both]) / ref[both]
    gross = rel > 0.2
    cents = 1200 * np.log2(est[both][~gross] / ref[both][~gross])
    return {"gpe": float(gross.mean()) if both.any() else 0.0, "vde": float((rv != ev).mean()),
            "fine_cents": float(cents.std()) if len(cents) else 0.0, "frames": int(n)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vctk", default=str(REPO.parent / "shared" / "data" / "vctk_subset"))
    ap.add_argument("--per-speaker", type=int, default=6)
    ap.add_argument("--out", default=str(REPO / "bench" / "results" / "voice_world.json"))
    args = ap.parse_args()
    from pydeid.voice.world import WorldConfig, analyze, synthesize

    wavs = []
    for s in ("p225", "p226", "p227", "p228"):
        files = sorted((Path(args.vctk) / "wav" / s).glob("*.flac"))[:args.per_speaker]
        wavs += [sf.read(f, dtype="float32")[0] for f in files]
    dur = sum(len(w) for w in wavs) / SR
    configs = {f"{m}/{fp:g}ms": WorldConfig(f0_method=m, frame_period=fp) for m in ("dio", "harvest")
               for fp in (5.0, 10.0)}
    res = {"utterances": len(wavs), "audio_seconds": round(dur, 1), "load_avg_1min": os.getloadavg()[0],
           "estimators": {}}
    refs = {r: [synthesize(analyze(w, SR, configs[f"{r}/5ms"])) for w in wavs] for r in ("dio", "harvest")}
    ref_f0 = {r: [analyze(w, SR, configs[f"{r}/5ms"]).f0 for w in wavs] for r in ("dio", "harvest")}
    for name, cfg in configs.items():
        step = int(round(cfg.frame_period / 5.0))
        out = {}
        cpu = 0.0
        dists = []
        for i, w in enumerate(wavs):
            t = time.process_time()
            feats = analyze(w, SR, cfg)
            cpu += time.process_time() - t
            dists.append(lsd(w, synthesize(feats)))
        out["analysis_rtf_cpu"] = round(cpu / dur, 4)
        out["copy_synthesis_lsd_db"] = round(float(np.mean(dists)), 3)
        for r in ("dio", "harvest"):
            errs = []
            for i in range(len(wavs)):
                # the reference signal was synthesised from ref_f0 (5 ms); compare on the estimator's grid
                est = analyze(refs[r][i], SR, cfg).f0
                errs.append(f0_errors(ref_f0[r][i][::step], est))
            n = sum(e["frames"] for e in errs)
            out[f"vs_{r}_ref"] = {k: round(sum(e[k] * e["frames"] for e in errs) / n, 4)
                                  for k in ("gpe", "vde", "fine_cents")}
        res["estimators"][name] = out
        print(name, json.dumps(out), flush=True)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(res, indent=1) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
