"""Reader and scorer of the bracket-annotated category sets (tests/text/data/categories_*.txt):
one sentence a line, spans written [TYPE tok tok], '#' lines are comments."""

from __future__ import annotations

import math
import re
from collections import Counter
from pathlib import Path


def parse_line(line: str, path="", lineno=0) -> tuple[list[str], list[tuple[int, int, str]]]:
    toks, spans, cur = [], [], None
    for w in line.split():
        if cur is None and w.startswith("[") and len(w) > 1:
            cur = (w[1:], len(toks))
            continue
        close = cur is not None and w.endswith("]")
        if close:
            w = w[:-1]
        if w:
            toks.append(w)
        if close:
            if len(toks) == cur[1]:
                raise ValueError(f"{path}:{lineno}: empty span [{cur[0]}]")
            spans.append((cur[1], len(toks), cur[0]))
            cur = None
    if cur is not None:
        raise ValueError(f"{path}:{lineno}: unclosed span [{cur[0]}")
    return toks, spans


def read_annotated(path) -> list[tuple[list[str], list[tuple[int, int, str]]]]:
    out = []
    for k, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if line.strip() and not line.lstrip().startswith("#"):
            out.append(parse_line(line, path, k))
    return out


_PUNCT = re.compile(r"^[^\w\s]+$")   # a token of punctuation only ("," "." "?"), not "$40" or "10.0.0.1"


def lower_no_punct(toks, gold):
    """The lower-case/no-punctuation (ASR-style) copy of one annotated sentence: tokens lower-cased,
    punctuation-only tokens dropped, gold spans remapped onto the kept tokens."""
    keep = [i for i, t in enumerate(toks) if not _PUNCT.match(t)]
    new = {old: k for k, old in enumerate(keep)}
    out = []
    for a, b, t in gold:
        kept = [new[i] for i in range(a, b) if i in new]
        if not kept:
            raise ValueError(f"span {' '.join(toks[a:b])!r} is punctuation only")
        out.append((kept[0], kept[-1] + 1, t))
    return [toks[i].lower() for i in keep], out


def variant(sents, lower: bool):
    """The set as written (lower=False) or its lower-case/no-punctuation copy."""
    return [lower_no_punct(list(s), g) for s, g in sents] if lower else [(list(s), list(g)) for s, g in sents]


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def score(gold: list[list[tuple]], pred: list[list[tuple]], types, partial: bool = False) -> dict:
    """Per type: exact (or, with partial, overlapping same-type) span matches -> tp, n_gold, n_pred, P, R."""
    tp_g, tp_p, ng, npred = Counter(), Counter(), Counter(), Counter()
    for g, p in zip(gold, pred):
        for a, b, t in g:
            ng[t] += 1
            if any(t == t2 and ((a, b) == (a2, b2) or partial and a < b2 and a2 < b) for a2, b2, t2 in p):
                tp_g[t] += 1
        for a, b, t in p:
            npred[t] += 1
            if any(t == t2 and ((a, b) == (a2, b2) or partial and a < b2 and a2 < b) for a2, b2, t2 in g):
                tp_p[t] += 1
    out = {}
    for t in types:
        out[t] = {"gold": ng[t], "pred": npred[t], "tp_recall": tp_g[t], "tp_precision": tp_p[t],
                  "recall": tp_g[t] / ng[t] if ng[t] else float("nan"),
                  "precision": tp_p[t] / npred[t] if npred[t] else 1.0}
    return out
