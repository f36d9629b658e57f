"""The pure CTC forced-alignment core on constructed log-prob matrices (no model needed)."""

import numpy as np
import pytest

from pydeid.align.ctc import CtcAlignmentError, ctc_word_segments

V = 8          # vocabulary: 0 blank, 1..6 letters, 7 word separator
SEP = 7


def peaky(T, events, floor=-12.0):
    """(T, V) log-probs: blank everywhere except the (frame, token) events, which are near-certain."""
    lp = np.full((T, V), floor, dtype=np.float32)
    lp[:, 0] = 0.0
    for t, tok in events:
        lp[t, :] = floor
        lp[t, tok] = 0.0
    lp -= np.log(np.exp(lp).sum(axis=1, keepdims=True))
    return lp


def test_words_get_their_token_frames():
    # word A = tokens 1,2 at frames 3-4 ; word B = token 3 (frames 10-12) ; separator at frame 7
    lp = peaky(20, [(3, 1), (4, 2), (7, SEP), (10, 3), (11, 3), (12, 3)])
    spans, tok = ctc_word_segments(lp, [[1, 2], [3]], blank=0, separator=SEP)
    assert (spans[0].start_frame, spans[0].end_frame) == (3, 5)
    assert (spans[1].start_frame, spans[1].end_frame) == (10, 13)
    assert spans[0].score > 0.9
    assert len(tok) == 4


def test_repeated_tokens_need_a_blank_between_them():
    lp = peaky(12, [(2, 4), (4, 4), (8, 5)])        # "4 4 5": the repeat is split by a blank at frame 3
    spans, _ = ctc_word_segments(lp, [[4, 4], [5]])
    assert (spans[0].start_frame, spans[0].end_frame) == (2, 5)
    assert spans[1].start_frame == 8


def test_word_without_tokens_is_none_and_others_unaffected():
    lp = peaky(10, [(2, 1), (6, 2)])
    spans, _ = ctc_word_segments(lp, [[1], [], [2]])
    assert spans[1] is None and spans[0].start_frame == 2 and spans[2].start_frame == 6


def test_too_few_frames_raise():
    with pytest.raises(CtcAlignmentError):
        ctc_word_segments(peaky(3, []), [[1, 2], [3, 3]])


def test_accepts_batched_torch_input():
    import torch
    lp = torch.from_numpy(peaky(10, [(1, 1), (5, 2)])).unsqueeze(0)
    spans, _ = ctc_word_segments(lp, [[1], [2]])
    assert [s.start_frame for s in spans] == [1, 5]
