"""The real-voice table of egs/speechocean762/s5: method x (pocketsphinx WER original / converted / masked,
EER per attacker scenario with speaker-bootstrap 95 % intervals, rho_F0), from the recipe's exp/ and data/.

Reads (names as the recipe writes them, <v> = voicemask, vtln1, vtln2, vtln3, mcadams; every LM of --lms (the
first is the primary meter) decodes original and converted speech, the last one also the masked sets):
  exp/ps/decode_<lm>_test_wer[_<v>[_masked]]/scoring/per_utt, decode_pocketsphinx.json   (WER, RTF)
  exp/ps/decode_general_vctk[_<v>]/scoring/per_utt                    (the VCTK table, with a VCTK data dir)
  exp/attack<tag>/<primary>/<scenario>_<v>/scores/scores_<backend>, .../original/...      (EER of the primary
  exp/attack<tag>/<primary>/ignorant_<v>/scores/metrics.json        attacker, default xvector_energy; rho_F0)
  exp/attack<tag>/<model>_<front-end>/...: the grid of every attacker (pydeid.report.speechocean_attacks)
  data/test_trial/trials, data/test_enroll/spk2gender, data/test_trial/utt2gender
  exp/stage_times.tsv                                                  (wall and CPU seconds per stage)
  with espnet=(<tier>, <v>) (stage 5b): exp/asr_<tier>_{original,neutral}/decode_test_wer[_<v>[_masked]]/scoring/
  per_utt, data/{train_asr,dev_asr,train_asr_neutral}/utt2spk, exp/mask/train_<v>/report.json   (the ESPnet table)
"""

from __future__ import annotations

import json
import re
from datetime import datetime, timedelta
from pathlib import Path

import numpy as np

from pydeid.io import FormatError, read_kaldi_map
from .tables import markdown_table, update_results_section

from .bootstrap_ci import eer_with_ci, wer_with_ci

SCENARIOS = ("ignorant", "lazy-informed", "semi-informed", "parameter-shifted")
LABEL = {"voicemask": "VoiceMask", "vtln1": "VTLN S1", "vtln2": "VTLN S2", "vtln3": "VTLN S3",
         "mcadams": "McAdams", "frame_select": "frame selection"}
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
    if r is None:
        return "not run"
    if r.get(key) is None:
        return "n/a"
    ci = r.get("ci")
    return f"{r[key]:.1f} [{ci[0]:.1f}, {ci[1]:.1f}]" if ci else f"{r[key]:.1f}"


LM_LABEL = {"general": "general LM", "train": "corpus LM"}


def read_stage_times(path: Path) -> list[dict]:
    """exp/stage_times.tsv (stage, wall_s, cpu_s, finished; one line per invocation of a stage), per stage: the CPU
    seconds of every invocation summed (reruns and invocations that ran side by side all did work), the wall time
    as the span from the first start to the last finish."""
    if not path.is_file():
        return []
    per: dict[str, dict] = {}
    for lineno, line in enumerate(path.read_text().splitlines(), 1):
        f = line.split("\t")
        if lineno == 1 and f[0] == "stage":
            continue
        try:
            wall, cpu, fin = int(f[1]), float(f[2]), datetime.fromisoformat(f[3])
        except (IndexError, ValueError):
            raise FormatError(path, lineno, f"expected 'stage<TAB>wall_s<TAB>cpu_s<TAB>finished', got {line!r}") \
                from None
        if len(f) != 4:
            raise FormatError(path, lineno, f"expected 'stage<TAB>wall_s<TAB>cpu_s<TAB>finished', got {line!r}")
        r = per.setdefault(f[0], {"stage": f[0], "cpu_s": 0.0, "start": fin - timedelta(seconds=wall), "end": fin,
                                  "invocations": 0})
        r["cpu_s"] += cpu
        r["invocations"] += 1
        r["start"] = min(r["start"], fin - timedelta(seconds=wall))
        r["end"] = max(r["end"], fin)
    out = []
    def order(x):   # 0, 1, ..., 5, 5b, 6, ... 10
        m = re.match(r"\d+", x)
        return (int(m.group()) if m else 10 ** 9, x)
    for k in sorted(per, key=order):
        r = per[k]
        out.append({"stage": k, "wall_s": int((r["end"] - r["start"]).total_seconds()), "cpu_s": round(r["cpu_s"], 1),
                    "start": r["start"].isoformat(), "finished": r["end"].isoformat(),
                    "invocations": r["invocations"]})
    return out


