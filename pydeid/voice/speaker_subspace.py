"""Old import path: the module is pydeid.voice.vtln.speaker_subspace (this name is the same module object)."""
import sys

from .vtln import speaker_subspace as _module

sys.modules[__name__] = _module
