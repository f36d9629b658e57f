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


def _short(info: dict) -> str:
    """A type's epsilon in a table cell: 'n.c.' (not covered), 'inf', or 3 significant digits."""
    if not info.get("covered", True) or info.get("epsilon") is None:
        return "n.c."
    v = info.get("epsilon")
    if v in ("inf", "Infinity") or v == float("inf"):
        return "inf" + (" (seed 000: 0)" if info.get("seed000") == 0 else "")
    return f"{float(v):.3g}"


def transform_table(named_reports: list[tuple[str, str]]) -> str:
    headers = ["output", "strategies", "p", "detection recall", "epsilon (eq. 2) at p_eff",
               "epsilon per type"] + \
        [f"{t} leak" for t in TYPES] + ["leak rate"]
    rows = []
    notes: dict[str, str] = {}
    for name, path in named_reports:
        r = _load(path)
        strat = ", ".join(f"{k}={v}" for k, v in sorted(r["strategies"].items()))
        det = r.get("detection") or {}
        ov = det.get("epsilon_effective") or r["overall"]
        eps = ov.get("text") or (_eps(ov.get("epsilon")) if ov.get("covered") else "not covered")
        if "recall_all" in det:
            rec = f"{100 * det['recall_all']:.1f} %"
            if det["recall_all"] < 1:
                pe = det.get("p_eff", {})
                eps += f" (p_eff {min(pe.values()):.3f}-{max(pe.values()):.3f})" if pe else ""
        else:
            rec = "assumed 100 %"
        per_type = det.get("types_effective") or r.get("types", {})
        pt = "; ".join(f"{t} {_short(info)}" for t, info in sorted(per_type.items()))
        leak = r.get("leak") or {}
        per = leak.get("per_type", {})
        rows.append([name, strat, r["p"], rec, eps, pt] + [per.get(t, None) if per else None for t in TYPES]
                    + [leak.get("leak_rate")])
        for t, info in (det.get("types_effective") or r.get("types", {})).items():
            if not info.get("covered", True) or info.get("epsilon") == "inf":
                notes[r.get("types", {}).get(t, {}).get("strategy", info.get("strategy", t))] = info.get("note", "")
    out = markdown_table(headers, [[c * 100 if isinstance(c, float) and i >= 6 else c for i, c in enumerate(row)]
                                   for row in rows], ".1f")
    out += ("\nLeak = % of the distinct original entity words of that type (of the tags given, or of --gold-tags) "
            "found anywhere in the output text, in any utterance (words of closed classes -- function words, "
            "number, month and weekday words, single letters -- not counted; docs/surrogates.md); '-' when the "
            "output was made from gold tags without a separate check. Epsilon is the seed 000 eq. (2) bound of the "
            "policy actually used (the maximum over types) at the effective replacement probability p_eff = p x the "
            "detector's recall of gold sensitive tokens, per type (seed 000 section 3: the recall bounds p); with "
            "gold tags the recall is 100 % by construction, 'assumed 100 %' = no gold to measure it (the epsilon "
            "assumes perfect detection). 'not covered' means the lemma does not apply, so no finite guarantee is "
            "claimed. '(seed 000: 0)': redact and placeholders, which seed 000 section 3 rates epsilon = 0 (a "
            "replaced token reveals nothing of its original) while the strict eq. (2) gives inf at p < 1 (a "
            "surviving original is recognisable as such). 'epsilon per type': each type under the operator it "
            "actually gets (names and places: eq. 2 of the same-type pool; numbers, identifiers, e-mails, amounts: "
            "generated values, a redraw among the other values of their class, i.e. randomized response with "
            "epsilon = |log((1-p)(n-1)/p)|, infinite at p = 1 where an output rules its own original out), at that "
            "type's p_eff; 'n.c.' = not covered. The corpus value is the maximum over types because two "
            "neighbouring datasets differ in one private token, of any type, and the bound must hold for every "
            "such pair: seed 000 section 3 takes the maximum over the private tokens (eq. 2).\n")
    for s, note in sorted(notes.items()):
        out += f"\n- `{s}`: {note}"
    return out + "\n"
