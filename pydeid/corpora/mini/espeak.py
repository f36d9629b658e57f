"""Old import path: the module is pydeid.speech.espeak (this name is the same module object)."""
import sys

from pydeid.speech import espeak as _module

sys.modules[__name__] = _module
