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


class UsageError(ValueError):
    """A bad option value (a name that does not exist, a number out of range): exit status 2, like argparse.
    str() reads '--option: message'."""

    def __init__(self, option: str, message: str):
        self.option = option
        self.message = message
        super().__init__(f"{option}: {message}")


def read_lines(path: str | os.PathLike, strict_kaldi: bool = False):
    """Yield (line number, line without its newline) of a UTF-8 text file; a byte that is not UTF-8 is a
    FormatError naming the line. strict_kaldi: a CR before the newline (CRLF, Windows) or a missing final newline
    is an error too, as in Kaldi's validate_data_dir.sh."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise FormatError(path, None, f"cannot open: {e.strerror}") from None
    if not data:
        return
    lines = data.split(b"\n")
    last_ok = lines[-1] == b""
    if last_ok:
        lines.pop()
    for lineno, raw in enumerate(lines, 1):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            raise FormatError(path, lineno, f"not UTF-8 (byte 0x{raw[e.start]:02x} at column {e.start + 1}); "
                                            f"convert the file to UTF-8 (e.g. iconv -t UTF-8)") from None
        if strict_kaldi and line.endswith("\r"):
            raise FormatError(path, lineno, "CRLF line ending (Windows); Kaldi rejects it: convert with dos2unix "
                                            "or utils/fix_data_dir.sh")
        yield lineno, line
    if strict_kaldi and not last_ok:
        raise FormatError(path, len(lines), "no newline at the end of the file; Kaldi rejects it")
