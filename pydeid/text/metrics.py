"""Detection and de-identification metrics.

* exact and partial-match precision / recall / F1 per type (seed 001 §4.2): exact counts a predicted span as
  correct only when it equals a gold span (same boundaries, same type); partial counts any overlap with a gold span
  of the same type (the upper bound of sanitisation coverage). "ALL" is the micro average, "macro" the mean F1 over
  types (seed 004 reports macro F1), "ANY-TYPE" the partial match ignoring types (what matters for hiding).
* all-or-nothing recall (seed 002 §3.3, Scaiano et al.): an entity (type + lower-cased surface form) mentioned in a
  dialogue counts as recalled only when every token of every one of its mentions there was detected.
* leak rate: gold sensitive tokens that survive in the transformed text. The output is aligned to the original
  with difflib (tokens outside entities are unchanged, so they anchor the alignment); a gold token survives when it
  is aligned to itself or reappears inside the replacement aligned to it (position by position when the
  replacement has the same length, e.g. word-by-word surrogates and random digits). Counted over identifying tokens (function
  words, number structure words and honorifics such as "the", "of", "area", "code", "Mister" are not identifying:
  lexicon.NON_IDENTIFYING, the set the strategies' avoid-original check uses; nor are the structure words a generated
  value of the type keeps, lexicon.structure_words: "Street" of an ADDRESS, "years old" of an AGE) and over all
  tokens.
* word leak (word_leaks): the distinct original entity words of the whole corpus (any type, any utterance) that
  appear anywhere in the transformed text, case-insensitively -- a real name moved into another speaker's turn is a
  leak although no position holds its original. Words of small closed classes (function words, number, clock,
  calendar and address structure, single letters, numbers of one or two digits: generate.is_value_word) are not
  counted: they are redrawn within their class in place, which the leak rate above checks. A word the original text
  also holds outside every entity ("Bill will pay the bill") leaks when the output holds it more often than that.
"""

from __future__ import annotations

import difflib
from collections import defaultdict
from dataclasses import dataclass
from typing import Sequence

from .lexicon import NON_IDENTIFYING, structure_words


def _prf(tp_p: int, n_pred: int, tp_r: int, n_gold: int) -> tuple[float, float, float]:
    p = tp_p / n_pred if n_pred else 0.0
    r = tp_r / n_gold if n_gold else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return p, r, f


@dataclass
class PRF:
    n_gold: int
    n_pred: int
    exact: tuple[float, float, float]
    partial: tuple[float, float, float]


def span_prf(gold: Sequence[Sequence[tuple[int, int, str]]], pred: Sequence[Sequence[tuple[int, int, str]]]
             ) -> dict[str, PRF]:
    if len(gold) != len(pred):
        raise ValueError(f"{len(gold)} gold sentences but {len(pred)} predicted")
    types = sorted({t for ss in gold for *_, t in ss} | {t for ss in pred for *_, t in ss})
    cnt = defaultdict(lambda: defaultdict(int))

    def overlaps(a, b):
        return a[0] < b[1] and b[0] < a[1]

    for g, pr in zip(gold, pred):
        gs, ps = set(map(tuple, g)), set(map(tuple, pr))
        for t in types + ["ALL", "ANY-TYPE"]:
            if t in ("ALL", "ANY-TYPE"):
                gt, pt = gs, ps
            else:
                gt = {s for s in gs if s[2] == t}
                pt = {s for s in ps if s[2] == t}
            typed = t != "ANY-TYPE"
            c = cnt[t]
            c["gold"] += len(gt)
            c["pred"] += len(pt)
            c["exact"] += len(gt & pt) if typed else len({s[:2] for s in gt} & {s[:2] for s in pt})
            c["p_partial"] += sum(any(overlaps(x, y) and (not typed or x[2] == y[2]) for y in gt) for x in pt)
            c["r_partial"] += sum(any(overlaps(x, y) and (not typed or x[2] == y[2]) for y in pt) for x in gt)
    out = {}
    for t, c in cnt.items():
        out[t] = PRF(c["gold"], c["pred"], _prf(c["exact"], c["pred"], c["exact"], c["gold"]),
                     _prf(c["p_partial"], c["pred"], c["r_partial"], c["gold"]))
    return out


