"""Cheap WER screen of VTLN plan options on the real-voice benchmark's utility subset (issue 19, session 8).

Converts only the utterances of --subset (bench/voice_real.sh's data/test_wer: 60 utterances) exactly as the
recipe converts them inside the whole trial set: the source speaker is modelled on the same utterances of --fit-data
(data/test_trial, up to 30 per speaker, the same k-means seed), the targets and per-utterance draws are those of an
existing conversion's secret plan (--plan), the target pool its vtln_targets.npz (--pool); only the plan's params
are overridden (--set key=value, YAML values). With no --set, the output is the plan's conversion of those
utterances bit for bit (--check <wav folder> verifies it against a recipe output). Then, with --decode, the
general-LM pocketsphinx decode and scoring of the recipe (steps/decode_pocketsphinx.sh, steps/score.sh), and the
WER with speaker-bootstrap intervals, paired against --baseline decodes.

    cd <work dir of bench/voice_real.sh>
    python <repo>/bench/vtln_screen.py --name f0only --plan exp/voice/test_trial_vtln3_cm/secrets/voice_plan.json \\
        --pool exp/voice/test_trial_vtln3_cm/vtln_targets.npz --set class_shift=0 --set convert_envelope=false \\
        --decode --baseline vtln3
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import yaml


def convert(args, params: dict) -> Path:
    from pydeid.io import DataDir, write_audio
    from pydeid.voice.common import rng_for
    from pydeid.voice.vtln import VtlnTargets, VtlnTransformer, build_vtln_params
    from pydeid.voice.world import analyze
    full, sub = DataDir.read(Path(args.fit_data)), DataDir.read(Path(args.subset))
    plan = json.loads(Path(args.plan).read_text())
    targets = VtlnTargets.load(args.pool)
    tr = VtlnTransformer(targets, params=build_vtln_params(**params))
    out = Path("data") / f"test_wer_k_{args.name}"
    wav_dir = Path("exp") / "screen" / args.name / "wav"
    wav_dir.mkdir(parents=True, exist_ok=True)
    out.mkdir(parents=True, exist_ok=True)
    by_spk: dict[str, list[str]] = {}
    for u in sub.utts:
        by_spk.setdefault(full.utt2spk[u], []).append(u)
    scp = []
    for spk, utts in sorted(by_spk.items()):
        fit_utts = full.spk2utt[spk][:30]
        feats = {u: analyze(full.load_audio(u), 16000, targets.world) for u in fit_utts}
        seed = int(rng_for(plan["seed"], "kmeans", spk).integers(2 ** 31))
        tr.fit_features(iter(feats.values()), seed=seed)
        for u in utts:
            wav = full.load_audio(u)
            f = feats[u] if u in feats else analyze(wav, 16000, targets.world)
            e = plan["utt"][u]
            y = tr.transform_features(f, e.get("targets", e["target"]), wav, e.get("warp_shift", 0.0),
                                      e.get("pitch_shift", 0.0))
            p = wav_dir / f"{u}.wav"
            write_audio(p, y, 16000)
            scp.append(f"{u} {p.resolve()}\n")
    (out / "wav.scp").write_text("".join(sorted(scp)))
    for name in ("text", "utt2spk", "spk2utt", "spk2gender"):
        if (Path(args.subset) / name).is_file():
            (out / name).write_text((Path(args.subset) / name).read_text())
    return out


def check(out: Path, ref: Path) -> None:
    import soundfile as sf
    from pydeid.io import DataDir
    a = DataDir.read(out)
    same = sum(np.array_equal(sf.read(a.wav_scp[u], dtype="int16")[0], sf.read(ref / f"{u}.wav", dtype="int16")[0])
               for u in a.utts)
    print(f"check: {same}/{len(a.utts)} utterances identical to {ref}")


def wer_report(name: str, baselines: list[str], n_boot: int = 1000) -> dict:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from voice_real_report import paired_wer_diff

    from pydeid.report.speechocean_report import read_per_utt
    from pydeid.io import read_kaldi_map
    utt2spk = read_kaldi_map(Path("data/test_wer/utt2spk"))
    d = Path("exp/ps") / f"decode_general_test_wer_k_{name}"
    per = read_per_utt(d / "scoring" / "per_utt")
    err, words = sum(v[0] for v in per.values()), sum(v[1] for v in per.values())
    orig = Path("exp/ps/decode_general_test_wer")
    rep = {"name": name, "wer": 100 * err / words, "errors": err, "words": words, "utterances": len(per),
           "vs_original": paired_wer_diff(orig, d, utt2spk, n_boot, 0)}
    for b in baselines:
        rep[f"vs_{b}"] = paired_wer_diff(Path("exp/ps") / f"decode_general_test_wer_{b}", d, utt2spk, n_boot, 0)
    return rep


def summary(names: list[str]) -> str:
    """Markdown rows of the screens' exp/screen/<name>/wer.json: WER (errors / words), paired differences."""
    rows = []
    for n in names:
        r = json.loads((Path("exp/screen") / n / "wer.json").read_text())
        diffs = [f"{k[3:]} {v['diff']:+.1f} [{v['ci'][0]:+.1f}, {v['ci'][1]:+.1f}]" for k, v in r.items()
                 if k.startswith("vs_") and v]
        rows.append(f"| {n} | {json.dumps({k: v for k, v in r['params'].items()})} | {r['wer']:.1f} "
                    f"({r['errors']}/{r['words']}) | {'; '.join(diffs)} |")
    return "\n".join(["| screen | params | WER (errors/words) | paired differences (points, 95 % speaker "
                      "bootstrap) |", "|---|---|---|---|", *rows])


