"""Tables of bench/voice_real.sh: bench/results/voice_real.md and voice_real.json from its work directory.

Per method (PLDA and cosine back-ends): pocketsphinx WER with the wheel's general LM (original vs converted, the
relative increase, paired) on the 60-utterance utility subset and on the whole 150-utterance trial set (the subset is
a part of it; --wer-set of bench/voice_real.sh), the WORLD analysis-synthesis floor row (copysynth), EER of the four attacker scenarios with speaker-bootstrap 95 % intervals and trial counts,
rho_F0, RTF on one core; the pydeid methods and the COMPRISE tool side by side on the same files (the trials of
the WER subset); vctk_subset WER and rho_F0. Missing pieces (a stage not run) are reported as such, not guessed.

    python bench/voice_real_report.py --work bench/work/voice_real --voice-configs "..." --out bench/results/voice_real
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from pydeid.report.bootstrap_ci import eer_with_ci
from pydeid.report.speechocean_report import SCENARIOS, vname, wer_of
from pydeid.io import read_kaldi_map
from pydeid.report import markdown_table

LABEL = {"voicemask": "VoiceMask (pitch shift)", "voicemasktarget": "VoiceMask pitch_mode target",
         "vtln1": "VTLN S1", "vtln2": "VTLN S2", "vtln3": "VTLN S3", "mcadams": "McAdams alpha 0.8",
         "mcadamsrange": "McAdams alpha ~ U(0.7, 0.9) per utt.", "mcadamsvtln3": "VTLN S3 then McAdams 0.8",
         "comprise": "COMPRISE tool VoiceMask", "copysynth": "WORLD analysis-synthesis, no conversion"}
EXTRA = ("copysynth",)   # rows of the bench itself, not of --voice-configs: listed first when the work dir holds them
LIMIT_REL = 15.0         # the issue's utility limit: WER increase <= 15 % relative to the original's
BACKENDS = ("plda", "cosine")
SCEN = (*SCENARIOS, "informed-same-draws")   # run.sh --same-draws true: the extra row
TOOL_SCEN = ("ignorant", "lazy-informed", "informed")   # the COMPRISE tool's attackers (stage 2)
# conf/voice/vtln_<variant>.yaml and <method>_<variant>.yaml variants of the candidates (issue 19)
VARIANT = {"phone_classes": "phone classes, class/unvoiced/pause means replaced, no warp, any-gender targets",
           "jitter": "per-utt. warp +-0.05, pitch +-2 st", "avg": "pseudo-target mean of 8",
           "any": "any-gender targets",
           "mild": "McAdams alpha ~ U(0.85, 0.95) per utt.", "range": "McAdams alpha ~ U(0.7, 0.9) per utt.",
           "cm": "class means replaced", "anycm": "any-gender targets, class means replaced",
           "cmhalf": "class means half-replaced", "cmmid": "class means replaced from 1.5 kHz",
           "cmhi": "class means replaced from 2.5 kHz", "avgcm": "pseudo-target mean of 8, class means replaced",
           "avgcmhi": "pseudo-target mean of 8, class means replaced from 2.5 kHz",
           "anycm16": "16 classes, any-gender targets, class means replaced",
           # the phone-class configs of session 8 (P: classes from pocketsphinx phone CTMs)
           "ph": "phone classes (warps only)", "phcm": "phone classes, class means replaced",
           "phanycm": "phone classes, any-gender targets, class means replaced",
           "phcmnw": "phone classes, class means replaced, no warp",
           "phanycmnw": "phone classes, any-gender targets, class means replaced, no warp",
           "phanycmnwr": "phone classes, any-gender targets, class means replaced, no warp, residual 0.7",
           "phavgcm": "phone classes, pseudo-target mean of 8, class means replaced",
           # session 9: U's unvoiced-frame and pause classes, V's WORLD analysis with harvest
           "ufvphanycmnw": "phone classes, any-gender targets, class means replaced (voiced, unvoiced, flat pauses), "
                           "no warp",
           "vharvest": "phone classes, any-gender targets, class means replaced, no warp, harvest F0"}


def label(v: str) -> str:
    """Table label of a run.sh --voice-configs name: vtln3_avg, mcadamsmild+vtln3_avg, mcadamsvtln3, ..."""
    if v in LABEL:
        return LABEL[v]
    if "+" in v:                                        # <method><variant>+vtln<N>[_<variant>]
        head, base = v.split("+", 1)
        m = next((x for x in ("mcadams", "voicemask") if head.startswith(x)), "")
        return f"{label(base)}, then {VARIANT.get(head[len(m):], head)}"
    if v.startswith("vtln") and "_" in v:
        st, var = v[len("vtln"):].split("_", 1)
        return f"VTLN S{st}, {VARIANT.get(var, var)}"
    if v.startswith("mcadamsvtln"):
        return f"{label(v[len('mcadams'):])}, then McAdams 0.8"
    return v


def read_trials(path: Path) -> dict:
    out = {}
    for line in path.read_text().splitlines():
        f = line.split()
        out[(f[0], f[1])] = f[2] == "target"
    return out


def eer(score_file: Path, trials: dict, trial_spk: dict, n_boot: int, seed: int) -> dict | None:
    """Pooled EER over the trials of `trials` found in the score file (others are ignored: a subset rescoring)."""
    if not score_file.is_file():
        return None
    s, lab, enr, tsp = [], [], [], []
    for line in score_file.read_text().splitlines():
        f = line.split()
        if (f[0], f[1]) in trials:
            s.append(float(f[2]))
            lab.append(trials[(f[0], f[1])])
            enr.append(f[0])
            tsp.append(trial_spk.get(f[1], f[1]))
    if len(s) != len(trials):
        return None
    return eer_with_ci(np.array(s), np.array(lab), enr, n_boot=n_boot, seed=seed, trial_speakers=tsp)


def read_scores(score_file: Path, trials: dict) -> np.ndarray | None:
    """The scores of `trials` (in its order) from a score file, None if the file misses some."""
    if not score_file.is_file():
        return None
    got = {}
    for line in score_file.read_text().splitlines():
        f = line.split()
        got[(f[0], f[1])] = float(f[2])
    if any(k not in got for k in trials):
        return None
    return np.array([got[k] for k in trials])


def paired_eer_diff(fa: Path, fb: Path, trials: dict, trial_spk: dict, n_boot: int, seed: int) -> dict | None:
    """EER(b) - EER(a) in points with a paired speaker-bootstrap 95 % interval: both attacks score the same trials,
    and every resample weights the same speakers for both (pydeid.attack.metrics.speaker_bootstrap_weights)."""
    from pydeid.attack.metrics import eer, eer_bootstrap, percentile_ci
    sa, sb = read_scores(fa, trials), read_scores(fb, trials)
    if sa is None or sb is None:
        return None
    lab = np.array(list(trials.values()))
    enr = [k[0] for k in trials]
    tsp = [trial_spk.get(k[1], k[1]) for k in trials]
    d = 100 * (eer_bootstrap(sb, lab, enr, tsp, n_boot, seed) - eer_bootstrap(sa, lab, enr, tsp, n_boot, seed))
    point = 100 * (eer(sb[lab], sb[~lab])[0] - eer(sa[lab], sa[~lab])[0])
    ci = percentile_ci(d)
    return {"diff": float(point), "ci": list(ci) if ci else None}


def paired_wer_diff(da: Path, db: Path, utt2spk: dict, n_boot: int, seed: int) -> dict | None:
    """WER(b) - WER(a) in points on the same utterances, paired speaker bootstrap 95 % interval."""
    from pydeid.report.speechocean_report import read_per_utt
    pa, pb = da / "scoring" / "per_utt", db / "scoring" / "per_utt"
    if not pa.is_file() or not pb.is_file():
        return None
    a, b = read_per_utt(pa), read_per_utt(pb)
    utts = sorted(set(a) & set(b))
    spks = sorted({utt2spk[u] for u in utts})
    idx = {s: i for i, s in enumerate(spks)}
    ea, eb, w = (np.zeros(len(spks)) for _ in range(3))
    for u in utts:
        i = idx[utt2spk[u]]
        ea[i] += a[u][0]
        eb[i] += b[u][0]
        w[i] += a[u][1]
    counts = np.random.default_rng(seed).multinomial(len(spks), np.full(len(spks), 1 / len(spks)), size=n_boot)
    d = 100 * (counts @ eb - counts @ ea) / (counts @ w)
    # the relative increase WER(b) / WER(a) - 1 of every resample (the ratio's own interval, in %)
    r = 100 * (counts @ eb - counts @ ea) / np.maximum(counts @ ea, 1e-9)
    return {"diff": float(100 * (eb.sum() - ea.sum()) / w.sum()), "ci": [float(np.quantile(d, 0.025)),
                                                                         float(np.quantile(d, 0.975))],
            "rel": float(100 * (eb.sum() - ea.sum()) / ea.sum()) if ea.sum() else None,
            "rel_ci": [float(np.quantile(r, 0.025)), float(np.quantile(r, 0.975))] if ea.sum() else None,
            "utterances": len(utts), "words": int(w.sum())}


def fmt(r: dict | None, key: str) -> str:
    if not r or r.get(key) is None:
        return "n/a"
    ci = r.get("ci")
    return f"{r[key]:.1f} [{ci[0]:.1f}, {ci[1]:.1f}]" if ci else f"{r[key]:.1f}"


def rho(exp: Path, name: str) -> float | None:
    m = exp / "attack" / name / "scores" / "metrics.json"
    if not m.is_file():
        return None
    return json.loads(m.read_text()).get("pitch", {}).get("pitch_correlation")


def with_extra_rows(work: Path, vs: list[str]) -> list[str]:
    """vs with the bench's own rows (EXTRA) first, for those the work dir holds a decode or an attack of."""
    exp = work / "exp"
    have = [x for x in EXTRA if x not in vs and (
        any((exp / "ps" / f"decode_general_{s}_{x}" / "scoring" / "per_utt").is_file() for s in ("test_wer", "test_trial"))
        or (exp / "attack" / f"ignorant_{x}" / "scores" / "metrics.json").is_file())]
    return have + vs


