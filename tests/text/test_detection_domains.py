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


def test_the_court_rules_switch_off_as_one_group():
    # written after reading TAB's held-out documents: the bench reports TAB with them off as the clean figure
    text = "The applicant , Mr X. , a Turkish national , lodged application no. 47289/99 with Mrs S. Ozturk ."
    dets = ["grammar", "gazetteer", "categories"]
    on = _detect(Detection(DetectionConfig(detectors=dets)), text)
    assert {("Mr X.", "PER"), ("Turkish", "ETHNICITY"), ("47289/99", "NUM"), ("Mrs S. Ozturk", "PER")} <= set(on)
    assert _detect(Detection(DetectionConfig(detectors=dets, rules_off=["court"])), text) == []
    with pytest.raises(ValueError, match="unknown rule group 'courts'"):
        Detection(DetectionConfig(detectors=["grammar"], rules_off=["courts"]))


def test_the_court_rules_switch_off_from_a_config(tmp_path):
    from pydeid.io.errors import FormatError
    ok = tmp_path / "ok.yaml"
    ok.write_text("rules_off: [court]\n")
    assert DetectionConfig.from_yaml(ok).rules_off == ["court"]
    bad = tmp_path / "bad.yaml"
    bad.write_text("rules_off: [courts]\n")
    with pytest.raises(FormatError, match="courts"):
        DetectionConfig.from_yaml(bad)


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
    assert not command_style("Will Smith called me about the contract yesterday .".split())
    assert command_style("Will it rain in Boston tomorrow".split())


# each filter written for commands fires on a command and not on the same kind of text elsewhere
def test_work_titles_only_in_commands(default_detection):
    assert _detect(default_detection, "rate The Universe Maker 4 out of 6 stars") == []
    got = _detect(default_detection, "We put the contract with Humbert Energy on hold until we hear from Siemens .")
    assert ("Humbert Energy", "ORG") in got and ("Siemens", "ORG") in got


def test_sentence_start_word_stripped_only_in_commands(default_detection):
    assert ("Will Smith", "PER") in _detect(default_detection, "Will Smith called me about the contract yesterday , "
                                                               "and he wants an answer by Friday .")


def test_article_of_a_date_only_in_commands(default_detection):
    assert _detect(default_detection, "remind me at the beginning of november") == [("beginning of november",
                                                                                      "DATE")]
    assert ("the beginning of November", "DATE") in _detect(
        default_detection, "The prices rose at the beginning of November , as we said in the last call .")


def test_platforms_only_in_commands(default_detection):
    assert _detect(default_detection, "post a status on twitter") == []
    got = _detect(default_detection, "we spent a lot on advertising with twitter and facebook last year because "
                                     "the reach was good")
    assert ("twitter", "ORG") in got and ("facebook", "ORG") in got


def test_wake_words_only_where_a_device_is_woken(default_detection):
    assert _detect(default_detection, "olly play jazz in the kitchen") == []
    assert ("Alexa", "PER") in _detect(default_detection, "Alexa and Tom came to the meeting on Monday .")


def test_relative_dates_are_dates_frequencies_are_not(default_detection):
    got = _detect(default_detection, "The applicant was released the following day and returned to Izmir the same "
                                     "week .")
    assert ("the following day", "DATE") in got and ("the same week", "DATE") in got
    assert ("the prior year", "DATE") in _detect(default_detection, "Revenue from GE grew in the prior year .")
    assert _detect(default_detection, "I go running every day .") == []
