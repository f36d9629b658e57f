"""The spoken-pseudonym seeds table: mean +- std over training seeds, refused across different test sets."""

import json
import subprocess
import sys

import pytest

from pydeid.report.spoken_table import seeds_row


def _decode(tmp_path, name, wer, cer, words=1491, per_utt=None):
    d = tmp_path / name / "scoring"
    d.mkdir(parents=True)
    (d / "results.json").write_text(json.dumps({"all": {"wer": wer, "cer": cer, "sents": 128, "words": words}}))
    if per_utt is not None:   # [(words, errors)] per utterance, as steps/score.sh writes them
        (d / "per_utt").write_text("".join(f"u{i} words={w} sub={e} del=0 ins=0\n  ref: x\n  hyp: y\n"
                                           for i, (w, e) in enumerate(per_utt)))
    return tmp_path / name


def test_seeds_row_mean_std_and_per_seed(tmp_path):
    cells = [(_decode(tmp_path, f"s{i}", w, c),) for i, (w, c) in enumerate([(50.0, 30.0), (54.0, 32.0),
                                                                             (52.5, 31.0)])]
    row = seeds_row("spoken -> mini_test", cells)
    assert row[:4] == ["spoken -> mini_test", "3", "128", "1491"]
    assert row[4] == "52.2 +- 2.0" and row[5] == "50.0; 54.0; 52.5" and row[6] == "31.0 +- 1.0"
    assert row[7] == "-"                                           # no NER tags given
    with pytest.raises(ValueError, match="different test sets"):
        seeds_row("x", cells + [(_decode(tmp_path, "other", 40.0, 20.0, words=981),)])


def test_seeds_row_gives_each_seed_its_utterance_bootstrap_interval(tmp_path):
    """With scoring/per_utt, every seed's WER carries its 95 % interval over utterances: all utterances at the
    same rate give a zero-width interval at that rate; unequal ones an interval around the pooled rate."""
    flat = _decode(tmp_path, "flat", 50.0, 30.0, words=40, per_utt=[(10, 5)] * 4)
    mixed = _decode(tmp_path, "mixed", 40.0, 30.0, words=40, per_utt=[(10, 0), (10, 8), (10, 2), (10, 6)])
    row = seeds_row("m", [(flat,), (mixed,)])
    first, second = row[5].split("; ")
    assert first == "50.0 [50.0, 50.0]"
    lo, hi = (float(x) for x in second.split("[")[1].rstrip("]").split(", "))
    assert second.startswith("40.0 [") and lo < 40.0 < hi and lo >= 0.0 and hi <= 80.0


def test_spoken_results_seeds_cli_writes_one_row_per_label(tmp_path):
    a, b = _decode(tmp_path, "a", 44.0, 25.0), _decode(tmp_path, "b", 46.0, 26.0)
    res = tmp_path / "RESULTS.md"
    r = subprocess.run([sys.executable, "-m", "pydeid", "spoken-results", "--seeds", "--results", res,
                        f"original -> mini_test::{a}", f"original -> mini_test::{b}"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    text = res.read_text()
    assert "spoken-pseudonyms-seeds" in text and "45.0 +- 1.4" in text and text.count("original -> mini_test") == 1
    r = subprocess.run([sys.executable, "-m", "pydeid", "spoken-results", "--seeds", "--results", res,
                        f"x::{tmp_path / 'nope'}"], capture_output=True, text=True)
    assert r.returncode != 0 and "missing" in r.stderr and "Traceback" not in r.stderr
