"""Secrets (pseudonym maps, source-to-target speaker assignments): mode 0600, never inside a corpus.

A neutral corpus must not carry what would undo the transformation, so writers refuse a secret path that lies
inside any of the given output directories.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from .atomic import atomic_write


class SecretPlacementError(ValueError):
    pass


def check_secret_path(path: str | os.PathLike, forbidden_dirs=()) -> Path:
    p = Path(path).resolve()
    for d in forbidden_dirs:
        d = Path(d).resolve()
        if p == d or d in p.parents:
            raise SecretPlacementError(f"secret file {path} would lie inside the output corpus {d}; "
                                       f"write it outside (e.g. exp/secrets/)")
    return p


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