def _count_lines(path: Path) -> int:
    if not path.is_file():
        raise FormatError(path, None, "missing (run the recipe's stage 5b, --espnet true)")
    return sum(1 for ln in path.read_text().splitlines() if ln.strip())


def espnet_results(data: Path, exp: Path, tier: str, v: str, utt2spk: dict, n_boot: int, seed: int,
                   get=lambda f, *a, **k: f(*a, **k)) -> dict:
    """Stage 5b: the ESPnet models trained on original and on neutral training data, each decoded on the utility
    subset original / converted with the neutral voice <v> / converted and masked; WER with the speaker-bootstrap
    interval, and what each model trained on."""
    out: dict = {"tier": tier, "voice": v, "wer": {}, "train": {}}
    for model in ("original", "neutral"):
        for c in ("test_wer", f"test_wer_{v}", f"test_wer_{v}_masked"):
            out["wer"][f"{model}:{c}"] = get(wer_of, exp / f"asr_{tier}_{model}" / f"decode_{c}", utt2spk, n_boot, seed)
    tr = out["train"]
    tr["original_utts"] = _count_lines(data / "train_asr" / "utt2spk")
    tr["neutral_utts"] = _count_lines(data / "train_asr_neutral" / "utt2spk")
    tr["dev_utts"] = _count_lines(data / "dev_asr" / "utt2spk")
    tr["speakers"] = len(set(read_kaldi_map(data / "train_asr" / "utt2spk").values()))
    mrep = exp / "mask" / f"train_{v}" / "report.json"
    if mrep.is_file():
        m = json.loads(mrep.read_text())
        tr["masked_entities"], tr["dropped_untimed"] = m.get("entities"), m.get("dropped")
    for model in ("original", "neutral"):
        cfg = exp / f"asr_{tier}_{model}" / "config.yaml"
        ep = re.search(r"^max_epoch: *(\d+)", cfg.read_text(), re.M) if cfg.is_file() else None
        tr[f"{model}_epochs"] = int(ep.group(1)) if ep else None
    return out


