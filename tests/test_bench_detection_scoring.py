"""The detection benches' shared pieces (bench/text_vs_presidio.py, bench/text_domains.py): Presidio's character
results map onto the corpus's tokens, and the scorer counts recall, precision and tagged contractions as the
results tables say (a possessive tagged with its name is the gold convention, not a contraction)."""

from __future__ import annotations

import sys
from collections import namedtuple
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
text_vs_presidio = pytest.importorskip("text_vs_presidio")
text_domains = pytest.importorskip("text_domains")

Result = namedtuple("Result", "start end entity_type")      # the fields of Presidio's RecognizerResult it reads


def test_presidio_results_map_onto_tokens():
    toks = ["call", "John", "Smith", "at", "555-0100"]
    off = text_vs_presidio.token_offsets(toks)
    text = " ".join(toks)
    assert [text[a:b] for a, b in off] == toks
    res = [Result(text.index("John"), text.index("Smith") + 5, "PERSON"),
           Result(text.index("555") + 2, len(text), "PHONE_NUMBER")]        # a result inside a token flags it all
    assert text_vs_presidio.presidio_token_spans(res, off) == [[1, 2, "PERSON"], [2, 3, "PERSON"],
                                                              [4, 5, "PHONE_NUMBER"]]
    assert text_vs_presidio.presidio_token_spans([Result(4, 5, "X")], off) == []     # the space between tokens


def test_scorer_counts_recall_precision_and_contractions():
    # the contraction list reads spaCy's tokenizer exceptions: spaCy imported as detection imports it (without
    # torch, which a bare `import spacy` pulls in: about 8 s)
    from pydeid.text.spacy_ner import import_spacy
    import_spacy()
    sents = [("s1", ["we're", "meeting", "John", "'s", "sister", "gonna", "be", "fun"],
              ["O", "O", "B-PER", "I-PER", "O", "O", "O", "O"]),
             ("s2", ["call", "Mary", "tomorrow"], ["O", "B-PER", "B-DATE"])]
    flagged = [[0, 2, 3], [1]]             # "we're" (a contraction), "John 's" (the possessive), "Mary"
    s = text_domains.score(sents, flagged)
    assert (s["gold"], s["flagged"], s["tp"]) == (4, 4, 3)
    assert s["recall"] == pytest.approx(0.75) and s["precision"] == pytest.approx(0.75)
    assert s["contractions_flagged"] == 1 and s["contraction_examples"] == ["we're"]
    assert (s["entities"], s["caught"]) == (3, 2)
    assert s["missed_by_type"] == {"DATE": 1}
    lo, hi = s["recall_ci"]
    assert 0 <= lo <= 0.75 <= hi <= 1
    # the possessive alone, without its name, is a tagged clitic
    assert text_domains.score(sents[:1], [[3]])["contractions_flagged"] == 1
