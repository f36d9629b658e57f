"""pydeid.mask.originals: which spoken surrogates say an original (the check mask-spoken refuses on)."""

from pydeid.mask.originals import Entity, leaks


def _leaks(surrogate: str, *originals: str) -> list[str]:
    return leaks(surrogate.split(), [Entity(o.split()) for o in originals])


def test_a_relative_date_sharing_only_structure_words_is_no_leak():
    # "after" is date structure for the text leak count too: another relative date says no original
    assert _leaks("the day after yesterday", "the day after tomorrow") == []
    assert _leaks("early next week", "early last month") == []

    # the glue the text surrogate keeps around a relative date's unit (speechocean762: "ENTIRE WEEK" -> "ENTIRE
    # WEEKEND" was refused, so the recipe's spoken neutral corpus stopped)
    assert _leaks("ENTIRE WEEKEND", "ENTIRE WEEK") == []
    assert _leaks("the rest of the month", "the rest of the year") == []


def test_originals_are_still_found():
    assert _leaks("the day after tomorrow", "the day after tomorrow") == []   # no value word: only symbols count
    assert _leaks("the fifth of May", "the fifth of may")                       # the same date value
    assert _leaks("two hundred", "two hundred") and not _leaks("two thousand", "two hundred")
    assert _leaks("call John Brown", "John Smith")                              # a content word of a name
    assert _leaks("married", "married")                                         # a lexicon value kept whole
    assert _leaks("nine four five two one one", "four five two one one")         # a 5-digit original kept whole
