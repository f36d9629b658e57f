"""VerbMobil (BAS edition) English data preparation, as in seed 004 appendix A.3.

Formats: /work/shared/formats/verbmobil/FORMAT.md (what is confirmed and what is not). Modules:
turnid (turn-id scheme), bpf (.par reader), trl (.trl reader), cleaner (markup -> Kaldi tokens), signals
(signal files -> wav.scp), speakers (speaker-id fixes, volumes, gender/native language), split (train/dev/test
rules and A.3 subsets), prepare (the whole prep and its report).
"""

from .cleaner import clean_transliteration
from .prepare import PrepOptions, PrepResult, prepare_verbmobil
from .split import Dialogue, SplitRules, assign_split
from .speakers import fix_speaker_id
from .turnid import parse_turn_id

__all__ = ["clean_transliteration", "PrepOptions", "PrepResult", "prepare_verbmobil", "Dialogue", "SplitRules",
           "assign_split", "fix_speaker_id", "parse_turn_id"]
