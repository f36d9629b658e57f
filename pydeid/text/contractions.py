"""Contractions and clitics ("we're", "haven't", "gonna", "n't", "'re", lower-case ASR "dont", "im") are never an
entity, whatever a detector says: a tagger that sees "we're" as one unknown token calls it a person, and the
default transformation would then replace it by a surrogate name.

The closed list is the union of a few informal forms, pronoun/negation + clitic shapes and spaCy's own English
tokenizer exceptions that split into several tokens ("can't" -> "ca n't", "gonna" -> "gon na"), minus the
exceptions that are also names or times ("id" = Idaho, "wed" = Wednesday, "10am"). A possessive "'s" after a
name belongs to it (SLURP's and SNIPS's gold count "jason 's" and "cristina's" as the person), so "'s" and
"name's" are kept at the end of a span.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:      # no import at run time: bench/text_domains.py loads this file alone, in any venv
    from .spans import Span

CLITICS = {"'s", "'re", "'ve", "'ll", "'d", "'m", "n't", "'t", "'all"}
INFORMAL = {"gonna", "wanna", "gotta", "y'all", "ya'll", "yall", "dunno", "lemme", "gimme", "kinda", "sorta",
            "ain't", "aint", "innit", "outta", "lotta", "hafta", "cuz", "'cause", "c'mon", "ma'am"}
# lower-case ASR forms without the apostrophe (spaCy's exceptions have more; these are the frequent ones)
ASR_FORMS = {"dont", "im", "ive", "youre", "youve", "theyre", "theyve", "weve", "cant", "didnt", "doesnt", "isnt",
             "wasnt", "werent", "arent", "havent", "hasnt", "hadnt", "couldnt", "wouldnt", "shouldnt", "wont",
             "thats", "whats", "theres", "itll", "youll", "theyll", "youd", "theyd", "shes", "hes"}
# spaCy exceptions that are also words an entity can be: Idaho, Wednesday; "well", "ill", "were", "shed" are not
# exceptions (spaCy leaves them alone) and neither are they here
_NOT_CONTRACTIONS = {"id", "wed", "hed", "ima", "cannot"}
_PRONOUNS = r"(i|you|we|they|he|she|it|that|there|here|what|who|where|when|why|how|this|these|those|let|y)"
_SHAPE = re.compile(rf"^({_PRONOUNS}'(s|re|ve|ll|d|m)|{_PRONOUNS}'(d|ll)'ve|[a-z]+n't(ve)?|[a-z]+'t)$")


@functools.lru_cache(maxsize=1)
def spacy_exceptions() -> frozenset:
    """The lower-cased keys of spaCy's English tokenizer exceptions that split into several tokens and contain a
    letter (contractions), without digits ("10am") and without the words above."""
    try:
        from spacy.lang.en.tokenizer_exceptions import TOKENIZER_EXCEPTIONS
    except ImportError:
        return frozenset()
    return frozenset(k.lower().replace("’", "'") for k, v in TOKENIZER_EXCEPTIONS.items()
                     if len(v) > 1 and any(c.isalpha() for c in k) and not any(c.isdigit() for c in k)
                     and "." not in k and k.lower() not in _NOT_CONTRACTIONS)


def _norm(tok: str) -> str:
    return tok.lower().replace("’", "'").strip(".,!?;:\"")


def is_contraction(tok: str) -> bool:
    """A contraction, a clitic or an informal reduced form ("we're", "n't", "gonna", "dont"); "'s" included."""
    w = _norm(tok)
    if not w:
        return False
    return (w in CLITICS or w in INFORMAL or w in ASR_FORMS or bool(_SHAPE.match(w))
            or w in spacy_exceptions()) and w not in _NOT_CONTRACTIONS


def _possessive(tokens: Sequence[str], a: int, i: int) -> bool:
    """Token i is the possessive of the span's last word ("jason 's", "today's"): kept at the end of a span."""
    w = _norm(tokens[i])
    return w == "'s" and i > a and not is_contraction(tokens[i - 1])


def drop_contractions(tokens: Sequence[str], spans: list["Span"]) -> list["Span"]:
    """Every span without its contraction tokens: trimmed at the edges, split around one inside; a possessive "'s"
    at the end of a name stays."""
    from .spans import Span
    out: list[Span] = []
    for s in spans:
        bad = [is_contraction(tokens[i]) and not (i == s.end - 1 and _possessive(tokens, s.start, i))
               for i in range(s.start, s.end)]
        if not any(bad):
            out.append(s)
            continue
        a = None
        for k, i in enumerate(range(s.start, s.end + 1)):
            if i < s.end and not bad[k]:
                a = i if a is None else a
            elif a is not None:
                out.append(Span(a, i, s.type, set(s.detectors)))
                a = None
    return out
