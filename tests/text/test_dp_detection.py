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


def test_generated_numbers_epsilon_per_type_at_effective_p_hand_computed():
    """Numbers under same_type get generated values (a redraw among the n - 1 other values of their class, never
    themselves): randomized response, epsilon_t = |log((1 - p)(n - 1) / p)|; names keep eq. (2) of their pool;
    the corpus value is the max over types."""
    toks = "Bob gave four two then 42 to Tanaka".split()
    gold = Sentence(toks, _tag(toks, [(0, 1, "PER"), (2, 4, "NUM"), (5, 6, "NUM"), (7, 8, "PER")]), "d-5")
    pred = Sentence(toks, _tag(toks, [(0, 1, "PER"), (2, 4, "NUM"), (7, 8, "PER")]))   # misses "42"
    recall = detection_recall([gold.spans()], [pred.spans()], [gold.tokens])
    assert recall == {"PER": (2, 2), "NUM": (3, 2)}
    p_eff = effective_p(0.9, recall)
    assert p_eff == {"PER": pytest.approx(0.9), "NUM": pytest.approx(0.6)}
    tr = TextTransformer(TransformConfig(strategies=parse_strategy_spec("same_type"), p=0.9, seed=1),
                         Pools([gold]))                                   # PER words: Bob 1/2, Tanaka 1/2
    eps, overall = tr.epsilon_at([gold], p_eff)
    # PER: eq. 2 at 0.9 with pi_min = 1/2: log((0.1 + 0.45) / 0.45) = log(11/9)
    assert eps["PER"].epsilon == pytest.approx(math.log(11 / 9))
    # NUM at p_eff 0.6: digit words (n = 10): |log(0.4 * 9 / 0.6)| = log 6; "42" (n = 100): log(0.4 * 99 / 0.6) = log 66
    assert eps["NUM"].epsilon == pytest.approx(math.log(66)) and "'42'" in eps["NUM"].note
    assert overall.epsilon == pytest.approx(math.log(66))
    # the digit words alone: log 6
    e4, _ = tr.epsilon_at([Sentence(toks[:4], _tag(toks[:4], [(2, 4, "NUM")]))], {"NUM": 0.6})
    assert e4["NUM"].epsilon == pytest.approx(math.log(6))
    # p = 0.9 with perfect detection: log(0.1 * 9 / 0.9) = 0 for a digit word (uniform output), log(11) for "42"
    eps9, _ = tr.epsilon_at([gold], {"PER": 0.9, "NUM": 0.9})
    assert eps9["NUM"].epsilon == pytest.approx(math.log(0.1 * 99 / 0.9))
    # p = 1: an output never equals its own original, which rules the original out: infinite (names: 0)
    res = TextTransformer(TransformConfig(strategies=parse_strategy_spec("same_type"), p=1.0, seed=1),
                          Pools([gold])).transform([gold])
    assert res.epsilon["PER"].epsilon == 0.0 and math.isinf(res.epsilon["NUM"].epsilon)
    assert math.isinf(res.overall.epsilon) and "rules its own original out" in res.epsilon["NUM"].note
    out = res.sentences[0].tokens
    assert (out[2], out[3], out[5]) != ("four", "two", "42") and out[2] != "four" and out[5] != "42"


