"""Mentions of a name that the tags miss but that the same dialogue tags elsewhere.

A detector sees one utterance at a time: "Good morning, this is Anna Kowalski" is tagged, a later "kowalski's
flight leaves at ten" (lower case, possessive, no cue) may not be, and the name would pass unchanged. Every token
outside the tags whose word (lower-cased, without a possessive "'s", or one part of a hyphenated word) is a word of
a PER, LOC or ORG span of the same dialogue, or of five letters or more and one typo away from such a word of five
letters or more ("siemen's" after "Siemens", "kowalsky" after "Kowalski": one letter added, dropped, changed, or
two neighbours swapped), becomes a one-token span of that type. Words that are not names are left:
function words, clock and number structure (lexicon.NON_IDENTIFYING), common English words (gazetteer.common_words:
"will", "may", "bill"); and in a cased sentence a lower-case token ("I will mark it" beside a person called Mark),
since cased text writes names with a capital. A name that is a common word ("Bill", "Will") is carried only from a
capitalised mention to capitalised occurrences inside a cased sentence, not at its start ("Bill will pay the bill":
the noun stays; "Will you come?" stays); lower-case text relies on the person cues (cue_names.person_cues) alone.
"""

from __future__ import annotations

from typing import Sequence

from .lexicon import NON_IDENTIFYING
from .wordforms import text_case

NAME_TYPES = ("PER", "LOC", "ORG")


def forms(tok: str) -> list[str]:
    """The word of a token as a name: lower-cased, possessive and punctuation stripped, then its hyphen parts."""
    w = tok.lower().replace("\u2019", "'").strip(".,;:!?\"()")
    if w.endswith("'s"):
        w = w[:-2]
    w = w.rstrip("'")
    parts = [p for p in w.split("-") if p]
    return [w] + (parts if len(parts) > 1 else [])


def _name_word(w: str) -> bool:
    from .gazetteer import DEMONYMS, common_words
    return len(w) > 1 and any(c.isalpha() for c in w) and w not in NON_IDENTIFYING and w not in common_words() \
        and w not in DEMONYMS


def one_typo(a: str, b: str) -> bool:
    """Damerau-Levenshtein distance exactly 1 between a and b."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [k for k in range(len(a)) if a[k] != b[k]]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]]
                                  and a[diff[1]] == b[diff[0]])
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    k = next((k for k in range(len(short)) if short[k] != long_[k]), len(short))
    return short[k:] == long_[k + 1:]


def _lookup(w: str, known: dict) -> str | None:
    if w in known:
        return known[w]
    if len(w) >= 5 and _name_word(w):
        return next((t for k, t in known.items() if len(k) >= 5 and one_typo(w, k)), None)
    return None


def propagate_names(tokens: Sequence[Sequence[str]], spans: Sequence[Sequence[tuple[int, int, str]]],
                    dialogues: Sequence[str]) -> list[list[tuple[int, int, str]]]:
    """`spans` per sentence, plus a one-token span for every untagged mention of a name its dialogue tags."""
    from .gazetteer import common_words
    names: dict[str, dict[str, str]] = {}
    common_names: dict[str, dict[str, str]] = {}      # names that are common words, seen capitalised
    for toks, sp, d in zip(tokens, spans, dialogues):
        known = names.setdefault(d, {})
        for a, b, typ in sp:
            if typ in NAME_TYPES:
                for t in toks[a:b]:
                    for w in forms(t):
                        if _name_word(w):
                            known.setdefault(w, typ)
                        elif t[:1].isupper() and w in common_words() and len(w) > 2 and w not in NON_IDENTIFYING:
                            common_names.setdefault(d, {}).setdefault(w, typ)
    out = []
    for toks, sp, d in zip(tokens, spans, dialogues):
        known = names.get(d, {})
        common = common_names.get(d, {})
        covered = {i for a, b, _ in sp for i in range(a, b)}
        mixed = text_case(toks) == "mixed"
        new = list(sp)
        for i, t in enumerate(toks):
            if i in covered or (mixed and not t[:1].isupper()):
                continue
            typ = next((x for x in (_lookup(w, known) for w in forms(t)) if x), None)
            if typ is None and mixed and i > 0 and not toks[i - 1].endswith((".", "?", "!", ":")):
                typ = next((common[w] for w in forms(t) if w in common), None)
            if typ is not None:
                new.append((i, i + 1, typ))
        out.append(sorted(new))
    return out