def build_report(data: str | Path, exp: str | Path, voice_configs: list[str], lms: list[str],
                 n_boot: int = 1000, seed: int = 0, backend: str = "plda", attack_tag: str = "",
                 vctk_data: str | Path | None = None, same_draws: bool = False, partial: bool = False,
                 espnet: tuple[str, str] | None = None, primary: str = "xvector_energy") -> dict:
    """primary: the attacker (<model>_<front-end>) of these tables. partial: a decoding or an attack that has not finished is reported as missing ("not run") instead of an
    error (a run cut short; the tables say which cells are missing)."""
    data, exp = Path(data), Path(exp)

    def get(f, *a, **k):
        try:
            return f(*a, **k)
        except FormatError:
            if not partial:
                raise
            return None
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
    rep: dict = {"wer": {}, "eer": {}, "rho_f0": {}, "counts": {}, "lms": list(lms), "attack_tag": attack_tag}
    for i, lm in enumerate(lms):
        # every LM decodes original and converted speech, the last (the cheaper corpus LM) also the masked sets
        sfxs = ("", "_masked") if i == len(lms) - 1 else ("",)
        conds = ["test_wer"] + [f"test_wer_{v}{sfx}" for v in vs for sfx in sfxs]
        for c in conds:
            rep["wer"][f"{lm}:{c}"] = get(wer_of, exp / "ps" / f"decode_{lm}_{c}", utt2spk, n_boot, seed)
    if vctk_data is not None:
        vctk_spk = read_kaldi_map(Path(vctk_data) / "utt2spk")
        rep["vctk"] = {c: wer_of(exp / "ps" / f"decode_general_{c}", vctk_spk, n_boot, seed)
                       for c in ["vctk"] + [f"vctk_{v}" for v in vs]}
        rep["counts"]["vctk_speakers"] = len(set(vctk_spk.values()))
    wfile = exp / "utility" / "whisper.json"
    if wfile.is_file():   # stage 5's primary meter (pydeid.report.whisper_table): WER, interval, paired difference
        rep["whisper"] = json.loads(wfile.read_text())
    rep["backend"] = backend
    adir = exp / f"attack{attack_tag}" / primary
    rep["primary"] = primary
    rep["eer"]["original"] = get(eer_of, adir / "original" / "scores" / f"scores_{backend}", trials,
                                    enroll_gender, utt_gender, n_boot, seed, trial_spk)
    rep["scenarios"] = list(SCENARIOS) + (["informed-same-draws"] if same_draws else [])
    for v in vs:
        for sc in rep["scenarios"]:
            rep["eer"][f"{sc}_{v}"] = get(eer_of, adir / f"{sc}_{v}" / "scores" / f"scores_{backend}", trials,
                                             enroll_gender, utt_gender, n_boot, seed, trial_spk)
        mfile = adir / f"ignorant_{v}" / "scores" / "metrics.json"
        pitch = json.loads(mfile.read_text()).get("pitch", {}) if mfile.is_file() else {}
        rep["rho_f0"][v] = {"rho": pitch.get("pitch_correlation"), "utterances": pitch.get("utterances")}
    rep["counts"]["train_speakers"] = len(set(read_kaldi_map(data / "train_xv" / "utt2spk").values())) \
        if (data / "train_xv" / "utt2spk").is_file() else None
    rep["counts"].update({"trials_target": sum(trials.values()),
                          "trials_nontarget": len(trials) - sum(trials.values()),
                          "enroll_speakers": len(enroll_gender), "wer_utterances": len(utt2spk),
                          "wer_speakers": len(set(utt2spk.values())), "bootstrap": n_boot})
    if espnet is not None:
        tier, v = espnet
        if v not in vs:
            raise FormatError(None, None, f"--espnet {tier}:{v}: {v} is not one of the voice configs ({' '.join(vs)})")
        rep["espnet"] = espnet_results(data, exp, tier, v, utt2spk, n_boot, seed, get)
    rep["stage_times"] = read_stage_times(exp / "stage_times.tsv")
    return rep