def macro_f1(res: dict[str, PRF], which: str = "exact") -> float:
    fs = [getattr(v, which)[2] for t, v in res.items() if t not in ("ALL", "ANY-TYPE") and v.n_gold]
    return sum(fs) / len(fs) if fs else 0.0


def all_or_nothing_recall(tokens: Sequence[Sequence[str]], gold: Sequence[Sequence[tuple[int, int, str]]],
                          pred: Sequence[Sequence[tuple[int, int, str]]], dialogues: Sequence[str]) -> dict:
    """Entity-level all-or-nothing recall within dialogues, plus the share of dialogues fully covered."""
    ent_ok: dict[tuple, bool] = {}
    dlg_ok: dict[str, bool] = {}
    for toks, g, pr, d in zip(tokens, gold, pred, dialogues):
        covered = [False] * len(toks)
        for a, b, _ in pr:
            for i in range(a, b):
                covered[i] = True
        dlg_ok.setdefault(d, True)
        for a, b, t in g:
            key = (d, t, " ".join(x.lower() for x in toks[a:b]))
            ok = all(covered[a:b])
            ent_ok[key] = ent_ok.get(key, True) and ok
            dlg_ok[d] = dlg_ok[d] and ok
    n = len(ent_ok)
    return {"entities": n, "aon_recall": (sum(ent_ok.values()) / n) if n else 1.0,
            "dialogues": len(dlg_ok), "dialogues_fully_covered": (sum(dlg_ok.values()) / len(dlg_ok)) if dlg_ok
            else 1.0}


def _survival_difflib(lo: list[str], lx: list[str]) -> list[bool]:
    survive = [False] * len(lo)
    sm = difflib.SequenceMatcher(a=lo, b=lx, autojunk=False)
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == "equal":
            for i in range(i1, i2):
                survive[i] = True
        elif tag == "replace":
            repl = set(lx[j1:j2])
            for i in range(i1, i2):
                survive[i] = lo[i] in repl
    return survive


def _survival_tagged(lo: list[str], lx: list[str], out_tags: Sequence[str], is_ent: Sequence[bool],
                     bounds: Sequence[tuple[int, int]] = ()) -> list[bool] | None:
    """Align using the output tags: output O tokens are original tokens left in place; each output entity replaced
    a non-empty stretch of original tokens. Among the alignments (repeated words can make several possible), take
    the one closest to the gold tags: fewest gold entity tokens aligned as kept, fewest gold O tokens inside a
    replaced stretch, then fewest stretch ends off the gold span bounds (`bounds`: (start, end) of each gold span)
    and stretches whose length differs from their replacement's (dynamic programming).
    None when no alignment exists."""
    from pydeid.io.conll import bio_to_spans
    items: list[tuple[str, object]] = []
    spans = {a: b for a, b, _ in bio_to_spans(list(out_tags))}
    j = 0
    while j < len(lx):
        if j in spans:
            items.append(("S", lx[j:spans[j]]))
            j = spans[j]
        else:
            items.append(("O", lx[j]))
            j += 1
    n, m = len(lo), len(items)
    INF = float("inf")
    cost = [[INF] * (m + 1) for _ in range(n + 1)]   # cost[i][k]: best cost aligning lo[i:] with items[k:]
    choice = [[0] * (m + 1) for _ in range(n + 1)]
    cost[n][m] = 0
    # ties (an entity right after another: "Lakeside Partners eight one two ...") go to the alignment whose
    # stretches start and end where gold spans do and have their replacement's length (word-for-word replacements
    # are then compared position by position); the fractions sum to < 1, never outweighing a whole token of cost
    tie = 1.0 / (3 * m + 1)
    starts = {a for a, _ in bounds}
    ends = {b for _, b in bounds}
    n_o_prefix = [0]
    for e in is_ent:
        n_o_prefix.append(n_o_prefix[-1] + (not e))
    for i in range(n, -1, -1):
        for k in range(m - 1, -1, -1):
            kind, val = items[k]
            if kind == "O":
                if i < n and lo[i] == val and cost[i + 1][k + 1] < INF:
                    cost[i][k] = cost[i + 1][k + 1] + (1 if is_ent[i] else 0)
                    choice[i][k] = i + 1
            else:
                for i2 in range(i + 1, n + 1):
                    off = (i2 - i != len(val)) + (i not in starts) + (i2 not in ends)
                    c = cost[i2][k + 1] + (n_o_prefix[i2] - n_o_prefix[i]) + tie * off
                    if c < cost[i][k]:
                        cost[i][k], choice[i][k] = c, i2
    if cost[0][0] == INF:
        return None
    survive = [False] * n
    i = 0
    for k, (kind, val) in enumerate(items):
        i2 = choice[i][k]
        for x in range(i, i2):
            if kind == "O":
                survive[x] = True
            elif len(val) == i2 - i:      # word for word: compare position by position
                survive[x] = lo[x] == val[x - i]
            else:                         # a stretch replaced by another length: any reappearance counts
                survive[x] = lo[x] in val
        i = i2
    return survive


