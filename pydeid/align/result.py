"""What an aligner returns for one utterance, and the counters a stage reports."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field


@dataclass
class WordTime:
    token_index: int   # index of the original transcript token
    token: str         # CTM token (edge punctuation removed, case kept)
    start: float       # seconds from the utterance start
    end: float


@dataclass
class PhoneTime:
    phone: str
    start: float
    end: float


@dataclass
class UttAlignment:
    utt: str
    words: list[WordTime] = field(default_factory=list)
    phones: list[PhoneTime] = field(default_factory=list)
    error: str | None = None           # set when the utterance could not be aligned (no CTM entries written)
    stats: Counter = field(default_factory=Counter)


# Counter keys, documented once (they end up in <ali-dir>/report.json and the stage log):
STAT_KEYS = {
    "utterances": "utterances processed",
    "aligned": "utterances aligned",
    "failed": "utterances that could not be aligned (listed in report.json, no CTM entries)",
    "tokens": "transcript tokens",
    "words_in_ctm": "word CTM entries written",
    "punctuation_tokens": "punctuation-only tokens (not spoken, no CTM entry)",
    "g2p_tokens": "word occurrences whose pronunciation came from the G2P model",
    "nonverbal_tokens": "non-verbal tokens ([noise], [laughter], <unk>, ...)",
    "nonverbal_aligned": "non-verbal tokens aligned to a filler/noise model",
    "nonverbal_unplaced": "non-verbal tokens the aligner absorbed into silence (no CTM entry)",
    "silence_markers": "silence markers ([sil], <sil>) excluded from alignment",
    "fallback_topn32": "utterances aligned only with the topn=32 fallback decoder",
    "fallback_no_pauses": "utterances aligned only without optional pauses/fillers between words",
    "fallback_no_pauses_wide": "utterances aligned only without optional pauses and with very wide beams",
    "phone_fallback": "utterances whose phones came from the fallback decoder",
    "phones_missing": "aligned utterances without a phone segmentation",
    "unknown_units": "tokens with no usable pronunciation/tokens (mapped to the unknown unit)",
    "unknown_unplaced": "of those, absorbed into silence by the decoder (no CTM entry)",
}
