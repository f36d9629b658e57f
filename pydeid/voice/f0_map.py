"""Old import path: the module is pydeid.voice.vtln.f0_map (this name is the same module object)."""
import sys

from .vtln import f0_map as _module

sys.modules[__name__] = _module
