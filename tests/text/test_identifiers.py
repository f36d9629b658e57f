"""Typed identifiers written and spoken (pydeid/text/identifiers), their dialogue context and their shape-keeping
surrogates (pydeid/text/strategies/identifiers.py); the issue 40 probes end to end."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from pydeid.text.context_spans import dialogue_context
from pydeid.text.identifiers import checksums as C
from pydeid.text.identifiers.detector import IdentifierDetector
from pydeid.text.identifiers.spoken import compact_of
from pydeid.text.pools import Pools
from pydeid.text.strategies.context import Context
from pydeid.text.strategies.identifiers import identifier_value, is_valid_like


def _found(sentence: str):
    toks = sentence.split()
    return [(" ".join(toks[s.start:s.end]), s.type) for s in IdentifierDetector().detect(toks)]


# ------------------------------------------------------------------------------------------ checksums
@pytest.mark.parametrize("check, good, bad", [
    (C.luhn, "4539578763621486", "4539578763621487"),
    (C.iban, "GB82WEST12345698765432", "GB83WEST12345698765432"),
    (C.nhs, "9434765919", "9434765918"),
    (C.us_ssn, "078051120", "666051120"),
    (C.es_nif, "12345678Z", "12345678A"),
    (C.it_fiscal_code, "RSSMRA85T10A562S", "RSSMRA85T10A562T"),
    (C.au_tfn, "123456782", "123456781"),
    (C.au_abn, "51824753556", "51824753557"),
    (C.aadhaar, "234567890124", "234567890123"),
    (C.pesel, "44051401359", "44051401358"),
    (C.sg_nric, "S1234567D", "S1234567A"),
])
def test_checksums_accept_valid_and_reject_one_digit_off(check, good, bad):
    assert check(good) and not check(bad)


# ------------------------------------------------------------------------------------------ written
@pytest.mark.parametrize("sentence, value, typ", [
    ("my social security number is 078-05-1120", "078-05-1120", "ID"),
    ("My NHS number is 943 476 5919 .", "943 476 5919", "ID"),
    ("NIF 12345678Z on file", "12345678Z", "ID"),
    ("codice fiscale RSSMRA85T10A562S", "RSSMRA85T10A562S", "ID"),
    ("Our ABN is 51 824 753 556 .", "51 824 753 556", "ID"),
    ("Aadhaar 2345 6789 0124 linked", "2345 6789 0124", "ID"),
    ("Charge it to 4539 5787 6362 1486 please", "4539 5787 6362 1486", "CARD"),
    ("My IBAN is GB82 WEST 1234 5698 7654 32 .", "GB82 WEST 1234 5698 7654 32", "ACCOUNT"),
    ("Call me on +44 20 7946 0958 today", "+44 20 7946 0958", "PHONE"),
    ("Call me on (415) 555-0123 today", "(415) 555-0123", "PHONE"),
    ("my postcode is LS2 9JT", "LS2 9JT", "POSTCODE"),
    ("my zip code is 90210", "90210", "POSTCODE"),
    ("The car reg is AB12 CDE", "AB12 CDE", "PLATE"),
    ("see https://www.example.org/path for details", "https://www.example.org/path", "URL"),
    ("the server is at 2001:db8::8a2e:370:7334 now", "2001:db8::8a2e:370:7334", "IP"),
    ("write to jo.bloggs@example.com today", "jo.bloggs@example.com", "EMAIL"),
])
def test_written_identifiers_are_typed(sentence, value, typ):
    assert (value, typ) in _found(sentence)


def test_checksum_decides_where_the_shape_is_common():
    # a 16-digit string that fails Luhn is no card; grouped 4-4-4 digits are an Aadhaar only with its check digit
    assert not any(t == "CARD" for _, t in _found("reference 4539 5787 6362 1487 today"))
    assert _found("Aadhaar 2345 6789 0124 linked") and not _found("figures 2345 6789 0123 linked")


def test_cue_only_shapes_need_their_cue_and_counts_stay_out():
    assert _found("my zip code is 90210") and not _found("we sold 90210 units")
    assert not _found("order 25 pizzas") and not _found("book a table for 12")
    assert not _found("I met him at seven thirty p m")       # a time read out, not a code


# ------------------------------------------------------------------------------------------ spoken
def test_spoken_compact_forms():
    assert compact_of("two nine J T".split()) == "29JT"
    assert compact_of("double five seventy seven oh one".split()) == "557701"
    assert compact_of("charlie foxtrot triple three".split()) == "CF333"


@pytest.mark.parametrize("sentence, value, typ", [
    ("the postcode is L S two nine J T", "L S two nine J T", "POSTCODE"),
    ("my passport number is C F three eight four one nine two six", "C F three eight four one nine two six", "ID"),
    ("it's charlie foxtrot seven two", "charlie foxtrot seven two", "ID"),
    ("my phone number is oh seven seven double oh nine triple one two three", None, "PHONE"),
    ("the reg is alpha bravo one two charlie delta echo", "alpha bravo one two charlie delta echo", "PLATE"),
    ("email jo dot bloggs at gmail dot com", "jo dot bloggs at gmail dot com", "EMAIL"),
    ("go to w w w dot example dot co dot uk slash contact", "w w w dot example dot co dot uk slash contact", "URL"),
])
def test_spoken_identifiers(sentence, value, typ):
    got = _found(sentence)
    if value is None:
        value = sentence.split(" is ", 1)[1]
    assert (value, typ) in got, got


def test_spoken_words_that_are_not_codes_stay_out():
    for s in ["I have two kids and a dog", "we stayed at the hotel in india", "meet me at the office",
              "I am at home dot com", "see you at five"]:
        assert not [t for _, t in _found(s) if t != "EMAIL"] or s == "I am at home dot com", s
    assert not _found("meet me at the office")


# ------------------------------------------------------------------------------------------ dialogue
def _context(turns, dialogue="d"):
    toks = [t.split() for t in turns]
    det = IdentifierDetector()
    sp = [[(s.start, s.end, s.type) for s in det.detect(t)] for t in toks]
    out = dialogue_context(toks, sp, [dialogue] * len(toks), names=False)
    return [[(" ".join(t[a:b]), ty) for a, b, ty in s] for t, s in zip(toks, out)]


def test_read_back_takes_the_type_of_the_code_it_repeats():
    got = _context(["my postcode is LS2 9JT", "so that is two nine J T"])
    assert got == [[("LS2 9JT", "POSTCODE")], [("two nine J T", "POSTCODE")]]


def test_code_asked_for_then_given_in_pieces():
    got = _context(["what is your postcode please", "L S two", "nine J T"])
    assert got[1:] == [[("L S two", "POSTCODE")], [("nine J T", "POSTCODE")]]


def test_number_over_three_turns_without_a_cue():
    got = _context(["hello there", "oh one", "seven seven", "nine two", "thanks bye"])
    assert [len(g) for g in got] == [0, 1, 1, 1, 0]
    # two short numbers in ordinary turns are not a code
    assert _context(["I have two kids", "and three dogs"]) == [[], []]


# ------------------------------------------------------------------------------------------ surrogates
def _ctx(seed=0):
    return Context(rng=np.random.default_rng(seed), pools=Pools())


def _groups(toks):
    """Groups of two characters or more of the written tokens (spoken words are compared in place)."""
    import re
    return {g.lower() for t in toks if not t.islower() for g in re.findall(r"[A-Za-z0-9]+", t) if len(g) > 1}


@pytest.mark.parametrize("value, typ, checked", [
    ("078-05-1120", "ID", True),
    ("943 476 5919", "ID", True),
    ("GB82 WEST 1234 5698 7654 32", "ACCOUNT", True),
    ("4539 5787 6362 1486", "CARD", True),
    ("RSSMRA85T10A562S", "ID", True),
    ("12345678Z", "ID", True),
    ("LS2 9JT", "POSTCODE", False),
    ("AB12 CDE", "PLATE", False),
    ("+44 20 7946 0958", "PHONE", False),
    ("four five three nine five seven eight seven six three six two one four eight six", "CARD", True),
])
def test_surrogate_keeps_shape_and_checksum_and_no_original_group(value, typ, checked):
    toks = value.split()
    out = identifier_value(toks, typ, _ctx())
    assert len(out) == len(toks)
    for o, t in zip(out, toks):       # same shape: digits for digits, letters for letters, separators kept
        if any(c.isdigit() for c in t):
            assert [c.isdigit() for c in o] == [c.isdigit() for c in t] and \
                [c for c in o if not c.isalnum()] == [c for c in t if not c.isalnum()]
    assert is_valid_like(toks, typ) == checked and is_valid_like(out, typ) == checked
    kept = {"gb", "44"}               # an IBAN's and a phone's country prefix are structure
    assert not ((_groups(out) & _groups(toks)) - kept), out
    assert not any(o == t for o, t in zip(out, toks) if t.isalpha() and len(t) > 2 or len(t) == 1)
    assert out == identifier_value(toks, typ, _ctx())          # seeded
    assert out != identifier_value(toks, typ, _ctx(1))


def test_spoken_surrogate_keeps_the_spoken_form():
    toks = "double five seventy seven oh one charlie foxtrot J".split()
    out = identifier_value(toks, "ID", _ctx())
    assert out[0] == "double" and out[1] in ("zero", "one", "two", "three", "four", "six", "seven", "eight", "nine")
    assert out[2] in ("twenty", "thirty", "forty", "fifty", "sixty", "eighty", "ninety")
    assert out[6] != "charlie" and out[6] in ("alpha", "bravo", "delta", "echo", "foxtrot", "golf", "hotel", "india",
                                              "juliet", "kilo", "lima", "mike", "november", "oscar", "papa", "quebec",
                                              "romeo", "sierra", "tango", "uniform", "victor", "whiskey", "x-ray",
                                              "yankee", "zulu")
    assert len(out[8]) == 1 and out[8].isupper() and out[8] != "J"


def test_placeholders_name_the_new_types():
    from pydeid.text.hidden_types import detector_types, hidden_types
    from pydeid.text.strategies import make_strategy
    for typ in ("URL", "POSTCODE", "ACCOUNT", "PLATE"):
        assert typ in hidden_types() and typ in detector_types()
        assert make_strategy("typed_placeholder").replace(["x"], typ, _ctx()) == [typ]
        assert make_strategy("named_placeholder").replace(["LS2", "9JT"], typ, _ctx()) != ["LS2", "9JT"]


# ------------------------------------------------------------------------------------------ end to end
PROBE_TEXT = ["d1-u1 my postcode is LS2 9JT", "d1-u2 two nine J T",
              "d2-u1 my passport number is C F three eight four one nine two six",
              "d3-u1 oh one", "d3-u2 seven seven", "d3-u3 nine two",
              "d4-u1 my social security number is 078-05-1120"]
PROBE_VALUES = ["LS2", "9JT", "two nine J T", "C F three eight four one nine two six", "oh one", "seven seven",
                "nine two", "078-05-1120"]


def test_probes_tagged_typed_and_replaced_by_the_default_detection(default_detection):
    from pydeid.io.conll import Sentence
    from pydeid.text.strategies import DEFAULT_STRATEGY, parse_strategy_spec
    from pydeid.text.transform import TextTransformer, TransformConfig
    utts = [line.split(" ", 1) for line in PROBE_TEXT]
    toks = [u[1].split() for u in utts]
    sp = default_detection.detect_many(toks)
    sp = dialogue_context(toks, [[(s.start, s.end, s.type) for s in x] for x in sp], [u[0][:2] for u in utts])
    types = {" ".join(t[a:b]): ty for t, s in zip(toks, sp) for a, b, ty in s}
    assert types["LS2 9JT"] == "POSTCODE" and types["two nine J T"] == "POSTCODE"
    assert types["078-05-1120"] == "ID"
    assert any(v.startswith("C F three") and ty == "ID" for v, ty in types.items())
    assert all(types.get(v) for v in ("oh one", "seven seven", "nine two"))
    res = TextTransformer(TransformConfig(strategies=parse_strategy_spec(DEFAULT_STRATEGY)), Pools()).transform(
        [Sentence(t, ["O"] * len(t), u[0]) for t, u in zip(toks, utts)], spans=sp)
    outs = [" ".join(s.tokens) for s in res.sentences]
    for k, v in [(0, "LS2"), (0, "9JT"), (1, "two nine J T"), (2, "C F three eight four"), (3, "oh one"),
                 (4, "seven seven"), (5, "nine two"), (6, "078-05-1120")]:
        assert v not in outs[k], (v, outs)
    assert len(outs[0].split()) == 5 and outs[0].startswith("my postcode is")       # the shape kept


@pytest.mark.slow      # two subprocesses that each load spaCy
@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is needed for the steps scripts")
def test_probes_hidden_by_the_default_steps(repo_root, tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "text").write_text("\n".join(PROBE_TEXT) + "\n")
    (data / "utt2dialogue").write_text("".join(f"{line.split()[0]} {line.split()[0][:2]}\n" for line in PROBE_TEXT))
    env = dict(os.environ, PATH=f"{repo_root}/utils:{repo_root}/steps:{Path(sys.executable).parent}:"
                               f"{os.environ['PATH']}")
    r = subprocess.run(["bash", "steps/tag_entities.sh", str(data), "-", str(tmp_path / "tag")], cwd=repo_root,
                       env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    r = subprocess.run(["bash", "steps/transform_text.sh", "--exp-dir", str(tmp_path / "exp"),
                        "--secret-dir", str(tmp_path / "secrets"), str(data),
                        str(tmp_path / "tag" / "tags.conll"), str(tmp_path / "deid")], cwd=repo_root, env=env,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    outs = [line.split(" ", 1)[1] for line in (tmp_path / "deid" / "text").read_text().splitlines()]
    for k, v in [(0, "LS2"), (0, "9JT"), (1, "two nine J T"), (2, "C F three eight four"), (3, "oh one"),
                 (4, "seven seven"), (5, "nine two"), (6, "078-05-1120")]:
        assert v not in outs[k], (v, outs)
