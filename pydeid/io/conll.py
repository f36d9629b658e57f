"""CoNLL files: one `token<TAB>tag[<TAB>more columns]` line per token, a blank line between sentences.

Comment lines start with "# " (hash and space); a token line may itself start with "#" ("#<TAB>O"), which is
why we write tab-separated columns (reading accepts any whitespace). pydeid names each sentence with a
`# id = <utterance-id>` comment (`# sent_id = ...` is read too) so tags can be joined to a Kaldi data dir.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from .atomic import atomic_write
from .errors import FormatError, read_lines

VALID_PREFIXES = ("B-", "I-")
# The entity types of pydeid's tag contract (README "Data directories"); the stages that decide what to hide
# (transform-text, mask-words, verify-masking) read tags with types=ENTITY_TYPES, so a typo (B-PRE) is an error
# instead of a word that no strategy replaces and no mask hides. CONTRACT_TYPES are those of the mini corpus and
# of seed 004's tables; the others are what the detectors can also emit: amounts (off unless asked), grammar
# sub-types given their own type by a type_map, the seed 004 A.1 categories (pydeid.text.categories) and the typed
# identifiers (pydeid.text.identifiers: URL POSTCODE ACCOUNT PLATE besides ID PHONE CARD EMAIL IP).
CONTRACT_TYPES = ("PER", "ORG", "LOC", "DATE", "TIME", "NUM")
ENTITY_TYPES = CONTRACT_TYPES + ("AMOUNT", "EMAIL", "PHONE", "ID", "CARD", "PIN",
                                 "HEALTH", "BELIEF", "ETHNICITY", "SEXUAL", "AGE", "MARITAL", "PROFESSION",
                                 "CREDENTIAL", "ADDRESS", "IP", "MAC", "TRANSACTION",
                                 "URL", "POSTCODE", "ACCOUNT", "PLATE")


@dataclass
class Sentence:
    tokens: list[str]
    tags: list[str]
    id: str | None = None
    extra: list[list[str]] = field(default_factory=list)  # further columns per token, if any
    comments: list[str] = field(default_factory=list)     # comment lines other than "# id = ..." (without "# ")

    def __post_init__(self):
        if len(self.tokens) != len(self.tags):
            raise ValueError(f"sentence {self.id}: {len(self.tokens)} tokens but {len(self.tags)} tags")

    def spans(self) -> list[tuple[int, int, str]]:
        """Entity spans as (start, end_exclusive, type) from BIO tags (a stray I- opens a span)."""
        return bio_to_spans(self.tags)


def bio_to_spans(tags: list[str]) -> list[tuple[int, int, str]]:
    spans: list[tuple[int, int, str]] = []
    start, typ = None, None
    for i, t in enumerate(list(tags) + ["O"]):
        if t == "O" or t.startswith("B-") or (t.startswith("I-") and t[2:] != typ):
            if start is not None:
                spans.append((start, i, typ))
                start, typ = None, None
            if t != "O":
                start, typ = i, t[2:]
    return spans


def read_conll(path: str | os.PathLike, validate_bio: bool = True, types=None) -> list[Sentence]:
    """Sentences of a CoNLL file. A sentence id (`# id = ...`) may occur once. types: the allowed entity types
    (e.g. ENTITY_TYPES); a tag of another type is a FormatError naming the line."""
    path = Path(path)
    allowed = None if types is None else set(types)
    seen_ids: dict[str, int] = {}
    sentences: list[Sentence] = []
    toks: list[str] = []
    tags: list[str] = []
    extra: list[list[str]] = []
    comments: list[str] = []
    sid: str | None = None

    def flush():
        nonlocal toks, tags, extra, comments, sid
        if toks:
            sentences.append(Sentence(toks, tags, sid, extra, comments))
        elif sid is not None:
            sentences.append(Sentence([], [], sid, [], comments))
        toks, tags, extra, comments, sid = [], [], [], [], None

    for lineno, raw in read_lines(path):
        line = raw.rstrip("\n").rstrip("\r")
        if not line.strip():
            flush()
            continue
        if line.startswith("# "):
            if toks:  # a comment after tokens starts a new sentence
                flush()
            body = line[2:].strip()
            if body.split("=", 1)[0].strip() in ("id", "sent_id") and "=" in body:
                sid = body.split("=", 1)[1].strip()
                if sid in seen_ids:
                    raise FormatError(path, lineno, f"sentence id '{sid}' already used at line {seen_ids[sid]}")
                seen_ids[sid] = lineno
            else:
                comments.append(body)
            continue
        f = line.split()
        if len(f) < 2:
            raise FormatError(path, lineno, f"expected 'token tag', got '{line}'")
        tag = f[1]
        if validate_bio and tag != "O" and not (tag.startswith(VALID_PREFIXES) and len(tag) > 2):
            raise FormatError(path, lineno, f"tag '{tag}' is not O, B-X or I-X")
        if allowed is not None and tag != "O" and tag[2:] not in allowed:
            raise FormatError(path, lineno, f"unknown entity type '{tag[2:]}' in tag '{tag}'; known types: "
                                            f"{', '.join(sorted(allowed))}")
        toks.append(f[0])
        tags.append(tag)
        extra.append(f[2:])
    flush()
    return sentences


def write_conll(path: str | os.PathLike, sentences: Iterable[Sentence]) -> None:
    with atomic_write(path) as f:
        for s in sentences:
            if s.id is not None:
                f.write(f"# id = {s.id}\n")
            for c in s.comments:
                f.write(f"# {c}\n")
            for i, (tok, tag) in enumerate(zip(s.tokens, s.tags)):
                if not tok or any(ch.isspace() for ch in tok):
                    raise ValueError(f"sentence {s.id}: token {tok!r} is empty or contains whitespace")
                cols = [tok, tag] + (s.extra[i] if i < len(s.extra) else [])
                f.write("\t".join(cols) + "\n")
            f.write("\n")
