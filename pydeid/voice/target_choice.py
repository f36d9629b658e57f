"""Old import path: the module is pydeid.voice.vtln.target_choice (this name is the same module object)."""
import sys

from .vtln import target_choice as _module

sys.modules[__name__] = _module
