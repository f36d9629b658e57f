"""From transcript tokens to the words an aligner sees, keeping the way back to the original tokens.

Transcripts may carry punctuation ("Stella.", ","), case, digits and hyphenated compounds; alignment
dictionaries and acoustic tokenizers want bare lower-case words. Every original token becomes zero or more
alignable units; each unit remembers the index of its token, so word timings can be reported per original
token. Pure punctuation produces no unit (it is not spoken) and is counted, never silently lost.
Non-verbal tokens ([noise], [laughter], <unk>, ...) are recognised and handled by each backend explicitly.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Callable

NONVERBAL_RE = re.compile(r"^(\[[^\]\s]+\]|<[^>\s]+>|\{[^}\s]+\})$")
# Non-verbal events that sound like noise rather than voice (mapped to a noise filler where there is one).
NOISE_LIKE = {"noise", "breath", "breathing", "cough", "click", "lipsmack", "sneeze", "static", "music",
              "door", "knock", "tongue-click", "nsn", "nitem", "mouth"}
# Markers of silence: nothing to align, they are excluded and counted.
SILENCE_LIKE = {"sil", "silence", "sp", "pau", "pause", "empty"}
_EDGE_PUNCT = re.compile(r"^[^\w']+|[^\w']+$", re.UNICODE)
_SPLIT = re.compile(r"[-_/+.]+")


def is_nonverbal(token: str) -> bool:
    return bool(NONVERBAL_RE.match(token))


def nonverbal_kind(token: str) -> str:
    """'noise', 'silence' or 'speech' (vocal but not a word: laughter, hesitation, <unk>, ...)."""
    inner = token[1:-1].lower()
    if inner in SILENCE_LIKE:
        return "silence"
    if inner in NOISE_LIKE or inner.startswith("noise"):
        return "noise"
    return "speech"


def strip_punct(token: str) -> str:
    """Remove punctuation at both edges ("Stella." -> "Stella", "(and" -> "and"); keep inner characters."""
    s = _EDGE_PUNCT.sub("", token)
    return s.strip("'") if s.count("'") == len(s) else s


def match_key(token: str) -> str:
    """Comparison key used to pair tokens of different files: case, accents and punctuation ignored.

    Non-verbal tokens keep their brackets so "[noise]" never matches the word "noise".
    """
    if is_nonverbal(token):
        return token.lower()
    s = unicodedata.normalize("NFKD", token)
    s = "".join(c for c in s if not unicodedata.combining(c))
    return "".join(c for c in s.lower() if c.isalnum())


_inflect = None


def spell_number(s: str) -> list[str]:
    """'42' -> ['forty', 'two']; '1999' -> ['nineteen', 'ninety', 'nine']; '3.5' -> ['three', 'point', 'five']."""
    global _inflect
    if _inflect is None:
        import inflect
        _inflect = inflect.engine()
    if re.fullmatch(r"(1[1-9]|20)\d\d", s):  # read years in pairs, as people say them
        words = _inflect.number_to_words(s, group=2, zero="oh")
    else:
        words = _inflect.number_to_words(s, andword="")
    return [w for w in re.split(r"[\s,\-]+", words.lower()) if w]


@dataclass(frozen=True)
class Unit:
    """One word given to an aligner."""
    text: str          # lower-case dictionary form, or the non-verbal token itself
    token_index: int   # index of the original token it comes from
    nonverbal: str | None = None  # None for words; 'noise' / 'speech' for non-verbal tokens


@dataclass
class Prepared:
    tokens: list[str]              # original tokens
    units: list[Unit]
    punctuation: list[int]         # indices of tokens that are punctuation only (nothing to align)
    silence_markers: list[int]     # indices of non-verbal silence markers (excluded)

    def ctm_token(self, i: int) -> str:
        """The token written to a CTM for original token i: edge punctuation removed, case kept."""
        t = self.tokens[i]
        return t if is_nonverbal(t) else strip_punct(t)


def prepare(tokens: list[str], known: Callable[[str], bool] | None = None) -> Prepared:
    """Split transcript tokens into alignable units.

    known(word) tells whether the aligner's lexicon has a word; hyphenated or dotted tokens are kept whole when
    known ("super-imposition") and split into parts otherwise. Digit strings are spelled out.
    """
    known = known or (lambda w: False)
    units: list[Unit] = []
    punct: list[int] = []
    sil: list[int] = []
    for i, tok in enumerate(tokens):
        if is_nonverbal(tok):
            kind = nonverbal_kind(tok)
            if kind == "silence":
                sil.append(i)
            else:
                units.append(Unit(tok.lower(), i, kind))
            continue
        s = strip_punct(tok).lower()
        if not s or not any(c.isalnum() for c in s):
            punct.append(i)
            continue
        if known(s) or (tok.lower().endswith(".") and known(s + ".")):
            units.append(Unit(s if known(s) else s + ".", i))
            continue
        for part in _SPLIT.split(s):
            part = part.strip("'")
            if not part:
                continue
            if re.fullmatch(r"\d+", part):
                units.extend(Unit(w, i) for w in spell_number(part))
            elif re.fullmatch(r"\d+(st|nd|rd|th)", part):
                global _inflect
                spell_number("1")  # initialises the engine
                units.extend(Unit(w, i) for w in re.split(r"[\s\-]+", _inflect.number_to_words(part)) if w)
            elif re.search(r"\d", part):  # letters and digits mixed ("b12"): split them
                for piece in re.findall(r"\d+|[^\d]+", part):
                    if piece.isdigit():
                        units.extend(Unit(w, i) for w in spell_number(piece))
                    else:
                        units.append(Unit(piece, i))
            else:
                units.append(Unit(part, i))
        if not any(u.token_index == i for u in units):
            punct.append(i)
    return Prepared(list(tokens), units, punct, sil)
