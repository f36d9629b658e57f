"""Detection on domains it was not tuned on: the recall rules for court judgments (sentences from TAB, ECHR
judgments, MIT) and the removal filters switched off outside the context each was written for."""

import pytest

from pydeid.text.detectors import FILTERS, Detection, DetectionConfig, command_style


def _detect(det, text):
    toks = text.split()
    return [(" ".join(toks[s.start:s.end]), s.type) for s in det.detect_many([toks])[0]]


# ------------------------------------------------------------------------------------------ recall rules
def test_application_numbers_titled_names_and_nationality_in_a_judgment(default_detection):
    got = _detect(default_detection, "The case originated in an application ( no . 28045/02 ) against the United "
                                     "Kingdom of Great Britain and Northern Ireland lodged with the Court under "
                                     "Article 34 of the Convention by a British national , Mr Robert Murray ( “ the "
                                     "applicant ” ) , on 1 March 2001 .")
    assert ("28045/02", "NUM") in got
    assert ("Mr Robert Murray", "PER") in got            # the title belongs to the name (TAB counts it)
    assert ("British", "ETHNICITY") in got               # a nationality stated about a person
    assert ("1 March 2001", "DATE") in got


def test_a_title_and_initials_are_a_person(default_detection):
    got = _detect(default_detection, "The United Kingdom Government ( “ the Government ” ) were represented by "
                                     "their Agent , Mr C . Whomersley of the Foreign and Commonwealth Office , "
                                     "London .")
    # every word of "Mr C . Whomersley" is in a person span (spaCy's "Whomersley" may stay a span of its own)
    assert " ".join(w for w, t in got if t == "PER") == "Mr C . Whomersley"
    assert ("Mr D .", "PER") in _detect(default_detection, "Mr D . was then 17 years old .")


def test_a_date_is_not_a_reference_number():
    from pydeid.text.grammars import is_reference_number
    assert is_reference_number("47289/99") and is_reference_number("8374/03")
    assert not is_reference_number("12/05") and not is_reference_number("1/2") and not is_reference_number("2001")


# ------------------------------------------------------------------------------------------ gated filters
def test_unknown_filter_is_an_error():
    with pytest.raises(ValueError, match="unknown filter 'titles'"):
        Detection(DetectionConfig(detectors=["grammar"], filters_off=["titles"]))
    assert set(FILTERS) >= {"wake_words", "work_titles", "specific_time", "article", "context", "platforms"}


def test_command_style():
    assert command_style("olly play jazz in the kitchen".split())
    assert command_style("Rate The Universe Maker 4 out of 6 stars".split())
    assert command_style("Is Romance on the Range playing at the movies".split())
    assert not command_style("We put the new plant in Ohio into service in the third quarter .".split())
    assert not command_style("i think we should put it on the agenda for the board meeting next week".split())
