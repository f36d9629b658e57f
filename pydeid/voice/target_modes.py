"""The names of the target-selection modes (pydeid.voice.target_selection), in a module with no imports so that
method configs (pydeid.voice.vtln.core) can validate them without importing the conversion driver."""

MODES = ("random_per_utterance", "per_speaker", "per_gender_pseudo", "pooled_pseudo")

__all__ = ["MODES"]
