"""Secrets (pseudonym maps, source-to-target speaker assignments): mode 0600, never inside a corpus.

A neutral corpus must not carry what would undo the transformation, so writers refuse a secret path that lies
inside any of the given output directories.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from .atomic import atomic_write
from .errors import FormatError


class SecretPlacementError(FormatError):
    def __init__(self, path, message: str):
        super().__init__(path, None, message)


def check_secret_path(path: str | os.PathLike, forbidden_dirs=()) -> Path:
    """The resolved secret path; SecretPlacementError when it lies inside one of forbidden_dirs (the corpora a
    stage reads or writes). Call it before writing anything, so a refused run leaves no output."""
    p = Path(path).resolve()
    for d in forbidden_dirs:
        if d is None:
            continue
        d = Path(d).resolve()
        if p == d or d in p.parents:
            raise SecretPlacementError(path, f"a secret would lie inside the corpus {d}; keep secrets outside "
                                             f"every data dir (e.g. exp/secrets/)")
    return p


def secret_path_for(secret_dir: str | os.PathLike, kind: str, out: str | os.PathLike) -> Path:
    """<secret_dir>/<kind>.<out name>.<8 hex of the whole resolved output path>.json: two outputs that share a
    base name (a/test, b/test) never overwrite each other's secret."""
    out = Path(out).resolve()
    key = hashlib.sha1(str(out).encode("utf-8")).hexdigest()[:8]
    return Path(secret_dir) / f"{kind}.{out.name}.{key}.json"


def write_secret_text(path: str | os.PathLike, text: str, forbidden_dirs=()) -> Path:
    p = check_secret_path(path, forbidden_dirs)
    p.parent.mkdir(parents=True, exist_ok=True)
    with atomic_write(p, "w", file_mode=0o600) as f:
        f.write(text)
    return p


def write_secret_json(path: str | os.PathLike, obj, forbidden_dirs=()) -> Path:
    return write_secret_text(path, json.dumps(obj, indent=1, sort_keys=True, ensure_ascii=False) + "\n",
                             forbidden_dirs)


def read_secret_json(path: str | os.PathLike):
    with open(path, encoding="utf-8") as f:
        return json.load(f)
