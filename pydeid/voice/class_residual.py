"""Old import path: the module is pydeid.voice.vtln.class_residual (this name is the same module object)."""
import sys

from .vtln import class_residual as _module

sys.modules[__name__] = _module
