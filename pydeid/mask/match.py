"""Pair the tokens of a tag file with the words of a CTM (or of a transcript) by sequence alignment.

Tokens are compared on a normalised key (case, accents and punctuation ignored; pydeid.align.match_key), so
"Stella." in a tag file finds "stella" in a CTM. Pure punctuation tokens are left out on both sides. Where the
two sides split words differently ("super-imposition" vs "super imposition"), a differing region whose
concatenated keys are equal is paired by character offsets. Anything else is a real mismatch: MatchError names
the utterance and the differing tokens. Non-verbal tokens ([noise], <unk>) are not words: they are ignored.
"""

from __future__ import annotations

import difflib

from pydeid.align.normalize import is_nonverbal, match_key


class MatchError(ValueError):
    def __init__(self, utt: str, message: str):
        self.utt = utt
        super().__init__(f"utterance '{utt}': {message}")


def _keys(tokens: list[str]) -> tuple[list[int], list[str]]:
    """Comparable tokens: punctuation and non-verbal tokens ([noise], <unk>: an aligner may place or absorb
    them) are left out."""
    idx, keys = [], []
    for i, t in enumerate(tokens):
        k = match_key(t)
        if k and not is_nonverbal(t):
            idx.append(i)
            keys.append(k)
    return idx, keys


def _pair_by_chars(a_keys: list[str], b_keys: list[str]) -> list[list[int]]:
    """Region with equal concatenation: a token of A maps to every token of B its characters overlap."""
    b_bounds, pos = [], 0
    for k in b_keys:
        b_bounds.append((pos, pos + len(k)))
        pos += len(k)
    out, pos = [], 0
    for k in a_keys:
        s, e = pos, pos + len(k)
        out.append([j for j, (bs, be) in enumerate(b_bounds) if bs < e and be > s])
        pos = e
    return out


def match_tokens(a: list[str], b: list[str], utt: str, required: set[int] | None = None,
                 strict: bool = True) -> list[list[int]]:
    """For each token of `a`, the indices of the tokens of `b` it corresponds to ([] for punctuation).

    required: indices of `a` that must be matched (the tagged tokens); an unmatched required token always
    raises MatchError. strict: any other difference between the two word sequences raises too (the CTM or
    transcript does not belong to these tags); strict=False tolerates differences away from required tokens.
    """
    ai, ak = _keys(a)
    bi, bk = _keys(b)
    out: list[list[int]] = [[] for _ in a]
    sm = difflib.SequenceMatcher(a=ak, b=bk, autojunk=False)
    problems = []
    for op, a0, a1, b0, b1 in sm.get_opcodes():
        if op == "equal":
            for k in range(a1 - a0):
                out[ai[a0 + k]] = [bi[b0 + k]]
            continue
        if op == "replace" and "".join(ak[a0:a1]) == "".join(bk[b0:b1]):
            for k, js in enumerate(_pair_by_chars(ak[a0:a1], bk[b0:b1])):
                out[ai[a0 + k]] = [bi[b0 + j] for j in js]
            continue
        a_toks = [a[ai[k]] for k in range(a0, a1)]
        b_toks = [b[bi[k]] for k in range(b0, b1)]
        hits_required = required is not None and any(ai[k] in required for k in range(a0, a1))
        if strict or hits_required:
            problems.append(f"{' '.join(a_toks) or '(nothing)'} <> {' '.join(b_toks) or '(nothing)'}")
    if problems:
        raise MatchError(utt, "tokens do not match the timed words: " + "; ".join(problems[:3])
                         + (f" (+{len(problems) - 3} more)" if len(problems) > 3 else ""))
    if required:
        missing = [a[i] for i in sorted(required) if not out[i] and match_key(a[i])]
        if missing:
            raise MatchError(utt, f"tagged tokens without a timed word: {' '.join(missing)}")
    return out
