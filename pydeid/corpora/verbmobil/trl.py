"""VerbMobil transliteration (.trl) reader (FORMAT.md section 5).

A turn starts with `<turn id>: <body>` at the start of a line; its body may wrap onto following lines (joined
with a blank, as BAS trlfilter does). The header syntax is unconfirmed, so every line before the first turn is
skipped; lines starting with ';' are treated as comments anywhere. A body that starts with a bare language tag
(`<ENG>`, `<GER>`, `<JAP>` without its closing tag) records that language mark [U: syntax unconfirmed].
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from pydeid.io import FormatError

from .turnid import LANGS, parse_turn_id

_TURN_LINE_RE = re.compile(r"^\s*([A-Za-z]\d{3}[A-Za-z][A-Za-z0-9]{2}\d_\d{3}_[A-Z0-9]{3}(?:_[A-Z]{3})?)\s*:(.*)$")
_LANG_MARK_RE = re.compile(r"^\s*<(" + "|".join(LANGS) + r")>\s*")


@dataclass
class TrlTurn:
    turn: str          # base turn id (language suffix removed)
    body: str
    path: Path
    line: int
    lang: str | None   # from the id suffix or a leading language mark


@dataclass
class TrlFile:
    turns: dict[str, TrlTurn]
    skipped_header_lines: int
    comment_lines: int


def read_trl(path: str | os.PathLike) -> TrlFile:
    path = Path(path)
    try:
        text = path.read_bytes().decode("latin-1")
    except OSError as e:
        raise FormatError(path, None, f"cannot read: {e.strerror}") from None
    turns: dict[str, TrlTurn] = {}
    current: TrlTurn | None = None
    header = comments = 0
    for lineno, line in enumerate(text.splitlines(), 1):
        line = line.rstrip("\r")
        if line.lstrip().startswith(";"):
            comments += 1
            continue
        m = _TURN_LINE_RE.match(line)
        if m:
            tid = parse_turn_id(m.group(1))
            if tid is None:  # the regex is looser than the id scheme only in letter case
                raise FormatError(path, lineno, f"malformed turn id {m.group(1)!r}")
            if tid.base in turns:
                raise FormatError(path, lineno, f"turn {tid.base} already given at line {turns[tid.base].line}")
            current = TrlTurn(turn=tid.base, body=m.group(2).strip(), path=path, line=lineno, lang=tid.lang)
            turns[tid.base] = current
            continue
        if current is None:
            header += 1
            continue
        if line.strip():
            current.body = f"{current.body} {line.strip()}".strip()
    for t in turns.values():
        mark = _LANG_MARK_RE.match(t.body)
        if mark and f"</{mark.group(1)}>" not in t.body:
            t.lang = t.lang or mark.group(1)
            t.body = t.body[mark.end():]
    return TrlFile(turns=turns, skipped_header_lines=header, comment_lines=comments)
