"""Entity spans over a token list, and how the spans of several detectors are combined.

A span is (start, end_exclusive, type) over the tokens of one sentence, plus the set of detectors that found it
(e.g. {"flair", "grammar:phone"}). Detectors combine by union at token level (a token is sensitive when any detector
flags it) or by priority (a lower-priority span is kept only where it overlaps nothing already kept).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Sequence


@dataclass
class Span:
    start: int
    end: int  # exclusive
    type: str
    detectors: set[str] = field(default_factory=set)

    def __len__(self) -> int:
        return self.end - self.start

    def key(self) -> tuple[int, int, str]:
        return (self.start, self.end, self.type)


def spans_to_bio(spans: Iterable[Span], n_tokens: int) -> list[str]:
    tags = ["O"] * n_tokens
    for s in sorted(spans, key=lambda s: s.start):
        for i in range(s.start, s.end):
            tags[i] = ("B-" if i == s.start else "I-") + s.type
    return tags


def bio_to_span_objs(tags: Sequence[str], detector: str | None = None) -> list[Span]:
    from pydeid.io.conll import bio_to_spans
    return [Span(a, b, t, {detector} if detector else set()) for a, b, t in bio_to_spans(list(tags))]


def combine(span_lists: dict[str, list[Span]], n_tokens: int, mode: str = "union",
            priority: Sequence[str] | None = None) -> list[Span]:
    """Combine the spans of several detectors (name -> spans) into non-overlapping spans.

    union: every token flagged by any detector is sensitive; its type comes from the highest-priority detector
      covering it; contiguous tokens of one type that were found together form one span; a span records the union
      of the detectors that flagged any of its tokens.
    priority: spans are taken detector by detector in priority order; a span overlapping an already kept one is
      dropped (its detector is still credited when it matches the kept span exactly).
    """
    order = list(priority or []) + sorted(k for k in span_lists if k not in (priority or []))
    rank = {name: i for i, name in enumerate(order)}
    if mode == "priority":
        kept: list[Span] = []
        taken = [None] * n_tokens
        for name in order:
            for s in span_lists.get(name, []):
                if all(taken[i] is None for i in range(s.start, s.end)):
                    ns = Span(s.start, s.end, s.type, set(s.detectors) or {name})
                    kept.append(ns)
                    for i in range(s.start, s.end):
                        taken[i] = ns
                else:
                    same = [k for k in kept if k.key() == s.key()]
                    for k in same:
                        k.detectors |= (s.detectors or {name})
        return sorted(kept, key=lambda s: s.start)
    if mode != "union":
        raise ValueError(f"unknown combination mode {mode!r} (union or priority)")
    tok_type: list[tuple[int, str] | None] = [None] * n_tokens   # (rank, type)
    tok_dets: list[set[str]] = [set() for _ in range(n_tokens)]
    tok_begin: list[bool] = [False] * n_tokens   # a span of the deciding detector starts here
    for name, spans in span_lists.items():
        r = rank[name]
        for s in spans:
            for i in range(s.start, s.end):
                tok_dets[i] |= (s.detectors or {name})
                if tok_type[i] is None or r < tok_type[i][0]:
                    tok_type[i] = (r, s.type)
                    tok_begin[i] = i == s.start
    out: list[Span] = []
    cur: Span | None = None
    for i in range(n_tokens):
        tt = tok_type[i]
        if tt is None:
            cur = None
            continue
        if cur is not None and cur.type == tt[1] and not tok_begin[i]:
            cur.end = i + 1
            cur.detectors |= tok_dets[i]
        else:
            cur = Span(i, i + 1, tt[1], set(tok_dets[i]))
            out.append(cur)
    return out
