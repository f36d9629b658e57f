"""Explicit text normalisation shared by ASR training, decoding and scoring.

ASR references and hypotheses must go through the same normalisation, so the settings used at training time
are stored in <exp-dir>/textnorm.json and re-applied at decoding and scoring time.

Rules (in this order):
  1. punctuation removal when strip_punct: hyphens, slashes and other punctuation become spaces; apostrophes
     are kept only inside words ("don't" stays, "'quoted'" loses them);
  2. case folding: "lower" (default), "upper" or "keep" (mini corpus text is cased words; a cased character
     model doubles the alphabet for little gain);
  3. whitespace collapsed to single spaces.
  0. with numbers=True (the Whisper meter), digit strings are spelled as words first ("5" -> "five",
     "$3" -> "three dollars", pydeid.asr.numbers): corpora spell numbers as spoken words (the mini contract
     does), Whisper writes digits. Off by default (the settings of existing exp dirs load unchanged).
"""

from __future__ import annotations

import json
import os
import re
import unicodedata
from dataclasses import asdict, dataclass

from pydeid.io import atomic_write_text

_INNER_APOS = re.compile(r"(?<=\w)['\u2019](?=\w)")


@dataclass(frozen=True)
class TextNorm:
    case: str = "lower"
    strip_punct: bool = True
    numbers: bool = False

    def __post_init__(self):
        if self.case not in ("lower", "upper", "keep"):
            raise ValueError(f"case must be lower, upper or keep, not {self.case!r}")

    def __call__(self, text: str) -> str:
        return normalize_text(text, self.case, self.strip_punct, self.numbers)

    def save(self, path: str | os.PathLike) -> None:
        atomic_write_text(path, json.dumps(asdict(self), indent=1) + "\n")

    @classmethod
    def load(cls, path: str | os.PathLike) -> "TextNorm":
        with open(path, encoding="utf-8") as f:
            return cls(**json.load(f))


def _strip_punct(text: str) -> str:
    text = _INNER_APOS.sub("\x00", text)  # protect word-internal apostrophes
    out = []
    for ch in text:
        cat = unicodedata.category(ch)
        out.append(" " if cat.startswith("P") or cat.startswith("S") else ch)
    return "".join(out).replace("\x00", "'")


def normalize_text(text: str, case: str = "lower", strip_punct: bool = True, numbers: bool = False) -> str:
    if numbers:
        from .numbers import spell_numbers
        text = spell_numbers(text)
    if strip_punct:
        text = _strip_punct(text)
    if case == "lower":
        text = text.lower()
    elif case == "upper":
        text = text.upper()
    return " ".join(text.split())
