"""Result tables over several decode dirs (seed 004 table 9 layout)."""

from __future__ import annotations

import json
from pathlib import Path

from pydeid.report import markdown_table


def parse_cell(spec: str) -> tuple[str, str, Path]:
    head, sep, path = spec.partition("=")
    row, sep2, col = head.partition(":")
    if not sep or not sep2 or not row or not col or not path:
        raise ValueError(f"expected ROW:COLUMN=DECODE_DIR, got {spec!r}")
    return row, col, Path(path)


def wer_cell(res: dict) -> str | None:
    """'42.25 [37.9, 46.6] (1491 w)': WER %, its 95 % interval (pydeid.asr.score) and the reference words."""
    if res.get("wer") is None:
        return None
    ci = res.get("wer_ci95")
    return f"{res['wer']:.2f}" + (f" [{ci[0]:.1f}, {ci[1]:.1f}]" if ci else "") + f" ({res['words']} w)"


def wer_table(cells: list[str], subset: str = "all") -> str:
    """Markdown table: one row per ROW, one column per COLUMN (in first-seen order), WER (%) of the subset with
    its 95 % interval and word count; '-' where a ROW:COLUMN pair is not given; an unscored decode dir is an
    error."""
    rows, cols, val = [], [], {}
    for spec in cells:
        row, col, d = parse_cell(spec)
        rows += [row] if row not in rows else []
        cols += [col] if col not in cols else []
        rj = d / "scoring" / "results.json"
        if not rj.exists():
            raise FileNotFoundError(f"{rj}: decode dir not scored (run steps/score.sh)")
        res = json.loads(rj.read_text())
        if subset not in res:
            raise KeyError(f"{rj}: no subset '{subset}' (have {', '.join(res)})")
        val[row, col] = wer_cell(res[subset])
    return markdown_table(["training data"] + cols, [[r] + [val.get((r, c)) for c in cols] for r in rows], ".2f")
