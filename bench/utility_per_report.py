"""bench/results/utility_per.md (+ utility_per.json) from the decode dirs bench/utility_per.sh made.

Every rate carries its counts and a 95 % speaker-bootstrap interval (1000 resamples, seed 0); differences are paired
(the same speakers drawn for both conditions) and marked beyond noise when 0 lies outside their interval.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pydeid.asr.phone_decode import paired_difference, per_with_ci, read_per_utt  # noqa: E402
from pydeid.io import DataDir, read_kaldi_map  # noqa: E402

LABEL = {"original": "original speech", "voicemask": "VoiceMask", "vtln1": "VTLN S1", "vtln2": "VTLN S2",
         "vtln3": "VTLN S3", "mcadams": "McAdams", "vtln3_ufvphanycmnw": "phone classes (vtln:3_ufvphanycmnw)"}


def word_counts(data: Path, dec: Path) -> dict[str, dict]:
    """Per-utterance word errors as steps/score.sh counts them, keyed like the phone counts (for pairing)."""
    from pydeid.asr.score import _counts
    from pydeid.asr.textnorm import TextNorm

    d = DataDir.read(data)
    norm = TextNorm.load(dec / "textnorm.json")
    hyps = read_kaldi_map(dec / "text", require_value=False, check_sorted=False)
    out = {}
    for u in d.utts:
        c = _counts(norm(d.text[u]), " ".join(hyps.get(u, "").split()))
        out[u] = {"phones": c["words"], "sub": c["sub"], "del": c["del"], "ins": c["ins"]}
    return out


def fmt_ci(r: dict) -> str:
    lo, hi = r["ci95"]
    return f"{r['per']:.1f} [{lo:.1f}, {hi:.1f}]"


def fmt_diff(d: dict) -> str:
    lo, hi = d["ci95"]
    mark = "" if d["beyond_noise"] else " (noise)"
    return f"{d['diff']:+.1f} [{lo:+.1f}, {hi:+.1f}]{mark}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", required=True)
    ap.add_argument("--methods", required=True)
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "utility_per.md"))
    a = ap.parse_args()
    w = Path(a.work)
    methods = ["original"] + a.methods.split()
    conds = {m: ("" if m == "original" else "_" + m) for m in methods}
    res: dict = {"work": str(w), "methods": methods}

    # language-weight sweep: train speakers only
    tune = DataDir.read(w / "data" / "train_per_tune")
    sweep = {}
    for f in sorted((w / "exp" / "tune").glob("lw*/scoring_phones/per_utt.json")):
        lw = float(f.parent.parent.name[2:])
        sweep[lw] = per_with_ci(read_per_utt(f), tune.utt2spk)
        sweep[lw]["rtf"] = json.loads((f.parent.parent / "decode_phones.json").read_text())["rtf"]
    res["sweep"] = {str(k): v for k, v in sweep.items()}

    tables = {}
    for s in ("test_wer", "test_trial"):
        d = DataDir.read(w / "data" / s)
        u2s = d.utt2spk
        per = {m: read_per_utt(w / "exp" / "ps" / f"phones_{s}{conds[m]}" / "scoring_phones" / "per_utt.json")
               for m in methods if (w / "exp" / "ps" / f"phones_{s}{conds[m]}" / "scoring_phones").is_dir()}
        wer = {}
        if s == "test_wer":
            for m in methods:
                dec = w / "exp" / "ps" / f"decode_general_{s}{conds[m]}"
                if (dec / "text").is_file():
                    wer[m] = word_counts(w / "data" / f"{s}{conds[m]}", dec)
        ms = [m for m in methods if m in per]
        t = {"utterances": len(d.utts), "speakers": len(d.speakers), "rows": {}, "pairs_per": [], "pairs_wer": []}
        for m in ms:
            row = {"per": per_with_ci(per[m], u2s)}
            info = json.loads((w / "exp" / "ps" / f"phones_{s}{conds[m]}" / "decode_phones.json").read_text())
            row["rtf"] = info["rtf"]
            if m in wer:
                row["wer"] = per_with_ci(wer[m], u2s)
            if m != "original":
                row["per_diff"] = paired_difference(per["original"], per[m], u2s)
                if m in wer and "original" in wer:
                    row["wer_diff"] = paired_difference(wer["original"], wer[m], u2s)
            t["rows"][m] = row
        for i, x in enumerate(ms[1:], 1):
            for y in ms[i + 1:]:
                t["pairs_per"].append({"a": x, "b": y, **paired_difference(per[x], per[y], u2s)})
                if x in wer and y in wer:
                    t["pairs_wer"].append({"a": x, "b": y, **paired_difference(wer[x], wer[y], u2s)})
        tables[s] = t
    res["tables"] = tables
    Path(a.out).with_suffix(".json").write_text(json.dumps(res, indent=1) + "\n")

    L = []
    L.append("# Phone error rate: a utility meter the weak recogniser still gives (speechocean762)\n")
    L.append("pocketsphinx en-us (the only pretrained acoustic model allowed) is a weak meter of non-native speech: "
             "its word WER on ORIGINAL speech is given in every table below, so a conversion's cost reads against it. "
             "Phone-loop decoding (the same acoustic model, the wheel's phonetic 3-gram `en-us-phone.lm.bin`, "
             "no words) "
             "scored against the CMU-dictionary pronunciation of the transcript (first variant, stress-free; G2P for "
             "the words the dictionary lacks) gives the phone error rate (PER = (S + D + I) / reference phones). "
             "Every interval: speaker bootstrap, 1000 resamples, seed 0, percentile, 95 %; differences are paired "
             "(same speakers drawn for both conditions); '(noise)' marks a difference whose interval holds 0.\n")
    L.append("Data: ../shared/data/speechocean762_adults, the recipe's test speakers (30: 15 f + 15 m), published "
             "conversions of data/test_trial made as stage 3 of egs/speechocean762/s5/run.sh makes them (publisher "
             "seed 0, the recipe's configs; work dir and commands in `bench/utility_per.sh`).\n")
    L.append("## Language weight: chosen on train speakers only\n")
    L.append(f"data/train_per_tune: 2 utterances of each of the 30 train speakers ({len(tune.utts)} utterances, "
             "never a test speaker or the test figures below). The default (4) is the lowest PER of the sweep; "
             "every test figure below is held out from that choice.\n")
    L.append("| lw | PER % [95 % CI] | reference phones | ins | del | sub | RTF |")
    L.append("|---|---|---|---|---|---|---|")
    for lw, r in sorted(sweep.items()):
        L.append(f"| {lw:g} | {fmt_ci(r)} | {r['phones']} | {r['ins']} | {r['del']} | {r['sub']} | {r['rtf']} |")
    L.append("")
    for s, title in (("test_wer", "The utility subset (the recipe's meter set)"),
                     ("test_trial", "The published trial set (the utility subset is a part of it)")):
        t = tables[s]
        if not t["rows"]:
            continue
        L.append(f"## {title}: {t['utterances']} utterances, {t['speakers']} speakers\n")
        has_wer = any("wer" in r for r in t["rows"].values())
        head = "| method | PER % [95 % CI] | PER - original (paired) |"
        if has_wer:
            head += " WER % general LM [95 % CI] | WER - original (paired) |"
        head += " ref. phones |"
        L.append(head)
        L.append("|" + "---|" * (head.count("|") - 1))
        for m, r in t["rows"].items():
            pd = fmt_diff(r["per_diff"]) if "per_diff" in r else "(the meter)"
            line = f"| {LABEL.get(m, m)} | {fmt_ci(r['per'])} | {pd} |"
            if has_wer:
                line += (f" {fmt_ci(r['wer'])} | {fmt_diff(r['wer_diff']) if 'wer_diff' in r else '(the meter)'} |"
                         if "wer" in r else " | |")
            line += f" {r['per']['phones']} |"
            L.append(line)
        wtot = t["rows"]["original"].get("wer", {}).get("phones")
        L.append("")
        if wtot:
            L.append(f"Reference words: {wtot} per condition.\n")
        for kind in ("per", "wer"):
            pairs = t[f"pairs_{kind}"]
            if not pairs:
                continue
            n_sep = sum(p["beyond_noise"] for p in pairs)
            L.append(f"Between methods ({kind.upper()}, b - a, paired): {n_sep} of {len(pairs)} pairs beyond noise.\n")
            L.append("| a | b | difference [95 % CI] |")
            L.append("|---|---|---|")
            for p in pairs:
                L.append(f"| {LABEL.get(p['a'], p['a'])} | {LABEL.get(p['b'], p['b'])} | {fmt_diff(p)} |")
            L.append("")
    Path(a.out).write_text("\n".join(L) + "\n")
    print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
