"""Titles in a person's name, through both surrogate paths that replace a PER span word by word: the `faker`
strategy (FakerSurrogate.replace) and the default `surrogate` (Surrogate._person). Each row: a PER span in "I met
... today" and the original words that come back in its surrogate (any position, case-insensitive), for seeds
0-2. Current behaviour, before the two paths share one decision."""

from __future__ import annotations

import pytest

from pydeid.io.conll import Sentence
from pydeid.text.pools import Pools
from pydeid.text.transform import TextTransformer, TransformConfig


def _surrogate(span: list[str], strategy: str, seed: int) -> list[str]:
    toks = ["I", "met"] + span + ["today"]
    tags = ["O", "O", "B-PER"] + ["I-PER"] * (len(span) - 1) + ["O"]
    s = Sentence(toks, tags, "d1-u1")
    cfg = TransformConfig(strategies={"default": strategy}, seed=seed, propagate_names=False)
    out = TextTransformer(cfg, Pools([s])).transform([s]).sentences[0]
    a = out.tags.index("B-PER")
    b = a + 1
    while b < len(out.tags) and out.tags[b] == "I-PER":
        b += 1
    assert out.tokens[:a] == ["I", "met"] and out.tokens[b:] == ["today"], out.tokens
    return out.tokens[a:b]


def _kept(span: list[str], new: list[str]) -> str:
    """The original words (letters or digits) of `span` that are in `new`, in `new`'s order."""
    orig = {t.lower() for t in span}
    return " ".join(t for t in new if t.lower() in orig and any(c.isalnum() for c in t))


# span, kept by faker, kept by surrogate
TABLE = [
    ("KING", "", ""),                             # a title alone (tagged PER): it is the name
    ("Prince", "", ""),
    ("MRS KING", "", "MRS"),                      # title + a title word that is the name
    ("Mrs Anna Kowalski", "Mrs", "Mrs"),          # title + name
    ("Mrs Kowalski", "Mrs", "Mrs"),
    ("Kowalski Mrs", "Mrs", "Mrs"),               # name + title
    ("Anna King", "King", "King"),                # "King" a surname after a first name
    ("John Major", "Major", "Major"),
    ("Anna Queen Smith", "Queen", "Queen"),       # a title word in the middle
    ("Mr and Mrs Smith", "Mr Mrs", "Mr and Mrs"),  # titles before the name, glued by "and"
    ("Mr .", "Mr", "Mr"),                         # "Mr ." with punctuation, no name
    ("Mr . Smith", "Mr", "Mr"),
    ("Mr D . Walton", "Mr", "Mr"),
    ("Mr.", "", ""),
    ("Dr. Anna Smith", "Dr.", "Dr."),
    ("mr smith", "mr", "mr"),                     # lower case
    ("mr", "", "mr"),
    ("Miss Day", "Miss", "Miss Day"),             # a surname that is a common word
    ("doctor day", "doctor", "doctor day"),
]


@pytest.mark.parametrize("span,faker,surrogate", TABLE)
def test_titles_kept_and_names_replaced(span, faker, surrogate):
    toks = span.split()
    for seed in (0, 1, 2):
        assert _kept(toks, _surrogate(toks, "faker", seed)) == faker, (span, "faker", seed)
        assert _kept(toks, _surrogate(toks, "surrogate", seed)) == surrogate, (span, "surrogate", seed)
