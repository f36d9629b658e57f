from pydeid.asr.textnorm import TextNorm, normalize_text


def test_lower_strip_punct_keeps_inner_apostrophes():
    assert normalize_text("Please call Stella.") == "please call stella"
    assert normalize_text("Don't  stop, 'Bob'!") == "don't stop bob"
    assert normalize_text("twenty-one / Smith's") == "twenty one smith's"


def test_case_options_and_keep_punct():
    assert normalize_text("Call Bob.", case="upper") == "CALL BOB"
    assert normalize_text("Call Bob.", case="keep") == "Call Bob"
    assert normalize_text("Call  Bob.", case="keep", strip_punct=False) == "Call Bob."


def test_round_trip(tmp_path):
    n = TextNorm(case="upper", strip_punct=False)
    n.save(tmp_path / "t.json")
    assert TextNorm.load(tmp_path / "t.json") == n


def test_bad_case():
    import pytest
    with pytest.raises(ValueError):
        TextNorm(case="title")


def test_numbers_spelled_for_the_whisper_meter():
    from pydeid.asr.textnorm import TextNorm
    n = TextNorm(numbers=True)
    assert n("I paid $3.50 for 2 apples in 1990.") == "i paid three dollars fifty for two apples in nineteen ninety"
    assert n("At 10:30, 20% off, the 3rd time; 1,000 people ran 3.5 km.") == \
        "at ten thirty twenty percent off the third time one thousand people ran three point five km"
    assert n("2005 1900 42") == "two thousand five nineteen hundred forty two"
    # references already spelled are unchanged; both sides meet
    assert n("FIVE DOLLARS") == n("$5") == "five dollars"
    # off by default: the settings of existing decode dirs load and behave as before
    assert TextNorm()("2 apples") == "2 apples"
