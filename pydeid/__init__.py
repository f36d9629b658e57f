"""pydeid: de-identification of spoken-dialogue corpora (text, voice, masking) with ASR/attack evaluation.

The Python API (pydeid.api, loaded on first use so that `import pydeid` stays light):
TextTransformer (identify + transform one sentence), voice_transformer / voice_methods, build_vtln and
VtlnTransformer, VoiceMaskTransformer / build_voicemask, McAdamsTransformer / build_mcadams.
"""

__version__ = "0.1.0"

_API = ("TextTransformer", "voice_methods", "voice_transformer", "build_vtln", "VtlnTransformer",
        "VoiceMaskTransformer", "McAdamsTransformer", "build_voicemask", "build_mcadams")


def __getattr__(name):
    if name in _API:
        from . import api
        return getattr(api, name)
    raise AttributeError(f"module 'pydeid' has no attribute {name!r}")


def __dir__():
    return sorted(list(globals()) + list(_API))
