"""Surrogates drawn with real-world frequencies (strategies/frequencies.py): common names and big places come up
far more often than rare ones, an organisation without a generic head becomes a real company's name, a spoken year
stays a year of its era; and whatever is drawn, a surrogate never equals its original nor any entity word of the
corpus. Seeded: every count below is exact for its seed."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from pydeid.io.conll import Sentence
from pydeid.text.generate import ValueGenerator
from pydeid.text.lexicon import identifying
from pydeid.text.pools import Pools
from pydeid.text.strategies import codes, identifiers, shapes
from pydeid.text.strategies.frequencies import Weighted, cities, first_names, last_names, organisations
from pydeid.text.strategies.spoken_years import spoken_year_spans
from pydeid.text.transform import TextTransformer, TransformConfig


def _us_extremes(attr: str, n: int = 5):
    """The n most and least common names of faker en_US's weighted list `attr`."""
    from faker.providers.person.en_US import Provider as P
    d = getattr(P, attr)
    ranked = sorted(d, key=d.get)
    return ranked[-n:], ranked[:n]


def test_names_with_letters_unicode_does_not_decompose_are_folded_not_dropped():
    # one folding function for the surrogate lists and the mini corpus's pools (pydeid.text.fold): "Søren" and
    # "Weiß" were dropped from the surrogate lists (NFKD leaves ø and ß, and only plain letters are kept)
    from pydeid.corpora.mini import lexicon
    from pydeid.text.fold import fold
    assert lexicon.fold is fold
    assert [fold(w) for w in ("Zoë", "Søren", "Weiß", "Kjær", "Ærø", "Ørsted", "Mary")] == \
        ["Zoe", "Soren", "Weiss", "Kjaer", "Aero", "Orsted", "Mary"]
    firsts, lasts = set(first_names().items), set(last_names().items)
    assert {"Soren", "Jorgen", "Laerke"} <= firsts and {"Weiss", "Hess", "Moller", "Sorensen"} <= lasts
    assert not any(c in "".join(firsts | lasts) for c in "øæßØÆ")


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_common_first_names_far_more_often_than_rare_ones(seed):
    gen = ValueGenerator(np.random.default_rng(seed))
    draws = Counter(gen.first_name() for _ in range(2000))
    top_m, rare_m = _us_extremes("first_names_male")
    top_f, rare_f = _us_extremes("first_names_female")
    common, rare = sum(draws[n] for n in top_m + top_f), sum(draws[n] for n in rare_m + rare_f)
    assert common >= 15 and common >= 3 * rare, (common, rare)


def test_surnames_and_cities_follow_their_weights():
    rng = np.random.default_rng(0)
    top, rare = _us_extremes("last_names", 20)
    lasts = Counter(last_names().draw(rng) for _ in range(2000))
    assert sum(lasts[n] for n in top) >= 3 * max(1, sum(lasts[n] for n in rare))
    # a city of millions comes up more often than a town of 20,000
    big = {"London", "Los Angeles", "Chicago", "Houston", "Toronto", "Sydney", "Berlin", "Madrid", "Paris"}
    towns = Counter(cities().draw(rng) for _ in range(2000))
    assert sum(towns[c] for c in big) >= 10
    assert cities().prob("London") > 10 * cities().prob("Tipton")


def test_weighted_refuses_bad_weights_and_draws_by_weight():
    with pytest.raises(ValueError, match="weights"):
        Weighted(["a", "b"], [0, 0])
    w = Weighted(["a", "b"], [9, 1])
    rng = np.random.default_rng(0)
    c = Counter(w.draw(rng) for _ in range(2000))
    assert 1700 <= c["a"] <= 1900 and w.prob("a") == pytest.approx(0.9)


def _run(text: str, spans, seed: int):
    toks = text.split()
    tags = ["O"] * len(toks)
    for a, b, typ in spans:
        tags[a:b] = [f"B-{typ}"] + [f"I-{typ}"] * (b - a - 1)
    s = Sentence(toks, tags, "d1-u1")
    cfg = TransformConfig(strategies={"default": "surrogate"}, seed=seed, propagate_names=False,
                          continue_numbers=False)
    return TextTransformer(cfg, Pools([s])).transform([s]).sentences[0].tokens


def test_popular_originals_never_come_back():
    # the most common names and places: a frequency-weighted draw would often give them, the guards refuse them
    text = "John Smith and Mary Johnson flew from London to New York with Google"
    spans = [(0, 2, "PER"), (3, 5, "PER"), (7, 8, "LOC"), (9, 11, "LOC"), (12, 13, "ORG")]
    originals = {"john", "smith", "mary", "johnson", "london", "new", "york", "google"}
    seen = set()
    for seed in range(40):
        out = _run(text, spans, seed)
        assert not {w.lower() for w in out} & originals, out
        seen.add(" ".join(out))
    assert len(seen) >= 35          # fresh draws, not a few fixed values


def test_organisation_without_head_becomes_a_company_of_as_many_words():
    one, two = set(organisations()[1]), set(organisations()[2])
    for seed in range(10):
        out = _run("play it on Spotify now", [(3, 4, "ORG")], seed)
        assert out[3] in one and out[3] != "Spotify"
        out = _run("I work for Humbert Energy now", [(3, 5, "ORG")], seed)
        assert " ".join(out[3:5]) in two
        out = _run("we ate at City Tavern", [(3, 5, "ORG")], seed)
        assert out[4] == "Tavern" and out[3] != "City"      # the generic head kept


