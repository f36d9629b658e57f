"""Real-time factor of each voice method on one core (OMP_NUM_THREADS=1), per utterance, on real VCTK voices.

RTF = processing time / audio duration, measured both as process CPU time (robust to other jobs sharing the
machine) and wall-clock time. VTLN is reported for transform() alone and with the per-speaker fit amortised over
the speaker's converted utterances (fit on the same utterances, as transform-voice does with up to 30 per speaker).

Usage: python bench/voice_rtf.py [--vctk ../shared/data/vctk_subset] [--per-speaker 12] [--out bench/results/voice_rtf.json]
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import argparse  # noqa: E402
import json  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import soundfile as sf  # noqa: E402

REPO = Path(__file__).resolve().parents[1]


class Timer:
    def __init__(self):
        self.cpu = self.wall = 0.0

    def __enter__(self):
        self._c, self._w = time.process_time(), time.perf_counter()
        return self

    def __exit__(self, *exc):
        self.cpu += time.process_time() - self._c
        self.wall += time.perf_counter() - self._w


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vctk", default=str(REPO.parent / "shared" / "data" / "vctk_subset"))
    ap.add_argument("--per-speaker", type=int, default=12)
    ap.add_argument("--out", default=str(REPO / "bench" / "results" / "voice_rtf.json"))
    args = ap.parse_args()

    from pydeid.voice import (McAdamsTransformer, VoiceMaskTransformer, VtlnTransformer, WorldConfig, build_mcadams,
                              build_voicemask, build_vtln)
    from pydeid.voice.common import rng_for
    from pydeid.voice.voicemask import draw_voicemask

    sr = 16000
    voices = {s: [sf.read(f, dtype="float32")[0] for f in sorted((Path(args.vctk) / "wav" / s).glob("*.flac"))]
              for s in ("p225", "p226", "p227", "p228")}
    sources = {s: voices[s][:args.per_speaker] for s in ("p226", "p227")}
    dur = sum(len(w) for ws in sources.values() for w in ws) / sr
    n_utts = sum(len(ws) for ws in sources.values())
    results = {"audio_seconds": round(dur, 2), "utterances": n_utts, "load_avg_1min": os.getloadavg()[0],
               "omp_threads": os.environ["OMP_NUM_THREADS"], "methods": {}}

    def record(name, t, extra=None):
        results["methods"][name] = {"rtf_cpu": round(t.cpu / dur, 4), "rtf_wall": round(t.wall / dur, 4),
                                    **(extra or {})}
        print(f"{name:28s} RTF cpu {t.cpu / dur:.4f}  wall {t.wall / dur:.4f}", flush=True)

    for fp in (5.0, 10.0):
        world = WorldConfig(frame_period=fp)
        tr = VoiceMaskTransformer(build_voicemask(), world)
        t = Timer()
        for ws in sources.values():
            for i, w in enumerate(ws):
                with t:
                    tr.transform(w, sr, draw=draw_voicemask(tr.params, rng_for(0, str(i))))
        record(f"voicemask (dio, {fp:g} ms)", t)

    tr = McAdamsTransformer(build_mcadams())
    t = Timer()
    for ws in sources.values():
        for w in ws:
            with t:
                tr.transform(w, sr)
    record("mcadams (alpha 0.8)", t)

    for fp in (5.0, 10.0):
        world = WorldConfig(frame_period=fp)
        targets = build_vtln({s: voices[s][:10] for s in ("p225", "p228")}, k=8, world=world)
        t_fit, t_tr = Timer(), Timer()
        for spk, ws in sources.items():
            tr = VtlnTransformer(targets)
            with t_fit:
                tr.fit(ws, sr)
            for i, w in enumerate(ws):
                with t_tr:
                    tr.transform(w, ("p225", "p228")[i % 2], sr)
        record(f"vtln transform (dio, {fp:g} ms)", t_tr)
        both = Timer()
        both.cpu, both.wall = t_fit.cpu + t_tr.cpu, t_fit.wall + t_tr.wall
        record(f"vtln fit+transform ({fp:g} ms)", both)

    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(results, indent=1) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
