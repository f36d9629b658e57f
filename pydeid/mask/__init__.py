"""pydeid.mask: the secure voice builder (seed 004 A.7). Hides tagged words in speech (silence or low noise
over their CTM intervals) and in transcripts, and verifies that nothing leaks. Works on any audio; it does not
import pydeid.voice."""

from .core import DEFAULT_TAGS, apply_mask, entity_times, mask_intervals, mask_text_tokens, merge_intervals
from .match import MatchError, match_tokens

__all__ = ["DEFAULT_TAGS", "apply_mask", "entity_times", "mask_intervals", "mask_text_tokens", "merge_intervals",
           "MatchError", "match_tokens"]
