"""Result tables in the layout of seed 004 tables 2-4: one table per attacker scenario, rows pooled / male /
female, columns method x strategy (EER % with its 95 % speaker-bootstrap interval), plus a pooled summary of every
metric with the trial counts, written to a RESULTS.md section `attack_<scenario>` with
pydeid.report.update_results_section; then `attack_summary` (scenario x method, pooled) and `attack_noise`
(paired bootstrap intervals of EER differences between scenarios: which differences are within noise)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from pydeid.io import FormatError

from .scenarios import ORDER as SCENARIO_ORDER
from .scenarios import LEGACY, SCENARIOS, SHIFTED

SCENARIO_TEXT = {k: f"{v.text} ({v.seed_ref})" for k, v in SCENARIOS.items()}
# pairs of scenarios whose EER difference is tested against the bootstrap noise (a - b, paired resamples)
COMPARISONS = [("semi-informed", "informed-same-draws"), ("lazy-informed", "semi-informed"),
               ("parameter-shifted", "semi-informed"), ("ignorant", "semi-informed"), ("ignorant", "lazy-informed")]
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


def eer_cell(sub: dict) -> str | None:
    """'23.15 [18.0, 29.3]': EER % and its 95 % interval (bootstrap over speakers)."""
    if not sub or sub.get("eer_pct") is None:
        return None
    ci = sub.get("eer_ci95_pct")
    return f"{sub['eer_pct']:.2f}" + (f" [{ci[0]:.1f}, {ci[1]:.1f}]" if ci else "")


def ci_note(runs: list[dict]) -> str:
    ci = next((m["info"].get("eer_ci") for m in runs if m["info"].get("eer_ci")), None)
    if not ci:
        return "no interval (scored without bootstrap)"
    return (f"[95 % interval: {ci['method']}; {ci['resamples']} resamples, seed {ci['seed']}]")


def train_count(m: dict, results_md: Path | None = None) -> tuple[int, int] | None:
    """(utterances, speakers) of the embeddings the attacker's back-end was trained on (its training data):
    the utt2spk beside info.train_xvectors, a path relative to the recipe (the working directory) or to
    RESULTS.md; None when it is not there."""
    d = m["info"].get("train_xvectors")
    if not d:
        return None
    d = Path(d)
    for p in [d] + ([results_md.parent / d] if results_md is not None and not d.is_absolute() else []):
        if (p / "utt2spk").is_file():
            spk = [ln.split()[1] for ln in (p / "utt2spk").read_text().splitlines() if len(ln.split()) > 1]
            return len(spk), len(set(spk))
    return None


def train_note(runs: list[dict], orig: tuple[int, int] | None, results_md: Path | None = None) -> str:
    """What the attackers that train on converted speech were given, counted from their data: the scenario text
    says what VoicePrivacy 2024 gives (all the training utterances), this says what this run gave."""
    counts = {train_count(m, results_md) for m in runs} - {None}
    if len(counts) != 1:
        return ""
    n, spk = counts.pop()
    txt = f"Here the attacker trains on {n} converted utterances of {spk} training speakers"
    if orig and orig[0] > n:
        txt += (f" ({n / spk:.3g} per speaker), a part of the {orig[0]} original training utterances the "
                f"original-speech attacker trains on; VoicePrivacy 2024's semi-informed attacker converts all of "
                f"them, and more training data makes a stronger attacker: read this EER as likely above that "
                f"attacker's")
    return txt + "."


def scenario_section(runs: list[dict], backend: str, results_md: Path | None = None,
                     orig_train: tuple[int, int] | None = None) -> str:
    """Markdown body for one scenario from its runs (metrics.json dicts); `orig_train`: (utterances, speakers)
    of the original-speech attacker's training data."""
    from pydeid.report import markdown_table
    runs = sorted(runs, key=_column_key)
    scenario = runs[0]["info"].get("scenario") or "original"
    heads = [column_label(m) for m in runs]
    rows = []
    for key, label in SUBSET_ROWS:
        rows.append([label] + [eer_cell(m["backends"].get(backend, {}).get(key, {})) for m in runs])
    parts = []
    for key, label in SUBSET_ROWS:
        c = {tuple(m["backends"].get(backend, {}).get(key, {}).get(k) for k in ("n_target", "n_nontarget",
                                                                             "n_speakers")) for m in runs}
        if len(c) == 1:
            t, n, spk = c.pop()
            if t is not None:
                parts.append(f"{label.lower()} {t} target / {n} non-target" + (f", {spk} speakers" if spk else ""))
        else:
            parts.append(f"{label.lower()}: per column below")
    count_txt = "; ".join(parts)
    sc = SCENARIOS.get(scenario)
    note = train_note(runs, orig_train, results_md) if sc is not None and sc.train == "converted" else ""
    body = [f"Scenario: {SCENARIO_TEXT.get(scenario, scenario)}." + (f" {note}" if note else ""),
            f"EER (%) with {backend.upper() if backend == 'plda' else backend} scoring {ci_note(runs)}; "
            "columns: voice transformation method and target-selection strategy (S1 one fixed target, "
            "S2 one target per speaker, S3 one per utterance). Trials: " + (count_txt or "-") + ".", "",
            markdown_table(["Subset"] + heads, rows)]
    if scenario == "parameter-shifted":
        body += ["", "Shifted parameter values: " + "; ".join(f"{METHOD_NAMES.get(k, k)}: {v}"
                                                             for k, v in SHIFTED.items()) + "."]
    detail = []
    for m in runs:
        b = m["backends"]
        pooled = lambda name, k: b.get(name, {}).get("pooled", {}).get(k)  # noqa: E731
        pitch = m.get("pitch", {}).get("pitch_correlation")
        detail.append([column_label(m), eer_cell(b.get("cosine", {}).get("pooled")),
                       eer_cell(b.get("plda", {}).get("pooled")),
                       pooled(backend, "min_dcf_p0.01"), pooled(backend, "min_dcf_p0.05"),
                       pooled(backend, "linkability"), pooled(backend, "acc_pct"), pitch,
                       f"{pooled(backend, 'n_target')}/{pooled(backend, 'n_nontarget')}"])
    body += ["", f"Pooled, every metric ({backend} unless named; minDCF normalised, C_miss = C_fa = 1; "
             "linkability D_sys as in the VoicePrivacy Challenge 2022; ACC = closed-set identification of trial "
             "utterances among the enrolled speakers; rho_F0 = pitch correlation original vs converted):", "",
             markdown_table(["Method", "EER cos % [95 % CI]", "EER PLDA % [95 % CI]", "minDCF 0.01", "minDCF 0.05", "Linkability",
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
        sc = m["info"].get("scenario") or "original"
        sc = LEGACY.get(sc, sc)
        m["info"]["scenario"] = sc
        groups.setdefault(sc, []).append(m)
    out = {}
    orig_train = next((c for c in (train_count(m, results_md) for m in groups.get("original", [])) if c), None)
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
        body = scenario_section(groups[scenario], backend, results_md, orig_train)
        update_results_section(results_md, f"attack_{scenario}", body,
                               title=f"Privacy: x-vector attacker, {scenario}")
        out[scenario] = body
    if not scenarios:
        summary, noise = summary_sections(groups, backend)
        update_results_section(results_md, "attack_summary", summary,
                               title="Privacy: EER (%) per attacker scenario, pooled")
        update_results_section(results_md, "attack_noise", noise,
                               title="Privacy: which EER differences are within noise")
        out["summary"], out["noise"] = summary, noise
    return out


def _paired_ci(a: dict, b: dict) -> tuple[float, float] | None:
    """95 % interval of EER(a) - EER(b) from the paired speaker resamples (same trial list, seed, count)."""
    import numpy as np
    from .metrics import percentile_ci
    ba, bb = a.get("eer_boot_pct"), b.get("eer_boot_pct")
    if not ba or not bb or len(ba) != len(bb):
        return None
    x = np.array([np.nan if v is None else v for v in ba]) - np.array([np.nan if v is None else v for v in bb])
    return percentile_ci(x)


def summary_sections(groups: dict[str, list[dict]], backend: str) -> tuple[str, str]:
    """Scenario x method table of pooled EERs with intervals, and the paired differences between scenarios."""
    from pydeid.report import markdown_table
    cols = []
    for sc in groups:
        for m in sorted(groups[sc], key=_column_key):
            if sc != "original" and column_label(m) not in cols:
                cols.append(column_label(m))
    cell = {(sc, column_label(m)): m for sc in groups for m in groups[sc]}
    order = sorted(groups, key=lambda s: SCENARIO_ORDER.index(s) if s in SCENARIO_ORDER else 99)
    rows = []
    for sc in order:
        if sc == "original":
            continue
        rows.append([sc] + [eer_cell(cell[sc, c]["backends"].get(backend, {}).get("pooled"))
                            if (sc, c) in cell else None for c in cols])
    runs = [m for g in groups.values() for m in g]
    base = next((m for m in groups.get("original", [])), None)
    base_txt = ""
    if base is not None:
        base_txt = (f" No conversion (original attacker): {eer_cell(base['backends'].get(backend, {}).get('pooled'))}"
                    ".")
    summary = "\n".join([
        f"EER (%) pooled, {backend} scoring {ci_note(runs)}.{base_txt} Rows: "
        "ignorant = seed 004 scenario 1 (table 3), lazy-informed = VoicePrivacy Challenge, semi-informed = VoicePrivacy "
        "Challenge 2024 and seed 004 scenario 2 (table 4, own draws; formerly 'informed'), parameter-shifted = seed "
        "004 scenario 3, informed-same-draws = the semi-informed attacker holding the publisher's secret draws (extra row).", "",
        markdown_table(["scenario"] + cols, rows)])
    nrows = []
    for a, b in COMPARISONS:
        if a not in groups or b not in groups:
            continue
        row = [f"{a} - {b}"]
        for c in cols:
            if (a, c) not in cell or (b, c) not in cell:
                row.append(None)
                continue
            ma, mb = cell[a, c], cell[b, c]
            ka, kb = ma["info"].get("eer_ci", {}).get("key"), mb["info"].get("eer_ci", {}).get("key")
            pa, pb = ma["backends"].get(backend, {}).get("pooled", {}), mb["backends"].get(backend, {}).get("pooled", {})
            if pa.get("eer_pct") is None or pb.get("eer_pct") is None:
                row.append(None)
                continue
            d = pa["eer_pct"] - pb["eer_pct"]
            ci = _paired_ci(pa, pb) if ka and ka == kb else None
            if ci is None:
                row.append(f"{d:+.1f} (no paired interval)")
            else:
                tag = "noise" if ci[0] <= 0 <= ci[1] else "**real**"
                row.append(f"{d:+.1f} [{ci[0]:+.1f}, {ci[1]:+.1f}] {tag}")
        nrows.append(row)
    noise = "\n".join([
        f"Difference of pooled EER (percentage points, {backend}) between two scenarios on the same published "
        "trials, with the 95 % interval of the paired speaker bootstrap (the same speaker resamples for both "
        "attacks): 'noise' when the interval contains 0, '**real**' when it does not. The intervals cover the "
        "choice of test speakers only; the attackers' own randomness (training seed, draws) adds to it.", "",
        markdown_table(["difference"] + cols, nrows) if nrows else "(no pair of scenarios to compare)"])
    return summary + "\n", noise + "\n"
