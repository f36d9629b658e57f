"""vctk_subset part of bench/voice_real.sh: every method of --voice-configs converts the 13-speaker VCTK sample
(publisher seed; VTLN and VoiceMask-target pools: the speechocean762 train speakers of --targets, same gender),
then pocketsphinx en-us with the wheel's general LM decodes original and converted speech (WER with a
speaker-bootstrap 95 % interval) and rho_F0 compares F0 original vs converted. 13 speakers are too few for a
meaningful EER, so none is computed here. Writes <work>/vctk.json (read by bench/voice_real_report.py).
A phone-class VTLN config (`classes: phones`) first aligns the VCTK prompts (<work>/exp/align_ph/orig, pocketsphinx
via steps/align_phones_for_vtln.sh; words missing from its dictionary, e.g. names, get G2P pronunciations, counted in
vctk.json "alignment") and the target voices (exp/align_ph/<name of --vtln-targets>, as run.sh makes them).

    python bench/voice_real_vctk.py --vctk ../shared/data/vctk_subset --voice-configs "..." --targets data/train_xv
"""

from __future__ import annotations

import argparse
import csv
import json
import subprocess
from pathlib import Path

from pydeid.asr.pocketsphinx_decode import decode_data_dir
from pydeid.asr.score import score_decode_dir
from pydeid.attack.pitch import pitch_correlation
from pydeid.voice.vtln.phone_classes import config_has_phone_classes
from pydeid.report.bootstrap_ci import wer_with_ci
from pydeid.report.speechocean_report import read_per_utt
from pydeid.io import DataDir


