"""Boundary accuracy of a hypothesis CTM against a gold CTM, and its RESULTS.md section."""

import json
import subprocess
import sys

import pytest

from pydeid.align.accuracy import boundary_accuracy
from pydeid.io import CtmEntry, ctm_by_utt, write_ctm


def ctm(utt, words):
    return [CtmEntry(utt, "1", s, e - s, w) for w, s, e in words]


def test_known_errors_and_tolerance():
    gold = ctm_by_utt(ctm("u1", [("Please", 0.1, 0.5), ("call", 0.5, 0.8), ("Stella", 0.8, 1.4)]))
    hyp = ctm_by_utt(ctm("u1", [("please", 0.12, 0.5), ("call", 0.5, 0.9), ("stella", 0.9, 1.4)]))
    acc = boundary_accuracy(gold, hyp)
    assert acc.paired_words == 3 and len(acc.errors) == 6
    assert acc.mean_abs_error == pytest.approx((0.02 + 0.1 + 0.1) / 6)
    assert acc.within_tolerance == pytest.approx(4 / 6)


def test_missing_words_and_utterances_do_not_shift_pairs():
    gold = ctm_by_utt(ctm("u1", [("a", 0, 1), ("b", 1, 2), ("c", 2, 3)]) + ctm("u2", [("x", 0, 1)]))
    hyp = ctm_by_utt(ctm("u1", [("a", 0, 1), ("c", 2, 3)]))
    acc = boundary_accuracy(gold, hyp)
    assert acc.paired_words == 2 and acc.mean_abs_error == 0
    assert acc.missing_utterances == ["u2"] and acc.gold_words == 4


def test_cli_writes_results_section(tmp_path):
    g, h, res = tmp_path / "g.ctm", tmp_path / "h.ctm", tmp_path / "RESULTS.md"
    write_ctm(g, ctm("u1", [("a", 0.0, 0.5), ("b", 0.5, 1.0)]))
    write_ctm(h, ctm("u1", [("a", 0.0, 0.6), ("b", 0.6, 1.0)]))
    for name in ("run1", "run2"):
        out = subprocess.run([sys.executable, "-m", "pydeid", "align-accuracy", "--results", str(res),
                              "--name", name, str(g), str(h)], capture_output=True, text=True, check=True)
    d = json.loads(out.stdout)
    assert d["mean_abs_error_ms"] == 50.0 and d["within_50ms"] == 0.5  # errors 0, .1, .1, 0
    text = res.read_text()
    assert "run1" in text and "run2" in text and text.count("<!-- begin align-accuracy -->") == 1
