"""RESULTS.md sections of the pretrained (GE2E) attacker on egs/speechocean762/s5: its grid (every scenario and
back-end, EER [95 %] / D_sys, G_VD), the methods ranked under the strongest attacker (GE2E and the trained
attackers of a previous run's grid), the convergence curves and the collapse check.

    python ../../../bench/ge2e_results.py --fe energy --results RESULTS.md \
        --trained-ranking "phone classes=26.7 [20.9, 31.1]:ECAPA cosine, VAD" ...     (from s5/)
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

VS = ("voicemask", "vtln1", "vtln2", "vtln3", "mcadams", "vtln3_ufvphanycmnw")
ROWS = ("semi-informed", "lazy-informed", "ignorant")
B = ("cosine", "lda", "plda")
BL = {"cosine": "cosine", "lda": "LDA+cosine", "plda": "PLDA"}


def cell(p: dict | None, gvd: bool = True) -> str:
    if not p or p.get("eer_pct") is None:
        return "not run"
    ci = p.get("eer_ci95_pct")
    s = f"{p['eer_pct']:.1f}" + (f" [{ci[0]:.1f}, {ci[1]:.1f}]" if ci else "")
    s += f" / {p['linkability']:.2f}" if p.get("linkability") is not None else " / n/a"
    if gvd and p.get("gvd_db") is not None:
        s += f" / {p['gvd_db']:+.1f} dB"
    return s


def main() -> None:
    from pydeid.report.speechocean_attacks import LABEL
    from pydeid.report.tables import markdown_table, update_results_section

    ap = argparse.ArgumentParser()
    ap.add_argument("--fes", default="energy")
    ap.add_argument("--results", default="RESULTS.md")
    ap.add_argument("--how", required=True, help="how the run was made (one paragraph)")
    ap.add_argument("--notes", default="", help="a closing paragraph of the checks section")
    ap.add_argument("--trained", default="", help="JSON file: v -> [eer, lo, hi, attacker] of the trained attackers")
    a = ap.parse_args()
    fes = a.fes.split()
    grid = {}
    for fe in fes:
        for d in Path(f"exp/attack/ge2e_{fe}").glob("*/scores/metrics.json"):
            m = json.loads(d.read_text())
            grid[(fe, d.parent.parent.name)] = {b: p["pooled"] for b, p in m["backends"].items()}
    cols = [(fe, b) for fe in fes for b in B]
    fel = {"energy": "VAD", "none": "no VAD"}
    hdr = ["method", "scenario"] + [f"GE2E {BL[b]}, {fel[fe]}" for fe, b in cols]
    rows = [["original", "original speech"] + [cell(grid.get((fe, "original"), {}).get(b)) for fe, b in cols]]
    for v in VS:
        for r in ROWS:
            rows.append([LABEL.get(v, v), r] + [cell(grid.get((fe, f"{r}_{v}"), {}).get(b)) for fe, b in cols])
    counts = next((p for g in grid.values() for p in g.values()), {})
    grid_md = markdown_table(hdr, rows) + (
        f"\nEER (%) [95 % speaker-bootstrap interval, 1000 resamples] / linkability D_sys / G_VD (dB; VoicePrivacy "
        f"2020 gain of voice distinctiveness, converted vs original trial utterances under the same attacker and "
        f"back-end; PLDA's LLRs saturate the sigmoid, so its G_VD is far more negative than cosine's), pooled over "
        f"{counts.get('n_target')} target + {counts.get('n_nontarget')} same-gender non-target trials of the 30 "
        f"test speakers. {a.how}\n")
    update_results_section(a.results, "so-ge2e", grid_md,
                           "The pretrained attacker (GE2E, resemblyzer's shipped weights): every method and scenario")

    # ranking: the strongest of GE2E (any back-end, front-end) and the trained attackers' strongest
    trained = json.loads(Path(a.trained).read_text()) if a.trained else {}
    rank = []
    for v in VS:
        cands = []
        for fe in fes:
            for b in B:
                p = grid.get((fe, f"semi-informed_{v}"), {}).get(b)
                if p and p.get("eer_pct") is not None:
                    cands.append((p["eer_pct"], f"GE2E {BL[b]}, {fel[fe]}", p))
        if v in trained:
            e, lo, hi, who = trained[v]
            cands.append((e, f"{who} (trained; previous run)", {"eer_pct": e, "eer_ci95_pct": [lo, hi]}))
        if cands:
            rank.append((v, min(cands, key=lambda c: c[0])))
    rank.sort(key=lambda x: -x[1][0])
    rows = [[i + 1, LABEL.get(v, v), who, cell(p), f"{e - 35.0:+.1f}"] for i, (v, (e, who, p)) in enumerate(rank)]
    orig = [(p["eer_pct"], f"GE2E {BL[b]}, {fel[fe]}", p) for fe in fes for b, p in grid.get((fe, "original"), {}).items()]
    o = min(orig, key=lambda c: c[0]) if orig else None
    rank_md = markdown_table(["rank", "method", "strongest attacker (semi-informed)", "EER [95 %] / D_sys / G_VD",
                              "vs 35 % aim"], rows) + (
        f"\nStrongest attacker per method: the lowest semi-informed EER among the pretrained GE2E attacker (cosine, "
        f"LDA + whitening + cosine, PLDA; {', '.join(fel[f] for f in fes)}) and the trained x-vector / ECAPA "
        f"attackers' strongest (the ranking above, a previous run of the same recipe and seeds). Original speech "
        f"under GE2E: {cell(o[2]) if o else 'n/a'} ({o[1] if o else ''}). {a.how}\n")
    update_results_section(a.results, "so-ge2e-ranking", rank_md,
                           "Methods ranked under the strongest attacker, the pretrained one included (semi-informed)")

    checks = []
    conv = Path("exp/convergence/original.json")
    if conv.is_file():
        c = json.loads(conv.read_text())
        rows = []
        for name, m in c["models"].items():
            for h in m["history"]:
                rows.append([name, h["epoch"], "-" if h.get("train_acc") is None else f"{100 * h['train_acc']:.1f}",
                             f"{h['dev_eer_pct']:.2f}"])
        checks.append(
            f"Convergence on held-out TRAIN speakers ({c['data']}, original speech, front-end {c['vad']}): each "
            f"attacker trained on the other {30 - len(c['dev_speakers'])} train speakers, after every epoch the "
            f"training accuracy (%) and the EER (%) of all pairs of the {len(c['dev_speakers'])} held-out speakers' "
            f"utterances (cosine; no test speaker involved). ge2e = fine-tuning of the pretrained encoder's last LSTM "
            f"layer and projection (epoch 0: as shipped); xvector / ecapa = conf/xvector/mini.yaml / ecapa_mini.yaml "
            f"from scratch (their epochs: the recipe's).\n\n"
            + markdown_table(["attacker", "epoch", "train acc (%)", "held-out pair EER (%)"], rows)
            + "\nCPU: " + "; ".join(f"{n} {m['cpu_seconds']:.0f} CPU-s" for n, m in c["models"].items()) + ".\n")
    col = Path(f"exp/attack/ge2e_{fes[0]}/collapse_check.json")
    if col.is_file():
        c = json.loads(col.read_text())
        rows = []
        for v, m in c["methods"].items():
            pv = m["pseudo_voices"].get("targets")
            si = m.get("semi_informed", {})
            po = m.get("semi_informed_pooled_backend", {})
            f = lambda d, b: "n/a" if b not in d else f"{d[b]['eer_pct']:.1f}"  # noqa: E731
            rows.append([LABEL.get(v, v), "-" if pv is None else pv, f"{m['loo_id_pct']:.1f}",
                         f"{m['train_gvd_db']:+.2f}", f(si, "cosine"), f(si, "lda"), f(si, "plda"), f(po, "lda"),
                         f(po, "plda")])
        checks.append(
            "Collapsed training data (arXiv 2507.22534): per method, the distinct VTLN target voices in the "
            "attacker's 600 converted training utterances (his voice plan), the leave-one-out identification (%) of "
            f"the 30 training speakers among themselves from those utterances (GE2E cosine; original speech: "
            f"{c['original_train']['loo_id_pct']:.1f} %), their G_VD against the original training utterances, and the "
            "semi-informed EER (%) with the back-ends trained on them (cosine: nothing trained) beside the same "
            f"attacker with a back-end trained on MORE voices: the converted training data of every method measured "
            f"pooled with the original ({c['pooled_backend']['utterances']} utterances, "
            f"{c['pooled_backend']['classes']} classes).\n\n"
            + markdown_table(["method", "pseudo-voices", "LOO id (%)", "train G_VD (dB)", "semi cosine",
                              "semi LDA", "semi PLDA", "pooled LDA", "pooled PLDA"], rows))
    if a.notes:
        checks.append(a.notes)
    if checks:
        update_results_section(a.results, "so-ge2e-checks", "\n\n".join(checks),
                               "Do not fool yourselves: convergence, a second back-end, collapsed training data")


if __name__ == "__main__":
    main()
