"""pydeid.align: forced alignment of transcripts to audio -> word and phone CTMs.

Backends: pocketsphinx (en-us model + CMU dictionary from its wheel, offline neural G2P for missing words) and
ctc (an ESPnet ASR model trained by the recipes; `pydeid.align.ctc.align_words` times ASR hypotheses).
Heavy imports happen inside the backends.
"""

from .normalize import match_key, prepare, strip_punct
from .result import PhoneTime, UttAlignment, WordTime

__all__ = ["match_key", "prepare", "strip_punct", "PhoneTime", "UttAlignment", "WordTime"]
