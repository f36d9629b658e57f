"""Audio entity recall (pydeid.report.audio_entity_recall): a gold sensitive word counts as hidden when the
intervals steps/mask_words.sh would silence cover >= 50 % of its gold time; cost = hidden share of the gold
non-sensitive speech time."""

from __future__ import annotations

import pytest

from pydeid.io.conll import Sentence, write_conll
from pydeid.report.audio_entity_recall import chain_intervals, format_summary, gold_words, score_utterances, summarize


def _ctm(path, rows):
    path.write_text("".join(f"{u} 1 {s:.3f} {e - s:.3f} {w}\n" for u, s, e, w in rows))


@pytest.fixture
def case(tmp_path):
    # gold: "please call Stella" (Stella 1.0-1.6 s) and "meet Bob today" (Bob 0.5-1.0 s)
    write_conll(tmp_path / "gold.conll", [Sentence("please call Stella".split(), ["O", "O", "B-PER"], id="u1"),
                                          Sentence("meet Bob today".split(), ["O", "B-PER", "O"], id="u2")])
    _ctm(tmp_path / "gold.ctm", [("u1", 0.0, 0.4, "please"), ("u1", 0.5, 0.9, "call"), ("u1", 1.0, 1.6, "Stella"),
                                 ("u2", 0.0, 0.4, "meet"), ("u2", 0.5, 1.0, "Bob"), ("u2", 1.1, 1.6, "today")])
    # the chain heard "please call stella" (times 0.3 s late) and "meet bob today" without detecting bob
    d = tmp_path / "hyp"
    d.mkdir()
    (d / "wav.scp").write_text("u1 /x/u1.wav\nu2 /x/u2.wav\n")
    (d / "utt2spk").write_text("u1 s1\nu2 s2\n")
    (d / "utt2dur").write_text("u1 2.0\nu2 2.0\n")
    (d / "text").write_text("u1 please call stella\nu2 meet bob today\n")
    write_conll(tmp_path / "hyp.conll", [Sentence("please call stella".split(), ["O", "O", "B-PER"], id="u1"),
                                         Sentence("meet bob today".split(), ["O", "O", "O"], id="u2")])
    _ctm(tmp_path / "hyp.ctm", [("u1", 0.3, 0.7, "please"), ("u1", 0.8, 1.2, "call"), ("u1", 1.3, 1.9, "stella"),
                                ("u2", 0.0, 0.4, "meet"), ("u2", 0.5, 1.0, "bob"), ("u2", 1.1, 1.6, "today")])
    return tmp_path


def test_recall_and_cost(case):
    gold = gold_words(case / "gold.conll", case / "gold.ctm")
    assert [(t, s) for _, _, s, t in gold["u1"]] == [("please", False), ("call", False), ("Stella", True)]
    # pad 0, no gap absorption: "stella" hidden 1.3-1.9 covers 0.3 of Stella's 0.6 s = exactly 50 %: hidden
    hid = chain_intervals(case / "hyp", case / "hyp.conll", case / "hyp.ctm", pad=0.0, absorb_gaps=False)
    assert hid["u1"] == [(1.3, 1.9)] and hid["u2"] == []
    s = summarize(score_utterances(gold, hid))
    assert (s["hidden"], s["sensitive_tokens"]) == (1, 2) and s["recall_pct"] == pytest.approx(50.0)
    assert s["missed"] == {"u2": ["Bob"]}
    assert s["cost_pct"] == pytest.approx(0.0)
    # the one summary line the benches and the CLI print: rate, interval, counts
    line = format_summary(s)
    assert line.startswith("audio entity recall 50.0 % [") and "(1/2 gold sensitive words)" in line
    assert "cost 0.0 %" in line and "2 utterances, 0 dropped" in line
    # a stricter rule: 60 % of the word must be hidden -> Stella is missed too
    assert summarize(score_utterances(gold, hid, min_overlap=0.6))["hidden"] == 0
    # pad 0.1 and the pause absorbed: 1.1-2.0 hides all of Stella and nothing of "call" (ends at 0.9)
    hid = chain_intervals(case / "hyp", case / "hyp.conll", case / "hyp.ctm", pad=0.1)
    s = summarize(score_utterances(gold, hid))
    assert s["hidden"] == 1 and s["cost_pct"] == pytest.approx(0.0)
    lo, hi = s["recall_ci"]
    assert 0.0 <= lo <= 50.0 <= hi <= 100.0