def wer(data: Path, dec: Path, utt2spk: dict) -> dict:
    if not (dec / "scoring" / "per_utt").is_file():
        info = decode_data_dir(data, dec, lm="general")
        score_decode_dir(data, dec, results_md=dec / "RESULTS.md")
        (dec / "info.json").write_text(json.dumps({"rtf": info.get("rtf")}) + "\n")
    per = read_per_utt(dec / "scoring" / "per_utt")
    utts = sorted(per)
    return wer_with_ci([per[u][0] for u in utts], [per[u][1] for u in utts], [utt2spk[u] for u in utts])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--vctk", required=True)
    ap.add_argument("--voice-configs", required=True)
    ap.add_argument("--targets", required=True, help="data dir of the target pool (speechocean train speakers)")
    ap.add_argument("--vtln-targets", help="data dir that models the VTLN target voices (run.sh: data/train_vtln; "
                    "default --targets), with the pool file of run.sh's stage 3 when it exists")
    ap.add_argument("--per-spk", type=int, default=0, help="utterances per speaker (the first by id; 0: all 77)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--work", default="vctk")
    a = ap.parse_args()
    root, work = Path(a.vctk), Path(a.work)
    orig = work / "data" / "orig"
    if not (orig / "wav.scp").is_file():
        d = DataDir(utt2gender={}, spk2gender={})
        rows = sorted(csv.DictReader(open(root / "manifest.tsv", encoding="utf-8"), delimiter="\t"),
                      key=lambda r: r["utt_id"])
        if a.per_spk > 0:
            n: dict = {}
            rows = [r for r in rows if n.setdefault(r["speaker"], []).append(r) or len(n[r["speaker"]]) <= a.per_spk]
        for r in rows:
            d.wav_scp[r["utt_id"]] = str((root / r["path"]).resolve())
            d.text[r["utt_id"]] = r["transcript"]
            d.utt2spk[r["utt_id"]] = r["speaker"]
            d.utt2gender[r["utt_id"]] = d.spk2gender[r["speaker"]] = r["gender"]
        d.write(orig)
    d = DataDir.read(orig)
    # the methods of earlier invocations on the same utterances are kept (a candidate added later joins the table)
    old = json.loads((work / "vctk.json").read_text()) if (work / "vctk.json").is_file() else {}
    res: dict = {"original": {"wer": wer(orig, work / "dec" / "orig", d.utt2spk)},
                 **{k: v for k, v in old.items() if isinstance(v, dict) and k != "original"},
                 "note": f"vctk_subset: {len(d.utts)} utterances of {len(d.speakers)} speakers"
                         f"{f' (the first {a.per_spk} of each)' if a.per_spk else ''}; pocketsphinx en-us, "
                         f"general LM; [95 % speaker-bootstrap interval]; rho_F0 over the utterances with >= 10 "
                         f"frames voiced in both signals."}
    for vc in a.voice_configs.split():
        m, _, st = vc.partition(":")
        v = m if st in ("", "-") else f"{m}{st}"
        if m not in ("voicemask", "vtln", "mcadams"):
            raise SystemExit(f"voice_real_vctk.py: unknown method in --voice-configs: {vc}")
        out = work / "data" / v
        src = orig
        opts = ["--method", m, "--seed", str(a.seed), "--resume", "true", "--nj", "1"]
        cv = ""                                   # config variant: conf/voice/<method>_<variant>.yaml
        if m == "vtln":                           # <strategy>[_<variant>]
            strategy, _, cv = st.partition("_")
            tdata = a.vtln_targets or a.targets
            pool = f"exp/voice/vtln_pool_pub_s{a.seed}.npz"
            if cv and config_has_phone_classes(f"conf/voice/vtln_{cv}.yaml"):
                # phone classes: the phone alignments of the VCTK prompts (names in them get G2P pronunciations)
                # and of the target voices (run.sh's exp/align_ph/<name>), made here when missing
                ali, tali = work / "exp" / "align_ph" / "orig", Path("exp/align_ph") / Path(tdata).name
                for dd, al in ((orig, ali), (Path(tdata), tali)):
                    subprocess.run(["steps/align_phones_for_vtln.sh", str(dd), str(al)], check=True,
                                   stdout=subprocess.DEVNULL)
                rep = json.loads((ali / "report.json").read_text())
                res["alignment"] = {"utterances": rep["counts"]["utterances"], "aligned": rep["counts"]["aligned"],
                                    "failed": rep["counts"]["failed"], "g2p_tokens": rep["counts"]["g2p_tokens"],
                                    "g2p_words": sorted(rep.get("g2p_words", {}))}
                opts += ["--ali-dir", str(ali), "--target-ali-dir", str(tali)]
                pool = f"exp/voice/vtln_pool_pub_ph_s{a.seed}.npz"   # run.sh's name of the phone-class pool
            opts += ["--strategy", strategy, "--target-data", tdata, "--pool-file", pool]
        elif "vtln" in st:                        # [<variant>+]vtln<N>[_<variant>]: on top of that VTLN output
            cv, _, base = st.rpartition("+")
            src = work / "data" / base
            if not (src / "wav.scp").is_file():
                raise SystemExit(f"voice_real_vctk.py: --voice-configs {vc} chains on {base}: list vtln:{base[4:]} "
                                 f"before it")
        elif st not in ("-", ""):
            cv = st
        if cv:
            opts += ["--voice-config", f"conf/voice/{m}_{cv}.yaml"]
        if m == "voicemask":
            opts += ["--target-data", a.targets]
        if not (out / "wav.scp").is_file():
            subprocess.run(["steps/transform_voice.sh", *opts, str(src), str(work / "exp" / v), str(out)], check=True,
                           stdout=subprocess.DEVNULL)
        r = pitch_correlation(orig, out, max_utts=None)
        res[v] = {"wer": wer(out, work / "dec" / v, d.utt2spk), "rho_f0": r["pitch_correlation"],
                  "rho_utterances": r["utterances"]}
        print(f"vctk {v}: WER {res[v]['wer']['wer_pct']:.1f} rho_F0 {res[v]['rho_f0']:.3f}", flush=True)
        (work / "vctk.json").write_text(json.dumps(res, indent=1) + "\n")   # after every method: a cut run keeps them
    (work / "vctk.json").write_text(json.dumps(res, indent=1) + "\n")
    print(f"wrote {work / 'vctk.json'}")


if __name__ == "__main__":
    main()
