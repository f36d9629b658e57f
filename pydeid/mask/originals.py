"""Does a spoken insert say an original? The check shared by mask-spoken (refuse) and verify-spoken (report).

The sensitive content of a dialogue is what its original tags mark: the words of every entity span. A surrogate
(the words an insert speaks for an entity) leaks when

  word      it contains a content word of an original entity of the same dialogue ("john", "smith", "asthma",
            "tulipgarden"), case, accents and punctuation ignored; written forms are split into their pieces
            ("john.smith@gmail.com" -> john smith gmail com);
  value     its words are an original entity's words (transformed tags equal to the originals, a strategy that
            keeps the value);
  digits    it contains the whole digit/letter sequence of an original entity of 5 or more symbols ("four five
            two one one" kept inside a longer number);
  spelling  it shares a run of 4 or more spelled letters with an original ("K two W A L S K I" after random
            digits: W A L S K I).

Closed-class words are not content words: function and structure words ("the", "dot", "at", "years", "street")
and symbols whose value only their sequence carries (digits, letters, number words, ordinals, months, weekdays);
a random surrogate of the same shape shares them by chance (a new date "the fifth of June" for "the fifth of
May"), so they count only through the value, digits and spelling rules, whose chance hits on random digits and
letters are rare (a 5-digit run: 1e-5 per position pair).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Iterable, Sequence

_DIGITS = {"zero": "0", "oh": "0", "o": "0", "nought": "0", "one": "1", "two": "2", "three": "3", "four": "4",
           "five": "5", "six": "6", "seven": "7", "eight": "8", "nine": "9"}
_NUMBER_WORDS = set("""ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty thirty
forty fifty sixty seventy eighty ninety hundred thousand million billion double triple point half quarter""".split())
_ORDINALS = set("""first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth
fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth thirtieth""".split())
_CALENDAR = set("""january february march april may june july august september october november december jan feb mar
apr jun jul aug sep sept oct nov dec monday tuesday wednesday thursday friday saturday sunday""".split())
# function and structure words: shared by any surrogate of the same shape, they identify nobody
_STRUCTURE = set("""a an the of and or at in on to for from by with my your his her our their its this that next last
past ago dot underscore dash hyphen slash colon plus hash star com org net co uk de fr io edu gov info www http https
mail email gmail yahoo hotmail outlook icloud aol live mr mrs ms miss dr sir madam st saint
am pm o'clock oclock clock morning afternoon evening night noon midnight today tomorrow yesterday tonight week weeks
weekend month months year years day days hour hours minute minutes old aged age about around
street st road rd avenue ave lane drive way place court square boulevard number no flat apartment
euro euros dollar dollars pound pounds cent cents pence quid bucks percent
is was am are i i'm me we you he she they it""".split())


def pieces(token: str) -> list[str]:
    """Lower-case alphanumeric pieces of a token, accents dropped ('John.Smith@GMail.com' -> john smith gmail com);
    an apostrophe stays inside a word."""
    s = unicodedata.normalize("NFKD", token)
    s = "".join(c for c in s if not unicodedata.combining(c)).lower()
    return re.findall(r"[a-z0-9]+(?:'[a-z]+)?", s)


def _symbols(words: Sequence[str]) -> list[str]:
    """Sequence symbols of an entity's words: digits (spoken or written), spelled letters, number words,
    ordinals, months, weekdays (structure words skipped)."""
    out: list[str] = []
    for w in words:
        if w.isdigit():
            out += [f"d{c}" for c in w]
        elif w in _DIGITS:
            out.append(f"d{_DIGITS[w]}")
        elif len(w) == 1:
            out.append(f"l{w}")
        elif w in _NUMBER_WORDS or w in _ORDINALS or w in _CALENDAR:
            out.append(f"w{w}")
    return out


class Entity:
    """One entity's comparable forms."""

    def __init__(self, tokens: Sequence[str]):
        self.tokens = list(tokens)
        self.words = [p for t in tokens for p in pieces(t)]
        self.value = tuple(w for w in self.words if not structure_word(w))
        self.symbols = _symbols(self.words)
        self.content = {w for w in self.words if content_word(w)}


