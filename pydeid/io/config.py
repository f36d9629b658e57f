"""YAML configs: a syntax error or a key that does not exist is a FormatError naming the file, the line and, for a
key, the allowed ones (a typo never silently falls back to a default)."""

from __future__ import annotations

import os
import re
from pathlib import Path

from .errors import FormatError


def _key_line(text: str, key: str) -> int | None:
    for i, line in enumerate(text.splitlines(), 1):
        if re.match(rf"^\s*{re.escape(str(key))}\s*:", line):
            return i
    return None


def check_keys(path, text: str, conf: dict, allowed, where: str = "") -> None:
    unknown = sorted(set(map(str, conf)) - set(allowed))
    if unknown:
        key = unknown[0]
        raise FormatError(path, _key_line(text, key), f"unknown key '{where}{key}'; allowed: "
                                                      f"{', '.join(sorted(allowed))}")


def load_yaml(path: str | os.PathLike, allowed=None, nested: dict | None = None, values: dict | None = None,
              lists=()) -> dict:
    """The mapping of a YAML file. allowed: the top-level keys it may hold (None: any); nested: {key: allowed
    sub-keys} for keys whose value is itself a mapping (e.g. world: {f0_method, frame_period, fft_size});
    values: {key: allowed names} for keys whose value (or each item of a list value) is a name; lists: keys whose
    value must be a list (a string there would be read letter by letter)."""
    import yaml
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise FormatError(path, None, f"cannot open: {e.strerror}") from None
    except UnicodeDecodeError as e:
        raise FormatError(path, None, f"not UTF-8 (byte 0x{e.object[e.start]:02x})") from None
    try:
        conf = yaml.safe_load(text)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        problem = getattr(e, "problem", None) or str(e).splitlines()[0]
        raise FormatError(path, None if mark is None else mark.line + 1, f"YAML syntax error: {problem}") from None
    if conf is None:
        conf = {}
    if not isinstance(conf, dict):
        raise FormatError(path, None, f"expected a YAML mapping of options, got {type(conf).__name__}")
    if allowed is not None:
        check_keys(path, text, conf, allowed)
    for key, sub_allowed in (nested or {}).items():
        sub = conf.get(key)
        if sub is None:
            continue
        if not isinstance(sub, dict):
            raise FormatError(path, _key_line(text, key), f"'{key}' must be a mapping")
        check_keys(path, text, sub, sub_allowed, where=f"{key}.")
    for key in lists:
        v = conf.get(key)
        if v is not None and not isinstance(v, list):
            raise FormatError(path, _key_line(text, key), f"{key} must be a list (e.g. {key}: [{v}]), got "
                                                          f"{type(v).__name__} {v!r}")
    for key, names in (values or {}).items():
        v = conf.get(key)
        items = v if isinstance(v, list) else [] if v is None else [v]
        bad = [x for x in items if x not in names]
        if bad:
            raise FormatError(path, _key_line(text, key), f"{key}: unknown name {bad[0]!r}; allowed: "
                                                          f"{', '.join(map(str, names))}")
    return conf


def dataclass_keys(cls) -> list[str]:
    import dataclasses
    return [f.name for f in dataclasses.fields(cls)]
