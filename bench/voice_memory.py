"""Peak memory of `pydeid transform-voice` for a short and a long list of utterances (must not grow with the
number of utterances), and the wall/CPU time of the whole command, per method, one core.

Each run is a fresh subprocess; its peak RSS comes from os.wait4 (ru_maxrss). The lists cycle through the VCTK
subset's utterances of at most --max-dur seconds (4 speakers; ids made unique), so a long list is the same audio
repeated: only the count changes between the two sizes.

Usage: python bench/voice_memory.py [--sizes 50 500] [--methods voicemask mcadams vtln] [--out ...json]
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def make_list(vctk: Path, out: Path, n: int, max_dur: float) -> float:
    from pydeid.io import DataDir
    rows = [r for r in csv.DictReader(open(vctk / "manifest.tsv", encoding="utf-8"), delimiter="\t")
            if r["speaker"] in ("p225", "p226", "p227", "p228") and float(r["duration_s"]) <= max_dur]
    d = DataDir()
    total = 0.0
    for i in range(n):
        r = rows[i % len(rows)]
        u = f"{r['speaker']}_{i:05d}"
        d.wav_scp[u] = str((vctk / r["path"]).resolve())
        d.text[u] = " ".join(r["transcript"].split())
        d.utt2spk[u] = r["speaker"]
        total += float(r["duration_s"])
    d.write(out)
    return total


def run(cmd: list[str]) -> tuple[float, float, float]:
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1")
    t = time.perf_counter()
    p = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t
    if status:
        raise SystemExit(f"failed: {' '.join(cmd)}\n{p.stderr.read().decode()[-2000:]}")
    return ru.ru_maxrss / 1024.0, ru.ru_utime + ru.ru_stime, wall


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vctk", default=str(REPO.parent / "shared" / "data" / "vctk_subset"))
    ap.add_argument("--sizes", type=int, nargs="+", default=[50, 500])
    ap.add_argument("--methods", nargs="+", default=["voicemask", "mcadams", "vtln"])
    ap.add_argument("--max-dur", type=float, default=3.0)
    ap.add_argument("--out", default=str(REPO / "bench" / "results" / "voice_memory.json"))
    args = ap.parse_args()
    vctk = Path(args.vctk)
    res = {"load_avg_1min": os.getloadavg()[0], "runs": []}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        tgt = tmp / "targets"
        make_list(vctk, tgt, 24, args.max_dur)          # VTLN pool: the same 4 speakers, 6 utterances each
        for n in args.sizes:
            src = tmp / f"list{n}"
            dur = make_list(vctk, src, n, args.max_dur)
            for m in args.methods:
                cmd = [sys.executable, "-m", "pydeid", "transform-voice", "--method", m, "--exp-dir",
                       str(tmp / f"exp_{m}_{n}"), str(src), str(tmp / f"out_{m}_{n}")]
                if m == "vtln":
                    cmd[6:6] = ["--target-data", str(tgt), "--strategy", "3"]
                rss, cpu, wall = run(cmd)
                row = {"method": m, "utterances": n, "audio_s": round(dur, 1), "peak_rss_mb": round(rss, 1),
                       "cpu_s": round(cpu, 1), "wall_s": round(wall, 1), "rtf_cpu_whole_command": round(cpu / dur, 4)}
                res["runs"].append(row)
                print(json.dumps(row), flush=True)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(res, indent=1) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
