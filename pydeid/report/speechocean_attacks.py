"""The attacker grid of egs/speechocean762/s5 (stage 7): every method under every attacker (x-vector with PLDA and
cosine scoring, ECAPA-TDNN with cosine scoring, the pretrained GE2E encoder with cosine, LDA + cosine and PLDA) and
front-end (energy VAD, none), per VoicePrivacy scenario (semi-informed first, lazy-informed, ignorant, then the
extra rows), EER with its 95 % speaker-bootstrap interval and the linkability D_sys; then the methods ranked under
the strongest attacker (the lowest semi-informed EER across every attacker, back-end and front-end), with their distance to the aims (35 % EER at <= +20 % relative WER) and to
VoicePrivacy 2024's best baseline B5 (34.3 % semi-informed EER).

Reads exp/attack<tag>/<model>_<front-end>/<scenario>_<v>/scores/metrics.json (steps/attack.sh), the WER of the
recipe's primary meter from the report of speechocean_report, and exp/attack<tag>/<model>_<front-end>/
{xvector_original,semi-informed_<v>/xvector_nnet}/train_summary.json (training CPU).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from .tables import markdown_table

LABEL = {"voicemask": "VoiceMask", "vtln1": "VTLN S1", "vtln2": "VTLN S2", "vtln3": "VTLN S3", "mcadams": "McAdams",
         "vtln3_ufvphanycmnw": "phone classes (vtln3_ufvphanycmnw)", "frame_select": "frame selection",
         "frame_selectseg": "frame selection, phone segments (frame_selectseg)"}
MODEL_LABEL = {"xvector": "x-vector", "ecapa": "ECAPA", "ge2e": "GE2E (pretrained)"}
FE_LABEL = {"energy": "VAD", "none": "no VAD"}
# the attack columns: (model, back-end); ECAPA is scored by cosine as in VoicePrivacy 2024; the pretrained GE2E
# encoder by cosine, LDA + within-speaker whitening + cosine ("lda") and PLDA, the last two trained on the
# attacker's (converted) training data
COLUMNS = (("xvector", "plda"), ("xvector", "cosine"), ("ecapa", "cosine"), ("ge2e", "cosine"), ("ge2e", "lda"),
           ("ge2e", "plda"))
BACKEND_LABEL = {"plda": "PLDA", "cosine": "cosine", "lda": "LDA+cosine"}
ROWS = ("semi-informed", "lazy-informed", "ignorant", "semi-informed-shared-target", "parameter-shifted",
        "informed-same-draws")
EXTRA_ROWS = ("parameter-shifted", "informed-same-draws")
ROW_TEXT = {
    "semi-informed": "semi-informed",
    "lazy-informed": "lazy-informed",
    "ignorant": "ignorant",
    "semi-informed-shared-target": "semi-informed, enrolment sharing the trials' targets (variant)",
    "parameter-shifted": "parameter-shifted (extra)",
    "informed-same-draws": "informed-same-draws (extra)",
}
AIM_EER, AIM_WER_REL, B5_EER = 35.0, 20.0, 34.3


def _metrics(path: Path) -> dict | None:
    return json.loads(path.read_text()) if path.is_file() else None


def read_grid(adir: Path, vs: list[str], attackers: list[str], front_ends: list[str]) -> dict:
    """(model, front-end, backend, row name) -> pooled figures (eer, ci, dsys, counts, bootstrap resamples)."""
    grid = {}
    for am in attackers:
        for fe in front_ends:
            d = adir / f"{am}_{fe}"
            names = ["original"] + [f"{r}_{v}" for v in vs for r in ROWS]
            for name in names:
                m = _metrics(d / name / "scores" / "metrics.json")
                if m is None:
                    continue
                for b, per in m["backends"].items():
                    p = per["pooled"]
                    grid[(am, fe, b, name)] = {
                        "eer": p.get("eer_pct"), "ci": p.get("eer_ci95_pct"), "dsys": p.get("linkability"),
                        "n_target": p.get("n_target"), "n_nontarget": p.get("n_nontarget"),
                        "boot": p.get("eer_boot_pct"), "gvd": p.get("gvd_db")}
    return grid


def training_cpu(adir: Path, attackers: list[str], front_ends: list[str]) -> dict:
    """(model, front-end) -> {"original": CPU s, "semi": [CPU s of each semi-informed training]} from the
    train_summary.json of each model (the training alone: embedding and scoring are in the stage's total)."""
    out = {}
    for am in attackers:
        for fe in front_ends:
            d = adir / f"{am}_{fe}"
            rec = {"original": None, "semi": [], "epochs": None, "utterances": None}
            s = d / "xvector_original" / "train_summary.json"
            if s.is_file():
                j = json.loads(s.read_text())
                rec["original"], rec["epochs"], rec["utterances"] = j.get("cpu_seconds"), j.get("epochs"), \
                    j.get("utterances")
            for f in sorted(d.glob("semi-informed_*/xvector_nnet/train_summary.json")):
                c = json.loads(f.read_text()).get("cpu_seconds")
                if c is not None:
                    rec["semi"].append(c)
            out[(am, fe)] = rec
    return out


def _cell(r: dict | None) -> str:
    if r is None or r.get("eer") is None:
        return "not run"
    ci = r.get("ci")
    s = f"{r['eer']:.1f}" + (f" [{ci[0]:.1f}, {ci[1]:.1f}]" if ci else "")
    return s + (f" / {r['dsys']:.2f}" if r.get("dsys") is not None else " / n/a")


def _diff_ci(a: dict, b: dict) -> tuple[float, float] | None:
    """95 % interval of EER(a) - EER(b) from the paired speaker-bootstrap resamples (same trials, same seed)."""
    if not a.get("boot") or not b.get("boot") or len(a["boot"]) != len(b["boot"]):
        return None
    x = np.array([np.nan if v is None else v for v in a["boot"]], float)
    y = np.array([np.nan if v is None else v for v in b["boot"]], float)
    d = (x - y)[np.isfinite(x - y)]
    if len(d) < 10:
        return None
    return float(np.percentile(d, 2.5)), float(np.percentile(d, 97.5))


def render_grid(grid: dict, vs: list[str], attackers: list[str], front_ends: list[str], wer: dict,
                wer_label: str) -> str:
    cols = [(am, b, fe) for fe in front_ends for am, b in COLUMNS if am in attackers]
    hdr = ["method", "attacker scenario", f"WER ({wer_label})"] + \
          [f"{MODEL_LABEL[am]} {BACKEND_LABEL[b]}, {FE_LABEL[fe]}" for am, b, fe in cols]
    rows = [["original (no conversion)", "original speech", wer.get("") or "n/a"] +
            [_cell(grid.get((am, fe, b, "original"))) for am, b, fe in cols]]
    # the extra rows belong to one attacker and front-end (run.sh --extra-rows-front-end, the first attacker): in
    # the other columns they are not part of the design ("-"); "not run" stays for a cell the design has
    extra_cols = {(k[0], k[1]) for k in grid if k[3].split("_")[0] in EXTRA_ROWS}
    for v in vs:
        for r in ROWS:
            cells = [grid.get((am, fe, b, f"{r}_{v}")) for am, b, fe in cols]
            if all(c is None for c in cells):
                continue   # a variant or an extra row not run for this method
            shown = ["-" if c is None and r in EXTRA_ROWS and (am, fe) not in extra_cols else _cell(c)
                     for c, (am, b, fe) in zip(cells, cols)]
            rows.append([LABEL.get(v, v), ROW_TEXT[r], wer.get(v) or "n/a"] + shown)
    return markdown_table(hdr, rows)


def strongest(grid: dict, name: str, attackers: list[str], front_ends=("energy", "none")) -> tuple[tuple, dict] | None:
    """The attack (model, back-end, front-end) with the lowest EER for this row across every attacker and
    front-end (ties: the first column, the first front-end)."""
    best = None
    for fe in front_ends:
        for am, b in COLUMNS:
            if am not in attackers:
                continue
            r = grid.get((am, fe, b, name))
            if r is None or r.get("eer") is None:
                continue
            if best is None or r["eer"] < best[1]["eer"]:
                best = ((am, b, fe), r)
    return best


def render_ranking(grid: dict, vs: list[str], attackers: list[str], wer_pct: dict, wer_ci: dict,
                   wer_label: str, front_ends=("energy", "none")) -> tuple[str, list[dict]]:
    """Methods ranked by the semi-informed EER of the strongest attacker (every model, back-end and front-end;
    highest first)."""
    ranked = []
    w0 = wer_pct.get("")
    for v in vs:
        # speaker-level draws: the variant whose enrolment shares the trials' targets counts too (a real attacker
        # would take the published enrolment rather than lose on a mismatch)
        cands = [(row, strongest(grid, f"{row}_{v}", attackers, front_ends))
                 for row in ("semi-informed", "semi-informed-shared-target")]
        cands = [(row, s) for row, s in cands if s is not None]
        if not cands:
            continue
        row, ((am, b, fe), r) = min(cands, key=lambda c: c[1][1]["eer"])
        rel = None if (w0 is None or wer_pct.get(v) is None) else 100 * (wer_pct[v] - w0) / w0
        ranked.append({"v": v, "attacker": f"{MODEL_LABEL[am]} {BACKEND_LABEL[b]}, {FE_LABEL[fe]}"
                       + (" (shared-target variant)" if row != "semi-informed" else ""),
                       "r": r, "wer_rel": rel})
    ranked.sort(key=lambda x: -x["r"]["eer"])
    rows = []
    for i, x in enumerate(ranked):
        r = x["r"]
        d = _diff_ci(ranked[0]["r"], r) if i else None
        gap = r["eer"] - AIM_EER
        rows.append([i + 1, LABEL.get(x["v"], x["v"]), x["attacker"], _cell(r),
                     "" if i == 0 else f"{ranked[0]['r']['eer'] - r['eer']:+.1f}"
                     + (f" [{d[0]:+.1f}, {d[1]:+.1f}]" if d else ""),
                     f"{gap:+.1f}", f"{r['eer'] - B5_EER:+.1f}",
                     "n/a" if r.get("gvd") is None else f"{r['gvd']:.2f}",
                     wer_ci.get(x["v"]) or "n/a",
                     "n/a" if x["wer_rel"] is None else f"{x['wer_rel']:+.1f} % ({x['wer_rel'] - AIM_WER_REL:+.1f})"])
    md = markdown_table(["rank", "method", "strongest attacker", "semi-informed EER [95 %] / D_sys",
                         "behind the first (EER points, paired 95 %)", "vs 35 % aim", "vs B5 34.3 %", "G_VD (dB)",
                         f"WER ({wer_label})", f"WER change, relative (vs +{AIM_WER_REL:.0f} % aim)"], rows)
    return md, ranked


def attack_sections(exp: Path, vs: list[str], attackers: list[str], front_ends: list[str], wer_pct: dict,
                    wer_ci: dict, wer_label: str, counts: dict, attack_tag: str = "",
                    stage6: dict | None = None) -> dict[str, tuple[str, str]]:
    """RESULTS.md sections: key -> (title, markdown). wer_pct / wer_ci: v ("" = original) -> WER % / cell."""
    adir = exp / f"attack{attack_tag}"
    grid = read_grid(adir, vs, attackers, front_ends)
    out = {}
    tar, non = counts.get("trials_target"), counts.get("trials_nontarget")
    cost = training_cpu(adir, attackers, front_ends)
    cost_txt = []
    for (am, fe), rec in cost.items():
        if rec["original"] is None:
            continue
        semi = rec["semi"]
        cost_txt.append(f"{MODEL_LABEL[am]} {FE_LABEL[fe]}: {rec['epochs']} epochs on {rec['utterances']} "
                        f"utterances, {rec['original']:.0f} CPU-s (original-speech training)"
                        + (f", {np.mean(semi):.0f} CPU-s per semi-informed training ({len(semi)})" if semi else ""))
    st6 = ""
    if stage6:
        st6 = (f" Stage 6 in all (training, embedding and scoring of every attack): {stage6['cpu_s'] / 60:.1f} "
               f"CPU-min, {stage6['wall_s'] / 60:.1f} min of wall (exp/stage_times.tsv).")
    grid_md = render_grid(grid, vs, attackers, front_ends, wer_ci, wer_label) + (
        f"\nEER (%) [95 % speaker-bootstrap interval, {counts.get('bootstrap')} resamples] / linkability D_sys "
        f"(Maouche et al. 2020, as the VoicePrivacy Challenge computes it: histograms of the mated and non-mated "
        f"scores, min(#mated / 10, 100) bins, prior ratio 1), pooled over {tar} target + {non} same-gender "
        f"non-target trials of {counts.get('enroll_speakers')} enrolled test speakers. Attackers (trained from "
        f"scratch on the corpus's {counts.get('train_speakers', '?')} train speakers, no pretrained weights): x-vector = conf/xvector/mini.yaml "
        f"(speechbrain Xvector TDNN, 128 channels, AAM-softmax) scored by PLDA and cosine; ECAPA = "
        f"conf/xvector/ecapa_mini.yaml (speechbrain ECAPA_TDNN, 128 channels, 80 filterbanks, AAM-softmax) scored "
        f"by cosine as in VoicePrivacy 2024. Front-ends (training, enrolment and trials alike): VAD = Kaldi's "
        f"compute-vad energy decision (threshold 5.5 + 0.5 x mean log energy, proportion 0.12, context 2; "
        f"pydeid/attack/vad.py), non-speech frames dropped; no VAD = whole utterances. Scenarios (VoicePrivacy "
        f"names): semi-informed = trained on ALL the training utterances converted by the attacker (same method "
        f"and parameters, his own draws), enrolment converted by him; lazy-informed = original-trained, "
        f"enrolment converted by him; ignorant = original-trained and -enrolled. Variant (VTLN S1/S2, one target "
        f"per speaker and seed): the semi-informed model enrolled on the enrolment utterances converted with the "
        f"publisher's draws, as a corpus publishing enrolment and trials together would hold them (each "
        f"speaker's enrolment and trials share a target). Extra rows (the first attacker with one front-end; '-' "
        f"in the other columns: not part of the run): parameter-shifted and informed-same-draws, trained on the "
        f"--converted-train-per-spk subset. WER: the recipe's primary pocketsphinx meter on the utility subset. "
        f"CPU of the trainings: {'; '.join(cost_txt) or 'n/a'}.{st6}\n")
    out[f"so-attackers{attack_tag}"] = ("Every method under every attacker and front-end: EER / linkability", grid_md)
    rank_md, ranked = render_ranking(grid, vs, attackers, wer_pct, wer_ci, wer_label, front_ends)
    orig = strongest(grid, "original", attackers, front_ends)
    orig_txt = "n/a"
    if orig:
        (am, b, fe), r = orig
        orig_txt = f"{_cell(r)} ({MODEL_LABEL[am]} {BACKEND_LABEL[b]}, {FE_LABEL[fe]})"
    rank_md += (
        f"\nStrongest attacker: for each method the attack column whose semi-informed EER is the lowest across "
        f"every attacker, back-end and front-end of the grid ({', '.join(MODEL_LABEL[a] for a in attackers)}; "
        f"VAD and no VAD), for VTLN S1/S2 also in the variant row whose enrolment shares the trials' targets; the "
        f"minimum of several noisy estimates leans low. Original speech under the strongest attacker: EER "
        f"{orig_txt} (aim: <= 6 %). G_VD: gain of voice distinctiveness (VoicePrivacy 2020: 10 log10 of the "
        f"diagonal dominance of the converted trials' voice-similarity matrix over the original trials', both "
        f"under that attacker and back-end; 0 dB = as distinguishable, negative = voices merged). "
        f"'behind the first': the first "
        f"method's EER minus this one's, each under its own strongest attacker, with the 95 % interval of the "
        f"paired speaker bootstrap (same resampled speakers); an interval holding 0 is a difference within the "
        f"noise. 'vs 35 % aim' and 'vs B5 34.3 %': EER points above (+) or below (-) the aim and VoicePrivacy "
        f"2024's best baseline B5 (34.3 % semi-informed EER on LibriSpeech test with an ECAPA attacker trained on "
        f"360 h of anonymised LibriSpeech: a different protocol and a far stronger attacker; the comparison is of "
        f"orders of magnitude only). WER change: relative to original speech under the same meter (aim <= +{AIM_WER_REL:.0f} %; "
        f"in brackets how far from it). Not tuned on these speakers: the methods' parameters come from other data "
        f"(bench/results), the attackers' sizes and epochs from the run-time budget.\n")
    out[f"so-ranking{attack_tag}"] = ("Methods ranked under the strongest attacker (semi-informed; every attacker and front-end)",
                                       rank_md)
    return out
