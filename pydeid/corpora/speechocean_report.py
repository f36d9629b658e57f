"""The real-voice table of egs/speechocean762/s5: method x (pocketsphinx WER original / converted / masked,
EER per attacker scenario with speaker-bootstrap 95 % intervals, rho_F0), from the recipe's exp/ and data/.

Reads (names as the recipe writes them, <v> = voicemask, vtln1, vtln2, vtln3, mcadams):
  exp/ps/decode_<lm>_test_wer[_<v>[_masked]]/scoring/per_utt, decode_pocketsphinx.json   (WER, RTF)
  exp/attack/<scenario>_<v>/scores/scores_cosine, exp/attack/original/scores/scores_cosine (EER)
  exp/attack/ignorant_<v>/scores/metrics.json                                               (rho_F0)
  data/test_trial/trials, data/test_enroll/spk2gender, data/test_trial/utt2gender
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np

from pydeid.io import FormatError, read_kaldi_map
from pydeid.report import markdown_table, update_results_section

from .bootstrap_ci import eer_with_ci, wer_with_ci

SCENARIOS = ("ignorant", "lazy-informed", "informed", "parameter-shifted")
LABEL = {"voicemask": "VoiceMask", "vtln1": "VTLN S1", "vtln2": "VTLN S2", "vtln3": "VTLN S3",
         "mcadams": "McAdams"}
_UTT = re.compile(r"^(\S+) words=(\d+) sub=(\d+) del=(\d+) ins=(\d+)$")


def vname(vc: str) -> str:
    m, _, st = vc.partition(":")
    return m if st in ("", "-") else f"{m}{st}"


def read_per_utt(path: Path) -> dict[str, tuple[int, int]]:
    """utt -> (errors, reference words) from a scoring/per_utt file of pydeid asr-score."""
    out = {}
    if not path.is_file():
        raise FormatError(path, None, "missing (run the recipe's utility stage)")
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        m = _UTT.match(line)
        if m:
            out[m.group(1)] = (int(m.group(3)) + int(m.group(4)) + int(m.group(5)), int(m.group(2)))
    if not out:
        raise FormatError(path, None, "no '<utt> words=.. sub=.. del=.. ins=..' lines")
    return out


def wer_of(decode_dir: Path, utt2spk: dict[str, str], n_boot: int, seed: int) -> dict:
    per = read_per_utt(decode_dir / "scoring" / "per_utt")
    utts = sorted(per)
    res = wer_with_ci([per[u][0] for u in utts], [per[u][1] for u in utts], [utt2spk[u] for u in utts],
                      n_boot=n_boot, seed=seed)
    info = decode_dir / "decode_pocketsphinx.json"
    if info.is_file():
        res["rtf"] = json.loads(info.read_text()).get("rtf")
    return res


def eer_of(score_file: Path, trials: dict, enroll_gender: dict, utt_gender: dict, n_boot: int, seed: int,
           utt2spk: dict | None = None) -> dict:
    if not score_file.is_file():
        raise FormatError(score_file, None, "missing (run the recipe's attack stage)")
    rows = []
    for lineno, line in enumerate(score_file.read_text().splitlines(), 1):
        f = line.split()
        if len(f) != 3:
            raise FormatError(score_file, lineno, f"expected '<spk> <utt> <score>', got {line!r}")
        key = (f[0], f[1])
        if key not in trials:
            raise FormatError(score_file, lineno, f"trial {f[0]} {f[1]} is not in the trials file")
        rows.append((f[0], f[1], float(f[2]), trials[key]))
    out = {}
    for sub, g in (("pooled", None), ("male", "m"), ("female", "f")):
        sel = [r for r in rows if g is None or (enroll_gender.get(r[0]) == g and utt_gender.get(r[1]) == g)]
        out[sub] = eer_with_ci(np.array([r[2] for r in sel]), np.array([r[3] for r in sel]),
                               [r[0] for r in sel], n_boot=n_boot, seed=seed,
                               trial_speakers=[utt2spk.get(r[1], r[1]) for r in sel] if utt2spk else None)
    return out


def _fmt_rate(r: dict | None, key: str) -> str:
    if not r or r.get(key) is None:
        return "n/a"
    ci = r.get("ci")
    return f"{r[key]:.1f} [{ci[0]:.1f}, {ci[1]:.1f}]" if ci else f"{r[key]:.1f}"


def build_report(data: str | Path, exp: str | Path, voice_configs: list[str], lms: list[str],
                 n_boot: int = 1000, seed: int = 0, backend: str = "plda") -> dict:
    data, exp = Path(data), Path(exp)
    trials = {}
    tfile = data / "test_trial" / "trials"
    for lineno, line in enumerate(tfile.read_text().splitlines(), 1):
        f = line.split()
        if len(f) != 3 or f[2] not in ("target", "nontarget"):
            raise FormatError(tfile, lineno, f"expected '<spk> <utt> target|nontarget', got {line!r}")
        trials[(f[0], f[1])] = f[2] == "target"
    enroll_gender = read_kaldi_map(data / "test_enroll" / "spk2gender")
    utt_gender = read_kaldi_map(data / "test_trial" / "utt2gender")
    utt2spk = read_kaldi_map(data / "test_wer" / "utt2spk")
    trial_spk = read_kaldi_map(data / "test_trial" / "utt2spk")
    vs = [vname(vc) for vc in voice_configs]
    rep: dict = {"wer": {}, "eer": {}, "rho_f0": {}, "counts": {}}
    for lm in lms:
        # the general LM decodes original and converted speech (the recipe skips its masked decodings)
        sfxs = ("",) if lm == "general" else ("", "_masked")
        conds = ["test_wer"] + [f"test_wer_{v}{sfx}" for v in vs for sfx in sfxs]
        for c in conds:
            rep["wer"][f"{lm}:{c}"] = wer_of(exp / "ps" / f"decode_{lm}_{c}", utt2spk, n_boot, seed)
    rep["backend"] = backend
    rep["eer"]["original"] = eer_of(exp / "attack" / "original" / "scores" / f"scores_{backend}", trials,
                                    enroll_gender, utt_gender, n_boot, seed, trial_spk)
    for v in vs:
        for sc in SCENARIOS:
            rep["eer"][f"{sc}_{v}"] = eer_of(exp / "attack" / f"{sc}_{v}" / "scores" / f"scores_{backend}", trials,
                                             enroll_gender, utt_gender, n_boot, seed, trial_spk)
        mfile = exp / "attack" / f"ignorant_{v}" / "scores" / "metrics.json"
        pitch = json.loads(mfile.read_text()).get("pitch", {}) if mfile.is_file() else {}
        rep["rho_f0"][v] = {"rho": pitch.get("pitch_correlation"), "utterances": pitch.get("utterances")}
    rep["counts"] = {"trials_target": sum(trials.values()), "trials_nontarget": len(trials) - sum(trials.values()),
                     "enroll_speakers": len(enroll_gender), "wer_utterances": len(utt2spk),
                     "wer_speakers": len(set(utt2spk.values())), "bootstrap": n_boot}
    return rep


def render(rep: dict, voice_configs: list[str], lms: list[str]) -> dict[str, tuple[str, str]]:
    """Sections of RESULTS.md: key -> (title, markdown)."""
    vs = [vname(vc) for vc in voice_configs]
    lm0 = lms[0]
    c = rep["counts"]
    hdr = ["method", f"WER conv. ({lm0} LM)", "WER conv.+masked"] + \
          (["WER conv. (general LM)"] if "general" in lms and lm0 != "general" else []) + \
          [f"EER {sc}" for sc in SCENARIOS] + ["rho_F0"]
    rows = []
    orig = rep["eer"]["original"]["pooled"]
    row = ["original (no conversion)", _fmt_rate(rep["wer"][f"{lm0}:test_wer"], "wer_pct"), "n/a"]
    if len(hdr) == 9:
        row.append(_fmt_rate(rep["wer"]["general:test_wer"], "wer_pct"))
    rows.append(row + [_fmt_rate(orig, "eer_pct")] * len(SCENARIOS) + ["1"])
    for v in vs:
        row = [LABEL.get(v, v), _fmt_rate(rep["wer"][f"{lm0}:test_wer_{v}"], "wer_pct"),
               _fmt_rate(rep["wer"][f"{lm0}:test_wer_{v}_masked"], "wer_pct")]
        if len(hdr) == 9:
            row.append(_fmt_rate(rep["wer"][f"general:test_wer_{v}"], "wer_pct"))
        row += [_fmt_rate(rep["eer"][f"{sc}_{v}"]["pooled"], "eer_pct") for sc in SCENARIOS]
        rho = rep["rho_f0"][v]["rho"]
        rows.append(row + ["n/a" if rho is None else f"{rho:.3f}"])
    w0 = rep["wer"][f"{lm0}:test_wer"]
    main = markdown_table(hdr, rows) + (
        f"\nWER (%): pocketsphinx en-us (pretrained, not trained on the corpus) on the utility subset "
        f"({c['wer_utterances']} trial utterances of {c['wer_speakers']} test speakers, {w0['words']} reference "
        f"words); `{lm0}` LM = 3-gram of the training transcripts. EER (%): {rep['backend']} scoring, pooled, "
        f"{c['trials_target']} target + {c['trials_nontarget']} non-target trials (same-gender non-targets) of "
        f"{c['enroll_speakers']} enrolled test speakers. [95 % interval]: speaker bootstrap, {c['bootstrap']} "
        f"resamples. rho_F0: mean per-utterance Pearson correlation of F0 original vs converted trial "
        f"utterances. Without conversion every scenario is the original-speech attacker.\n")
    det_rows = []
    for name in ["original"] + [f"{sc}_{v}" for v in vs for sc in SCENARIOS]:
        e = rep["eer"][name]
        det_rows.append([name] + [_fmt_rate(e[s], "eer_pct") for s in ("pooled", "male", "female")] +
                        [f"{e['pooled']['n_target']}/{e['pooled']['n_nontarget']}",
                         f"{e['male']['n_target']}/{e['male']['n_nontarget']}",
                         f"{e['female']['n_target']}/{e['female']['n_nontarget']}"])
    eer_md = markdown_table(["attack", "EER pooled", "EER male", "EER female", "trials pooled (tar/non)",
                             "male", "female"], det_rows)
    wer_rows = []
    for key, w in rep["wer"].items():
        lm, cond = key.split(":", 1)
        wer_rows.append([cond, lm, _fmt_rate(w, "wer_pct"), w["utterances"], w["words"], w.get("rtf")])
    wer_md = markdown_table(["data", "LM", "WER (%) [95 % CI]", "utts", "ref. words", "RTF"], wer_rows) + (
        "\nMasked sets are scored against their masked transcripts (tagged words removed). RTF: decoding CPU "
        "seconds per audio second, one thread, on a shared machine.\n")
    b = rep["backend"]
    return {f"so-real-voices-{b}": (f"Real voices (speechocean762): utility and privacy per method ({b} back-end)",
                                    main),
            f"so-eer-detail-{b}": (f"EER per scenario, pooled / male / female ({b}, 95 % speaker-bootstrap CI)",
                                   eer_md),
            "so-wer-detail": ("pocketsphinx WER per condition and language model", wer_md)}


def write_report(results_md, data, exp, voice_configs, lms, n_boot=1000, seed=0,
                 backends=("plda", "cosine")) -> dict:
    """One set of tables per back-end (PLDA first: the stronger attacker here); exp/report.json holds both."""
    reps = {}
    for b in backends:
        rep = reps[b] = build_report(data, exp, voice_configs, lms, n_boot=n_boot, seed=seed, backend=b)
        for key, (title, body) in render(rep, voice_configs, lms).items():
            update_results_section(results_md, key, body, title=title)
    first = reps[backends[0]]
    out = {k: first[k] for k in ("wer", "rho_f0", "counts")}
    out["eer"] = {b: r["eer"] for b, r in reps.items()}
    (Path(exp) / "report.json").write_text(json.dumps(out, indent=1) + "\n")
    return out
