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
