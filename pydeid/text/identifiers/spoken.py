"""Spoken identifiers: a run of tokens that reads out digits and letters, and the compact string it stands for.

"two nine J T" -> "29JT"; "charlie foxtrot three eight" -> "CF38"; "double five" -> "55"; "seventy seven" -> "77";
"oh one" -> "01"; "nineteen" -> "19"; "LS two" -> "LS2". `pieces` reads a token list into runs, each a token span
with its compact string and how many letters, digits and NATO words it holds.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from ..lexicon import DIGIT_WORDS, REPEAT_WORDS, TEEN_WORDS, TENS_WORDS

NATO = {"alpha": "A", "alfa": "A", "bravo": "B", "charlie": "C", "delta": "D", "echo": "E", "foxtrot": "F",
        "golf": "G", "hotel": "H", "india": "I", "juliet": "J", "juliett": "J", "kilo": "K", "lima": "L", "mike": "M",
        "november": "N", "oscar": "O", "papa": "P", "quebec": "Q", "romeo": "R", "sierra": "S", "tango": "T",
        "uniform": "U", "victor": "V", "whiskey": "W", "whisky": "W", "x-ray": "X", "xray": "X", "yankee": "Y",
        "zulu": "Z"}
SEPARATORS = {"dash", "hyphen", "slash", "-", "/"}
_ALNUM = re.compile(r"[A-Za-z]{0,3}\d[A-Za-z0-9]{0,5}|\d{1,6}")    # a written piece inside a spoken run: "LS2", "9JT"


@dataclass
class Run:
    start: int
    end: int              # exclusive
    text: str             # the compact string: upper-case letters and digits
    letters: int
    digits: int
    nato: int
    words: int            # tokens that are spoken words (not written digits)


def _norm(t: str) -> str:
    return t.lower().rstrip(".,;:!?")


def _piece(tokens: Sequence[str], i: int) -> tuple[str, int, str] | None:
    """(characters, tokens used, kind) of the piece at i: kind d (digits), l (letter), n (NATO), s (separator)."""
    t = tokens[i]
    low = _norm(t)
    if not low:
        return None
    nxt = _norm(tokens[i + 1]) if i + 1 < len(tokens) else ""
    if low in REPEAT_WORDS and (nxt in DIGIT_WORDS or len(nxt) == 1 and nxt.isalnum()):
        ch = str(DIGIT_WORDS[nxt]) if nxt in DIGIT_WORDS else nxt.upper()
        return ch * REPEAT_WORDS[low], 2, "d" if ch.isdigit() else "l"
    if low in DIGIT_WORDS and low != "o":
        return str(DIGIT_WORDS[low]), 1, "d"
    if low in TENS_WORDS:
        if nxt in DIGIT_WORDS and nxt not in ("oh", "o", "zero", "nought"):
            return str(TENS_WORDS[low] + DIGIT_WORDS[nxt]), 2, "d"
        return str(TENS_WORDS[low]), 1, "d"
    if low in TEEN_WORDS:
        return str(TEEN_WORDS[low]), 1, "d"
    if low in NATO:
        return NATO[low], 1, "n"
    if len(t.rstrip(".,;:!?")) == 1 and t[0].isalpha():
        return t[0].upper(), 1, "l"
    if low in SEPARATORS:
        return "", 1, "s"
    if _ALNUM.fullmatch(t.rstrip(".,;:!?")):
        return t.rstrip(".,;:!?").upper(), 1, "w"
    return None


def runs(tokens: Sequence[str]) -> list[Run]:
    """Maximal runs of spoken pieces (separators inside only), trimmed of a lone "a"/"I" at either end."""
    out: list[Run] = []
    i = 0
    n = len(tokens)
    while i < n:
        p = _piece(tokens, i)
        if p is None or p[2] == "s":
            i += 1
            continue
        start, parts = i, []
        while i < n:
            p = _piece(tokens, i)
            if p is None:
                break
            parts.append((i, *p))
            i += p[1]
        while parts and parts[-1][3] == "s":
            parts.pop()
        # a lone article or pronoun at an edge is a word, not a letter ("I", "a")
        while parts and parts[0][3] == "l" and tokens[parts[0][0]] in ("a", "A", "I"):
            parts.pop(0)
        while parts and parts[-1][3] == "l" and tokens[parts[-1][0]] in ("a", "A", "I"):
            parts.pop()
        # a NATO word that is also a month or a name ("1 November 1998", "Victor"): a letter only when spoken
        # lower case among others of its kind
        if sum(p[3] == "n" for p in parts) < 2 or any(p[3] == "n" and not tokens[p[0]].islower() for p in parts):
            parts = _cut_at_words(parts, tokens)
        if parts:
            a, b = parts[0][0], parts[-1][0] + parts[-1][2]
            text = "".join(p[1] for p in parts)
            out.append(Run(a, b, text, sum(c.isalpha() for c in text), sum(c.isdigit() for c in text),
                           sum(p[3] == "n" for p in parts), sum(p[3] != "w" for p in parts)))
        i = max(i, start + 1)
    return out


def _cut_at_words(parts, tokens):
    """The longest stretch of `parts` without a NATO word that must be read as a word."""
    best, cur = [], []
    for p in parts:
        if p[3] == "n" and (not tokens[p[0]].islower() or tokens[p[0]].lower() == "november"):
            best, cur = max(best, cur, key=len), []
        else:
            cur.append(p)
    return max(best, cur, key=len)


def compact_of(tokens: Sequence[str]) -> str:
    """The compact string of a whole span (written or spoken): what a surrogate's checksum is computed over."""
    i, out = 0, []
    while i < len(tokens):
        p = _piece(tokens, i)
        if p is None:
            out.append(re.sub(r"[^A-Za-z0-9]", "", tokens[i]).upper())
            i += 1
        else:
            out.append(p[0])
            i += p[1]
    return "".join(out)
