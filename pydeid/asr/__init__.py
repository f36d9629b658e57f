"""pydeid.asr: ESPnet glue for the utility side of pydeid.

Thin wrappers over espnet2.bin entry points (tokenize_text, asr_train, asr_inference) run in-process so one
Python start pays ESPnet's import cost once; explicit text normalisation; WER/CER scoring with per-subset
breakdown (jiwer); the speaker-adversarial ASR model (gradient reversal, seed 004 section 3.2.1) and the speaker
probes (closed-set accuracy, EER) of its table 1.

Import of this package stays light: torch/espnet are imported inside the functions that need them.
"""

from .textnorm import TextNorm, normalize_text

__all__ = ["TextNorm", "normalize_text"]