def limit_verdict(r: dict | None, w0: dict | None, limit: float = LIMIT_REL) -> str:
    """Where a paired WER increase stands against the relative limit: below / above it beyond the noise (the paired
    95 % interval of the relative increase entirely on one side), else 'undecided' (the interval holds the limit)."""
    if not r or not r.get("ci") or not w0 or not w0.get("wer_pct"):
        return "n/a"
    lo, hi = r["rel_ci"] if r.get("rel_ci") else (100 * x / w0["wer_pct"] for x in r["ci"])
    return "below" if hi < limit else "above" if lo > limit else "undecided"


def build(work: Path, vs: list[str], n_boot: int, seed: int, baseline: str | None = None) -> dict:
    data, exp = work / "data", work / "exp"
    trials = read_trials(data / "test_trial" / "trials")
    trial_spk = read_kaldi_map(data / "test_trial" / "utt2spk")
    wer_utt2spk = read_kaldi_map(data / "test_wer" / "utt2spk")
    sub = {k: v for k, v in trials.items() if k[1] in wer_utt2spk}
    rep: dict = {"counts": {"trials_target": sum(trials.values()), "trials_nontarget": len(trials) - sum(trials.values()),
                            "subset_target": sum(sub.values()), "subset_nontarget": len(sub) - sum(sub.values()),
                            "enroll_speakers": len(read_kaldi_map(data / "test_enroll" / "spk2gender")),
                            "wer_utterances": len(wer_utt2spk), "wer_speakers": len(set(wer_utt2spk.values())),
                            "trial_utterances": len(trial_spk), "trial_speakers": len(set(trial_spk.values())),
                            "bootstrap": n_boot},
                 "wer": {}, "eer": {b: {} for b in BACKENDS}, "eer_subset": {b: {} for b in BACKENDS}, "rho_f0": {}}
    for c in ["test_wer"] + [f"test_wer_{v}" for v in vs + ["comprise"]]:
        d = exp / "ps" / f"decode_general_{c}"
        if (d / "scoring" / "per_utt").is_file():
            rep["wer"][c] = wer_of(d, wer_utt2spk, n_boot, seed)
    # the whole published trial set (150 utterances): the tighter utility meter (bench/voice_real.sh --wer-set)
    rep["wer_trial"] = {}
    for c in ["test_trial"] + [f"test_trial_{v}" for v in vs + ["comprise"]]:
        d = exp / "ps" / f"decode_general_{c}"
        if (d / "scoring" / "per_utt").is_file():
            rep["wer_trial"][c] = wer_of(d, trial_spk, n_boot, seed)
    rep["wer_trial_vs_original"] = {v: paired_wer_diff(exp / "ps" / "decode_general_test_trial",
                                                       exp / "ps" / f"decode_general_test_trial_{v}", trial_spk,
                                                       n_boot, seed) for v in vs + ["comprise"]}
    # utility subsets of 1 utterance per speaker (decoded when the 60-utterance set did not fit the time): the
    # converted WER and the original's on the same utterances (from the original's per-utterance scores)
    from pydeid.report.bootstrap_ci import wer_with_ci
    from pydeid.report.speechocean_report import read_per_utt
    orig_per = exp / "ps" / "decode_general_test_wer" / "scoring" / "per_utt"
    for d in sorted((exp / "ps").glob("decode_general_test_wer1_*")):
        if not (d / "scoring" / "per_utt").is_file() or not orig_per.is_file():
            continue
        per, o = read_per_utt(d / "scoring" / "per_utt"), read_per_utt(orig_per)
        us = sorted(per)
        spk = [wer_utt2spk[u] for u in us]
        rep.setdefault("wer_half", {})[d.name.split("test_wer1_")[1]] = {
            "converted": wer_with_ci([per[u][0] for u in us], [per[u][1] for u in us], spk, n_boot=n_boot, seed=seed),
            "original": wer_with_ci([o[u][0] for u in us], [o[u][1] for u in us], spk, n_boot=n_boot, seed=seed)}
    for b in BACKENDS:
        for name in ["original"] + [f"{sc}_{v}" for v in vs for sc in SCEN] + \
                [f"{sc}_comprise" for sc in TOOL_SCEN]:
            f = exp / "attack" / name / "scores" / f"scores_{b}"
            rep["eer"][b][name] = eer(f, trials, trial_spk, n_boot, seed)
            rep["eer_subset"][b][name] = eer(f, sub, trial_spk, n_boot, seed)
    for v in vs + ["comprise"]:
        rep["rho_f0"][v] = rho(exp, f"ignorant_{v}")
    # the WER increase of every method over the original's decode of the same utterances, paired
    rep["wer_vs_original"] = {v: paired_wer_diff(exp / "ps" / "decode_general_test_wer",
                                                 exp / "ps" / f"decode_general_test_wer_{v}", wer_utt2spk, n_boot, seed)
                              for v in vs + ["comprise"]}
    # every pydeid method minus the COMPRISE tool, paired on the trials of the files both converted: the whole
    # trial set (bench/voice_real.sh since session 7) or the utility subset's trials (the tool's earlier runs)
    full = read_scores(exp / "attack" / "ignorant_comprise" / "scores" / "scores_plda", trials) is not None
    tool_trials = trials if full else sub
    rep["tool_trials"] = {"set": "all" if full else "utility subset", "target": sum(tool_trials.values()),
                          "nontarget": len(tool_trials) - sum(tool_trials.values()),
                          "trial_speakers": len({trial_spk[k[1]] for k in tool_trials})}
    rep["tool_wer_paired"] = {v: paired_wer_diff(exp / "ps" / "decode_general_test_wer_comprise",
                                                 exp / "ps" / f"decode_general_test_wer_{v}", wer_utt2spk, n_boot, seed)
                              for v in vs}
    rep["tool_paired"] = {b: {} for b in BACKENDS}
    for b in BACKENDS:
        for v in vs:
            for sc in TOOL_SCEN:
                rep["tool_paired"][b][f"{sc}_{v}"] = paired_eer_diff(
                    exp / "attack" / f"{sc}_comprise" / "scores" / f"scores_{b}",
                    exp / "attack" / f"{sc}_{v}" / "scores" / f"scores_{b}", tool_trials, trial_spk, n_boot, seed)
    if baseline:   # paired differences of every method against the baseline (same attackers, trials, utterances)
        rep["paired"] = {"baseline": baseline, "eer": {}, "wer": {}}
        for v in vs:
            if v == baseline:
                continue
            for sc in SCEN:
                rep["paired"]["eer"][f"{sc}_{v}"] = paired_eer_diff(
                    exp / "attack" / f"{sc}_{baseline}" / "scores" / "scores_plda",
                    exp / "attack" / f"{sc}_{v}" / "scores" / "scores_plda", trials, trial_spk, n_boot, seed)
            rep["paired"]["wer"][v] = paired_wer_diff(exp / "ps" / f"decode_general_test_wer_{baseline}",
                                                      exp / "ps" / f"decode_general_test_wer_{v}", wer_utt2spk,
                                                      n_boot, seed)
            rep["paired"].setdefault("wer_trial", {})[v] = paired_wer_diff(
                exp / "ps" / f"decode_general_test_trial_{baseline}", exp / "ps" / f"decode_general_test_trial_{v}",
                trial_spk, n_boot, seed)
    # exp/rtf*.json: bench/voice_real_rtf.py runs; a later run of a method (by file time) replaces an earlier one
    rep["rtf"] = {"methods": {}, "runs": []}
    for f in sorted(exp.glob("rtf*.json"), key=lambda f: f.stat().st_mtime):
        r = json.loads(f.read_text())
        rep["rtf"]["methods"].update({k: dict(v, file=f.name) for k, v in r.get("methods", {}).items()})
        rep["rtf"]["runs"].append({k: r.get(k) for k in ("utterances", "speakers", "audio_s", "load_avg_1min",
                                                         "affinity")} | {"file": f.name})
    vctk = work / "vctk" / "vctk.json"
    rep["vctk"] = json.loads(vctk.read_text()) if vctk.is_file() else {}
    vdec, vorig = work / "vctk" / "dec", work / "vctk" / "data" / "orig"
    if rep["vctk"] and (vorig / "utt2spk").is_file():   # paired on the same utterances: vs original, vs VTLN S3
        from pydeid.io import DataDir
        u2s = DataDir.read(vorig).utt2spk
        rep["vctk_paired"] = {k: {"vs_original": paired_wer_diff(vdec / "orig", vdec / k, u2s, n_boot, seed),
                                  "vs_vtln3": paired_wer_diff(vdec / "vtln3", vdec / k, u2s, n_boot, seed)}
                              for k, x in rep["vctk"].items() if isinstance(x, dict) and "wer" in x and k != "original"}
    cs = data / "test_trial_copysynth" / "copysynth.json"   # bench/voice_real_copysynth.py's own CPU time
    if cs.is_file() and json.loads(cs.read_text()).get("converted"):
        rep["copysynth_rtf"] = json.loads(cs.read_text()).get("rtf_cpu")
    for t in (exp / "comprise").glob("*.timing.json") if (exp / "comprise").is_dir() else []:
        rep.setdefault("comprise_timing", {})[t.name.split(".")[0]] = json.loads(t.read_text())
    return rep