def render_espnet(rep: dict, lms: list[str]) -> str:
    """The ESPnet table beside pocketsphinx's: recogniser x utility subset original / converted / masked."""
    e = rep["espnet"]
    v, tier, tr, c = e["voice"], e["tier"], e["train"], rep["counts"]
    conds = ["test_wer", f"test_wer_{v}", f"test_wer_{v}_masked"]

    def words(cond):
        for w in [rep["wer"].get(f"{lm}:{cond}") for lm in lms] + [e["wer"].get(f"{m}:{cond}")
                                                                   for m in ("original", "neutral")]:
            if w:
                return f"{w['utterances']} utts, {w['words']} words"
        return "not run"
    lab = LABEL.get(v, v)
    hdr = ["recogniser (training data)", f"WER original ({words(conds[0])})", f"WER {lab} ({words(conds[1])})",
           f"WER {lab} + masked ({words(conds[2])})"]
    rows = []
    for lm in lms:
        rows.append([f"pocketsphinx en-us, {LM_LABEL[lm]} (pretrained)"] +
                    [_fmt_rate(rep["wer"].get(f"{lm}:{cd}"), "wer_pct") if f"{lm}:{cd}" in rep["wer"] else "n/a"
                     for cd in conds])
    rows.append([f"ESPnet {tier}, trained on original speech ({tr['original_utts']} utts)"] +
                [_fmt_rate(e["wer"][f"original:{cd}"], "wer_pct") for cd in conds])
    rows.append([f"ESPnet {tier}, trained on neutral speech ({lab}, masked; {tr['neutral_utts']} utts)"] +
                [_fmt_rate(e["wer"][f"neutral:{cd}"], "wer_pct") for cd in conds])
    ep = {tr.get("original_epochs"), tr.get("neutral_epochs")} - {None}
    masked = (f"; {tr['masked_entities']} tagged entities silenced and removed, {tr.get('dropped_untimed', 0)} "
              f"utterances dropped as untimed" if tr.get("masked_entities") is not None else "")
    return markdown_table(hdr, rows) + (
        f"\nWER (%) [95 % speaker-bootstrap interval, {c['bootstrap']} resamples] on the utility subset "
        f"({c['wer_utterances']} trial utterances of {c['wer_speakers']} test speakers; the masked set is scored "
        f"against its masked transcripts). ESPnet {tier}: conf/asr/{tier}.yaml as the mini recipe trains it "
        f"({'/'.join(str(x) for x in sorted(ep)) or '?'} epochs, CTC, character LSTM LM of its own training "
        f"transcripts), on {tr['original_utts']} utterances of the {tr['speakers']} train speakers "
        f"({tr['dev_utts']} more held out for validation, never a test speaker or sentence); the neutral model on "
        f"the same utterances converted by the publisher with {lab}{masked}. pocketsphinx: not trained on the "
        f"corpus (the rows of the table above; '{LM_LABEL[lms[-1]]}' alone decodes the masked sets)."
        f"{_stage_note(rep.get('stage_times') or [], '5b')}\n")


def _stage_note(stage_times: list[dict], stage: str) -> str:
    r = next((r for r in stage_times if r["stage"] == stage), None)
    if r is None:
        return ""
    return (f" Stage {stage}: {r['cpu_s'] / 60:.1f} CPU-min (user+sys), {r['wall_s'] / 60:.1f} min of wall over "
            f"{r['invocations']} invocation{'s' if r['invocations'] != 1 else ''} (exp/stage_times.tsv).")


def _whisper_cell(row: dict | None) -> str | None:
    """'WER [lo, hi]' of a row of exp/utility/whisper.json (None: not decoded)."""
    if row is None or row.get("whisper_wer") is None:
        return None
    ci = row.get("whisper_ci95")
    return f"{row['whisper_wer']:.1f}" + (f" [{ci[0]:.1f}, {ci[1]:.1f}]" if ci else "")


