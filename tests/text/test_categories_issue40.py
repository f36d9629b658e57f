"""Sensitive categories the issue 40 probes found missed (seed 004 A.1: health, beliefs, sexual life, family
situation), and their neighbours in the lexicons; the everyday uses of the same words stay out."""

import pytest

from pydeid.text.categories import CategoryDetector


def _found(sentence):
    toks = sentence.split()
    return [(" ".join(toks[s.start:s.end]), s.type) for s in CategoryDetector().detect(toks)]


@pytest.mark.parametrize("sentence, phrase, typ", [
    ("the biopsy showed the tumour was malignant", "malignant", "HEALTH"),
    ("he is in rehab again", "in rehab", "HEALTH"),
    ("she has been sober since the overdose", "overdose", "HEALTH"),
    ("my brother is HIV-positive", "HIV-positive", "HEALTH"),
    ("she uses a wheelchair since the accident", "uses a wheelchair", "HEALTH"),
    ("I'm in a wheelchair", "in a wheelchair", "HEALTH"),
    ("we go to the synagogue on saturdays", "synagogue", "BELIEF"),
    ("he prays at the mosque every friday", "mosque", "BELIEF"),
    ("my daughter wears a hijab", "hijab", "BELIEF"),
    ("my husband left me last year", "husband left me", "MARITAL"),
    ("we are going through a divorce", "going through a divorce", "MARITAL"),
    ("I'm a single mum with two kids", "single mum", "MARITAL"),
    ("the custody battle took two years", "custody battle", "MARITAL"),
    ("my son came out to us when he was sixteen", "came out", "SEXUAL"),
    ("she came out as gay at university", "came out as gay", "SEXUAL"),
])
def test_issue40_terms_are_tagged(sentence, phrase, typ):
    assert (phrase, typ) in _found(sentence), _found(sentence)


@pytest.mark.parametrize("sentence", [
    "the film came out last year",
    "I came out of the shop",
    "book a table with wheelchair access",
    "add this tune to black sabbath the ozzy years",
    "I need Journal of Pediatric Oncology Nursing",
    "find a kosher restaurant nearby",
])
def test_everyday_uses_stay_out(sentence):
    assert _found(sentence) == []
