"""Which dialogue (document) an utterance belongs to: the scope of consistent pseudonyms and all-or-nothing recall.

Modes:
  auto           utt2dialogue in the data dir when present, else strip-speaker
  utt2dialogue   a two-column file <utt> <dialogue>
  strip-speaker  drop the speaker id prefix (from utt2spk) and the last separator-delimited field:
                 mini "spk003-tr001-04" -> "tr001"; LibriSpeech "1272-128104-0000" -> "128104" (the chapter)
  regex          the first capture group of --dialogue-regex matched against the utterance id
  utterance      every utterance is its own dialogue
  speaker        every speaker's utterances form one document
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Mapping, Sequence

from pydeid.io.errors import FormatError
from pydeid.io.kaldi_map import read_kaldi_map

MODES = ("auto", "utt2dialogue", "strip-speaker", "regex", "utterance", "speaker")


def _strip_speaker(utt: str, spk: str | None, sep: str) -> str:
    rest = utt
    if spk and utt.startswith(spk) and utt[len(spk):len(spk) + len(sep)] == sep:
        rest = utt[len(spk) + len(sep):]
    return rest.rsplit(sep, 1)[0] if sep in rest else rest


def dialogue_ids(utts: Sequence[str], utt2spk: Mapping[str, str] | None = None, mode: str = "auto",
                 data_dir: str | Path | None = None, sep: str = "-", regex: str | None = None,
                 utt2dialogue: str | Path | None = None) -> tuple[list[str], str]:
    """Dialogue id of each utterance, and a one-line description of how it was found."""
    if mode not in MODES:
        raise ValueError(f"unknown dialogue mode {mode!r}: {', '.join(MODES)}")
    if mode in ("auto", "utt2dialogue"):
        f = Path(utt2dialogue) if utt2dialogue else (Path(data_dir) / "utt2dialogue" if data_dir else None)
        if f is not None and f.exists():
            m = read_kaldi_map(f)
            missing = [u for u in utts if u not in m]
            if missing:
                raise FormatError(f, None, f"no dialogue for utterance {missing[0]} ({len(missing)} missing)")
            return [m[u] for u in utts], f"utt2dialogue file {f}"
        if mode == "utt2dialogue":
            raise FormatError(f or "utt2dialogue", None, "dialogue mode utt2dialogue but the file is absent")
        mode = "strip-speaker"
    if mode == "strip-speaker":
        u2s = utt2spk or {}
        return ([_strip_speaker(u, u2s.get(u), sep) for u in utts],
                f"utterance id minus its speaker prefix and last '{sep}' field")
    if mode == "regex":
        if not regex:
            raise ValueError("dialogue mode regex needs --dialogue-regex")
        rx = re.compile(regex)
        out = []
        for u in utts:
            m = rx.search(u)
            if not m:
                raise FormatError("utterance ids", None, f"--dialogue-regex {regex!r} does not match {u}")
            out.append(m.group(1) if m.groups() else m.group(0))
        return out, f"regex {regex!r} on the utterance id"
    if mode == "speaker":
        u2s = utt2spk or {}
        return [u2s.get(u, u) for u in utts], "one document per speaker"
    return list(utts), "one dialogue per utterance"


# ---------------------------------------------------------------------------------------------- dialogue context
# types whose values are digit strings a caller may read out over several turns
NUMBER_TYPES = frozenset({"NUM", "PHONE", "ID", "CARD", "PIN", "CREDENTIAL", "ACCOUNT", "IP", "POSTCODE", "PLATE"})
# words a turn that continues a number may hold besides its digits ("uh", "then", "and the last four are")
_FILLERS = frozenset({"uh", "um", "er", "erm", "ah", "and", "then", "so", "yes", "yeah", "ok", "okay", "right",
                      "sorry", "the", "last", "rest", "next", "is", "are", "it's", "its", "it", "that's", "that",
                      "digits", "numbers", "huh", "mhm", "got", "go", "on", "continuing", "after", ",", ".", "?", "!", "-", "..."})


def _digit_token(t: str) -> bool:
    from .lexicon import DIGIT_WORDS, REPEAT_WORDS, TEEN_WORDS, TENS_WORDS
    low = t.lower()
    return low in DIGIT_WORDS or low in REPEAT_WORDS or low in TEEN_WORDS or low in TENS_WORDS or \
        (low.isdigit() and len(low) <= 4)


def _number_cue_at_end(toks: Sequence[str]) -> bool:
    from .lexicon import NUMBER_CONTEXT
    words = [t.lower() for t in toks if any(c.isalnum() for c in t)]
    while words and words[-1] in ("is", "it's", "'s", "was", "please"):
        words.pop()
    return bool(words) and words[-1] in NUMBER_CONTEXT


def continue_numbers(tokens: Sequence[Sequence[str]], spans: Sequence[Sequence[tuple[int, int, str]]],
                     dialogues: Sequence[str]) -> list[list[tuple[int, int, str]]]:
    """A number read out over several turns of a dialogue is one number: when a turn ends with a tagged number
    (NUMBER_TYPES, its last word a digit) or with a number cue ("my card number is"), the untagged digit runs of
    the next turns of the same dialogue that hold nothing but digits and fillers ("five five five", "uh one two
    three four") get the same type, and so on while each turn ends in digits (a turn of fillers alone, "okay, go
    on", keeps the number open). Turns are taken in the given order
    (Kaldi sorts utterances, so a dialogue's turns follow each other)."""
    out = [sorted(sp) for sp in spans]
    open_type: dict[str, str | None] = {}
    for k, (toks, d) in enumerate(zip(tokens, dialogues)):
        sp = out[k]
        typ = open_type.get(d)
        covered = {i for a, b, _ in sp for i in range(a, b)}
        words = [i for i, t in enumerate(toks) if any(c.isalnum() for c in t)]
        if typ and words and all(_digit_token(toks[i]) or toks[i].lower() in _FILLERS for i in words) \
                and any(_digit_token(toks[i]) and i not in covered for i in words):
            i = 0
            while i < len(toks):
                if _digit_token(toks[i]) and i not in covered:
                    j = i
                    while j < len(toks) and _digit_token(toks[j]) and j not in covered:
                        j += 1
                    sp.append((i, j, typ))
                    i = j
                else:
                    i += 1
            sp.sort()
        last = words[-1] if words else None
        ending = next((t for a, b, t in sp if a <= (last if last is not None else -1) < b and t in NUMBER_TYPES),
                      None)
        if ending and _digit_token(toks[last]):
            open_type[d] = ending
        elif _number_cue_at_end(toks):
            open_type[d] = "NUM"
        elif typ and all(toks[i].lower() in _FILLERS for i in words):
            pass       # "okay", "go on" from the other side: the number goes on in the next turn
        else:
            open_type[d] = None
    return out
