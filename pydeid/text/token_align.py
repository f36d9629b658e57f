"""A tokenising model reads text its own tokenizer splits; the corpus has its own tokens. `detokenise` writes the
corpus tokens as a string (a clitic or closing punctuation joined to the word before it, as it is written) with
each token's character range; `char_span_to_tokens` maps a character span of the model's output back onto the
corpus tokens it overlaps. A model token that splits a corpus token ("we're" -> "we" "'re") maps to the whole corpus
token; a model token that merges corpus tokens ("we" "'re" written "we're", "U.S" "." -> "U.S.") maps to all of
them.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import Sequence

# written without a space before them: clitics and closing punctuation
_JOIN_BEFORE = {"'s", "'re", "'ve", "'ll", "'d", "'m", "n't", "’s", "’re", "’ve", "’ll", "’d", "’m", "n’t",
                ",", ".", "!", "?", ";", ":", ")", "]", "}", "%", "...", "'", "’"}
_JOIN_AFTER = {"(", "[", "{", "$", "£", "€", "#"}


def detokenise(tokens: Sequence[str]) -> tuple[str, list[int], list[int]]:
    """(text, starts, ends): the tokens as written text and each token's character range in it."""
    parts: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    pos = 0
    for i, t in enumerate(tokens):
        if i > 0 and not (t.lower() in _JOIN_BEFORE or tokens[i - 1] in _JOIN_AFTER):
            parts.append(" ")
            pos += 1
        starts.append(pos)
        parts.append(t)
        pos += len(t)
        ends.append(pos)
    return "".join(parts), starts, ends


def char_span_to_tokens(starts: Sequence[int], ends: Sequence[int], cs: int, ce: int) -> tuple[int, int] | None:
    """The corpus tokens [a, b) that the character span [cs, ce) overlaps; None when it overlaps none (a space)."""
    a = bisect_right(ends, cs)          # first token ending after cs
    b = bisect_left(starts, ce)         # tokens starting before ce
    return (a, b) if b > a else None