@lru_cache(maxsize=1)
def _closed_text_words() -> frozenset:
    """The closed classes the text leak count uses (pydeid.text.generate.closed_words: relative days, date structure
    such as "after" / "before", day parts, ...): one definition of the words that identify nobody for both checks."""
    from pydeid.text.generate import closed_words
    return closed_words()


@lru_cache(maxsize=1)
def _text_structure_words() -> frozenset:
    """The text side's structure words (lexicon.NON_IDENTIFYING, date structure, relative modifiers and glue): like
    _STRUCTURE they carry no value of their own ("the day AFTER tomorrow")."""
    from pydeid.text import lexicon as L
    from pydeid.text.generate import DATE_STRUCTURE
    return frozenset(L.NON_IDENTIFYING | DATE_STRUCTURE | set(L.RELATIVE_MODIFIERS) | L.RELATIVE_GLUE)


def _is_symbol(w: str) -> bool:
    return w.isdigit() or w in _DIGITS or len(w) == 1 or w in _NUMBER_WORDS or w in _ORDINALS or w in _CALENDAR


def structure_word(w: str) -> bool:
    """A word an entity's value leaves out: a structure word of either side, never a sequence symbol ("hundred" of
    "two hundred" is part of the value)."""
    return w in _STRUCTURE or (w in _text_structure_words() and not _is_symbol(w))


def content_word(w: str) -> bool:
    return not (w in _STRUCTURE or _is_symbol(w) or w in _closed_text_words())


def _letter_runs(sym: list[str], n: int) -> set[tuple[str, ...]]:
    """Every run of n consecutive spelled letters."""
    return {tuple(sym[i:i + n]) for i in range(len(sym) - n + 1) if all(s[0] == "l" for s in sym[i:i + n])}


def _contains(hay: list[str], needle: list[str]) -> bool:
    n = len(needle)
    return any(hay[i:i + n] == needle for i in range(len(hay) - n + 1))


MIN_DIGITS = 5    # an original symbol sequence this long found whole inside a surrogate is a leak
MIN_LETTERS = 4   # a shared run of this many spelled letters is a leak


def leaks(surrogate: Sequence[str], originals: Iterable[Entity]) -> list[str]:
    """Why the surrogate's words say an original (empty: they do not). One short reason per hit."""
    s = Entity(surrogate)
    out: list[str] = []
    runs = _letter_runs(s.symbols, MIN_LETTERS)
    for o in originals:
        hit = sorted(s.content & o.content)
        if hit:
            out.append(f"word '{hit[0]}' of the original '{' '.join(o.tokens)}'")
        elif s.value and s.value == o.value:
            out.append(f"the original value '{' '.join(o.tokens)}'")
        elif len(o.symbols) >= MIN_DIGITS and _contains(s.symbols, o.symbols):
            out.append(f"the digits/letters of the original '{' '.join(o.tokens)}'")
        elif runs & _letter_runs(o.symbols, MIN_LETTERS):
            out.append(f"spelled letters of the original '{' '.join(o.tokens)}'")
    return out


def dialogue_entities(sentences: dict, utts: Sequence[str], dialogue_of: dict[str, str]) -> dict[str, list[Entity]]:
    """dialogue id -> the entities (every type) of the original tagged sentences of its utterances."""
    out: dict[str, list[Entity]] = {}
    for u in utts:
        sent = sentences.get(u)
        if sent is None:
            continue
        ents = out.setdefault(dialogue_of[u], [])
        ents.extend(Entity(sent.tokens[a:b]) for a, b, _ in sent.spans())
    return out


def dialogues(data_dir, utts: Sequence[str], utt2spk: dict[str, str]) -> dict[str, str]:
    """utterance -> dialogue id (utt2dialogue of the data dir when present, else the utterance id minus its speaker
    prefix and last field: pydeid.text.dialogue's 'auto' mode, as transform-text scopes its pseudonyms)."""
    from pydeid.text.dialogue import dialogue_ids
    ids, _ = dialogue_ids(list(utts), utt2spk, mode="auto", data_dir=data_dir)
    return dict(zip(utts, ids))