def a0_split(decodes: list[str], plan_path: str, pool: str, fit_data: str = "data/test_trial",
             subset: str = "data/test_wer") -> str:
    """WER of the original and of each decode (exp/ps/decode_general_test_wer_<name>) on the utterances grouped by
    |a0|, the global warping factor from the utterance's speaker to its plan target (the plan of the decodes)."""
    from pydeid.report.speechocean_report import read_per_utt
    from pydeid.io import DataDir
    from pydeid.voice.common import rng_for
    from pydeid.voice.vtln import VtlnTargets, VtlnTransformer
    from pydeid.voice.world import analyze
    full, sub = DataDir.read(Path(fit_data)), DataDir.read(Path(subset))
    plan = json.loads(Path(plan_path).read_text())
    targets = VtlnTargets.load(pool)
    tr = VtlnTransformer(targets)
    a0 = {}
    for spk in sorted({full.utt2spk[u] for u in sub.utts}):
        tr.fit_features((analyze(full.load_audio(u), 16000, targets.world) for u in full.spk2utt[spk][:30]),
                        seed=int(rng_for(plan["seed"], "kmeans", spk).integers(2 ** 31)))
        for u in sub.utts:
            if full.utt2spk[u] == spk:
                a0[u] = abs(tr.alignment(plan["utt"][u]["target"])["global_alpha"])
    per = {"original": read_per_utt(Path("exp/ps/decode_general_test_wer/scoring/per_utt"))}
    for d in decodes:
        per[d] = read_per_utt(Path(f"exp/ps/decode_general_test_wer_{d}/scoring/per_utt"))
    rows = []
    for lo, hi in ((0.0, 0.1), (0.1, 0.2), (0.2, 1.0)):
        us = [u for u in sub.utts if lo <= a0[u] < hi]
        w = sum(per["original"][u][1] for u in us)
        rows.append(f"| [{lo:.1f}, {hi:.1f}) | {len(us)} / {w} | " + " | ".join(
            f"{100 * sum(p[u][0] for u in us) / w:.1f}" for p in per.values()) + " |")
    return "\n".join([f"| abs(a0) | utterances / words | {' | '.join(per)} |", "|---" * (2 + len(per)) + "|", *rows])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--summary", nargs="+", metavar="NAME", help="only print the table of these finished screens")
    ap.add_argument("--a0-split", nargs="+", metavar="DECODE", help="only print the WER of these decodes by |a0| "
                    "to the --plan's targets (--plan, --pool)")
    ap.add_argument("--name", help="alphanumeric name of this setting")
    ap.add_argument("--plan")
    ap.add_argument("--pool")
    ap.add_argument("--fit-data", default="data/test_trial")
    ap.add_argument("--subset", default="data/test_wer")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    ap.add_argument("--check", help="a folder of <utt>.wav the output must equal (no --set), e.g. "
                    "data/test_trial_vtln3_cm/wav")
    ap.add_argument("--decode", action="store_true")
    ap.add_argument("--baseline", action="append", default=[], help="decode_general_test_wer_<name> to pair with")
    args = ap.parse_args()
    if args.summary:
        print(summary(args.summary))
        return
    if args.a0_split:
        print(a0_split(args.a0_split, args.plan, args.pool, args.fit_data, args.subset))
        return
    if not (args.name and args.plan and args.pool):
        ap.error("--name, --plan and --pool are required")
    if not args.name.isalnum():
        ap.error("--name must be alphanumeric")
    plan = json.loads(Path(args.plan).read_text())
    params = dict(plan.get("params", {}))
    for kv in args.set:
        k, _, v = kv.partition("=")
        params[k] = yaml.safe_load(v)
    t0 = time.process_time()
    out = convert(args, params)
    cpu = time.process_time() - t0
    print(f"{out}: converted with {json.dumps(params)} ({cpu:.0f} CPU-s)")
    if args.check:
        check(out, Path(args.check))
    if args.decode:
        d = f"exp/ps/decode_general_test_wer_k_{args.name}"
        subprocess.run(["nice", "-n", "10", "steps/decode_pocketsphinx.sh", "--lm", "general", "--nj", "1", str(out),
                        d], check=True, stdout=subprocess.DEVNULL)
        subprocess.run(["steps/score.sh", str(out), d], check=True, stdout=subprocess.DEVNULL)
        rep = wer_report(args.name, args.baseline)
        rep.update({"params": params, "plan": args.plan, "convert_cpu_s": round(cpu, 1)})
        Path(f"exp/screen/{args.name}/wer.json").write_text(json.dumps(rep, indent=1))
        print(json.dumps(rep))


if __name__ == "__main__":
    main()
