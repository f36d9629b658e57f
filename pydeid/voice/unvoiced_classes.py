"""Old import path: the module is pydeid.voice.vtln.unvoiced_classes (this name is the same module object)."""
import sys

from .vtln import unvoiced_classes as _module

sys.modules[__name__] = _module
