"""Metrics (exact/partial P/R/F1, all-or-nothing recall, leak rate) and SanText / SanText+."""

from collections import Counter

import numpy as np
import pytest

from pydeid.text.metrics import all_or_nothing_recall, leak_rate, macro_f1, span_prf
from pydeid.text.santext import SanText, SanTextConfig, sensitive_split


def test_exact_and_partial_prf_hand_computed():
    gold = [[(0, 2, "PER"), (5, 6, "LOC")], [(1, 3, "DATE")]]
    pred = [[(1, 2, "PER"), (5, 6, "LOC"), (7, 8, "ORG")], [(1, 3, "DATE")]]
    r = span_prf(gold, pred)
    assert r["PER"].exact == (0.0, 0.0, 0.0)
    assert r["PER"].partial == (1.0, 1.0, 1.0)          # surname only: a partial extraction (seed 001)
    assert r["ALL"].exact[:2] == (2 / 4, 2 / 3)
    assert r["ALL"].partial[:2] == (3 / 4, 3 / 3)
    assert r["ORG"].n_gold == 0 and r["ORG"].exact[0] == 0.0
    assert macro_f1(r) == pytest.approx((0 + 1 + 1) / 3)  # types with gold entities only


def test_all_or_nothing_recall_seed002_example():
    # a person mentioned 10 times in one dialogue, 9 mentions detected: recall 0.9, all-or-nothing 0
    toks = [["Byron", "said"]] * 10
    gold = [[(0, 1, "PER")]] * 10
    pred = [[(0, 1, "PER")]] * 9 + [[]]
    r = all_or_nothing_recall(toks, gold, pred, ["d1"] * 10)
    assert r["aon_recall"] == 0.0 and r["dialogues_fully_covered"] == 0.0
    r = all_or_nothing_recall(toks + [["Anna", "came"]], gold + [[(0, 1, "PER")]], pred + [[(0, 1, "PER")]],
                              ["d1"] * 10 + ["d2"])
    assert r["entities"] == 2 and r["aon_recall"] == 0.5 and r["dialogues_fully_covered"] == 0.5
    assert span_prf(gold, pred)["PER"].exact[1] == pytest.approx(0.9)


def test_leak_rate():
    orig = [["call", "Misses", "Smith", "in", "Hanover"]]
    gold = [[(1, 3, "PER"), (4, 5, "LOC")]]
    out = [["call", "Bob", "Smith", "in", "Hanover"]]           # Smith survived by chance, Hanover was missed
    tags = [["O", "B-PER", "I-PER", "O", "O"]]
    r = leak_rate(orig, gold, out, tags)
    assert r["tokens"] == 2 and r["leaked"] == 2               # "Misses" is not identifying
    assert r["all_tokens"] == 3 and r["leak_rate_all_tokens"] == pytest.approx(2 / 3)
    r = leak_rate(orig, gold, [["call", "PER", "in", "LOC"]], [["O", "B-PER", "O", "B-LOC"]])
    assert r["leaked"] == 0
    assert leak_rate(orig, gold, [["call", "PER", "in", "LOC"]])["leaked"] == 0   # difflib fallback


def test_leak_rate_adjacent_entities_align_on_gold_bounds():
    """Found on mini_train: an ORG right before a phone number, the ORG replaced by one word, the number by other
    digits. Two alignments were equally good; the one that put "Partners" into the number's stretch compared
    digits across positions ("eight" reappearing anywhere) and counted 2-5 generated digits as leaks."""
    orig = [["call", "Lakeside", "Partners", "eight", "one", "two", "and", "ask", "for", "Mister", "Salieri"]]
    gold = [[(1, 3, "ORG"), (3, 6, "NUM"), (9, 11, "PER")]]
    out = [["call", "Chemicals", "two", "eight", "one", "and", "ask", "for", "Bruun"]]
    tags = [["O", "B-ORG", "B-NUM", "I-NUM", "I-NUM", "O", "O", "O", "B-PER"]]
    r = leak_rate(orig, gold, out, tags)
    # "Mister" is not identifying, nor the generic organisation head "Partners" (lexicon.ORG_HEADS)
    assert r["leaked"] == 0 and r["tokens"] == 5
    out_same = [["call", "Chemicals", "eight", "two", "six", "and", "ask", "for", "Bruun"]]
    r = leak_rate(orig, gold, out_same, tags)                         # "eight" in place: a leak
    assert r["leaked"] == 1 and r["per_type_counts"]["NUM"] == (3, 1)


