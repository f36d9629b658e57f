"""Mentions of a name that the tags miss but that the same dialogue tags elsewhere.

A detector sees one utterance at a time: "Good morning, this is Anna Kowalski" is tagged, a later "kowalski's
flight leaves at ten" (lower case, possessive, no cue) may not be, and the name would pass unchanged. Every token
outside the tags whose word (lower-cased, without a possessive "'s", or one part of a hyphenated word) is a word of
a PER, LOC or ORG span of the same dialogue becomes a one-token span of that type. Words that are not names are left:
function words, clock and number structure (lexicon.NON_IDENTIFYING), common English words (gazetteer.common_words:
"will", "may", "bill"); and in a cased sentence a lower-case token ("I will mark it" beside a person called Mark),
since cased text writes names with a capital.
"""

from __future__ import annotations

from typing import Sequence

from .lexicon import NON_IDENTIFYING

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


def _mixed_case(tokens: Sequence[str]) -> bool:
    letters = "".join(tokens)
    return letters != letters.lower() and letters != letters.upper()


def propagate_names(tokens: Sequence[Sequence[str]], spans: Sequence[Sequence[tuple[int, int, str]]],
                    dialogues: Sequence[str]) -> list[list[tuple[int, int, str]]]:
    """`spans` per sentence, plus a one-token span for every untagged mention of a name its dialogue tags."""
    names: dict[str, dict[str, str]] = {}
    for toks, sp, d in zip(tokens, spans, dialogues):
        known = names.setdefault(d, {})
        for a, b, typ in sp:
            if typ in NAME_TYPES:
                for t in toks[a:b]:
                    for w in forms(t):
                        if _name_word(w):
                            known.setdefault(w, typ)
    out = []
    for toks, sp, d in zip(tokens, spans, dialogues):
        known = names.get(d, {})
        covered = {i for a, b, _ in sp for i in range(a, b)}
        mixed = _mixed_case(toks)
        new = list(sp)
        for i, t in enumerate(toks):
            if i in covered or (mixed and not t[:1].isupper()):
                continue
            typ = next((known[w] for w in forms(t) if w in known), None)
            if typ is not None:
                new.append((i, i + 1, typ))
        out.append(sorted(new))
    return out