def relfmt(r: dict | None, w0: dict | None) -> str:
    """A paired WER difference as a relative increase over the original's WER, with the interval of the ratio's
    own bootstrap (rel_ci) when paired_wer_diff gave it, else the difference's interval over the original's WER."""
    if not r or not r.get("ci") or not w0:
        return "n/a"
    if r.get("rel_ci"):
        return f"{r['rel']:+.0f} % [{r['rel_ci'][0]:+.0f}, {r['rel_ci'][1]:+.0f}]"
    return f"{100 * r['diff'] / w0['wer_pct']:+.0f} % [{100 * r['ci'][0] / w0['wer_pct']:+.0f}, " \
           f"{100 * r['ci'][1] / w0['wer_pct']:+.0f}]"


def rel(w: dict | None, w0: dict | None) -> str:
    if not w or not w0 or w.get("wer_pct") is None:
        return "n/a"
    return f"{100 * (w['wer_pct'] - w0['wer_pct']) / w0['wer_pct']:+.1f} %"


def dfmt(r: dict | None) -> str:
    return "n/a" if not r or not r.get("ci") else f"{r['diff']:+.1f} [{r['ci'][0]:+.1f}, {r['ci'][1]:+.1f}]"


def beyond_noise(r: dict | None) -> bool:
    return bool(r and r.get("ci") and (r["ci"][0] > 0 or r["ci"][1] < 0))