def render(rep: dict, voice_configs: list[str], lms: list[str]) -> dict[str, tuple[str, str]]:
    """Sections of RESULTS.md: key -> (title, markdown)."""
    vs = [vname(vc) for vc in voice_configs]
    lm0 = lms[0]
    lm1 = lms[1] if len(lms) > 1 else None
    tag = rep.get("attack_tag", "")
    c = rep["counts"]
    lmm = lms[-1]   # the masked sets' LM
    scs = rep.get("scenarios", list(SCENARIOS))
    wt = {r["condition"]: r for r in (rep.get("whisper") or {}).get("rows", [])}

    def wcell(cond: str) -> str:   # the Whisper meter's WER [95 % CI] of a condition, "not run" without it
        return _whisper_cell(wt.get(cond)) or "not run"
    whdr = [f"WER conv. (Whisper {rep['whisper']['model']})"] if wt else []
    hdr = ["method"] + whdr + [f"WER conv. ({LM_LABEL[lm0]})"] + ([f"WER conv. ({LM_LABEL[lm1]})"] if lm1 else []) + \
          [f"WER conv.+masked ({LM_LABEL[lmm]})"] + [f"EER {sc}" for sc in SCENARIOS] + \
          (["EER informed-same-draws (extra: knows the publisher's draws)"] if len(scs) > len(SCENARIOS) else []) + \
          ["rho_F0"]
    rows = []
    orig = (rep["eer"]["original"] or {}).get("pooled")
    row = ["original (no conversion)"] + ([wcell("original")] if wt else []) + \
        [_fmt_rate(rep["wer"][f"{lm0}:test_wer"], "wer_pct")]
    if lm1:
        row.append(_fmt_rate(rep["wer"][f"{lm1}:test_wer"], "wer_pct"))
    row.append("n/a")
    rows.append(row + [_fmt_rate(orig, "eer_pct")] * len(scs) + ["1"])
    for v in vs:
        row = [LABEL.get(v, v)] + ([wcell(v)] if wt else []) + [_fmt_rate(rep["wer"][f"{lm0}:test_wer_{v}"], "wer_pct")]
        if lm1:
            row.append(_fmt_rate(rep["wer"][f"{lm1}:test_wer_{v}"], "wer_pct"))
        row.append(_fmt_rate(rep["wer"][f"{lmm}:test_wer_{v}_masked"], "wer_pct"))
        row += [_fmt_rate((rep["eer"][f"{sc}_{v}"] or {}).get("pooled"), "eer_pct") for sc in scs]
        rho = rep["rho_f0"][v]["rho"]
        rows.append(row + ["n/a" if rho is None else f"{rho:.3f}"])
    w0 = rep["wer"][f"{lm0}:test_wer"]
    lm_text = {"general": "general LM = the en-us 3-gram of the pocketsphinx wheel",
               "train": "corpus LM = 3-gram of the training transcripts (never the test's)"}
    wnote = (f"\nWER (%) under Whisper {rep['whisper']['model']} (the primary meter, pretrained; the paired "
             f"differences vs original speech, the masked and neutral sets and the meter's RTF: the section *Utility "
             f"under the Whisper meter*)." if wt else "")
    main = markdown_table(hdr, rows) + wnote + (
        f"\nWER (%): pocketsphinx en-us (pretrained, not trained on the corpus) on the utility subset "
        f"({c['wer_utterances']} trial utterances of {c['wer_speakers']} test speakers, "
        f"{w0['words'] if w0 else 'n/a'} reference "
        f"words); {'; '.join(lm_text[lm] for lm in lms)}. EER (%): {rep['backend']} scoring, pooled, "
        f"{c['trials_target']} target + {c['trials_nontarget']} non-target trials (same-gender non-targets) of "
        f"{c['enroll_speakers']} enrolled test speakers"
        f"{'; attackers trained with the extra speakers of ' + tag[2:] if tag else ''}. [95 % interval]: speaker "
        f"bootstrap, {c['bootstrap']} resamples. rho_F0: mean per-utterance Pearson correlation of F0 original vs "
        f"converted trial utterances. Without conversion every scenario is the original-speech attacker. "
        f"Attacker: {rep.get('primary', '')} (model_front-end; every attacker: the section below). "
        f"semi-informed trains on all the training utterances converted by the attacker; parameter-shifted on "
        f"the --converted-train-per-spk subset."
        f"{' informed-same-draws: like semi-informed (on the subset), but the attacker converts with the publisher seed (knows the secret draws); an extra row, not a VoicePrivacy scenario.' if len(scs) > len(SCENARIOS) else ''}\n")
    det_rows = []
    for name in ["original"] + [f"{sc}_{v}" for v in vs for sc in scs]:
        e = rep["eer"][name]
        if e is None:
            det_rows.append([name] + ["not run"] * 6)
            continue
        det_rows.append([name] + [_fmt_rate(e[s], "eer_pct") for s in ("pooled", "male", "female")] +
                        [f"{e['pooled']['n_target']}/{e['pooled']['n_nontarget']}",
                         f"{e['male']['n_target']}/{e['male']['n_nontarget']}",
                         f"{e['female']['n_target']}/{e['female']['n_nontarget']}"])
    eer_md = markdown_table(["attack", "EER pooled", "EER male", "EER female", "trials pooled (tar/non)",
                             "male", "female"], det_rows)
    wer_rows = []
    for key, w in rep["wer"].items():
        lm, cond = key.split(":", 1)
        if w is None:
            wer_rows.append([cond, LM_LABEL[lm], "not run", "", "", ""])
            continue
        wer_rows.append([cond, LM_LABEL[lm], _fmt_rate(w, "wer_pct"), w["utterances"], w["words"], w.get("rtf")])
    wer_md = markdown_table(["data", "LM", "WER (%) [95 % CI]", "utts", "ref. words", "RTF"], wer_rows) + (
        "\nMasked sets are scored against their masked transcripts (tagged words removed). RTF: decoding CPU "
        "seconds per audio second, one thread.\n")
    b = rep["backend"]
    out = {f"so-real-voices-{b}{tag}": (f"Real voices (speechocean762): utility and privacy per method ({b} back-end"
                                        f"{', attackers + ' + tag[2:] if tag else ''})", main),
           f"so-eer-detail-{b}{tag}": (f"EER per scenario, pooled / male / female ({b}"
                                       f"{', attackers + ' + tag[2:] if tag else ''}, 95 % speaker-bootstrap CI)",
                                       eer_md),
           "so-wer-detail": ("pocketsphinx WER per condition and language model", wer_md)}
    if "vctk" in rep:
        vrows = []
        for cnd, w in rep["vctk"].items():
            v = cnd[len("vctk_"):] if cnd != "vctk" else None
            vrows.append(["original (no conversion)" if v is None else LABEL.get(v, v), _fmt_rate(w, "wer_pct"),
                          w["utterances"], w["words"], w.get("rtf")])
        out["so-vctk-wer"] = ("VCTK sample: pocketsphinx WER, original vs converted (general LM)",
                              markdown_table(["method", "WER (%) [95 % CI]", "utts", "ref. words", "RTF"], vrows) + (
            f"\nData: ../shared/data/vctk_subset ({c['vctk_speakers']} speakers; native English read speech, "
            f"48 kHz; the recipe's --vctk-per-spk utterances of each speaker); converted with the publisher's seed (VTLN targets: the speechocean train "
            f"speakers of the same gender). pocketsphinx en-us with the general LM of the wheel. [95 % interval]: "
            f"speaker bootstrap, {c['bootstrap']} resamples (few speakers: wide).\n"))
    if "espnet" in rep:
        out["so-espnet-wer"] = (f"ESPnet ASR trained on the corpus beside pocketsphinx: WER original / converted "
                                f"/ masked", render_espnet(rep, lms))
    if rep.get("stage_times"):
        st = rep["stage_times"]
        trows = [[r["stage"], f"{r['wall_s'] / 60:.1f}", f"{r['cpu_s'] / 60:.1f}", r["invocations"], r["start"],
                  r["finished"]] for r in st]
        span = (datetime.fromisoformat(max(r["finished"] for r in st)) -
                datetime.fromisoformat(min(r["start"] for r in st))).total_seconds()
        trows.append(["all", f"{span / 60:.1f}", f"{sum(r['cpu_s'] for r in st) / 60:.1f}",
                      sum(r["invocations"] for r in st), min(r["start"] for r in st), max(r["finished"] for r in st)])
        out["so-stage-times"] = ("Run time per stage (exp/stage_times.tsv)", markdown_table(
            ["stage", "wall (min)", "CPU user+sys (min)", "invocations", "start (UTC)", "finished (UTC)"], trows) + (
            "\nCPU: user+sys seconds of the stage's processes (bash `times` of run.sh's children), summed over every "
            "invocation of the stage: the work, whatever the load. Wall: first start to last finish of the stage "
            "(invocations of a stage may run side by side); it depends on the machine's load. Stage 7 is still "
            "running when this table is written.\n"))
    return out


