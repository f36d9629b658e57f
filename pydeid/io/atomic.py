"""Atomic file writes: write to a temp file in the same directory, fsync, then rename.

An interrupted writer leaves the old file (or nothing) behind, never a half-written one, and no temp file
survives an exception.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
from typing import IO, Iterator


def _default_mode() -> int:
    # mkstemp creates 0600 files; ordinary outputs get what open() would give (0666 minus the umask)
    # so data dirs stay readable on a shared cluster file system. Secrets pass file_mode=0o600.
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


@contextlib.contextmanager
def atomic_write(path: str | os.PathLike, mode: str = "w", encoding: str | None = "utf-8",
                 file_mode: int | None = None) -> Iterator[IO]:
    """Open a temp file next to `path`; on success rename it over `path`, on any error remove it.

    file_mode: permission bits for the final file (e.g. 0o600 for secrets); applied before the rename so the
    content is never visible with wider permissions.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    binary = "b" in mode
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, _default_mode() if file_mode is None else file_mode)
        with os.fdopen(fd, mode, encoding=None if binary else encoding) as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def atomic_write_text(path: str | os.PathLike, text: str, file_mode: int | None = None) -> None:
    with atomic_write(path, "w", file_mode=file_mode) as f:
        f.write(text)


def atomic_write_bytes(path: str | os.PathLike, data: bytes, file_mode: int | None = None) -> None:
    with atomic_write(path, "wb", encoding=None, file_mode=file_mode) as f:
        f.write(data)
