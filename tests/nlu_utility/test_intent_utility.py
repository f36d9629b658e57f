"""pydeid.nlu_utility: intent data, classifier, rows (strategies and SanText), cells of the seed 002 protocol, and the
CLI's refusals. Real data: the SNIPS subset of ../shared/data (skipped when absent)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter

import numpy as np
import pytest

from pydeid.io.conll import Sentence, write_conll
from pydeid.io.errors import FormatError
from pydeid.nlu_utility.intent import (IntentClassifier, bootstrap_accuracy, evaluate_intents, intent_of,
                                   read_intents, split_by_intent)
from pydeid.nlu_utility.rows import apply_row, parse_row, parse_rows


def _sent(i, intent, toks, tags=None):
    return Sentence(list(toks), list(tags or ["O"] * len(toks)), f"s{i}", [], [f"intent = {intent}"])


def test_read_intents_refuses_a_sentence_without_intent(tmp_path):
    f = tmp_path / "x.conll"
    write_conll(f, [_sent(0, "A", ["hi"]), Sentence(["yo"], ["O"], "s1", [], [])])
    with pytest.raises(FormatError, match=r"x.conll: sentence 2 \(s1\) has no '# intent"):
        read_intents(f)


def test_split_is_stratified_deterministic_and_keeps_rare_intents_in_training():
    sents = [_sent(i, "A" if i < 20 else ("B" if i < 30 else "C"), ["w", str(i)]) for i in range(32)]
    tr, te = split_by_intent(sents, 0.3)
    tr2, te2 = split_by_intent(sents, 0.3)
    assert [s.id for s in te] == [s.id for s in te2]
    assert Counter(intent_of(s) for s in te) == {"A": 6, "B": 3}       # C has 2 sentences: training only
    assert {s.id for s in tr} | {s.id for s in te} == {s.id for s in sents} and not {s.id for s in tr} & {s.id for s in te}


def test_bootstrap_interval_brackets_the_accuracy_and_shrinks_with_more_sentences():
    rng = np.random.default_rng(0)
    small = rng.random(100) < 0.8
    big = rng.random(5000) < 0.8
    lo, hi = bootstrap_accuracy(small)
    assert lo <= small.mean() <= hi
    lo2, hi2 = bootstrap_accuracy(big)
    assert lo2 <= big.mean() <= hi2 and (hi2 - lo2) < (hi - lo) / 3


def test_parse_rows_names_and_refusals():
    r = parse_row("same_type@0.5")
    assert (r.kind, r.strategy, r.p) == ("strategy", "same_type", 0.5)
    s = parse_row("santext+:spacy@2")
    assert (s.kind, s.plus, s.vectors, s.epsilon) == ("santext", True, "spacy", 2.0)
    assert [x.spec for x in parse_rows("none, redact  santext")] == ["none", "redact", "santext"]
    for bad in ("redcat", "santext:glove@1", "redact@1.5", "keep"):
        with pytest.raises(ValueError, match="row|p must"):
            parse_row(bad)


def test_redact_row_hides_every_entity_word_and_keeps_types():
    train = [_sent(0, "A", ["call", "Anna", "Smith", "now"], ["O", "B-PER", "I-PER", "O"]),
             _sent(1, "B", ["fly", "to", "Paris"], ["O", "O", "B-LOC"])]
    out, info = apply_row(parse_row("redact"), train, seed=0)
    assert [s.tokens for s in out] == [["call", "IIIII", "now"], ["fly", "to", "IIIII"]]
    assert out[0].tags == ["O", "B-PER", "O"] and intent_of(out[1]) == "B"
    assert info["epsilon"] == 0.0 and info["replaced"] == 2
    out5, info5 = apply_row(parse_row("redact@0.5"), train * 20, seed=1)
    assert info5["epsilon"] == "inf" and info5["epsilon_seed000"] == 0.0   # strict eq. 2 vs seed 000's reading
    assert 0 < info5["replaced"] < 40


def test_corpus_santext_row_is_seeded_and_keeps_tags_by_position():
    pytest.importorskip("gensim")
    train = [_sent(i, "A" if i % 2 else "B", ["play", "some", "jazz", "music", "now"] if i % 2 else
                   ["book", "a", "table", "for", "two"], ["O"] * 5) for i in range(30)]
    a, ia = apply_row(parse_row("santext@1"), train, seed=3)
    b, _ = apply_row(parse_row("santext@1"), train, seed=3)
    c, _ = apply_row(parse_row("santext@1"), train, seed=4)
    assert [s.tokens for s in a] == [s.tokens for s in b] != [s.tokens for s in c]
    assert all(len(x.tokens) == len(y.tokens) and x.tags == y.tags for x, y in zip(a, train))
    # corpus word2vec distances are tiny (~0.1-0.3): eps = 1 replaces nearly uniformly over the 10 words
    assert ia["changed"] > 0.7 * ia["tokens"]


@pytest.fixture(scope="module")
def snips_small(snips_dir):
    tr = read_intents(snips_dir / "snips_train.conll")
    te = read_intents(snips_dir / "snips_valid.conll")
    return tr[::5], te[::5]      # 420 / 140 sentences, every intent


def test_classifier_learns_snips_intents_and_is_seeded(snips_small):
    tr, te = snips_small
    clf = IntentClassifier(seed=0).fit([s.tokens for s in tr], [intent_of(s) for s in tr])
    r = evaluate_intents(clf, te)
    assert r["n"] == 140 and r["accuracy"] > 0.85            # 7 intents: chance is 14 %
    assert r["ci95"][0] <= r["accuracy"] <= r["ci95"][1]
    again = IntentClassifier(seed=0).fit([s.tokens for s in tr], [intent_of(s) for s in tr])
    assert again.predict([s.tokens for s in te]) == clf.predict([s.tokens for s in te])


def test_cells_follow_the_protocol_and_resume(snips_small, tmp_path):
    from pydeid.nlu_utility.experiment import delta, intent_summary, run_grid
    from pydeid.nlu_utility.report import load_cells, protocol_table, table2
    tr, te = snips_small
    rows = parse_rows("none typed_placeholder")
    res = run_grid({"snips": (tr, te)}, rows, [0, 1], tmp_path)
    cells = load_cells(tmp_path)
    assert set(cells["snips"]) == {"none", "typed_placeholder"} and set(cells["snips"]["none"]) == {0, 1}
    c = res["snips"]["typed_placeholder"][0]
    assert c["intent"]["test"]["n"] == 140 and len(c["intent"]["correct"]) == 140
    d = delta(cells["snips"]["typed_placeholder"], cells["snips"]["none"])
    s, b = intent_summary(cells["snips"]["typed_placeholder"]), intent_summary(cells["snips"]["none"])
    assert d[0] == pytest.approx(s["mean"] - b["mean"])
    t = table2(cells, ["none", "typed_placeholder"], ["snips"], [])
    assert "Typed placeholder (typed_placeholder)" in t and "SNIPS ID accuracy" in t
    assert "delta" in protocol_table(cells, "snips", ["none", "typed_placeholder"])
    f = tmp_path / "snips" / "none" / "seed0.json"
    before = f.read_text()
    run_grid({"snips": (tr, te)}, rows[:1], [0], tmp_path)     # resumes: the cell is read, not recomputed
    assert f.read_text() == before and json.loads(before)["seed"] == 0


def test_cli_refuses_an_unknown_row_in_one_line(tmp_path, snips_dir):
    d = tmp_path / "d"
    p = subprocess.run([sys.executable, "-m", "pydeid", "intent-data", str(snips_dir / "snips_train.conll"),
                        str(snips_dir / "snips_valid.conll"), str(d)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    p = subprocess.run([sys.executable, "-m", "pydeid", "text-utility", "--data", f"snips={d}", "--rows",
                        "none redcat", str(tmp_path / "exp")], capture_output=True, text=True)
    assert p.returncode == 2
    assert p.stderr.strip().count("\n") == 0 and "unknown row 'redcat'" in p.stderr
    assert not (tmp_path / "exp").exists()


def test_linear_tagger_learns_snips_entities_and_placeholders_break_it(snips_small):
    from pydeid.nlu_utility.tagger import LinearTagger, span_f1
    tr, te = snips_small
    base = span_f1(te, LinearTagger(0).fit(tr).predict([s.tokens for s in te]))
    assert base["micro_f1"] > 0.45                       # 420 training sentences, 5 types
    red, _ = apply_row(parse_row("redact"), tr, 0)
    assert span_f1(te, LinearTagger(0).fit(red).predict([s.tokens for s in te]))["micro_f1"] < 0.05
    assert span_f1(tr, [s.spans() for s in tr])["micro_f1"] == 1.0


def test_word_by_word_epsilon_strict_and_over_the_policy_support(snips_small):
    import math
    tr, _ = snips_small
    _, info = apply_row(parse_row("same_type@0.9"), tr, 0)
    sup = info["epsilon_support"]
    assert 0 < sup < math.inf
    assert info["epsilon"] == "inf" or info["epsilon"] >= sup   # strict: every private unit of the data counts
    _, info5 = apply_row(parse_row("same_type@0.5"), tr, 0)
    assert info5["epsilon_support"] > sup                # less replacement, more privacy loss (seed 000 eq. 2)
    _, info1 = apply_row(parse_row("same_type"), tr, 0)
    assert info1["epsilon"] == 0.0 and info1["epsilon_support"] == 0.0


@pytest.mark.slow
def test_snips_recipe_tiny_end_to_end(recipe_copy, tmp_path, snips_dir):
    """egs/snips/s5 at --size tiny (~3 min wall on the loaded 2-core machine, ~20 s of CPU + spaCy loads)."""
    import os
    rec = recipe_copy("snips", tmp_path / "s5")
    env = dict(os.environ, PYDEID_SHARED_DATA=str(snips_dir.parent))
    p = subprocess.run(["./run.sh", "--size", "tiny"], cwd=rec, capture_output=True, text=True, timeout=1200, env=env)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    res = (rec / "RESULTS.md").read_text()
    for key in ("text_utility_table2", "text_utility_protocol", "text_utility_curve", "text_utility_santext"):
        assert f"<!-- begin {key} -->" in res
    row = next(ln for ln in res.splitlines() if ln.startswith("| Redact (IIIII) (redact) "))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[1].startswith("0.0") and cells[2].startswith("0.0")      # NER F1 of redact: nothing to learn
    import re
    m = re.fullmatch(r"(\d+\.\d) \+- (\d+\.\d) \[(\d+\.\d), (\d+\.\d)\]", cells[3])
    assert m and float(m.group(3)) <= float(m.group(1)) <= float(m.group(4))
    assert (rec / "utility_curve.png").stat().st_size > 10000
    priv = json.loads((rec / "exp" / "santext_privacy.snips.json").read_text())
    assert priv["snips"]["santext:spacy@0.3"]["median_distance"] > 10 > priv["snips"]["santext+"]["median_distance"]