def ranking_utility(rep: dict, vs: list[str], lm0: str) -> tuple[dict, dict, str]:
    """The ranking's utility column: v ("" = original) -> WER % and its cell, and the meter's label. The primary
    meter (Whisper, stage 5's exp/utility/whisper.json) when it decoded the original, else pocketsphinx's first LM."""
    wrows = {r["condition"]: r for r in (rep.get("whisper") or {}).get("rows", [])}
    wer_pct, wer_ci = {}, {}
    if wrows.get("original", {}).get("whisper_wer") is not None:
        for v in [""] + vs:
            r = wrows.get(v or "original")
            wer_pct[v] = None if r is None else r.get("whisper_wer")
            wer_ci[v] = _whisper_cell(r) or "n/a"
        return wer_pct, wer_ci, f"Whisper {rep['whisper']['model']}"
    for v in [""] + vs:
        w = rep["wer"].get(f"{lm0}:test_wer" + (f"_{v}" if v else ""))
        wer_pct[v] = None if w is None else w.get("wer_pct")
        wer_ci[v] = _fmt_rate(w, "wer_pct")
    return wer_pct, wer_ci, LM_LABEL[lm0]


def write_report(results_md, data, exp, voice_configs, lms, n_boot=1000, seed=0,
                 backends=("plda", "cosine"), attack_tag: str = "", vctk_data=None, same_draws=False,
                 partial=False, espnet: tuple[str, str] | None = None, attackers=("xvector", "ecapa"),
                 front_ends=("energy", "none"), primary: str = "xvector_energy") -> dict:
    """One set of tables per back-end (PLDA first: the stronger attacker here) of the primary attacker, then the
    grid of every attacker and front-end and the ranking; exp/report<tag>.json holds the figures."""
    from .speechocean_attacks import attack_sections
    reps = {}
    for b in backends:
        rep = reps[b] = build_report(data, exp, voice_configs, lms, n_boot=n_boot, seed=seed, backend=b,
                                     attack_tag=attack_tag, vctk_data=vctk_data, same_draws=same_draws,
                                     partial=partial, espnet=espnet, primary=primary)
        for key, (title, body) in render(rep, voice_configs, lms).items():
            update_results_section(results_md, key, body, title=title)
    first = reps[backends[0]]
    lm0 = lms[0]
    wer_pct, wer_ci, wer_label = ranking_utility(first, [vname(vc) for vc in voice_configs], lm0)
    st6 = next((r for r in first.get("stage_times") or [] if r["stage"] == "6"), None)
    for key, (title, body) in attack_sections(Path(exp), [vname(vc) for vc in voice_configs], list(attackers),
                                              list(front_ends), wer_pct, wer_ci, wer_label, first["counts"],
                                              attack_tag, st6).items():
        update_results_section(results_md, key, body, title=title)
    out = {k: first[k] for k in ("wer", "rho_f0", "counts", "lms", "stage_times") if k in first}
    for k in ("vctk", "espnet"):
        if k in first:
            out[k] = first[k]
    out["eer"] = {b: r["eer"] for b, r in reps.items()}
    per_tsv = Path(exp) / "utility" / "per.tsv"
    if per_tsv.is_file():   # stage 5's phone error rates (pydeid.asr.phone_decode), beside the word WER
        from pydeid.asr.phone_decode import read_per_tsv, render_per_table
        update_results_section(results_md, "so-utility-per", render_per_table(per_tsv, LABEL),
                               title="Utility beside word WER: phone error rate of phone-loop decoding")
        out["per"] = read_per_tsv(per_tsv)
    (Path(exp) / f"report{attack_tag}.json").write_text(json.dumps(out, indent=1) + "\n")
    return out
