"""One exception type for bad input: it always names the file and, when known, the line."""

from __future__ import annotations

import os


class FormatError(ValueError):
    """Malformed or inconsistent input file. str() reads 'path:line: message'."""

    def __init__(self, path: str | os.PathLike | None, line: int | None, message: str):
        self.path = None if path is None else str(path)
        self.line = line
        self.message = message
        where = self.path or "<input>"
        if line is not None:
            where = f"{where}:{line}"
        super().__init__(f"{where}: {message}")
