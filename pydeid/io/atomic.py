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
                 file_mode: int | None = None, tmp_dir: str | os.PathLike | None = None) -> Iterator[IO]:
    """Open a temp file next to `path` (or in `tmp_dir`); on success rename it over `path`, on any error remove it.

    file_mode: permission bits for the final file (e.g. 0o600 for secrets); applied before the rename so the
    content is never visible with wider permissions.
    tmp_dir: where the temp file lives until the rename (same file system as `path`): a writer into a published
    dir passes a dir outside it (partial_dir), so a killed run leaves no hidden temp file inside the corpus.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    binary = "b" in mode
    where = Path(tmp_dir) if tmp_dir is not None else path.parent
    where.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=where)
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


def atomic_write_text(path: str | os.PathLike, text: str, file_mode: int | None = None,
                      tmp_dir: str | os.PathLike | None = None) -> None:
    with atomic_write(path, "w", file_mode=file_mode, tmp_dir=tmp_dir) as f:
        f.write(text)


def atomic_write_bytes(path: str | os.PathLike, data: bytes, file_mode: int | None = None) -> None:
    with atomic_write(path, "wb", encoding=None, file_mode=file_mode) as f:
        f.write(data)


def partial_dir(out_dir: str | os.PathLike) -> Path:
    """The temp dir of the files written into `out_dir` (a published data dir or its wav/): a hidden sibling of the
    data dir, <parent>/.<name>.partial, outside the corpus and on the same file system."""
    out_dir = Path(out_dir)
    return out_dir.parent / f".{out_dir.name}.partial"


def remove_stale_temps(d: str | os.PathLike) -> int:
    """Remove the hidden temp files (.<name>.<random>.tmp) an interrupted writer left in `d`; their count."""
    n = 0
    for p in Path(d).glob(".*.tmp"):
        if p.is_file():
            with contextlib.suppress(FileNotFoundError):
                p.unlink()
                n += 1
    return n
