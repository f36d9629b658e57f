"""The spans a detector cannot see in one utterance but the dialogue shows: a number read out over several turns
(dialogue.continue_numbers), the letters and digits beside a spelled name ("K two W A L S K I"), and untagged
mentions of a name tagged elsewhere in the dialogue (propagate.propagate_names).

One pass, used by tag-entities (so the tags that mask-words and verify-masking read hold these spans, and the
audio of those words is silenced too) and by transform-text (so tags from elsewhere get the same treatment)."""

from __future__ import annotations

from typing import Sequence

from .dialogue import continue_numbers
from .identifiers.dialogue import continue_identifiers
from .lexicon import DIGIT_WORDS
from .propagate import propagate_names

Spans = list[tuple[int, int, str]]


def dialogue_context(tokens: Sequence[Sequence[str]], spans: Sequence[Sequence[tuple[int, int, str]]],
                     dialogues: Sequence[str], numbers: bool = True, names: bool = True) -> list[Spans]:
    """`spans` of each utterance with the dialogue's context added; utterances in the order their dialogue's turns
    were spoken (Kaldi order keeps a speaker's turns in order)."""
    out = [sorted(sp) for sp in spans]
    if numbers:
        out = continue_numbers(tokens, out, dialogues)
        out = continue_identifiers(tokens, out, dialogues)    # read-backs, codes asked for, pieces over turns
        out = [extend_spelled(t, sp) for t, sp in zip(tokens, out)]
    if names:
        out = propagate_names(tokens, out, dialogues)
    return out


def _spelled_piece(tok: str) -> bool:
    return (len(tok) == 1 and tok.isalpha()) or tok.lower() in DIGIT_WORDS


def extend_spelled(tokens: Sequence[str], spans: Sequence[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """A span of letters spelled one by one also takes the untagged letters and digit words right beside it: "K two
    W A L S K I" tagged from its W on would keep "K two" (a detector sees a run of three letters). A lone "a" or "I"
    at the left end stays out unless a letter precedes it ("that is a K O W" keeps "a")."""
    covered = {i for a, b, _ in spans for i in range(a, b)}
    out = []
    for a, b, typ in sorted(spans):
        letters = sum(len(t) == 1 and t.isalpha() for t in tokens[a:b])
        if letters >= 3 and all(_spelled_piece(t) for t in tokens[a:b]):
            while a > 0 and a - 1 not in covered and _spelled_piece(tokens[a - 1]) and not (
                    tokens[a - 1] in ("a", "A", "I") and not (a > 1 and _spelled_piece(tokens[a - 2]))):
                a -= 1
                covered.add(a)
            while b < len(tokens) and b not in covered and _spelled_piece(tokens[b]):
                covered.add(b)
                b += 1
        out.append((a, b, typ))
    return out