def test_transform_table_shows_per_type_epsilon_and_the_max(tmp_path):
    import json
    from pydeid.report.text_tables import transform_table
    toks = "Bob gave four two then 42 to Tanaka".split()
    gold = Sentence(toks, _tag(toks, [(0, 1, "PER"), (2, 4, "NUM"), (5, 6, "NUM"), (7, 8, "PER")]), "d-5")
    res = TextTransformer(TransformConfig(strategies=parse_strategy_spec("same_type"), p=0.9, seed=1),
                          Pools([gold])).transform([gold])
    rep = dict(res.report_dict(0.9), strategies={"default": "same_type"})
    (tmp_path / "r.json").write_text(json.dumps(rep))
    table = transform_table([("toy", str(tmp_path / "r.json"))])
    row = next(line for line in table.splitlines() if line.startswith("| toy"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[4] == f"{math.log(0.1 * 99 / 0.9):.3f}"                       # the max over types: NUM's
    assert cells[5] == f"NUM {math.log(0.1 * 99 / 0.9):.3g}; PER {math.log(11 / 9):.3g}"
    assert "maximum over types" in table


def test_gold_type_the_detector_never_tagged_is_unprotected_not_an_error():
    # the tagger's tags (the pool) hold no LOC while gold has one: the run stopped with a PoolError in the epsilon
    # report (mini recipe, tiny size with category turns); every LOC unit passes unchanged, so epsilon is inf
    toks = "Bob flew to Athens".split()
    gold = Sentence(toks, _tag(toks, [(0, 1, "PER"), (3, 4, "LOC")]), "d-1")
    pred = Sentence(toks, _tag(toks, [(0, 1, "PER")]), "d-1")
    cfg = TransformConfig(strategies=parse_strategy_spec("same_type"), p=1.0, seed=1)
    recall = detection_recall([gold.spans()], [pred.spans()], [gold.tokens])
    eps, overall = TextTransformer(cfg, Pools([pred])).epsilon_at([gold], effective_p(1.0, recall))
    assert math.isinf(eps["LOC"].epsilon) and "tagged no LOC" in eps["LOC"].note
    assert math.isinf(overall.epsilon)


HTOKS = "my mother has diabetes and Bob too".split()
HEALTH = Sentence(HTOKS, _tag(HTOKS, [(3, 4, "HEALTH"), (5, 6, "PER")]), "d-2")


def transformer_on(corpus, strategy, p):
    cfg = TransformConfig(strategies=parse_strategy_spec(f"HEALTH={strategy},default=same_type"), p=p, seed=1)
    return TextTransformer(cfg, Pools(corpus))


@pytest.mark.parametrize("strategy", ["same_type", "single_same_type", "full_entity"])
def test_category_one_value_pool_is_randomized_response_not_eq2(strategy):
    """A category type whose corpus pool holds one value ("diabetes") gets, for that original, a generated
    same-category value (the fallback), never the pool value: the policy depends on the original, so eq. (2)'s
    0 at p = 1 is wrong. Seed 000's eq. 3-5 reasoning: P("diabetes" out | "diabetes") = 1 - p (kept),
    P("diabetes" out | another original) = p -> |log((1 - p) / p)|: infinite at p = 1, log 9 at p = 0.9 and
    p = 0.1, 0 at p = 0.5. A pool with two values keeps eq. (2)."""
    res = transformer_on([HEALTH], strategy, 1.0).transform([HEALTH])
    assert res.sentences[0].tokens[3].lower() != "diabetes"          # the premise: the fallback replaced it
    assert math.isinf(res.epsilon["HEALTH"].epsilon) and "one-value HEALTH pool" in res.epsilon["HEALTH"].note
    assert math.isinf(res.overall.epsilon)
    for p, want in [(0.9, math.log(9)), (0.1, math.log(9)), (0.5, 0.0)]:
        e = transformer_on([HEALTH], strategy, p).transform([HEALTH]).epsilon["HEALTH"].epsilon
        assert e == pytest.approx(want), (p, e)
    # a tagger that tags another HEALTH word the pool never emits: infinite at p < 1 (eq. 2's pi(t) = 0)
    other = Sentence(HTOKS, _tag(HTOKS, [(1, 2, "HEALTH")]), "d-3")
    eps, _ = transformer_on([HEALTH], strategy, 0.9).epsilon_at([HEALTH, other], {"HEALTH": 0.9})
    assert math.isinf(eps["HEALTH"].epsilon)
    # two values in the pool: no fallback for either, eq. (2) as before (0 at p = 1)
    toks = "she has asthma".split()
    two = Sentence(toks, _tag(toks, [(2, 3, "HEALTH")]), "d-4")
    assert transformer_on([HEALTH, two], strategy, 1.0).transform([HEALTH, two]).epsilon["HEALTH"].epsilon == 0.0