def test_leak_rate_structure_words_of_a_type():
    """A generated address keeps its street suffix ("Street"), an age its "years old": not identifying within the
    type; the same word as a name is ("Mister Green")."""
    orig = [["I", "live", "at", "twelve", "Baker", "Street", "says", "Mister", "Green"]]
    gold = [[(3, 6, "ADDRESS"), (7, 9, "PER")]]
    out = [["I", "live", "at", "forty", "Oak", "Street", "says", "Green"]]
    r = leak_rate(orig, gold, out, [["O", "O", "O", "B-ADDRESS", "I-ADDRESS", "I-ADDRESS", "O", "B-PER"]])
    assert r["per_type_counts"] == {"ADDRESS": (2, 0), "PER": (1, 1)}

# ------------------------------------------------------------------ SanText
def _toy(n=40, dim=8, seed=0):
    rng = np.random.default_rng(seed)
    vocab = [f"w{i}" for i in range(n)]
    vecs = rng.normal(size=(n, dim)).astype(np.float32)
    freq = Counter({w: n - i for i, w in enumerate(vocab)})    # w0 most frequent
    return vocab, vecs, freq


@pytest.mark.parametrize("plus", [False, True])
def test_santext_rows_sum_to_one_and_cache(tmp_path, plus):
    vocab, vecs, freq = _toy()
    st = SanText(vocab, vecs, freq, SanTextConfig(epsilon=2.0, plus=plus, p=0.3, w=0.5), cache_dir=tmp_path)
    assert not st.cache_hit
    for sens in ([True, False] if plus else [True]):
        P = st.prob_matrix(sens)
        assert P.shape[1] == len(st.p_idx)
        assert np.allclose(P.sum(axis=1), 1.0) and (P >= 0).all()
    again = SanText(vocab, vecs, freq, SanTextConfig(epsilon=2.0, plus=plus, p=0.3, w=0.5), cache_dir=tmp_path)
    assert again.cache_hit and again.cache_key == st.cache_key
    other = SanText(vocab, vecs, freq, SanTextConfig(epsilon=3.0, plus=plus, p=0.3, w=0.5), cache_dir=tmp_path)
    assert not other.cache_hit and other.cache_key != st.cache_key


def test_santext_matches_exponential_mechanism():
    vocab, vecs, freq = _toy(n=6)
    st = SanText(vocab, vecs, freq, SanTextConfig(epsilon=1.5))
    d = np.linalg.norm(vecs[0] - vecs, axis=1)
    expect = np.exp(-0.75 * d) / np.exp(-0.75 * d).sum()             # eq. (1)
    assert np.allclose(st.prob_matrix()[0], expect, atol=1e-6)
    out = st.sample_ids(np.zeros(20000, dtype=int))
    emp = np.bincount(out, minlength=6) / 20000
    assert np.abs(emp - expect).max() < 0.02
    # epsilon = 0: uniform
    st0 = SanText(vocab, vecs, freq, SanTextConfig(epsilon=0.0))
    assert np.allclose(st0.prob_matrix(), 1 / 6)


def test_santext_plus_sensitive_split_and_coin():
    vocab, vecs, freq = _toy(n=20)
    s_idx, n_idx = sensitive_split(vocab, freq, 0.75)
    assert len(s_idx) == 15 and set(n_idx) == {0, 1, 2, 3, 4}   # the 5 most frequent words are not sensitive
    st = SanText(vocab, vecs, freq, SanTextConfig(epsilon=1.0, plus=True, p=0.3, w=0.75, seed=1))
    out = st.sample_ids(np.zeros(20000, dtype=int))                # w0: non-sensitive
    assert abs((out == 0).mean() - 0.7) < 0.02                      # kept with probability 1 - p (w0 is not in V_P)
    assert set(np.unique(out)) - {0} <= set(s_idx)                  # otherwise mapped into V_P = V_S
    out = st.sample_ids(np.full(5000, 19))                          # sensitive words stay inside V_P
    assert set(np.unique(out)) <= set(s_idx)
    stats = st.privacy_stats(runs=50, words=vocab[:10])
    assert stats["V_S"] == 15 and 0 <= stats["N_x"]["median"] <= 1 and stats["S_x"]["median"] >= 1
    assert "UMLDP" in stats["guarantee"]


def test_santext_nx_grows_with_epsilon():
    vocab, vecs, freq = _toy(n=30)
    nx = [SanText(vocab, vecs, freq, SanTextConfig(epsilon=e)).privacy_stats(runs=200)["N_x"]["mean"]
          for e in (0.5, 5.0, 50.0)]
    assert nx[0] < nx[1] < nx[2] and nx[2] > 0.9
