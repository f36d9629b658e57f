"""Seed 000 section 3 accounting: epsilon at the effective p (p x detector recall on gold), redact/placeholders
as seed 000 rates them next to the strict eq. (2), random_digits on words that are not numbers, faker at p < 1
with numbers, and "replaced" counting only units that changed."""

import math

import pytest

from pydeid.io.conll import Sentence
from pydeid.text.dp import detection_recall, effective_p
from pydeid.text.pools import Pools
from pydeid.text.strategies import parse_strategy_spec
from pydeid.text.transform import TextTransformer, TransformConfig


def _tag(tokens, spans):
    tags = ["O"] * len(tokens)
    for a, b, t in spans:
        for i in range(a, b):
            tags[i] = ("B-" if i == a else "I-") + t
    return tags


TOKS = "Bob met Tanaka and Bob again".split()
GOLD = Sentence(TOKS, _tag(TOKS, [(0, 1, "PER"), (2, 3, "PER"), (4, 5, "PER")]), "d-1")
PRED = Sentence(TOKS, _tag(TOKS, [(0, 1, "PER"), (2, 3, "PER")]), "d-1")      # the detector misses the last Bob


def transformer(strategy, p, **kw):
    cfg = TransformConfig(strategies=parse_strategy_spec(strategy), p=p, seed=1, **kw)
    return TextTransformer(cfg, Pools([GOLD]))                                 # PER words: Bob 2/3, Tanaka 1/3


def test_epsilon_at_effective_p_hand_computed():
    recall = detection_recall([GOLD.spans()], [PRED.spans()], [GOLD.tokens])
    assert recall == {"PER": (3, 2)}
    p_eff = effective_p(0.9, recall)
    assert p_eff == {"PER": pytest.approx(0.6)}
    eps, overall = transformer("same_type", 0.9).epsilon_at([GOLD], p_eff)
    # eq. 2 with p_eff = 0.6, pi_min = 1/3: log((1 - 0.6 + 0.6/3) / (0.6/3)) = log(0.6 / 0.2) = log 3
    assert eps["PER"].epsilon == pytest.approx(math.log(3)) and overall.epsilon == pytest.approx(math.log(3))
    # at p = 1 with perfect detection it would be 0: the missed token is what costs the guarantee
    _, perfect = transformer("same_type", 1.0).epsilon_at([GOLD], effective_p(1.0, {"PER": (3, 3)}))
    assert perfect.epsilon == 0.0
    _, p1 = transformer("same_type", 1.0).epsilon_at([GOLD], effective_p(1.0, recall))
    assert p1.epsilon == pytest.approx(math.log((1 - 2 / 3 + 2 / 9) / (2 / 9)))


def test_redact_reports_seed000_value_next_to_strict_eq2():
    res = transformer("redact", 0.8).transform([GOLD])
    assert math.isinf(res.overall.epsilon) and res.overall.seed000 == 0.0
    assert res.overall.fmt() == "inf (seed 000: 0)"
    assert res.report_dict(0.8)["overall"]["text"] == "inf (seed 000: 0)"
    assert transformer("redact", 1.0).transform([GOLD]).overall.fmt() == "0"
    assert transformer("typed_placeholder", 0.5).transform([GOLD]).epsilon["PER"].seed000 == 0.0


def test_random_digits_on_names_changes_nothing_and_claims_nothing():
    res = transformer("random_digits", 1.0).transform([GOLD])
    assert res.sentences[0].tokens == TOKS
    assert res.stats["PER"].replaced == 0 and res.stats["PER"].units == 3
    assert math.isinf(res.overall.epsilon) and "not numbers" in res.epsilon["PER"].note
    digits = Sentence("area code four two".split(), _tag("area code four two".split(), [(0, 4, "NUM")]), "d-2")
    r = transformer("random_digits", 1.0).transform([digits])
    assert r.overall.epsilon == 0.0 and r.stats["NUM"].replaced <= 2   # "area code" is number structure, kept


def test_faker_below_p1_with_numbers():
    toks = "call Bob on four two seven".split()
    s = Sentence(toks, _tag(toks, [(1, 2, "PER"), (3, 6, "NUM")]), "d-3")
    cfg = TransformConfig(strategies=parse_strategy_spec("faker"), p=0.9, seed=0)
    res = TextTransformer(cfg, Pools([s])).transform([s])
    e = res.epsilon["NUM"].epsilon
    assert e is not None and math.isfinite(e) and e > 0          # class redraws of digit words: finite at p < 1
    assert res.stats["NUM"].units == 1 and res.stats["NUM"].entities == 1


def test_replaced_counts_only_changed_units():
    one = Sentence(["Bob", "came"], ["B-PER", "O"], "d-4")
    cfg = TransformConfig(strategies=parse_strategy_spec("same_type"), p=1.0, seed=0)
    res = TextTransformer(cfg, Pools([one])).transform([one])           # the pool holds only "Bob"
    assert res.sentences[0].tokens == ["Bob", "came"] and res.stats["PER"].replaced == 0
