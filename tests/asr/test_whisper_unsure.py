"""Hiding what Whisper was unsure of (pydeid.asr.whisper_unsure, `pydeid whisper-unsure`): low-confidence words
of the hypothesis join the detectors' tags, so the masking silences them and removes them from the text, and a
misheard name ("Estela" -> "your scalar") is hidden although no detector saw it."""

from __future__ import annotations

import subprocess
import sys

import pytest

from pydeid.asr.whisper_unsure import tag_unsure, unsure_sentence
from pydeid.io import CtmEntry, FormatError, UsageError
from pydeid.io.conll import Sentence, read_conll, write_conll
from pydeid.mask.core import parse_tagset
from pydeid.mask.pipeline import MaskOptions, load_tags, plan_masks

# the hypothesis of "please call Estela at noon": the name came out as two common words, "scalar" unsure
HYP = [("please", 0.0, 0.4, 0.98), ("call", 0.5, 0.9, 0.95), ("your", 1.0, 1.2, 0.81), ("scalar", 1.2, 1.6, 0.21),
       ("at", 1.7, 1.8, 0.97), ("noon", 1.9, 2.3, 0.93)]
TAGS = ["O", "O", "O", "O", "O", "B-TIME"]


def _words(rows, conf=True):
    return [CtmEntry("u1", "1", s, round(e - s, 3), w, p if conf else None) for w, s, e, p in rows]


def _sent():
    return Sentence([w for w, *_ in HYP], list(TAGS), id="u1")


def test_low_confidence_words_are_tagged_and_neighbours_on_request():
    s = unsure_sentence(_sent(), _words(HYP), below=0.5)
    assert s.tags == ["O", "O", "O", "B-PER", "O", "B-TIME"]
    assert s.comments == ["unsure = 3"]
    s = unsure_sentence(_sent(), _words(HYP), below=0.85)
    assert s.tags == ["O", "O", "B-PER", "I-PER", "O", "B-TIME"]
    # one neighbour either side of the unsure run and of the detected entity; the entity itself stays as it was
    s = unsure_sentence(_sent(), _words(HYP), below=0.5, next_words=1)
    assert s.tags == ["O", "O", "B-PER", "I-PER", "I-PER", "B-TIME"]
    assert s.comments == ["unsure = 2 3 4"]
    # threshold 0, no neighbours: the detectors' tags unchanged
    assert unsure_sentence(_sent(), _words(HYP), below=0.0).tags == TAGS
    # a CTM without confidences adds nothing
    assert unsure_sentence(_sent(), _words(HYP, conf=False), below=0.9).tags == TAGS


def _case(tmp_path):
    write_conll(tmp_path / "tags.conll", [_sent()])
    (tmp_path / "hyp.ctm").write_text("".join(f"u1 1 {s:.3f} {e - s:.3f} {w} {p}\n" for w, s, e, p in HYP))
    d = tmp_path / "hyp"
    d.mkdir()
    (d / "wav.scp").write_text("u1 /x/u1.wav\n")
    (d / "utt2spk").write_text("u1 s1\n")
    (d / "utt2dur").write_text("u1 2.5\n")
    (d / "text").write_text("u1 " + " ".join(w for w, *_ in HYP) + "\n")
    return tmp_path


def test_unsure_words_are_silenced_and_removed_from_the_text_like_entities(tmp_path):
    from pydeid.io import DataDir
    from pydeid.io.ctm import ctm_by_utt, read_ctm
    from pydeid.report.audio_entity_recall import chain_intervals, gold_words, score_utterances

    c = _case(tmp_path)
    n = tag_unsure(c / "tags.conll", c / "hyp.ctm", c / "hide.conll", below=0.5)
    assert n == {"sentences": 1, "tokens": 6, "added": 1, "utterances_changed": 1}
    assert read_conll(c / "hide.conll")[0].comments == ["unsure = 3"]
    d = DataDir.read(c / "hyp", validate=False)
    plan = plan_masks(d, load_tags(c / "hide.conll"), ctm_by_utt(read_ctm(c / "hyp.ctm")), parse_tagset("all"),
                      MaskOptions(pad=0.1, absorb_gaps=True), c / "hide.conll", c / "hyp.ctm")
    assert plan["u1"]["text"] == "please call your at"
    # the gold name lies under "your scalar": hidden only once the unsure word is
    write_conll(c / "gold.conll", [Sentence("please call Estela at noon".split(), ["O", "O", "B-PER", "O", "B-TIME"],
                                            id="u1")])
    (c / "gold.ctm").write_text("u1 1 0.0 0.4 please\nu1 1 0.5 0.4 call\nu1 1 1.0 0.6 Estela\nu1 1 1.7 0.1 at\n"
                                "u1 1 1.9 0.4 noon\n")
    gold = gold_words(c / "gold.conll", c / "gold.ctm")
    before = score_utterances(gold, chain_intervals(c / "hyp", c / "tags.conll", c / "hyp.ctm"))["u1"]
    after = score_utterances(gold, chain_intervals(c / "hyp", c / "hide.conll", c / "hyp.ctm"))["u1"]
    assert (before["hit"], before["missed"]) == (1, ["Estela"])
    assert (after["hit"], after["missed"]) == (2, [])


def test_bad_input_is_refused(tmp_path):
    c = _case(tmp_path)
    with pytest.raises(UsageError, match="--below"):
        tag_unsure(c / "tags.conll", c / "hyp.ctm", c / "o.conll", below=1.5)
    with pytest.raises(UsageError, match="--next"):
        tag_unsure(c / "tags.conll", c / "hyp.ctm", c / "o.conll", below=0.5, next_words=-1)
    (c / "noconf.ctm").write_text("".join(f"u1 1 {s:.3f} {e - s:.3f} {w}\n" for w, s, e, _ in HYP))
    with pytest.raises(FormatError, match="no confidences"):
        tag_unsure(c / "tags.conll", c / "noconf.ctm", c / "o.conll", below=0.5)
    # the CLI: one line, no output left behind
    p = subprocess.run([sys.executable, "-m", "pydeid", "whisper-unsure", "--below", "0.5", str(c / "tags.conll"),
                        str(c / "noconf.ctm"), str(c / "o.conll")], capture_output=True, text=True)
    assert p.returncode == 1 and len(p.stderr.strip().splitlines()) == 1 and "no confidences" in p.stderr
    assert not (c / "o.conll").exists()
