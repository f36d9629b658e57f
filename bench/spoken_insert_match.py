"""How well the spoken-pseudonym inserts match the voice around them (issue 20), from a mask-spoken output.

For every insert of <out-data> (plans in <secret-dir>/spoken_plan) and the speech of its utterance outside the
intervals: level difference (active RMS, dB), F0 median difference (semitones), log-F0 spread ratio, and the
spectral-shape distance (RMS over 40 mel bands of the difference of the level-normalised mean log-mel spectra,
dB). The same spectral distance for the ORIGINAL words of the interval in <in-data> against their own
surroundings is the natural baseline (a speaker's words differ from the rest of their utterance that much), as is
the original words' F0. Also the time fit: the insert's stretch factor and how many sit at a stretch limit.

  python bench/spoken_insert_match.py <in-data> <out-data> <secret-dir> [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np


def _mel_profile(x: np.ndarray, sr: int) -> np.ndarray | None:
    import librosa
    if len(x) < sr // 10:
        return None
    m = librosa.feature.melspectrogram(y=x.astype(np.float32), sr=sr, n_fft=400, hop_length=160, n_mels=40)
    e = m.sum(axis=0)
    act = e >= e.max() * 10 ** (-30 / 10)
    if act.sum() < 5:
        return None
    p = 10 * np.log10(np.maximum(m[:, act], 1e-10)).mean(axis=1)
    return p - p.mean()


def _f0(x: np.ndarray, sr: int) -> np.ndarray:
    from pydeid.voice.world import WorldConfig, analyze
    f = analyze(x.astype(np.float64), sr, WorldConfig(frame_period=10.0))
    return f.f0[f.f0 > 0]


def _rest(x: np.ndarray, spans) -> np.ndarray:
    keep = np.ones(len(x), bool)
    for a, b in spans:
        keep[a:b] = False
    return x[keep]


def measure(in_data, out_data, secret_dir, sr=16000) -> dict:
    import soundfile as sf

    from pydeid.io import DataDir
    from pydeid.mask.spoken import active_rms
    din, dout = DataDir.read(in_data), DataDir.read(out_data)
    rows = []
    for utt in dout.utts:
        plan = json.loads((Path(secret_dir) / "spoken_plan" / f"{utt}.json").read_text())
        ivs = [e for e in plan["intervals"]]
        if not any(e["tokens"] for e in ivs):
            continue
        y = sf.read(dout.wav_scp[utt].strip(), dtype="float32")[0]
        x = sf.read(din.wav_scp[utt].strip(), dtype="float32")[0]
        ry, rx = _rest(y, [e["out"] for e in ivs]), _rest(x, [e["in"] for e in ivs])
        py, px = _mel_profile(ry, sr), _mel_profile(rx, sr)
        fy, fx = _f0(ry, sr), _f0(rx, sr)
        ly, lx = active_rms(ry), active_rms(rx)
        for e in ivs:
            if not e["tokens"]:
                continue
            o0, o1 = e["out"]
            a = o0 + e["lead"]
            b = o1 - e["trail"]
            ins = y[a:b]
            i0, i1 = e["in"][0] + e["lead"], e["in"][1] - e["trail"]
            orig = x[i0:i1]
            r = {"utt": utt, "stretch": e["stretch"], "rate": e["rate"], "speech_dur": e["speech_dur"],
                 "insert_dur": len(ins) / sr}
            pi, po = _mel_profile(ins, sr), _mel_profile(orig, sr)
            if pi is not None and py is not None:
                r["spec_db"] = float(np.sqrt(np.mean((pi - py) ** 2)))
            if po is not None and px is not None:
                r["spec_db_orig"] = float(np.sqrt(np.mean((po - px) ** 2)))
            li = active_rms(ins)
            if li > 0 and ly > 0:
                r["level_db"] = float(20 * np.log10(li / ly))
            lo = active_rms(orig)
            if lo > 0 and lx > 0:
                r["level_db_orig"] = float(20 * np.log10(lo / lx))
            fi, fo = _f0(ins, sr), _f0(orig, sr)
            if len(fi) >= 5 and len(fy) >= 10:
                r["f0_st"] = float(12 * np.log2(np.median(fi) / np.median(fy)))
                r["f0_sd_ratio"] = float(np.std(np.log(fi)) / max(np.std(np.log(fy)), 1e-6))
            if len(fo) >= 5 and len(fx) >= 10:
                r["f0_st_orig"] = float(12 * np.log2(np.median(fo) / np.median(fx)))
                r["f0_sd_ratio_orig"] = float(np.std(np.log(fo)) / max(np.std(np.log(fx)), 1e-6))
            rows.append(r)
    return {"rows": rows, "summary": summarize(rows)}


def summarize(rows: list[dict], lo: float = 0.8, hi: float = 1.25) -> dict:
    s = {"inserts": len(rows), "at_stretch_limit": sum(1 for r in rows if r["stretch"] in (lo, hi))}
    for k in ("spec_db", "spec_db_orig", "level_db", "level_db_orig", "f0_st", "f0_st_orig", "f0_sd_ratio",
              "f0_sd_ratio_orig"):
        v = np.array([r[k] for r in rows if k in r])
        if len(v):
            s[k] = {"n": int(len(v)), "median": round(float(np.median(v)), 2),
                    "median_abs": round(float(np.median(np.abs(v))), 2),
                    "p90_abs": round(float(np.percentile(np.abs(v), 90)), 2)}
    return s


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("in_data")
    ap.add_argument("out_data")
    ap.add_argument("secret_dir")
    ap.add_argument("--json", default=None)
    a = ap.parse_args(argv)
    res = measure(a.in_data, a.out_data, a.secret_dir)
    if a.json:
        Path(a.json).write_text(json.dumps(res, indent=1) + "\n")
    print(json.dumps(res["summary"], indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
