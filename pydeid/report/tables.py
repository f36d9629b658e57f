"""Markdown tables and RESULTS.md sections.

Each stage owns one section of a RESULTS.md, delimited by HTML comments, so stages can be rerun in any order
and only replace their own table.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Sequence

from pydeid.io.atomic import atomic_write_text


def _fmt(v, floatfmt: str) -> str:
    if v is None:
        return "-"
    if isinstance(v, float):
        return format(v, floatfmt)
    return str(v)


def markdown_table(headers: Sequence[str], rows: Sequence[Sequence], floatfmt: str = ".2f") -> str:
    cells = [[str(h) for h in headers]] + [[_fmt(v, floatfmt) for v in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    def line(r):
        return "| " + " | ".join(c.ljust(w) for c, w in zip(r, widths)) + " |"
    out = [line(cells[0]), "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
    out += [line(r) for r in cells[1:]]
    return "\n".join(out) + "\n"


def update_results_section(results_md: str | os.PathLike, key: str, body: str, title: str | None = None) -> None:
    """Insert or replace the section `key` of a RESULTS.md (atomic rewrite)."""
    path = Path(results_md)
    text = path.read_text(encoding="utf-8") if path.exists() else "# RESULTS\n"
    begin, end = f"<!-- begin {key} -->", f"<!-- end {key} -->"
    block = begin + "\n" + (f"## {title}\n\n" if title else "") + body.rstrip() + "\n" + end
    pattern = re.compile(re.escape(begin) + r".*?" + re.escape(end), re.S)
    if pattern.search(text):
        text = pattern.sub(lambda _m: block, text)
    else:
        text = text.rstrip() + "\n\n" + block + "\n"
    atomic_write_text(path, text)


def upsert_results_row(results_md: str | os.PathLike, key: str, headers: Sequence[str], row: Sequence[str],
                       title: str, footer: str = "") -> None:
    """Add `row` to the table of section `key`, replacing a row with the same first cell; other rows stay, so
    several runs (sets, aligners) accumulate in one table."""
    rows = []
    path = Path(results_md)
    if path.exists():
        m = re.search(rf"<!-- begin {re.escape(key)} -->(.*?)<!-- end {re.escape(key)} -->", path.read_text(), re.S)
        if m:
            for line in m.group(1).splitlines():
                cells = [c.strip() for c in line.strip().strip("|").split("|")]
                if line.startswith("|") and len(cells) == len(headers) and cells[0] not in (headers[0], row[0]) \
                        and not set(cells[0]) <= set("-"):
                    rows.append(cells)
    rows.append(list(row))
    update_results_section(results_md, key, markdown_table(headers, rows) + footer, title=title)