def noise_sentence(diffs: dict, what: str) -> str:
    """Which paired differences exclude 0 (beyond the noise); every other one holds 0."""
    out = [f"{k} {dfmt(r)}" for k, r in diffs.items() if beyond_noise(r)]
    n = sum(1 for r in diffs.values() if r and r.get("ci"))
    if not n:
        return f"No paired difference {what} was measured."
    if not out:
        return f"All {n} paired differences {what} hold 0 in their 95 % interval: within the noise of this benchmark."
    return (f"Beyond the noise (95 % interval excludes 0), {len(out)} of {n} paired differences {what}: " +
            "; ".join(out) + f". The other {n - len(out)} hold 0: within the noise.")


def render(rep: dict, vs: list[str]) -> str:
    c = rep["counts"]
    w0 = rep["wer"].get("test_wer")
    out = []
    wt0 = (rep.get("wer_trial") or {}).get("test_trial")
    pr = rep.get("paired") or {}

    def wer_cells(w: dict | None, base: dict | None, paired: dict | None) -> list:
        return [fmt(w, "wer_pct"), (w or {}).get("words", "n/a"), rel(w, base), relfmt(paired, base),
                limit_verdict(paired, base)]

    def rtf_of(v: str):
        r = rep["rtf"].get("methods", {}).get(v, {}).get("rtf_cpu")
        al = rep["rtf"].get("methods", {}).get(v, {}).get("align_rtf_cpu")
        if r is not None and al is not None:   # a phone-class config: its alignment beside the conversion
            return f"{r:.3f} + {al:.3f} alignment"
        if r is None and v == "comprise":   # the CPU time of its trial-set conversion (its pool's F0 excluded)
            ct = rep.get("comprise_timing", {})
            r = ct.get("test_trial_comprise", ct.get("test_wer_comprise", {})).get("rtf_cpu")
        if r is None and v == "copysynth":
            r = rep.get("copysynth_rtf")
        return "n/a" if r is None else f"{r:.3f}"

    rows = [["original (no conversion)", fmt(w0, "wer_pct"), (w0 or {}).get("words", "n/a"), "", "", "",
             fmt(wt0, "wer_pct"), (wt0 or {}).get("words", "n/a"), "", "", "", "1", ""]]
    wtr = rep.get("wer_trial") or {}
    for v in vs + (["comprise"] if rep["wer"].get("test_wer_comprise") or wtr.get("test_trial_comprise") else []):
        rows.append([label(v), *wer_cells(rep["wer"].get(f"test_wer_{v}"), w0, rep["wer_vs_original"].get(v)),
                     *wer_cells(wtr.get(f"test_trial_{v}"), wt0, (rep.get("wer_trial_vs_original") or {}).get(v)),
                     "n/a" if rep["rho_f0"].get(v) is None else f"{rep['rho_f0'][v]:.3f}", rtf_of(v)])
    out.append("### speechocean762: utility and cost per method\n\n" + markdown_table(
        ["method", "WER subset", "words", "rel. increase", "rel. increase, paired [95 %]", "vs +15 %",
         "WER trial set", "words", "rel. increase", "rel. increase, paired [95 %]", "vs +15 %", "rho_F0",
         "RTF (1 core)"], rows) +
        f"\nWER (%): pocketsphinx en-us with the wheel's general LM, [95 % speaker-bootstrap interval, "
        f"{c['bootstrap']} resamples], on two sets of the same published (converted) trial utterances: the utility "
        f"subset ({c['wer_utterances']} utterances of {c['wer_speakers']} speakers, the meter of sessions 6-7) and "
        f"the whole trial set ({c.get('trial_utterances', 'n/a')} utterances of {c.get('trial_speakers', 'n/a')} "
        f"speakers; the subset is a part of it). The paired columns resample the same speakers for original and "
        f"converted and give the interval of the ratio WER(converted) / WER(original) - 1 over the resamples (the "
        f"original's WER varies with them; the reports of sessions 6-7 divided the paired difference's interval by "
        f"the original's point WER, narrower and symmetric: VTLN S3 on the subset +28 % [+18, +38] that way). "
        f"vs +15 % (the issue's limit, relative): below / above when the paired 95 % interval of the "
        f"relative increase lies entirely below / above +15 %, undecided when it holds +15 %. n/a: the set was not "
        f"decoded for that method. rho_F0: correlation of the F0 contours original vs converted on the trial "
        f"utterances. RTF: process CPU seconds per audio second on one core (taskset -c 0; the copy synthesis: its "
        f"trial-set run).\n")
    rows = [["original (no conversion)", "-", fmt(rep["eer"]["plda"]["original"], "eer_pct"),
             fmt(rep["eer"]["cosine"]["original"], "eer_pct")]]
    for v in vs:
        for sc in SCEN:
            e = [rep["eer"][b].get(f"{sc}_{v}") for b in BACKENDS]
            if all(x is None for x in e):
                continue
            rows.append([label(v), sc, *[fmt(x, "eer_pct") for x in e]])
    for sc in TOOL_SCEN:   # the COMPRISE tool, when it converted the whole trial set
        e = [rep["eer"][b].get(f"{sc}_comprise") for b in BACKENDS]
        if any(x is not None for x in e):
            rows.append([label("comprise"), sc, *[fmt(x, "eer_pct") for x in e]])
    out.append("### speechocean762: privacy, one line per method x attacker scenario\n\n" + markdown_table(
        ["method", "scenario", "EER PLDA", "EER cosine"], rows) +
        f"\nEER (%) pooled over {c['trials_target']} target + {c['trials_nontarget']} same-gender non-target trials "
        f"of {c['enroll_speakers']} enrolled test speakers (every line the same trials), [95 % speaker-bootstrap "
        f"interval, {c['bootstrap']} resamples]; higher is more private. Scenarios (steps/attack.sh --scenario): ignorant (attacker "
        f"trained and enrolled on original speech), lazy-informed (enrolment converted by the attacker, own draws), "
        f"informed (training data and enrolment converted, own draws), parameter-shifted (same, other parameter "
        f"values), informed-same-draws (extra row: the publisher's own draws). A method without a scenario's line "
        f"was not attacked so.\n")
    tp = rep.get("tool_paired") or {}
    tt = rep.get("tool_trials") or {"set": "utility subset", "target": c["subset_target"],
                                     "nontarget": c["subset_nontarget"], "trial_speakers": c["wer_speakers"]}
    rows = []
    for sc in TOOL_SCEN:
        e = rep["eer"] if tt["set"] == "all" else rep["eer_subset"]
        rows.append([label("comprise"), sc, fmt(e["plda"].get(f"{sc}_comprise"), "eer_pct"), "",
                     fmt(e["cosine"].get(f"{sc}_comprise"), "eer_pct"), ""])
        for v in vs:
            if all(e[b].get(f"{sc}_{v}") is None for b in BACKENDS):
                continue
            rows.append([label(v), sc] + [x for b in BACKENDS for x in (fmt(e[b].get(f"{sc}_{v}"), "eer_pct"),
                                                                        dfmt(tp.get(b, {}).get(f"{sc}_{v}")))])
    wt = rep["wer"].get("test_wer_comprise")
    ct = rep.get("comprise_timing", {})
    # RTF: bench/voice_real_rtf.py's one-core run, else the CPU time of the trial-set conversion itself
    tool_rtf = rep["rtf"].get("methods", {}).get("comprise", {}).get("rtf_cpu") or \
        ct.get("test_trial_comprise", ct.get("test_wer_comprise", {})).get("rtf_cpu")
    out.append("### Same files: pydeid and the COMPRISE tool, same trials\n\n" + markdown_table(
        ["method", "scenario", "EER PLDA", "minus the tool, PLDA (paired)", "EER cosine",
         "minus the tool, cosine (paired)"], rows) +
        ("\nEER (%) pooled over every trial (the tool converted the whole published trial set: "
         if tt["set"] == "all" else "\nEER (%) pooled over the trials whose trial utterance is in the utility subset (") +
        f"{tt['target']} target + {tt['nontarget']} non-target trials, {tt['trial_speakers']} trial speakers"
        f"{'' if tt['set'] == 'all' else '; pydeid' + chr(39) + 's methods rescored from their full score files'}), "
        f"[95 % speaker-bootstrap interval]. Paired: EER of the "
        f"pydeid method minus the tool's on the same trials, [paired 95 % speaker-bootstrap interval, "
        f"{c['bootstrap']} resamples: every resample draws the same speakers for both]; positive: pydeid more "
        f"private. The tool's attackers are trained as pydeid's (seed+1, conf/xvector/mini.yaml, 8 epochs; informed: "
        f"the 120 utterances of data/train_xvc and the 150 enrolment utterances converted by the tool with its own "
        f"draws). The tool: WER {fmt(wt, 'wer_pct')} on the same {c['wer_utterances']} utterances"
        f"{' (' + rel(wt, w0) + ')' if wt else ''}, rho_F0 "
        f"{'n/a' if rep['rho_f0'].get('comprise') is None else format(rep['rho_f0']['comprise'], '.3f')}, RTF "
        f"{'n/a' if tool_rtf is None else format(tool_rtf, '.3f')} (fit + transform, CPU, its pool's F0 analysis "
        f"excluded). WER of each pydeid method minus the tool's, same utterances, paired: " +
        "; ".join(f"{label(v)} {dfmt(r)}" for v, r in (rep.get("tool_wer_paired") or {}).items() if r) +
        ".\n\n" + noise_sentence(
            {f"{label(k.split('_', 1)[1])} {k.split('_', 1)[0]} {b}": r for b in BACKENDS
             for k, r in tp.get(b, {}).items()}, "against the tool") + "\n")
    half = rep.get("wer_half") or {}
    if half:
        rows = [[label(v), fmt(x["original"], "wer_pct"), fmt(x["converted"], "wer_pct"),
                 rel(x["converted"], x["original"]), x["converted"]["utterances"], x["converted"]["words"]]
                for v, x in half.items()]
        out.append("### WER on 1 utterance per test speaker (general LM; the 60-utterance decodes of these methods did "
                   "not fit the session)\n\n" + markdown_table(
                       ["method", "WER original (same utts)", "WER converted", "rel. WER increase", "utts", "words"],
                       rows) + "\n[95 % speaker-bootstrap interval]. The original's WER is taken from its "
                   "60-utterance decode restricted to the same utterances.\n")
    if pr:
        rows = [[label(v), *[dfmt(pr["eer"].get(f"{sc}_{v}")) for sc in SCEN], dfmt(pr["wer"].get(v)),
                 dfmt((pr.get("wer_trial") or {}).get(v))]
                for v in vs if v != pr["baseline"]]
        diffs = {f"{label(k.split('_', 1)[1])} {k.split('_', 1)[0]}": r for k, r in pr["eer"].items()}
        diffs |= {f"{label(k)} WER": r for k, r in pr["wer"].items()}
        diffs |= {f"{label(k)} WER (trial set)": r for k, r in (pr.get("wer_trial") or {}).items()}
        out.append(f"### Paired differences against {label(pr['baseline'])} (PLDA back-end)\n\n" + markdown_table(
            ["method", *[f"EER {sc} diff." for sc in SCEN], "WER diff. subset", "WER diff. trial set"], rows) +
            f"\nmethod minus {label(pr['baseline'])} in points, on the same trials ({c['trials_target']} target + "
            f"{c['trials_nontarget']} non-target) and the same utterances (WER: the {c['wer_utterances']}-utterance "
            f"subset and the {c.get('trial_utterances', 'n/a')}-utterance trial set), [paired 95 % "
            f"speaker-bootstrap interval, {c['bootstrap']} resamples]. Higher EER is more private; lower WER is "
            f"better. n/a: the scenario or decode was not run for one of the two.\n\n" +
            noise_sentence(diffs, f"against {label(pr['baseline'])}") + "\n")
    runs = rep["rtf"].get("runs", [])
    if runs:
        out.append("RTF runs (bench/voice_real_rtf.py, process CPU time, `taskset -c 0`, OMP_NUM_THREADS=1): " +
                   "; ".join(f"{r['file']}: {r['utterances']} utterances of data/test_wer ({r['audio_s']} s), load "
                             f"average {r['load_avg_1min']:.1f} at its start" for r in runs) +
                   ". VTLN includes each speaker's fit on its timed utterances (2 per speaker: the fit is not "
                   "amortised as over a whole corpus); the COMPRISE tool's RTF is its fit + transform on its first "
                   "utterances, its pool building excluded. Loaded machine: CPU time, not wall time, is comparable.\n")
    vc = rep.get("vctk") or {}
    if vc:
        vp = rep.get("vctk_paired") or {}
        rows = [[label(k), fmt(x.get("wer"), "wer_pct"), x.get("wer", {}).get("utterances", "n/a"),
                 x.get("wer", {}).get("words", "n/a"), rel(x.get("wer"), vc.get("original", {}).get("wer")),
                 relfmt((vp.get(k) or {}).get("vs_original"), vc.get("original", {}).get("wer")),
                 "" if k in ("original", "vtln3") else dfmt((vp.get(k) or {}).get("vs_vtln3")),
                 "1" if k == "original" else ("n/a" if x.get("rho_f0") is None else f"{x['rho_f0']:.3f}")]
                for k, x in vc.items() if isinstance(x, dict) and "wer" in x]
        out.append("### vctk_subset (13 speakers: too few for a meaningful EER)\n\n" + markdown_table(
            ["method", "WER general LM", "utts", "words", "rel. WER increase", "rel. increase, paired [95 %]",
             "WER diff. vs VTLN S3, paired [95 %]", "rho_F0"], rows) +
            f"\n{vc.get('note', '')}" + (
                " Phone-class configs: the prompts' phone alignment (pocketsphinx) aligned {aligned} of {utterances} "
                "utterances ({failed} failed: converted with the pooled class), {g2p_tokens} tokens from the G2P "
                "model ({n} words not in its dictionary: {w}).".format(
                    **vc["alignment"], n=len(vc["alignment"]["g2p_words"]),
                    w=", ".join(vc["alignment"]["g2p_words"]) or "none") if vc.get("alignment") else "") + "\n")
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", required=True)
    ap.add_argument("--voice-configs", required=True)
    ap.add_argument("--out", required=True, help="output prefix: <out>.md, <out>.json")
    ap.add_argument("--bootstrap", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--baseline", default="vtln3", help="the method (name as vtln3) the paired differences compare to")
    a = ap.parse_args()
    vs = with_extra_rows(Path(a.work), [vname(vc) for vc in a.voice_configs.split()])
    rep = build(Path(a.work), vs, a.bootstrap, a.seed, a.baseline if a.baseline in vs else None)
    rep["generated"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    Path(f"{a.out}.json").write_text(json.dumps(rep, indent=1, default=float) + "\n")
    work = Path(a.work)
    inv = work / "invocations.log"     # bench/voice_real.sh appends its command line and per-stage CPU seconds
    rep["invocations"] = inv.read_text().splitlines() if inv.is_file() else []
    head = f"Generated {rep['generated']} from {a.work}.\n\n"
    if rep["invocations"]:
        head += "How it was produced (bench/voice_real.sh's log of its invocations and the CPU seconds, user+sys, " \
                "of each stage's processes):\n\n" + "\n".join(f"    {x}" for x in rep["invocations"]) + "\n\n"
    head += ("Reading: every EER line of a table is measured on the same trials and every WER on the same utterances, so "
             "methods are compared by the paired differences (each speaker-bootstrap resample draws the same speakers "
             "for both); the sentence under each paired table names the differences whose 95 % interval excludes 0, "
             "every other difference is within the noise of this benchmark (30 test speakers).\n\n")
    Path(f"{a.out}.md").write_text("# Real-voice benchmark (bench/voice_real.sh)\n\n" + head + render(rep, vs))
    print(f"wrote {a.out}.md, {a.out}.json")


if __name__ == "__main__":
    main()
