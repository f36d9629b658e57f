"""Tables and the plot of the utility experiments: seed 000 table 2 layout, seed 002 protocol (delta), seed 000
figure 1 (utility against p and epsilon), SanText against epsilon with N_x / S_x (seed 003 §5.5)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Sequence

from pydeid.report import markdown_table

from .experiment import delta, intent_summary, ner_summary, slug
from .rows import Row, parse_row


def load_cells(exp_dir: str | Path) -> dict:
    """{dataset: {row spec: {seed: cell}}} from <exp>/<dataset>/<row>/seed<k>.json."""
    out: dict = {}
    for f in sorted(Path(exp_dir).glob("*/*/seed*.json")):
        c = json.loads(f.read_text())
        out.setdefault(c["dataset"], {}).setdefault(c["row"], {})[c["seed"]] = c
    return out


def _pct(m, s=None, ci=None) -> str:
    if m is None or (isinstance(m, float) and math.isnan(m)):
        return "-"
    t = f"{100 * m:.1f}"
    if s is not None:
        t += f" +- {100 * s:.1f}"
    if ci is not None:
        t += f" [{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]"
    return t


def _eps_text(info: dict) -> str:
    e = info.get("epsilon")
    if "guarantee" in info:
        return "eps*d-MLDP" if "UMLDP" not in info["guarantee"] else "UMLDP"
    if e is None:
        return "not covered"
    sup = info.get("epsilon_support")
    extra = f"; over pi's support: {sup:.3g}" if isinstance(sup, (int, float)) and sup != e else ""
    if e == "inf":
        s0 = info.get("epsilon_seed000")
        return "inf" + (f" (seed 000: {s0:g}{extra})" if s0 is not None else (f" ({extra[2:]})" if extra else ""))
    return f"{e:.3g}" + (f" ({extra[2:]})" if extra else "")


def _intent_cell(cells) -> str:
    if not cells:
        return "-"
    s = intent_summary(cells)
    return _pct(s["mean"], s["std"], s["ci95"])


def _ner_cell(cells) -> str:
    s = ner_summary(cells) if cells else None
    if s is None:
        return "-"
    return _pct(s["mean"], s["std"] if s["seeds"] > 1 else None) + ("" if s["seeds"] > 1 else " (1 seed)")


def table2(cells: dict, rows: Sequence[str], intent_datasets: Sequence[str], ner_datasets: Sequence[str]) -> str:
    """Seed 000 table 2: one row per strategy, one column per task and dataset."""
    heads = ["Replacement strategy"] + [f"{d.upper()} NER F1" for d in ner_datasets] + \
            [f"{d.upper()} ID accuracy" for d in intent_datasets]
    body = []
    for spec in rows:
        lab = parse_row(spec).label
        r = [lab] + [_ner_cell(cells.get(d, {}).get(spec)) for d in ner_datasets] + \
            [_intent_cell(cells.get(d, {}).get(spec)) for d in intent_datasets]
        body.append(r)
    return markdown_table(heads, body)


def protocol_table(cells: dict, dataset: str, rows: Sequence[str], task: str = "intent") -> str:
    """Seed 002 table 3 layout: M'(T'), M'(V), delta = M'(V) - M(V) paired by seed; mean +- std over seeds."""
    base = cells.get(dataset, {}).get("none", {})
    body = []
    for spec in rows:
        c = cells.get(dataset, {}).get(spec)
        if not c:
            continue
        info = next(iter(c.values()))["info"]
        if task == "intent":
            s = intent_summary(c)
            tr, te = _pct(s["train_mean"], s["train_std"]), _pct(s["mean"], s["std"], s["ci95"])
            n = s["seeds"]
        else:
            s = ner_summary(c)
            if s is None:
                continue
            tr, te, n = _pct(s["train_mean"]), _pct(s["mean"], s["std"]), s["seeds"]
        d = "-" if spec == "none" else _pct(*delta(c, base, task))
        body.append([parse_row(spec).label, _eps_text(info), tr, te, d, n])
    what = "accuracy" if task == "intent" else "micro F1"
    return markdown_table(["Training data", "epsilon (seed 000 eq. 2)", f"M'(T') {what}",
                           f"M'(V) {what} [95 % CI]", "delta = M'(V) - M(V)", "seeds"], body)


def curve_points(cells: dict, strategy: str, ps: Sequence[float]) -> list[dict]:
    """Points of seed 000 figure 1 for one strategy: p = 0 is the original text (epsilon = inf)."""
    pts = []
    for p in sorted(set(ps)):
        spec = "none" if p == 0 else (strategy if p == 1 else f"{strategy}@{p:g}")
        pt = {"strategy": strategy, "p": p, "spec": spec}
        for d, by_row in cells.items():
            c = by_row.get(spec)
            if not c:
                continue
            info = next(iter(c.values()))["info"]
            pt["epsilon"] = info.get("epsilon")
            pt["epsilon_seed000"] = info.get("epsilon_seed000")
            pt["epsilon_support"] = info.get("epsilon_support")
            s = intent_summary(c)
            pt[f"{d}_intent"] = (s["mean"], s["std"], s["ci95"])
            n = ner_summary(c)
            if n is not None:
                pt[f"{d}_ner"] = (n["mean"], n["std"], n["seeds"])
        pts.append(pt)
    return pts


def curve_table(points: list[dict], intent_datasets: Sequence[str], ner_datasets: Sequence[str]) -> str:
    heads = ["strategy", "p", "epsilon (eq. 2)"] + [f"{d.upper()} NER F1" for d in ner_datasets] + \
            [f"{d.upper()} ID accuracy" for d in intent_datasets]
    body = []
    for pt in points:
        e = pt.get("epsilon")
        et = "inf" if pt["p"] == 0 else _eps_text({"epsilon": e, "epsilon_seed000": pt.get("epsilon_seed000"),
                                                    "epsilon_support": pt.get("epsilon_support")})
        r = [pt["strategy"], f"{pt['p']:g}", et]
        for d in ner_datasets:
            v = pt.get(f"{d}_ner")
            r.append(_pct(v[0], v[1] if v[2] > 1 else None) if v else "-")
        for d in intent_datasets:
            v = pt.get(f"{d}_intent")
            r.append(_pct(*v) if v else "-")
        body.append(r)
    return markdown_table(heads, body)


def _plot_eps(pt):
    """The epsilon of a curve point on the plot: eq. 2 over the policy's support when the row has one (the
    strict value is inf as soon as one private unit is outside the pool), else the strict value."""
    sup = pt.get("epsilon_support")
    return sup if isinstance(sup, (int, float)) else pt.get("epsilon")


def curve_plot(points: list[dict], path: str | Path, intent_datasets: Sequence[str], ner_datasets: Sequence[str],
               title: str = "") -> Path:
    """Seed 000 figure 1: utility against p (left) and against epsilon (right; finite epsilon only)."""
    from pydeid.io import atomic_write
    from pydeid.report.plots import _pyplot
    plt = _pyplot()
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    colors = {"same_type": "tab:blue", "redact": "tab:red"}
    styles = {}
    for k, d in enumerate(ner_datasets):
        styles[f"{d}_ner"] = (":", "s", f"{d.upper()} NER F1")
    for k, d in enumerate(intent_datasets):
        styles[f"{d}_intent"] = (["-", "--", "-."][k % 3], "o", f"{d.upper()} ID acc.")
    for strat in dict.fromkeys(pt["strategy"] for pt in points):
        sp = [pt for pt in points if pt["strategy"] == strat]
        name = "word-by-word" if strat == "same_type" else strat
        for key, (ls, mk, lab) in styles.items():
            xs = [pt["p"] for pt in sp if key in pt]
            ys = [100 * pt[key][0] for pt in sp if key in pt]
            if xs:
                axes[0].plot(xs, ys, ls, marker=mk, color=colors.get(strat), label=f"{name}: {lab}")
            fin = [pt for pt in sp if key in pt and isinstance(_plot_eps(pt), (int, float)) and pt["p"] > 0]
            if fin:
                axes[1].plot([_plot_eps(pt) for pt in fin], [100 * pt[key][0] for pt in fin], ls, marker=mk,
                             color=colors.get(strat), label=f"{name}: {lab}")
    axes[0].set_xlabel("replacement probability p")
    axes[0].set_ylabel("utility on original test text (%)")
    axes[1].set_xlabel("epsilon (seed 000 eq. 2 over pi's support; finite values only)")
    for ax in axes:
        ax.grid(True, linewidth=0.3)
        ax.legend(fontsize=6)
    if title:
        fig.suptitle(title, fontsize=9)
    fig.tight_layout()
    path = Path(path)
    with atomic_write(path, "wb", encoding=None) as f:
        fig.savefig(f, format="png", dpi=110)
    plt.close(fig)
    return path


def santext_table(cells: dict, privacy: dict, rows: Sequence[str], intent_datasets: Sequence[str],
                  ner_datasets: Sequence[str]) -> str:
    """SanText rows: privacy statistics (N_x, S_x over the training vocabulary) and utility per epsilon."""
    heads = ["mechanism", "vectors", "eps", "dataset", "median d(x,y)", "N_x median (mean)", "S_x median",
             "tokens changed", "ID accuracy [95 % CI]", "delta ID", "NER F1"]
    body = []
    for spec in rows:
        row: Row = parse_row(spec)
        for d in intent_datasets:
            c = cells.get(d, {}).get(spec)
            pr = privacy.get(d, {}).get(spec, {})
            if not c:
                continue
            info = next(iter(c.values()))["info"]
            s = intent_summary(c)
            base = cells.get(d, {}).get("none", {})
            ner = _ner_cell(c) if d in ner_datasets else "-"
            body.append([f"SanText{'+' if row.plus else ''}", row.vectors, f"{row.epsilon:g}", d,
                         f"{pr['median_distance']:.3g}" if pr else "-",
                         f"{pr['N_x']['median']:.3f} ({pr['N_x']['mean']:.3f})" if pr else "-",
                         f"{pr['S_x']['median']:.0f}" if pr else "-",
                         f"{100 * info['changed'] / max(1, info['tokens']):.1f} %",
                         _pct(s["mean"], s["std"], s["ci95"]), _pct(*delta(c, base)), ner])
    return markdown_table(heads, body)


def santext_privacy(train, row: Row, runs: int = 50, seed: int = 0) -> dict:
    """N_x, S_x, S_y of a SanText row over the training vocabulary (runs draws per word) and the distance scale."""
    from .rows import build_santext, median_distance, word_vectors
    st = build_santext(row, train, seed)
    stats = st.privacy_stats(runs=runs)
    _, vecs = word_vectors([list(s.tokens) for s in train], row.vectors, seed=0)
    stats["median_distance"] = median_distance(vecs)
    return stats


__all__ = ["load_cells", "table2", "protocol_table", "curve_points", "curve_table", "curve_plot", "santext_table",
           "santext_privacy", "slug"]
