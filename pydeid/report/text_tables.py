"""RESULTS.md tables for the text side: tagger metrics (tag-entities + text-metrics JSON) and transformation
reports (transform-text report.json: strategy, epsilon of seed 000 eq. 2, leak rate)."""

from __future__ import annotations

import json
from pathlib import Path

from .tables import markdown_table

TYPES = ("PER", "ORG", "LOC", "DATE", "TIME", "NUM")


def _load(path) -> dict:
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def tagging_table(named_metrics: list[tuple[str, str]]) -> str:
    """Rows: one per (name, metrics.json); columns: exact F1 per type, ALL exact/partial F1, AON recall."""
    headers = ["tagger / input"] + [f"{t} F1" for t in TYPES] + ["ALL P", "ALL R", "ALL F1", "ALL F1 partial",
                                                                "all-or-nothing recall"]
    rows = []
    for name, path in named_metrics:
        m = _load(path)
        prf = m["prf"]
        row = [name] + [prf[t]["exact"][2] * 100 if t in prf else None for t in TYPES]
        p, r, f = prf["ALL"]["exact"]
        row += [p * 100, r * 100, f * 100, prf["ALL"]["partial"][2] * 100,
                m.get("all_or_nothing", {}).get("aon_recall", float("nan")) * 100]
        rows.append(row)
    return (markdown_table(headers, rows, ".1f")
            + "\nExact and partial-match F1 in % (seed 001); all-or-nothing recall per dialogue (seed 002).\n")


def _eps(v) -> str:
    if v is None:
        return "not covered"
    if v == float("inf") or v == "inf" or v == "Infinity":
        return "inf"
    return f"{float(v):.3f}"


def transform_table(named_reports: list[tuple[str, str]]) -> str:
    headers = ["output", "strategies", "p", "epsilon (eq. 2)"] + [f"{t} leak" for t in TYPES] + ["leak rate"]
    rows = []
    notes: dict[str, str] = {}
    for name, path in named_reports:
        r = _load(path)
        strat = ", ".join(f"{k}={v}" for k, v in sorted(r["strategies"].items()))
        ov = r["overall"]
        eps = _eps(ov.get("epsilon")) if ov.get("covered") else "not covered"
        leak = r.get("leak") or {}
        per = leak.get("per_type", {})
        rows.append([name, strat, r["p"], eps] + [per.get(t, None) if per else None for t in TYPES]
                    + [leak.get("leak_rate")])
        for t, info in r.get("types", {}).items():
            if not info.get("covered", True):
                notes[info["strategy"]] = info.get("note", "")
    out = markdown_table(headers, [[c * 100 if isinstance(c, float) and i >= 4 else c for i, c in enumerate(row)]
                                   for row in rows], ".1f")
    out += ("\nLeak = % of gold sensitive tokens of that type that survive in the output (gold tags), '-' when the "
            "output was made from gold tags without a separate check. Epsilon is the seed 000 eq. (2) bound of the "
            "policy actually used (the maximum over types); 'not covered' means the lemma does not apply, so no "
            "finite guarantee is claimed.\n")
    for s, note in sorted(notes.items()):
        out += f"\n- `{s}`: {note}"
    return out + "\n"
