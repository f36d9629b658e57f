"""Mask intervals (padding, clamping, merging, pauses) and the waveform/text operations."""

import numpy as np
import pytest

from pydeid.io import CtmEntry, Sentence
from pydeid.mask.core import (apply_mask, entity_times, mask_intervals, mask_text_tokens, merge_intervals,
                              text_spans, utt_rng)
from pydeid.mask.match import MatchError
from pydeid.mask.verify import frame_dbfs

TAGS = {"PER", "LOC", "ORG", "DATE", "TIME", "NUM"}


def words(spec):
    return [CtmEntry("u", "1", s, e - s, w) for w, s, e in spec]


def test_padding_is_clamped_at_utterance_edges():
    ents = [(0.02, 0.4, "PER", [0]), (1.7, 1.98, "LOC", [3])]
    assert mask_intervals(ents, pad=0.05, duration=2.0) == [(0.0, pytest.approx(0.45)), (pytest.approx(1.65), 2.0)]


def test_adjacent_and_overlapping_intervals_merge():
    assert merge_intervals([(1.0, 2.0), (2.0, 2.5), (0.0, 0.5), (0.4, 0.6)]) == [(0.0, 0.6), (1.0, 2.5)]
    ents = [(1.8, 2.2, "DATE", [4]), (2.2, 2.7, "TIME", [5])]
    assert mask_intervals(ents, 0.05, 3.0) == [(pytest.approx(1.75), pytest.approx(2.75))]


def test_entity_times_span_all_words_and_absorb_pauses_up_to_neighbours():
    sent = Sentence(["meet", "Anna", "Smith", "today"], ["O", "B-PER", "I-PER", "O"], "u")
    ws = words([("meet", 0.1, 0.45), ("anna", 0.5, 0.9), ("smith", 0.85, 1.3), ("today", 1.4, 1.9)])
    (s, e, t, idx), = entity_times("u", sent, ws, TAGS)
    assert (s, e, t, idx) == (0.5, 1.3, "PER", [1, 2])
    (s, e, *_), = entity_times("u", sent, ws, TAGS, absorb_gaps=True)
    assert (s, e) == (pytest.approx(0.45), 1.4)  # to the neighbours' boundaries, never into them


def test_absorb_gaps_at_edges_reaches_utterance_bounds():
    sent = Sentence(["Bob", "is"], ["B-PER", "O"], "u")
    (s, e, *_), = entity_times("u", sent, words([("bob", 0.3, 0.6), ("is", 0.6, 0.9)]), TAGS, absorb_gaps=True)
    assert (s, e) == (0.0, 0.6)
    sent = Sentence(["in", "Paris"], ["O", "B-LOC"], "u")
    (s, e, *_), = entity_times("u", sent, words([("in", 0.1, 0.3), ("paris", 0.4, 0.9)]), TAGS, absorb_gaps=True)
    assert s == 0.3 and e == float("inf")
    assert mask_intervals([(s, e)], 0.0, 1.2) == [(0.3, 1.2)]


def test_untimed_tagged_word_raises():
    sent = Sentence(["call", "Stella"], ["O", "B-PER"], "utt-x")
    with pytest.raises(MatchError, match="utt-x"):
        entity_times("utt-x", sent, words([("call", 0, 0.5)]), TAGS)
    with pytest.raises(MatchError, match="no entries in the CTM"):
        entity_times("utt-x", sent, [], TAGS)
    assert entity_times("utt-x", Sentence(["hi"], ["O"]), [], TAGS) == []  # nothing to hide: no CTM needed


def test_tagset_selects_types():
    sent = Sentence(["Bob", "Monday"], ["B-PER", "B-DATE"], "u")
    ws = words([("bob", 0, 0.5), ("monday", 0.5, 1.0)])
    assert [t for _, _, t, _ in entity_times("u", sent, ws, {"DATE"})] == ["DATE"]


def test_apply_mask_silence_is_exact_and_ramp_stays_outside():
    sr = 16000
    wav = np.full(sr, 0.5, dtype=np.float32)
    out = apply_mask(wav, sr, [(0.25, 0.5)], ramp=0.01)
    a, b = int(0.25 * sr), int(0.5 * sr)
    assert np.all(out[a:b] == 0)
    assert np.all(out[: a - 160] == 0.5) and np.all(out[b + 160:] == 0.5)   # untouched beyond the ramp
    assert 0 < out[a - 80] < 0.5                                             # the fade is outside


def test_noise_fill_level_and_determinism():
    sr = 16000
    wav = np.full(sr, 0.5, dtype=np.float32)
    o1 = apply_mask(wav, sr, [(0.2, 0.8)], fill="noise", noise_dbfs=-70, rng=utt_rng(3, "u1"))
    o2 = apply_mask(wav, sr, [(0.2, 0.8)], fill="noise", noise_dbfs=-70, rng=utt_rng(3, "u1"))
    o3 = apply_mask(wav, sr, [(0.2, 0.8)], fill="noise", noise_dbfs=-70, rng=utt_rng(4, "u1"))
    assert np.array_equal(o1, o2) and not np.array_equal(o1, o3)
    db = frame_dbfs(o1[int(0.2 * sr):int(0.8 * sr)], sr)
    assert np.all(np.abs(db + 70) < 6)


def test_text_remove_and_replace():
    sent = Sentence(["Please", "call", "Stella.", "on", "Monday"], ["O", "O", "B-PER", "O", "B-DATE"], "u")
    spans = text_spans("u", sent, TAGS, sent.tokens)
    assert mask_text_tokens(sent.tokens, spans) == ["Please", "call", "on"]
    assert mask_text_tokens(sent.tokens, spans, "replace", "<{tag}>") == ["Please", "call", "<PER>", "on", "<DATE>"]


def test_text_spans_follow_a_differently_written_text():
    sent = Sentence(["please", "call", "stella"], ["O", "O", "B-PER"], "u")
    toks = ["Please", "call", "Stella", "."]
    assert mask_text_tokens(toks, text_spans("u", sent, TAGS, toks)) == ["Please", "call", "."]
