"""Identifiers the dialogue shows but one utterance does not: a code read back ("LS2 9JT" ... "two nine J T"), a
code spoken after a turn that asked for it ("what's your postcode?" / "L S two ..."), and a number read out in short
pieces over several turns with no cue at all ("oh one" / "seven seven" / "nine two")."""

from __future__ import annotations

from typing import Sequence

from ..dialogue import _FILLERS
from .cues import cue_at_end, cue_type
from .spoken import compact_of, runs

# the types whose values a caller reads back or spells over several turns
CODE_TYPES = frozenset({"ID", "PHONE", "CARD", "POSTCODE", "ACCOUNT", "PLATE", "NUM", "PIN", "CREDENTIAL", "IP",
                        "EMAIL", "URL"})
MIN_READBACK = 3            # characters of a read-back that must be part of a code tagged before
MIN_PIECES_DIGITS = 6       # digits of a number read out over turns with no cue


def _words(toks):
    return [i for i, t in enumerate(toks) if any(c.isalnum() for c in t)]


def _only_pieces(toks, rs) -> bool:
    """Every word of the turn is part of a spoken run or a filler ("uh", "and then")."""
    inside = {i for r in rs for i in range(r.start, r.end)}
    return all(i in inside or toks[i].lower() in _FILLERS for i in _words(toks))


def _retyped(toks, sp, known):
    """A generic code span (ID, NUM) that reads back part of a code of a precise type takes that type."""
    out = []
    for a, b, t in sp:
        if t in ("ID", "NUM"):
            v = compact_of(toks[a:b])
            hit = next((kt for kv, kt in known if len(v) >= MIN_READBACK and v in kv and kt not in ("ID", "NUM")),
                       None)
            t = hit or t
        out.append((a, b, t))
    return out


def continue_identifiers(tokens: Sequence[Sequence[str]], spans: Sequence[Sequence[tuple[int, int, str]]],
                         dialogues: Sequence[str]) -> list[list[tuple[int, int, str]]]:
    out = [sorted(sp) for sp in spans]
    known: dict[str, list[tuple[str, str]]] = {}        # dialogue -> (compact value, type) tagged so far
    open_type: dict[str, str | None] = {}
    streak: dict[str, list[int]] = {}                   # turns of bare digit pieces, waiting for a decision

    def close_streak(d):
        ks = streak.pop(d, [])
        total = sum(sum(r.digits for r in runs(tokens[k])) for k in ks)
        if len(ks) >= 3 and total >= MIN_PIECES_DIGITS:
            typ = "PHONE" if MIN_PIECES_DIGITS <= total <= 15 else "NUM"   # read out in pieces: a phone number
            for k in ks:
                cov = {i for a, b, _ in out[k] for i in range(a, b)}
                new = [(r.start, r.end, typ) for r in runs(tokens[k]) if not cov & set(range(r.start, r.end))]
                out[k] = sorted([(a, b, typ) for a, b, _ in out[k]] + new)

    for k, (toks, d) in enumerate(zip(tokens, dialogues)):
        sp = out[k]
        covered = {i for a, b, _ in sp for i in range(a, b)}
        rs = [r for r in runs(toks) if r.words and not covered & set(range(r.start, r.end))]
        added = []
        typ = open_type.get(d)
        pieces_only = bool(_words(toks)) and _only_pieces(toks, runs(toks))
        for r in rs:
            if len(r.text) >= MIN_READBACK:
                hit = next((t for v, t in known.get(d, []) if r.text in v), None)
                if hit:
                    added.append((r.start, r.end, hit))
                    continue
            if typ and pieces_only:
                added.append((r.start, r.end, typ))
        sp = _retyped(toks, sp, known.get(d, []))
        if typ and typ != "NUM" and pieces_only:        # a number the generic context typed NUM: the asked type
            sp = [(a, b, typ if t == "NUM" else t) for a, b, t in sp]
        sp = out[k] = sorted(sp + added)
        # a turn of short bare digit pieces: part of a streak decided when it ends
        bare = pieces_only and all(t == "NUM" for _, _, t in sp) and all(r.letters == 0 for r in runs(toks)) and \
            sum(r.digits for r in runs(toks)) >= 2
        if bare:
            streak.setdefault(d, []).append(k)
        elif not (_words(toks) and all(toks[i].lower() in _FILLERS for i in _words(toks))):
            close_streak(d)
        for a, b, t in sp:
            if t in CODE_TYPES:
                v = compact_of(toks[a:b])
                if len(v) >= MIN_READBACK:
                    known.setdefault(d, []).append((v, t))
        words = _words(toks)
        last = words[-1] if words else None
        ending = next((t for a, b, t in sp if last is not None and a <= last < b and t in CODE_TYPES), None)
        asked = cue_type(cue_at_end(toks)) if words else None
        if asked:
            open_type[d] = asked
        elif ending and pieces_only:
            open_type[d] = ending
        elif typ and words and all(toks[i].lower() in _FILLERS for i in words):
            pass
        elif not (typ and pieces_only):
            open_type[d] = None
    for d in list(streak):
        close_streak(d)
    return out