def leak_rate(orig_tokens: Sequence[Sequence[str]], gold: Sequence[Sequence[tuple[int, int, str]]],
              out_tokens: Sequence[Sequence[str]], out_tags: Sequence[Sequence[str]] | None = None) -> dict:
    """Share of gold entity tokens that survive in the transformed text (see module doc). With the output tags
    (a transformed tags.conll), the alignment is exact; without them difflib aligns the two token sequences."""
    n_id = n_id_leak = n_all = n_all_leak = 0
    per_type = defaultdict(lambda: [0, 0])
    for k, (o, g, x) in enumerate(zip(orig_tokens, gold, out_tokens)):
        lo, lx = [t.lower() for t in o], [t.lower() for t in x]
        is_ent = [False] * len(o)
        for a, b, _ in g:
            for i in range(a, b):
                is_ent[i] = True
        bounds = [(a, b) for a, b, _ in g]
        survive = _survival_tagged(lo, lx, out_tags[k], is_ent, bounds) if out_tags is not None else None
        if survive is None:
            survive = _survival_difflib(lo, lx)
        for a, b, t in g:
            for i in range(a, b):
                if not any(c.isalnum() for c in o[i]):
                    continue
                n_all += 1
                n_all_leak += survive[i]
                if lo[i] in NON_IDENTIFYING or lo[i] in structure_words(t):
                    continue
                n_id += 1
                per_type[t][0] += 1
                if survive[i]:
                    n_id_leak += 1
                    per_type[t][1] += 1
    return {"tokens": n_id, "leaked": n_id_leak, "leak_rate": n_id_leak / n_id if n_id else 0.0,
            "all_tokens": n_all, "leak_rate_all_tokens": n_all_leak / n_all if n_all else 0.0,
            "per_type": {t: (v[1] / v[0] if v[0] else 0.0) for t, v in sorted(per_type.items())},
            "per_type_counts": {t: (v[0], v[1]) for t, v in sorted(per_type.items())}}


def word_leaks(orig_tokens: Sequence[Sequence[str]], spans: Sequence[Sequence[tuple[int, int, str]]],
               out_tokens: Sequence[Sequence[str]]) -> dict:
    """Distinct original entity value words (generate.words_of) of the corpus found anywhere in the output text,
    overall and per type (a word counts under every type it is an entity word of). Counts only: the words
    themselves are not reported (a report is no place for real values)."""
    from collections import Counter

    from .generate import word_forms, words_of
    by_type: dict[str, set] = defaultdict(set)
    outside: Counter = Counter()        # occurrences outside every entity: text the transformation leaves as it is
    for toks, sp in zip(orig_tokens, spans):
        covered = {i for a, b, _ in sp for i in range(a, b)}
        for a, b, typ in sp:
            by_type[typ] |= words_of(toks[a:b], typ)
        outside.update(w for i, t in enumerate(toks) if i not in covered for w in set(word_forms(t)))
    originals = set().union(*by_type.values()) if by_type else set()
    found: Counter = Counter()
    for toks in out_tokens:
        found.update(w for t in toks for w in set(word_forms(t)) if w in originals)
    # "Bill will pay the bill": the noun outside the entity stays; only occurrences beyond those are leaks
    seen = {w for w, n in found.items() if n > outside[w]}
    leaked = originals & seen
    return {"words": len(originals), "leaked": len(leaked),
            "leak_rate": len(leaked) / len(originals) if originals else 0.0,
            "per_type": {t: (len(w & seen) / len(w) if w else 0.0) for t, w in sorted(by_type.items())},
            "per_type_counts": {t: (len(w), len(w & seen)) for t, w in sorted(by_type.items())},
            "rule": "distinct original entity words (generate.is_value_word) found anywhere in the output text more "
                    "often than the original text holds them outside entities"}
