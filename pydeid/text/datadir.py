"""Glue between Kaldi data dirs (`text`) and CoNLL tags (`tags.conll`, sentence ids = utterance ids).

Text corpora have no audio: every text stage accepts a data dir holding only `text` (utt2spk and tags.conll
optional, no wav.scp), or a CoNLL file directly (its sentence ids, or sent000001 ... when it has none, are the
utterance ids)."""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
from pathlib import Path

from pydeid.io.atomic import atomic_write
from pydeid.io.conll import ENTITY_TYPES, Sentence, read_conll, write_conll
from pydeid.io.errors import FormatError
from pydeid.io.kaldi_map import kaldi_sort_key, read_kaldi_map

log = logging.getLogger(__name__)

# Files of a data dir that carry the original words: never copied into a transformed corpus.
TEXT_BEARING_SUFFIXES = (".conll", ".ctm")
TEXT_BEARING_NAMES = {"text", "words.txt", "text.orig"}


def is_text_bearing(name: str) -> bool:
    return name in TEXT_BEARING_NAMES or name.startswith("text") or name.endswith(TEXT_BEARING_SUFFIXES)


def read_sentences(path: str | os.PathLike) -> list[Sentence]:
    """CoNLL file, or a data dir's tags.conll, or (no tags) a data dir's text as untagged sentences."""
    p = Path(path)
    if p.is_dir():
        if (p / "tags.conll").exists():
            return read_conll(p / "tags.conll")
        return [Sentence(toks, ["O"] * len(toks), u) for u, toks in read_text(p).items()]
    return sentence_ids(read_conll(p))


def sentence_ids(sents: list[Sentence]) -> list[Sentence]:
    """Sentences of a CoNLL file with an id each (sent000001 ... for those without one)."""
    return [s if s.id else Sentence(s.tokens, s.tags, f"sent{k + 1:06d}", s.extra, s.comments)
            for k, s in enumerate(sents)]


def read_utt2spk(data: str | os.PathLike) -> dict[str, str] | None:
    """utt2spk of a data dir, validated as a whole data dir when it has audio (wav.scp); None for a text-only dir
    without utt2spk or a CoNLL file."""
    p = Path(data)
    if not p.is_dir():
        return None
    if (p / "wav.scp").exists():
        from pydeid.io import DataDir
        return DataDir.read(p, validate=True).utt2spk
    if (p / "utt2spk").exists():
        return read_kaldi_map(p / "utt2spk")
    return None


def read_text(data_dir: str | os.PathLike) -> dict[str, list[str]]:
    if Path(data_dir).is_file():
        return {s.id: list(s.tokens) for s in sentence_ids(read_conll(data_dir))}
    f = Path(data_dir) / "text"
    if not f.exists():
        raise FormatError(f, None, "missing: a data dir needs a text file")
    return {u: (v.split() if v else []) for u, v in read_kaldi_map(f, require_value=False).items()}


def load_tagged_text(data_dir: str | os.PathLike, tags: str | os.PathLike | None) -> tuple[list[str], list[Sentence]]:
    """Utterances of data_dir/text in Kaldi order, each as a Sentence carrying the tags of `tags` (a CoNLL file
    whose sentence ids are the utterance ids and whose tokens equal the text tokens one to one)."""
    text = read_text(data_dir)
    utts = sorted(text, key=kaldi_sort_key)
    if tags is None:
        return utts, [Sentence(text[u], ["O"] * len(text[u]), u) for u in utts]
    sents = read_conll(tags, types=ENTITY_TYPES)
    if Path(data_dir).is_file():
        sents = sentence_ids(sents)
    by_id: dict[str, Sentence] = {}
    for k, s in enumerate(sents):
        if s.id is None:
            raise FormatError(tags, None, f"sentence {k + 1} has no '# id = <utterance-id>' line")
        by_id[s.id] = s
    out = []
    for u in utts:
        s = by_id.get(u)
        if s is None:
            raise FormatError(tags, None, f"no sentence for utterance {u} of {Path(data_dir) / 'text'}")
        if s.tokens != text[u]:
            i = next((i for i, (a, b) in enumerate(zip(s.tokens, text[u])) if a != b),
                     min(len(s.tokens), len(text[u])))
            raise FormatError(tags, None, f"sentence {u}: tokens differ from {Path(data_dir) / 'text'} at token "
                                          f"{i + 1} ({len(s.tokens)} vs {len(text[u])} tokens)")
        out.append(s)
    return utts, out


def write_transformed_dir(in_dir: str | os.PathLike, out_dir: str | os.PathLike, sentences: list[Sentence],
                          extra_files: dict[str, str] | None = None) -> list[str]:
    """Write out_dir atomically: transformed text and tags.conll, every other file of in_dir copied unchanged
    except text-bearing ones (CTM, other CoNLL, text variants) and sub-directories (split dirs). Returns the names
    of the files left out."""
    in_dir, out_dir = Path(in_dir), Path(out_dir)
    a, b = in_dir.resolve(), out_dir.resolve()
    if a == b or a in b.parents or b in a.parents:
        raise FormatError(out_dir, None, f"output and input {in_dir} overlap: a stage never edits its input")
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.", dir=out_dir.parent))
    dropped = []
    try:
        for f in sorted(in_dir.iterdir()) if in_dir.is_dir() else []:   # a CoNLL file input: nothing to copy
            if f.is_dir():
                dropped.append(f.name + "/")
                continue
            if is_text_bearing(f.name):
                if f.name not in ("text", "tags.conll"):
                    dropped.append(f.name)
                continue
            shutil.copyfile(f, tmp / f.name)
        with atomic_write(tmp / "text") as fh:
            for s in sentences:
                fh.write(f"{s.id} {' '.join(s.tokens)}".rstrip() + "\n")
        write_conll(tmp / "tags.conll", sentences)
        for name, content in (extra_files or {}).items():
            (tmp / name).write_text(content, encoding="utf-8")
        os.chmod(tmp, 0o755)
        if out_dir.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.old.", dir=out_dir.parent))
            os.replace(out_dir, old / "d")
            os.replace(tmp, out_dir)
            shutil.rmtree(old)
        else:
            os.replace(tmp, out_dir)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    if dropped:
        log.info("not copied into %s (they carry original words or are split dirs): %s", out_dir, ", ".join(dropped))
    return dropped
