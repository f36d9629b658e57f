"""Accents folded to plain letters: "Zoë" -> "Zoe", "Søren" -> "Soren", "Weiß" -> "Weiss". Surrogate names and the
mini corpus's entity pools are written in the letters that transcripts, espeak and ASR vocabularies have. Standard
library only, so that every package (pydeid.text, pydeid.corpora.mini) can import it without an import cycle."""

from __future__ import annotations

import unicodedata

# letters that Unicode does not decompose into a base letter and a combining mark
_LIGATURES = str.maketrans({"ß": "ss", "ø": "o", "Ø": "O", "æ": "ae", "Æ": "Ae"})


def fold(s: str) -> str:
    """`s` without its diacritics (NFKD, combining marks dropped), ß, ø and æ spelled out as ss, o and ae."""
    s = unicodedata.normalize("NFKD", s.translate(_LIGATURES))
    return "".join(c for c in s if not unicodedata.combining(c))


__all__ = ["fold"]
