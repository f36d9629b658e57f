"""Grammar detectors: spoken digits (which mainstream NER misses), written numbers, dates, times, e-mails."""

import pytest

from pydeid.text.detectors import CapitalisationDetector
from pydeid.text.grammars import GrammarDetector, luhn_ok
from pydeid.text.spans import Span, combine


def found(sentence, **kw):
    toks = sentence.split()
    return [(" ".join(toks[a:b]), label) for a, b, label in GrammarDetector(**kw).candidates(toks)]


@pytest.mark.parametrize("sentence, span, label", [
    # seed 001 figure 1, spoken as an ASR system would write it
    ("my phone number is nine seven three area code one two three nine six eight four",
     "nine seven three area code one two three nine six eight four", "phone"),
    ("call me at double four oh seven one two three", "double four oh seven one two three", "phone"),
    ("reach me at four one five zero seven double four two four one four",
     "four one five zero seven double four two four one four", "phone"),
    ("my pin is four two oh seven", "four two oh seven", "pin"),
    ("the extension is four five", "four five", "number"),
    ("my discover card number is 4111 1111 1111 1111 and it expires", "4111 1111 1111 1111", "card"),
    ("it is 4111111111111112 I think", "4111111111111112", "id"),
    ("call 973-123-4567 today", "973-123-4567", "phone"),
    ("it costs twelve dollars and fifty cents", "twelve dollars and fifty cents", "amount"),
    ("that is $12.50 in total", "$12.50", "amount"),
    ("write to john dot smith at example dot com", "john dot smith at example dot com", "email"),
    ("or to john.smith@example.com please", "john.smith@example.com", "email"),
    ("let us meet on tuesday the fourteenth of march", "tuesday the fourteenth of march", "date"),
    ("March of ninety five would be fine", "March of ninety five", "date"),
    ("how about the beginning of December", "the beginning of December", "date"),
    ("the weekend is fine", "the weekend", "date"),
    ("at half past ten", "half past ten", "time"),
    ("shall we say a quarter to eleven", "a quarter to eleven", "time"),
    ("shall we say three forty five", "three forty five", "time"),
    ("is five oh five too early", "five oh five", "time"),
    ("six pm suits me", "six pm", "time"),
    ("meet at 10:30am", "10:30am", "time"),
    ("on 12/03/2020 then", "12/03/2020", "date"),
])
def test_grammar_finds(sentence, span, label):
    assert (span, label) in found(sentence)


@pytest.mark.parametrize("sentence", [
    "i have one question", "oh I see", "you may go now", "one of them is fine", "good morning to you",
])
def test_grammar_quiet_on_ordinary_words(sentence):
    assert found(sentence) == []


def test_min_digits_and_context():
    assert found("four five") == []
    assert found("room four five")[0] == ("four five", "number")
    assert found("four five six", min_digits=4) == []


def test_luhn():
    assert luhn_ok("4111111111111111")
    assert luhn_ok("79927398713")
    assert not luhn_ok("79927398710")
    assert not luhn_ok("12a4")


def test_type_map_and_detector_names():
    spans = GrammarDetector().detect("call nine seven three one two three four at six pm".split())
    assert [(s.type, sorted(s.detectors)) for s in spans] == [("NUM", ["grammar:phone"]), ("TIME", ["grammar:time"])]


def test_capitalisation_heuristic():
    toks = "Good morning Misses Smith I am calling for the CEBIT fair in Hanover on Monday".split()
    spans = CapitalisationDetector().detect(toks)
    # all-capital acronyms (CEBIT, COVID-19, EBITDA) are not taken for persons (issue 16)
    assert [" ".join(toks[s.start:s.end]) for s in spans] == ["Misses Smith", "Hanover"]
    assert CapitalisationDetector().detect([t.lower() for t in toks]) == []   # ASR-style: nothing, by construction


def test_union_records_every_detector():
    a = {"flair": [Span(0, 2, "PER", {"flair"})], "grammar": [Span(1, 3, "NUM", {"grammar:phone"})],
         "capitalisation": [Span(0, 2, "PER", {"capitalisation"})]}
    spans = combine(a, 4, "union", ["flair", "grammar", "capitalisation"])
    assert [(s.start, s.end, s.type) for s in spans] == [(0, 2, "PER"), (2, 3, "NUM")]
    assert spans[0].detectors == {"flair", "capitalisation", "grammar:phone"}
    pr = combine(a, 4, "priority", ["grammar", "flair", "capitalisation"])
    assert [(s.start, s.end, s.type) for s in pr] == [(1, 3, "NUM")]


def test_provision_numbers_are_not_identifiers():
    # TAB's ASR-style view drops the '§' of "Rule 52 § 1": "52 1" must not read as a 3-digit identifier
    g = GrammarDetector()
    for text in ("rule 52 1 of the rules of court", "under article 27 1 of the convention",
                 "pursuant to section 189 of the act", "Rule 52 § 1", "Article 8"):
        assert g.detect(text.split()) == [], text
    # the same digits elsewhere stay identifiers, and a long run after a provision word still is one
    assert [(s.start, s.end) for s in g.detect("his number is 52 1 8".split())] == [(3, 6)]
    assert [(s.start, s.end) for s in g.detect("rule 52 1".split())] == []
    assert [(s.start, s.end, s.type) for s in g.detect("section 4471 2398 on file".split())] == [(1, 3, "NUM")]
