"""Titles in a person's name, through both surrogate paths that replace a PER span word by word: the `faker`
strategy (FakerSurrogate.replace) and the default `surrogate` (Surrogate._person). Each row: a PER span in "I met
... today" and the original words that come back in its surrogate (any position, case-insensitive), the same for
both paths and seeds 0-2: both ask shapes.name_tokens which tokens are the name. A title is kept beside a name
only; no word of the name comes back, even a title word ("King" of "Anna King") or a common word ("Day" of "Miss
Day")."""

from __future__ import annotations

import pytest

from pydeid.io.conll import Sentence
from pydeid.text.pools import Pools
from pydeid.text.strategies.shapes import is_title, kept_titles, name_tokens, span_gender
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


# span, the original words its surrogate keeps, which tokens are the name (shapes.name_tokens: 1 replaced)
TABLE = [
    ("KING", "", "1"),                            # a title alone (tagged PER): it is the name
    ("Prince", "", "1"),
    ("MRS KING", "MRS", "01"),                    # title + a title word that is the name
    ("Mrs Anna Kowalski", "Mrs", "011"),          # title + name
    ("Mrs Kowalski", "Mrs", "01"),
    ("Kowalski Mrs", "Mrs", "10"),                # name + title: "Mrs" names nobody
    ("Anna King", "", "11"),                      # "King" a surname after a first name
    ("John Major", "", "11"),
    ("Anna Queen Smith", "", "111"),              # a title word in the middle
    ("Mr and Mrs Smith", "Mr and Mrs", "0001"),   # titles before the name, glued by "and"
    ("Mr .", "", "10"),                           # "Mr ." with punctuation and no name: the title is the name
    ("Mr . Smith", "Mr", "001"),
    ("Mr D . Walton", "Mr", "0101"),
    ("Mr.", "", "1"),
    ("Dr. Anna Smith", "Dr.", "011"),
    ("mr smith", "mr", "01"),                     # lower case
    ("mr", "", "1"),
    ("Miss Day", "Miss", "01"),                   # a surname that is a common word
    ("doctor day", "doctor", "01"),
]


@pytest.mark.parametrize("span,kept,name", TABLE)
def test_titles_kept_and_names_replaced(span, kept, name):
    toks = span.split()
    assert "".join(str(int(n)) for n in name_tokens(toks)) == name
    assert [t for t, k in zip(toks, kept_titles(toks)) if k] == [t for t in kept.split() if is_title(t)]
    for seed in (0, 1, 2):
        for strategy in ("faker", "surrogate"):
            assert _kept(toks, _surrogate(toks, strategy, seed)) == kept, (span, strategy, seed)


def test_gender_from_kept_titles_only():
    # "King" after a first name is a surname: Anna stays a woman's name; a kept title still decides
    assert span_gender(["Anna", "King"], ["I", "met", "Anna", "King"], 2) == "f"
    assert span_gender(["Mrs", "Kim", "King"], ["Mrs", "Kim", "King"], 0) == "f"
    assert span_gender(["MRS", "KING"], ["MRS", "KING"], 0) == "f"
    assert span_gender(["John", "Queen"], ["John", "Queen"], 0) == "m"


def test_faker_titled_name_avoids_the_original_when_asked():
    # faker's en_US surnames draw "Smith" about once in thirty: kept titles, yet the name itself never comes back
    # with avoid_original (the titled path had no check; the untitled one had)
    import numpy as np

    from pydeid.text.strategies.context import Context
    from pydeid.text.strategies.outside import FakerSurrogate
    toks = ["Mrs", "Smith"]
    for avoid, hits in ((False, lambda n: n > 0), (True, lambda n: n == 0)):
        ctx = Context(np.random.default_rng(0), Pools([]), avoid_original=avoid, sentence=toks)
        outs = [FakerSurrogate().replace(toks, "PER", ctx) for _ in range(300)]
        assert all(o[0] == "Mrs" and len(o) == 2 for o in outs)
        assert hits(sum(o[1] == "Smith" for o in outs)), (avoid, outs)


@pytest.mark.parametrize("strategy", ["surrogate", "faker"])
def test_a_drawn_name_is_never_a_title_word(strategy):
    """A surrogate surname such as "Lord" ("Tim Finn" -> "Osvaldo Lord") reads as a title and fails the
    fidelity check: the name lists hold no title word."""
    from pydeid.text.strategies.frequencies import first_names, last_names
    assert not [n for n in last_names().items + first_names().items if is_title(n)]
    drawn = [t for seed in range(40) for t in _surrogate(["Tim", "Finn"], strategy, seed)]
    assert len(drawn) >= 80 and not [t for t in drawn if is_title(t)], drawn
