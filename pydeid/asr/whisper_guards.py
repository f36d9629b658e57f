"""Guards against Whisper's repetition loops ("too long too short too short too long too long ...").

Temperature-0 beam search sometimes locks into a loop that runs to the length limit; one such utterance adds
hundreds of insertions to a WER. Three guards, each named in the result when it changed the output:
  length          the decoder's token budget is bounded by the audio's duration (TOKENS_PER_SECOND per second
                  plus a margin): a loop stops early; named when a window used its whole budget;
  no_repeat_ngram the plain decode shows a loop symptom: a token 3-gram occurring 3 or more times, a window
                  that used its whole token budget, or a gzip compression ratio above COMPRESSION_RATIO. It is
                  decoded again with no_repeat_ngram_size=3 and that output is kept; named when the output
                  changed. A 3-gram seen only twice is a genuine repeated phrase ("call me back, call me back"),
                  which the n-gram block would garble. Decoding with the block only then keeps the common case
                  at one decode and makes the count exact;
  truncate_loop   a final output whose gzip compression ratio exceeds COMPRESSION_RATIO (Whisper's own 2.4) and
                  whose tail repeats a word sequence 3 times in a row is cut after its first copy (a re-decode at a
                  higher temperature would be random; truncation keeps decoding deterministic).
"""

from __future__ import annotations

import math
import zlib

TOKENS_PER_SECOND = 7.0   # fast read speech is ~4 words/s, ~1.3 tokens per word, plus timestamp tokens
TOKEN_MARGIN = 10
MAX_TOKENS = 220           # faster-whisper refuses budgets that do not fit the 448-token context with the prompt
COMPRESSION_RATIO = 2.4
NGRAM = 3
GUARDS = ("length", "no_repeat_ngram", "truncate_loop")


def token_budget(seconds: float) -> int:
    """Tokens the decoder may emit for one 30-s window of `seconds` of audio."""
    return min(MAX_TOKENS, TOKEN_MARGIN + math.ceil(TOKENS_PER_SECOND * min(max(seconds, 0.0), 30.0)))


def compression_ratio(text: str) -> float:
    b = text.encode("utf-8")
    return len(b) / len(zlib.compress(b)) if b else 0.0


NGRAM_LOOP_COUNT = 3      # a 3-gram this many times is a loop; twice is often a phrase really said twice


def repeats_ngram(tokens, n: int = NGRAM, times: int = NGRAM_LOOP_COUNT) -> bool:
    """Whether some token n-gram occurs `times` times or more."""
    seen: dict[tuple, int] = {}
    for i in range(len(tokens) - n + 1):
        g = tuple(tokens[i:i + n])
        seen[g] = seen.get(g, 0) + 1
        if seen[g] >= times:
            return True
    return False


def looks_looped(tokens, text: str, hit_budget: bool) -> bool:
    """Whether a plain decode shows a loop symptom and is decoded again with the n-gram block."""
    return hit_budget or repeats_ngram(tokens) or compression_ratio(text) > COMPRESSION_RATIO


def loop_start(words: list[str], max_period: int = 10, min_repeats: int = 3) -> int | None:
    """Index after which the words only repeat: the end of the first copy of the earliest word sequence (period
    1..max_period) repeated min_repeats times in a row; None when there is no such loop."""
    key = [w.lower().strip(".,!?;:\"'") for w in words]
    for i in range(len(key)):
        for p in range(1, max_period + 1):
            if i + p * min_repeats > len(key):
                break
            unit = key[i:i + p]
            if all(key[i + k * p:i + (k + 1) * p] == unit for k in range(1, min_repeats)):
                return i + p
    return None
