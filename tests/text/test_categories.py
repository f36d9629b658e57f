"""Sensitive categories of seed 004 appendix A.1: detection figures on the annotated test set (cased and
lower-cased), the issue's probes and hard negatives, category surrogates, and the categories end to end through
transform-text and mask-words on a tiny synthetic corpus."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from pydeid.text.categories import CATEGORY_TYPES, CategoryDetector, DETECTED_TYPES
from pydeid.text.categories.annotated import lower_no_punct, read_annotated, score, variant

DATA = Path(__file__).parent / "data"
EVAL_CONFIG = dict(grammar={"type_map": {"email": "EMAIL", "phone": "PHONE"}})


@pytest.fixture(scope="module")
def detection():
    pytest.importorskip("spacy")
    from pydeid.text.detectors import Detection, DetectionConfig
    return Detection(DetectionConfig(**EVAL_CONFIG))


def _run(det, sents):
    return [[(x.start, x.end, x.type) for x in sp] for sp in det.detect_many([s for s, _ in sents])]


# the tuning set (>= 15 spans a type) and the blind set (>= 10 a type, written without reading the detector;
# its figures before the detector was changed after it: bench/results/categories_blind_before.txt)
@pytest.mark.parametrize("name,min_gold", [("test", 15), ("blind", 10)])
@pytest.mark.parametrize("lower", [False, True], ids=["cased", "lower_nopunct"])
def test_per_category_recall_and_precision(detection, lower, name, min_gold):
    sents = variant(read_annotated(DATA / f"categories_{name}.txt"), lower)
    gold = [g for _, g in sents]
    pred = _run(detection, sents)
    res = score(gold, pred, CATEGORY_TYPES)
    for t in CATEGORY_TYPES:
        assert res[t]["gold"] >= min_gold, t
    bad = {t: (round(r["recall"], 3), round(r["precision"], 3)) for t, r in res.items()
           if r["recall"] < 0.90 or r["precision"] < 0.85}
    assert not bad, f"below recall 0.90 / precision 0.85 (exact spans): {bad}"
    # phone numbers are the grammar's (written groups after a calling verb or with a trunk prefix included):
    # every phone token is detected as sensitive whatever its type
    phone_toks = [(k, i) for k, g in enumerate(gold) for a, b, t in g if t == "PHONE" for i in range(a, b)]
    covered = sum(any(a <= i < b for a, b, _ in pred[k]) for k, i in phone_toks)
    assert covered / len(phone_toks) >= 0.90
    # negatives: no category span at all
    for (toks, g), p in zip(sents, pred):
        if not g:
            assert not [x for x in p if x[2] in CATEGORY_TYPES], " ".join(toks)


def _types(det, text):
    toks = text.split()
    return {(" ".join(toks[s.start:s.end]), s.type) for s in det.detect_many([toks])[0]}


@pytest.mark.parametrize("lower", [False, True], ids=["cased", "lower"])
def test_issue_probes(detection, lower):
    f = (lambda s: s.lower()) if lower else (lambda s: s)
    assert (f("depression"), "HEALTH") in _types(detection, f("I suffer from depression"))
    got = _types(detection, f("I am forty five years old and divorced"))
    assert (f("forty five years old"), "AGE") in got and ("divorced", "MARITAL") in got
    assert ("tulip", "CREDENTIAL") in _types(detection, f("my password is tulip"))
    assert ("lawyer", "PROFESSION") in _types(detection, f("I work as a lawyer"))
    got = _types(detection, f("my IP address is 192.168.0.1"))
    assert got == {("192.168.0.1", "IP")}, got              # "IP" is not a person
    got = _types(detection, f("I live at twelve Baker Street"))
    assert got == {(f("twelve Baker Street"), "ADDRESS")}, got
    got = _types(detection, f("one nine two dot one six eight dot zero dot one"))
    assert got == {(f("one nine two dot one six eight dot zero dot one"), "IP")}


@pytest.mark.parametrize("text", ["I am sick of waiting", "I'm dying to see it", "a fair price", "I am a bit tired",
                                  "the password is wrong", "I went to the doctor", "go straight on",
                                  "a single ticket please", "I'm ten minutes away", "I speak German",
                                  "I had a cold drink after the match", "the car is three years old",
                                  "it's in my address book", "we saw a nurse shark", "he separated the eggs"])
def test_hard_negatives(text):
    det = CategoryDetector()
    for t in (text, text.lower(), text.capitalize()):
        assert det.detect(t.split()) == [], t


@pytest.mark.parametrize("text,span", [
    ("my mother's Ghanaian", ("Ghanaian", "ETHNICITY")),                    # "<possessive> <person>'s" = is
    ("he's a member of the Communist Party", ("Communist Party", "BELIEF")),  # a party name with "Party"
    ("i'm engaged the wedding is in june", ("engaged", "MARITAL")),          # no punctuation after a status
    ("my password is bluebird2024 don't tell anyone", ("bluebird2024", "CREDENTIAL")),
    ("i'm forty five divorced", ("forty five", "AGE")),
    ("my son is three years old", ("three years old", "AGE")),
    ("I've got a cold so I'm staying home", ("cold", "HEALTH")),
])
def test_blind_set_failures_fixed(text, span):
    toks = text.split()
    got = {(" ".join(toks[s.start:s.end]), s.type) for s in CategoryDetector().detect(toks)}
    assert span in got, got


def test_lower_no_punct_copy_remaps_spans():
    toks, gold = lower_no_punct("Um , I'm 34 , and I paid $1,250 .".split(), [(3, 4, "AGE"), (8, 9, "TRANSACTION")])
    assert toks == ["um", "i'm", "34", "and", "i", "paid", "$1,250"]
    assert gold == [(2, 3, "AGE"), (6, 7, "TRANSACTION")]
    with pytest.raises(ValueError, match="punctuation only"):
        lower_no_punct(["a", ","], [(1, 2, "AGE")])


def test_unknown_family_is_an_error():
    with pytest.raises(ValueError, match="unknown category family"):
        CategoryDetector(["health", "horoscope"])


def _transform(sents_spans, strategy="default=surrogate", seed=0):
    from pydeid.io.conll import Sentence
    from pydeid.text.pools import Pools
    from pydeid.text.spans import Span, spans_to_bio
    from pydeid.text.strategies import parse_strategy_spec
    from pydeid.text.transform import TextTransformer, TransformConfig
    ss = [Sentence(t, spans_to_bio([Span(a, b, ty) for a, b, ty in g], len(t)), f"u{k}")
          for k, (t, g) in enumerate(sents_spans)]
    cfg = TransformConfig(strategies=parse_strategy_spec(strategy), seed=seed)
    return ss, TextTransformer(cfg, Pools(ss)).transform(ss)


def test_surrogates_by_category():
    from pydeid.text.categories.surrogates import LEXICON_POOLS
    sents = [s for s in read_annotated(DATA / "categories_test.txt") if s[1]]
    ss, res = _transform(sents)
    again = _transform(sents)[1]
    assert [s.tokens for s in res.sentences] == [s.tokens for s in again.sentences]      # seeded
    corpus_credentials = {" ".join(t[a:b]).lower() for t, g in sents for a, b, ty in g if ty == "CREDENTIAL"}
    n = 0
    for (toks, g), out in zip(sents, res.sentences):
        spans = out.spans()
        assert len(spans) == len(g)
        for (a, b, typ), (a2, b2, typ2) in zip(sorted(g), sorted(spans)):
            assert typ == typ2
            orig, new = " ".join(toks[a:b]).lower(), " ".join(out.tokens[a2:b2]).lower()
            if typ in LEXICON_POOLS:               # a whole phrase of the same category, never the original
                assert new != orig and new in LEXICON_POOLS[typ], (orig, new)
                n += 1
            if typ == "CREDENTIAL":                # generated, never drawn from the corpus's credentials
                assert new not in corpus_credentials, (orig, new)
                n += 1
            if typ in ("ADDRESS", "IP", "MAC", "TRANSACTION", "AGE"):
                assert new != orig, (orig, new)
                n += 1
    assert n > 150


_ONE_VALUE = [("I suffer from depression", "HEALTH"), ("I am Catholic", "BELIEF"), ("I am Basque", "ETHNICITY"),
              ("I am gay", "SEXUAL"), ("I am divorced", "MARITAL"), ("I am a nurse", "PROFESSION"),
              ("my password is tulip", "CREDENTIAL"), ("I am forty", "AGE")]


def _strategies_but_keep():
    from pydeid.text.strategies import STRATEGIES
    return [n for n in STRATEGIES if n != "keep"]


@pytest.mark.parametrize("strategy", _strategies_but_keep())
@pytest.mark.parametrize("lower", [False, True], ids=["cased", "lower"])
def test_one_value_pool_never_gives_the_original_back(strategy, lower):
    """Every strategy but keep, on a corpus whose only span of a category is the one replaced (a one-value pool):
    the output never holds the original token, compared case-insensitively (a generated same-category value)."""
    from pydeid.text.categories.surrogates import LEXICON_POOLS
    for text, typ in _ONE_VALUE:
        toks = (text.lower() if lower else text).split()
        span = (len(toks) - 1, len(toks), typ)
        for seed in range(8):
            _, res = _transform([(toks, [span])], f"{typ}={strategy}", seed=seed)
            out = res.sentences[0]
            (a, b, t2), = out.spans()
            new = [w.lower() for w in out.tokens[a:b]]
            assert t2 == typ and toks[-1].lower() not in new, (strategy, typ, seed, out.tokens)
            if strategy in ("same_type", "single_same_type", "full_entity", "pseudonymize", "faker") \
                    and typ in LEXICON_POOLS:             # the fallback is a same-category value
                assert " ".join(new) in LEXICON_POOLS[typ], (strategy, typ, new)


@pytest.mark.parametrize("strategy", ["full_entity", "single_same_type"])
def test_one_value_entity_pool_multiword(strategy):
    toks = "I have type two diabetes".split()
    for seed in range(8):
        _, res = _transform([(toks, [(2, 5, "HEALTH")])], f"HEALTH={strategy}", seed=seed)
        out = res.sentences[0].tokens
        assert "diabetes" not in [w.lower() for w in out], out


@pytest.mark.parametrize("strategy", ["surrogate", "random_digits"])
def test_lexicon_surrogate_never_repeats_an_original_word(strategy):
    """"depression" never becomes "postnatal depression", "Catholic" never "Roman Catholic"."""
    for seed in range(40):
        _, res = _transform([("I suffer from depression".split(), [(3, 4, "HEALTH")]),
                             ("I am Catholic".split(), [(2, 3, "BELIEF")]),
                             ("I have type two diabetes".split(), [(2, 5, "HEALTH")])], f"default={strategy}",
                            seed=seed)
        a, b, c = (s.tokens for s in res.sentences)
        assert "depression" not in [w.lower() for w in a[3:]] and "catholic" not in [w.lower() for w in b[2:]] \
            and "diabetes" not in [w.lower() for w in c[2:]], (a, b, c)


def test_redact_and_typed_placeholder_for_categories():
    sents = [("I suffer from depression".split(), [(3, 4, "HEALTH")]),
             ("my password is tulip".split(), [(3, 4, "CREDENTIAL")])]
    _, res = _transform(sents, "HEALTH=redact,CREDENTIAL=typed_placeholder")
    assert [s.tokens for s in res.sentences] == [["I", "suffer", "from", "IIIII"], ["my", "password", "is",
                                                                                     "CREDENTIAL"]]


# structure words of category spans that identify nobody ("Street", "dot", "years old", "euros")
_STRUCTURE = {"street", "road", "lane", "dot", "years", "old", "euros", "dollars", "pounds", "an", "a", "and",
              "hundred", "thousand"}


def test_categories_end_to_end_transform_and_mask(tmp_path):
    pytest.importorskip("espeakng_loader")
    from pydeid.cli import main
    from pydeid.corpora.mini import build_corpus
    from pydeid.io.conll import read_conll
    from pydeid.mask.verify import verify_masking
    root = build_corpus(tmp_path / "c", seed=0, size="tiny", category_turns=3)
    test = root / "mini_test"
    gold = read_conll(test / "tags.conll")
    cat = {(s.id, a, b, t) for s in gold for a, b, t in s.spans() if t in DETECTED_TYPES}
    assert len({t for *_, t in cat}) >= 4, cat
    # the default detectors find the category spans of these turns (spoken forms), cased and lower-cased
    if importlib.util.find_spec("spacy") is not None:
        for lc in ([], ["--lowercase-input"]):
            det = tmp_path / f"det{len(lc)}.conll"
            assert main(["tag-entities", *lc, str(test), str(det)]) == 0
            found = {(s.id, a, b, t) for s in read_conll(det) for a, b, t in s.spans()}
            assert len(cat & found) >= 0.9 * len(cat), sorted(cat - found)
    out = tmp_path / "test_text"
    assert main(["transform-text", str(test), str(test / "tags.conll"), str(out)]) == 0
    new = {s.id: s for s in read_conll(out / "tags.conll")}
    text = {ln.split(" ", 1)[0]: ln.split()[1:] for ln in (out / "text").read_text().splitlines()}
    for s in gold:
        for a, b, t in s.spans():
            if t in DETECTED_TYPES:
                for w in s.tokens[a:b]:
                    if w.lower() not in _STRUCTURE:
                        assert w not in text[s.id], (s.id, w, t)
        assert new[s.id].tokens == text[s.id]
    masked = tmp_path / "test_masked"
    assert main(["mask-words", "--wav-dir", str(tmp_path / "wav"), str(test), str(test / "tags.conll"),
                 str(test / "words.ctm"), str(masked)]) == 0
    rep = verify_masking(masked, test / "tags.conll", test / "words.ctm",
                         tagset=",".join(("PER", "LOC", "ORG", "DATE", "TIME", "NUM") + DETECTED_TYPES),
                         orig_data=test)
    assert rep.entities >= len(cat) and rep.n_leaks == 0, rep.summary()
    words = {ln.split(" ", 1)[0]: ln.split()[1:] for ln in (masked / "text").read_text().splitlines()}
    for utt, a, b, t in cat:
        sent = next(s for s in gold if s.id == utt)
        for w in sent.tokens[a:b]:
            if w.lower() not in _STRUCTURE:
                assert w not in words[utt], (utt, w)


def test_category_turns_are_off_by_default():
    from pydeid.corpora.mini.build import corpus_params
    from pydeid.corpora.mini.categories import category_turn
    base = corpus_params(0, "tiny")
    assert "category_turns" not in base and corpus_params(0, "tiny", category_turns=0) == base
    assert corpus_params(0, "tiny", category_turns=2)["category_turns"] == 2
    with pytest.raises(ValueError, match="category_turns"):
        corpus_params(0, "tiny", category_turns=-1)
    import random
    rng = random.Random(0)
    det = CategoryDetector()
    for _ in range(40):                     # every generated turn's gold spans are what the detector finds
        toks, tags = category_turn(rng).spoken()
        from pydeid.text.spans import spans_to_bio
        assert spans_to_bio(det.detect(toks), len(toks)) == tags, toks


@pytest.mark.parametrize("strategy", ["random_digits", "same_type", "full_entity", "single_same_type", "faker"])
def test_no_strategy_but_keep_leaves_a_credential_or_address(strategy):
    sents = [("my password is tulip".split(), [(3, 4, "CREDENTIAL")]),
             ("I live at twelve Baker Street".split(), [(3, 6, "ADDRESS")]),
             ("the pin is one two three four".split(), [(3, 7, "CREDENTIAL")]),
             ("I suffer from depression".split(), [(3, 4, "HEALTH")])]
    # replace() directly: the epsilon of same_type/full_entity for generated types is issue 16's (a PoolError there)
    import numpy as np

    from pydeid.text.pools import Pools
    from pydeid.text.strategies import Context, make_strategy
    strat = make_strategy(strategy)
    ctx = Context(rng=np.random.default_rng(0), pools=Pools())
    out = []
    for toks, [(a, b, typ)] in sents:
        unit = getattr(strat, "unit_for", lambda t: strat.unit)(typ)
        try:
            new = strat.replace(toks[a:b], typ, ctx) if unit == "entity" else \
                [w for t in toks[a:b] for w in strat.replace([t], typ, ctx)]
        except ValueError:                     # a pool-based strategy with no pool of the type: an error, no leak
            new = ["<error>"]
        out.append([t.lower() for t in toks[:a] + new + toks[b:]])
    assert "tulip" not in out[0] and "baker" not in out[1] and out[2][3:] != ["one", "two", "three", "four"]
    if strategy == "random_digits":
        assert "depression" not in out[3]


def test_health_and_belief_surrogates_stay_in_their_subclass():
    from pydeid.text.categories import lexicons as L
    sents = [("I take insulin".split(), [(2, 3, "HEALTH")]), ("I vote Labour".split(), [(2, 3, "BELIEF")]),
             ("I am an engineer".split(), [(3, 4, "PROFESSION")])]
    for seed in range(10):
        _, res = _transform(sents, seed=seed)
        a, b, c = (s.tokens for s in res.sentences)
        assert a[2].lower() in L.HEALTH_TREATMENTS and " ".join(b[2:]).lower() in L.POLITICS
        assert c[3][0].lower() in "aeiou"          # "an" stays grammatical


@pytest.mark.parametrize("span,typ", [("five six five nine oh", "CREDENTIAL"), ("4071", "CREDENTIAL"),
                                      ("forty five", "AGE"), ("250 dollars", "TRANSACTION")])
def test_generated_digits_never_repeat_the_original_in_place(span, typ):
    # a spoken PIN digit drawn again by chance sat in its own place: 4 % of spoken digits leaked (issue 16 bench)
    from pydeid.text.categories.surrogates import category_value
    from pydeid.text.lexicon import DIGIT_WORDS
    from pydeid.text.strategies import Context, Pools
    import numpy as np
    toks = span.split()
    digits = [k for k, t in enumerate(toks) if t.lower() in DIGIT_WORDS or t.isdigit()]
    assert digits
    for seed in range(200):
        out = category_value(toks, typ, Context(rng=np.random.default_rng(seed), pools=Pools([])))
        for k in digits:
            if toks[k].isdigit():
                assert all(a != b for a, b in zip(toks[k], out[k])), (toks, out)
            else:
                assert DIGIT_WORDS.get(out[k].lower()) != DIGIT_WORDS[toks[k].lower()], (toks, out)


@pytest.mark.parametrize("strategy", _strategies_but_keep())
def test_category_absent_from_the_pool_gets_a_generated_value(strategy):
    # the mini recipe's NER-utility cells draw pools from other text than the sentence: a HEALTH span with no HEALTH
    # entity in the pool stopped the recipe with a PoolError (run.sh --category-turns 3, stage 2)
    from pydeid.io.conll import Sentence
    from pydeid.text.pools import Pools
    from pydeid.text.spans import Span, spans_to_bio
    from pydeid.text.strategies import parse_strategy_spec
    from pydeid.text.transform import TextTransformer, TransformConfig
    toks = "I suffer from asthma and call Anna".split()
    s = Sentence(toks, spans_to_bio([Span(3, 4, "HEALTH"), Span(6, 7, "PER")], len(toks)), "u1")
    pool = Sentence("call Bob now".split(), spans_to_bio([Span(1, 2, "PER")], 3), "u2")
    cfg = TransformConfig(strategies=parse_strategy_spec(f"default={strategy}"), seed=0)
    out = TextTransformer(cfg, Pools([pool])).transform([s]).sentences[0].tokens
    assert out[3].lower() != "asthma" and "asthma" not in [t.lower() for t in out]
    if strategy != "random_digits":            # random_digits leaves a name as it is (reported as not protected)
        assert "anna" not in [t.lower() for t in out]