@pytest.mark.parametrize("text,span,lo,hi,style", [
    ("born in April nineteen ninety four", (2, 6), 1984, 2004, "thousand"),     # "two thousand two"
    ("back in February twenty twenty one", (2, 6), 1991, 2051, None),
    ("it was May of ninety five", (2, 6), 1965, 2025, "short"),
    ("in two thousand and five", (1, 5), 1975, 2035, None),
])
def test_spoken_year_stays_a_year_of_its_era(text, span, lo, hi, style):
    for seed in range(8):
        out = _run(text, [(span[0], span[1], "DATE")], seed)
        new = out[span[0]:]
        years = spoken_year_spans(new)
        assert len(years) == 1 and lo <= years[0][2] <= hi, new
        assert style is None or years[0][3] == style
        assert not identifying(new) & identifying(text.split()[span[0]:span[1]])      # no original word back


def test_a_count_of_one_stays_one():
    for seed in range(6):
        out = _run("shall we meet one weekend in July", [(3, 7, "DATE")], seed)
        assert out[3:5] == ["a", "weekend"] and out[6] != "July"       # never "three weekend"
        out = _run("shall we meet one hour before", [(3, 5, "TIME")], seed)
        assert out[3] in ("an", "a", "two", "three", "four", "five", "six", "ten") and out[3] != "one"


def test_identifiers_and_shapes_share_one_code_redraw():
    assert identifiers.redraw_code is codes.redraw_code and shapes.redraw_code is codes.redraw_code
    rng = np.random.default_rng(0)
    for tok in ("LS2-9JT", "078-05-1120", "AB123456C"):
        new = codes.redraw_code(tok, rng)
        assert len(new) == len(tok) and all(a != b for a, b in zip(tok, new) if a.isalnum())
        assert [c.isdigit() for c in new] == [c.isdigit() for c in tok]
        assert [c for c in new if not c.isalnum()] == [c for c in tok if not c.isalnum()]
    assert codes.redraw_code("+44", rng, keep=3) == "+44"


def test_api_default_is_the_command_lines():
    from pydeid.api import DEFAULT_STRATEGIES
    from pydeid.text.strategies import DEFAULT_STRATEGY, parse_strategy_spec
    assert parse_strategy_spec(DEFAULT_STRATEGIES) == parse_strategy_spec(DEFAULT_STRATEGY) == {"default": "surrogate"}
    assert first_names("f").items and last_names().items


def test_times_stay_valid_times():
    for seed in range(6):
        out = _run("book it for 19 : 26 please", [(3, 6, "TIME")], seed)
        h, m = int(out[3]), int(out[5])
        assert out[4] == ":" and 0 <= h <= 23 and 0 <= m <= 59 and (out[3], out[5]) != ("19", "26")
        out = _run("wake me at 7 AM", [(3, 5, "TIME")], seed)
        assert 1 <= int(out[3]) <= 12 and out[3] != "7" and out[4] == "AM"      # never "51 am", "5 WX"
        out = _run("book a table for supper", [(4, 5, "TIME")], seed)
        assert out[4] in ("breakfast", "brunch", "lunch", "lunchtime", "dinner", "dinnertime", "teatime")
        out = _run("see you in the afternoon", [(3, 5, "TIME")], seed)
        assert out[4] in ("morning", "evening")                                   # never "in the night"


def test_relative_quantity_keeps_its_style_and_filler_words_are_english():
    for seed in range(6):
        out = _run("call me in sixteen minutes", [(2, 5, "TIME")], seed)
        assert out[3] not in ("a", "an") and out[3] != "sixteen"        # a count stays a count, never "a few"
        out = _run("call me in a few minutes", [(2, 6, "TIME")], seed)
        assert out[3] == "a" and out[4] in ("few", "couple")
    gen = ValueGenerator(np.random.default_rng(0))
    latin = {"molestiae", "nihil", "animi", "facilis", "quaerat", "ipsa", "saepe", "dolor", "lorem"}
    assert not {gen.word() for _ in range(200)} & latin


@pytest.mark.parametrize("strategy", ["surrogate", "faker"])
def test_a_name_that_is_a_title_word_is_replaced(strategy):
    # speechocean762's "HERE IS A GENUINE MAN KING WAS THINKING" (KING tagged PER) came out unchanged: titles are
    # kept beside a name ("MRS KING" -> "MRS <surname>"), but a span of titles alone is the name itself
    for text, spans in (("HERE IS A GENUINE MAN KING WAS THINKING", [(5, 6, "PER")]),
                        ("I MET PRINCE YESTERDAY", [(2, 3, "PER")]), ("I SAW MRS KING", [(2, 4, "PER")])):
        toks = text.split()
        tags = ["O"] * len(toks)
        for a, b, typ in spans:
            tags[a:b] = [f"B-{typ}"] + [f"I-{typ}"] * (b - a - 1)
        s = Sentence(toks, tags, "d1-u1")
        cfg = TransformConfig(strategies={"default": strategy}, seed=0)
        out = TextTransformer(cfg, Pools([s])).transform([s]).sentences[0].tokens
        assert not {"king", "prince"} & {t.lower() for t in out}, out
        assert ("MRS" in out) == ("MRS" in toks)   # a title beside a name is kept (both paths: shapes.name_tokens)
