"""Result tables in the layout of seed 004 tables 2-4: one table per attacker scenario, rows pooled / male /
female, columns method x strategy (EER %), plus a pooled summary of every metric, written to a RESULTS.md
section `attack_<scenario>` with pydeid.report.update_results_section."""

from __future__ import annotations

import json
import os
from pathlib import Path

from pydeid.io import FormatError

SCENARIO_TEXT = {
    "original": "no voice transformation: attacker trained, enrolled and tested on original speech (seed table 2)",
    "ignorant": "scenario 1, ignorant attacker: trained and enrolled on original speech, tested on the "
                "transformed trials (seed table 3)",
    "lazy-informed": "scenario 2, lazy-informed attacker: trained and enrolled on speech transformed with the "
                     "same method and parameters, tested on the transformed trials (seed table 4)",
    "semi-informed": "scenario 3, semi-informed attacker: trained and enrolled on speech transformed with the "
                     "same method but independently drawn random parameters/targets, tested on the transformed "
                     "trials",
}
SCENARIO_ORDER = ["original", "ignorant", "lazy-informed", "semi-informed"]
METHOD_NAMES = {"none": "Original", "original": "Original", "voicemask": "VoiceMask", "vtln": "VTLN",
                "mcadams": "McAdams", "stargan": "StarGAN"}
METHOD_ORDER = ["none", "original", "voicemask", "vtln", "stargan", "mcadams"]
SUBSET_ROWS = (("pooled", "Pooled"), ("male", "Male"), ("female", "Female"))


def load_score_dir(d: str | os.PathLike) -> dict:
    p = Path(d) / "metrics.json"
    if not p.is_file():
        raise FormatError(p, None, "no metrics.json: run steps/attack.sh (or pydeid score-trials) first")
    m = json.loads(p.read_text())
    m["_dir"] = str(Path(d))
    return m


def _column_key(m: dict):
    method = str(m["info"].get("method", "none")).lower()
    strategy = str(m["info"].get("strategy", "-"))
    rank = METHOD_ORDER.index(method) if method in METHOD_ORDER else len(METHOD_ORDER)
    return (rank, method, strategy)


def column_label(m: dict) -> str:
    method = str(m["info"].get("method", "none"))
    name = METHOD_NAMES.get(method.lower(), method)
    strategy = str(m["info"].get("strategy", "-"))
    return name if strategy in ("-", "", "None") else f"{name} S{strategy}"


def _pct(v):
    return None if v is None else float(v)


def scenario_section(runs: list[dict], backend: str, results_md: Path | None = None) -> str:
    """Markdown body for one scenario from its runs (metrics.json dicts)."""
    from pydeid.report import markdown_table
    runs = sorted(runs, key=_column_key)
    scenario = runs[0]["info"].get("scenario") or "original"
    heads = [column_label(m) for m in runs]
    rows = []
    for key, label in SUBSET_ROWS:
        rows.append([label] + [_pct(m["backends"].get(backend, {}).get(key, {}).get("eer_pct")) for m in runs])
    body = [f"Scenario: {SCENARIO_TEXT.get(scenario, scenario)}.",
            f"EER (%) with {backend.upper() if backend == 'plda' else backend} scoring; "
            "columns: voice transformation method and target-selection strategy (S1 one fixed target, "
            "S2 one target per speaker, S3 one per utterance).", "",
            markdown_table(["Subset"] + heads, rows)]
    detail = []
    for m in runs:
        b = m["backends"]
        pooled = lambda name, k: b.get(name, {}).get("pooled", {}).get(k)  # noqa: E731
        pitch = m.get("pitch", {}).get("pitch_correlation")
        detail.append([column_label(m), pooled("cosine", "eer_pct"), pooled("plda", "eer_pct"),
                       pooled(backend, "min_dcf_p0.01"), pooled(backend, "min_dcf_p0.05"),
                       pooled(backend, "linkability"), pooled(backend, "acc_pct"), pitch,
                       f"{pooled(backend, 'n_target')}/{pooled(backend, 'n_nontarget')}"])
    body += ["", f"Pooled, every metric ({backend} unless named; minDCF normalised, C_miss = C_fa = 1; "
             "linkability D_sys as in the VoicePrivacy Challenge 2022; ACC = closed-set identification of trial "
             "utterances among the enrolled speakers; rho_F0 = pitch correlation original vs converted):", "",
             markdown_table(["Method", "EER cos %", "EER PLDA %", "minDCF 0.01", "minDCF 0.05", "Linkability",
                             "ACC %", "rho_F0", "tar/non trials"], detail, floatfmt=".3f")]
    plots = []
    for m in runs:
        png = Path(m["_dir"]) / f"det_{backend}.png"
        if png.is_file():
            shown = os.path.relpath(png, results_md.parent) if results_md is not None else str(png)
            plots.append(f"[{column_label(m)}]({shown})")
    if plots:
        body += ["", "DET curves: " + ", ".join(plots)]
    return "\n".join(body) + "\n"


def write_tables(score_dirs: list, results_md: str | os.PathLike, backend: str = "plda",
                 scenarios: list[str] | None = None) -> dict[str, str]:
    """Group the score dirs by scenario and (re)write one RESULTS.md section per scenario."""
    from pydeid.report import update_results_section
    results_md = Path(results_md)
    groups: dict[str, list[dict]] = {}
    for d in score_dirs:
        m = load_score_dir(d)
        groups.setdefault(m["info"].get("scenario") or "original", []).append(m)
    out = {}
    order = sorted(groups, key=lambda s: SCENARIO_ORDER.index(s) if s in SCENARIO_ORDER else 99)
    for scenario in order:
        if scenarios and scenario not in scenarios:
            continue
        seen = {}
        for m in groups[scenario]:
            label = column_label(m)
            if label in seen:
                raise FormatError(Path(m["_dir"]) / "metrics.json", None, f"two runs of scenario {scenario} are "
                                  f"labelled '{label}' ({seen[label]} and {m['_dir']})")
            seen[label] = m["_dir"]
        body = scenario_section(groups[scenario], backend, results_md)
        update_results_section(results_md, f"attack_{scenario}", body,
                               title=f"Privacy: x-vector attacker, {scenario}")
        out[scenario] = body
    return out
