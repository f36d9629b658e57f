"""Transcript tokens -> alignable units (punctuation, case, digits, hyphens, non-verbal) and the offline G2P."""

from pydeid.align.g2p import PHONEMES, NeuralG2P
from pydeid.align.normalize import match_key, nonverbal_kind, prepare, strip_punct


def test_punctuation_case_and_mapping_back():
    toks = "There is , according to legend, a pot of gold at one end.".split()
    p = prepare(toks)
    assert p.punctuation == [2]                       # the lone comma: nothing spoken, counted
    assert [u.text for u in p.units][:3] == ["there", "is", "according"]
    assert all(u.text == u.text.lower() for u in p.units)
    assert p.units[-1].token_index == len(toks) - 1   # "end." maps back to its token
    assert p.ctm_token(len(toks) - 1) == "end"
    assert p.ctm_token(5) == "legend"


def test_hyphen_kept_when_known_split_otherwise():
    known = {"super-imposition"}.__contains__
    assert [u.text for u in prepare(["super-imposition"], known).units] == ["super-imposition"]
    units = prepare(["zorb-blax"], known).units
    assert [u.text for u in units] == ["zorb", "blax"] and {u.token_index for u in units} == {0}


def test_digits_and_ordinals_are_spelled():
    units = prepare(["room", "42", "on", "May", "21st", "1999"]).units
    words = [u.text for u in units]
    assert words == ["room", "forty", "two", "on", "may", "twenty", "first", "nineteen", "ninety", "nine"]
    assert [u.token_index for u in units if u.text == "nineteen"] == [5]


def test_nonverbal_tokens_are_classified_not_dropped():
    p = prepare(["[noise]", "hello", "[laughter]", "<unk>", "[sil]", "{breath}"])
    kinds = {p.tokens[u.token_index]: u.nonverbal for u in p.units}
    assert kinds == {"[noise]": "noise", "hello": None, "[laughter]": "speech", "<unk>": "speech",
                     "{breath}": "noise"}
    assert p.silence_markers == [4]
    assert nonverbal_kind("[cough]") == "noise"


def test_match_key_ignores_case_punctuation_accents_but_not_brackets():
    assert match_key("Stella.") == match_key("stella") == "stella"
    assert match_key("Café") == "cafe"
    assert match_key("[noise]") != match_key("noise")
    assert strip_punct("(and,") == "and" and strip_punct("don't") == "don't"


def test_neural_g2p_offline_arpabet_without_stress():
    g = NeuralG2P()
    assert g.predict("stella") == ("S", "T", "EH", "L", "AH")     # the CMU dictionary entry
    phones = set(g.predict("zorblaxian")) | set(g.predict("kowalski"))
    cmu = {p.rstrip("012") for p in PHONEMES[4:]}
    assert phones and phones <= cmu
    assert g.predict("123") == ()
