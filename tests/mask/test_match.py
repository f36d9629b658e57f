"""Pairing tag tokens with CTM words: punctuation/case differences, different splits, real mismatches."""

import pytest

from pydeid.mask.match import MatchError, match_tokens


def test_punctuation_and_case_do_not_shift_pairs():
    a = ["Please", "call", "Stella.", ",", "OK"]
    b = ["please", "call", "stella", "ok"]
    assert match_tokens(a, b, "u") == [[0], [1], [2], [], [3]]


def test_different_word_splits_are_paired_by_characters():
    a = ["a", "super-imposition", "of", "New", "York"]
    b = ["a", "super", "imposition", "of", "newyork"]
    assert match_tokens(a, b, "u") == [[0], [1, 2], [3], [4], [4]]


def test_real_mismatch_names_the_utterance():
    with pytest.raises(MatchError, match="utt-7.*Stella <> Stanley"):
        match_tokens(["call", "Stella"], ["call", "Stanley"], "utt-7")


def test_missing_timed_word_for_a_tagged_token():
    with pytest.raises(MatchError, match="u9"):
        match_tokens(["call", "Stella", "now"], ["call", "now"], "u9", required={1})


def test_non_strict_tolerates_untagged_differences_only():
    out = match_tokens(["um", "call", "Stella"], ["call", "Stella"], "u", required={2}, strict=False)
    assert out == [[], [0], [1]]
    with pytest.raises(MatchError):
        match_tokens(["call", "Stella"], ["call", "Bella"], "u", required={1}, strict=False)


def test_nonverbal_tokens_present_on_one_side_only_are_ignored():
    a = ["[noise]", "call", "Stella", "<unk>"]
    b = ["call", "[laughter]", "stella"]
    assert match_tokens(a, b, "u", required={2}) == [[], [0], [2], []]
