"""The voice conversion methods: name -> the module that declares it (`METHOD = pydeid.voice.method.VoiceMethod`).
Adding a method: one module + one line in BUILTIN. Methods outside the package (a plug-in, a test's toy method)
are named by module in PYDEID_VOICE_METHODS (comma-separated) or passed to register()."""

from __future__ import annotations

import importlib
import os

BUILTIN = {
    "voicemask": "pydeid.voice.voicemask",
    "vtln": "pydeid.voice.vtln",
    "mcadams": "pydeid.voice.mcadams",
    "frame_select": "pydeid.voice.frame_select",
}
ENV = "PYDEID_VOICE_METHODS"
_registered: dict = {}


def register(method) -> None:
    """Add (or replace) a method for this process."""
    _registered[method.name] = method


def _plugins() -> None:
    for mod in filter(None, (m.strip() for m in os.environ.get(ENV, "").split(","))):
        try:
            m = importlib.import_module(mod).METHOD
        except (ImportError, AttributeError) as e:   # one line, no traceback (a typo in the variable)
            raise SystemExit(f"pydeid: ERROR: {ENV}: no voice method in module '{mod}' ({e})") from None
        _registered.setdefault(m.name, m)


def names() -> list[str]:
    _plugins()
    return list(BUILTIN) + [n for n in _registered if n not in BUILTIN]


def get(name: str):
    """The VoiceMethod called `name`; an unknown name is a ValueError listing the known ones."""
    _plugins()
    if name in _registered:
        return _registered[name]
    if name not in BUILTIN:
        raise ValueError(f"unknown voice conversion method '{name}'; methods: {', '.join(names())}")
    m = importlib.import_module(BUILTIN[name]).METHOD
    _registered[name] = m
    return m


__all__ = ["BUILTIN", "ENV", "get", "names", "register"]
