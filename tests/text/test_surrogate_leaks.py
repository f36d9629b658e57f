"""Leak hunting on the text path with its DEFAULTS: data dirs of rare names, category words, spelled names, spoken
e-mails, a phone number read over three turns and names that are common words (bench/text_leaks.py builds them);
no original entity word of any utterance may appear anywhere in the output text, and no spelled letter or digit
may survive in place. Plus the pieces: the default's outside-the-corpus values, the warning of the corpus-pool
strategies, the word-counting leak figure, the refusal of a rerun with another seed, the dialogue-wide number,
the person cues and the propagation guard."""

import importlib.util
import json
import logging
import subprocess
from pathlib import Path

import pytest

from pydeid.cli import main
from pydeid.io.conll import Sentence
from pydeid.text.pools import Pools
from pydeid.text.transform import TextTransformer, TransformConfig

REPO = Path(__file__).resolve().parents[2]


def _bench():
    spec = importlib.util.spec_from_file_location("text_leaks", REPO / "bench" / "text_leaks.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def probes(tmp_path_factory):
    b = _bench()
    data = tmp_path_factory.mktemp("probes") / "data"
    return b, data, b.build(data)


def _assert_clean(b, utts, out_dir):
    res = b.count(utts, b.read_text(out_dir / "text"))
    assert all(r["words"] + r["tokens"] for r in res.values()), res     # every kind has something to hide
    assert {k: (r["found"], r["in_place"]) for k, r in res.items()} == {k: (0, 0) for k in res}, res


def test_step_defaults_leave_no_original_word_anywhere(probes, tmp_path):
    b, data, utts = probes
    out = tmp_path / "out"
    r = subprocess.run(["steps/transform_text.sh", "--exp-dir", str(tmp_path / "exp"), "--secret-dir",
                        str(tmp_path / "sec"), str(data), str(data / "gold.conll"), str(out)],
                       cwd=REPO, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    _assert_clean(b, utts, out)
    rep = json.loads((tmp_path / "exp" / "report.json").read_text())
    assert rep["strategies"] == {"default": "surrogate"} and rep["leak"]["leaked"] == 0 and rep["leak"]["words"] > 20
    assert "WARNING" not in r.stdout
    # the map (a secret, outside the corpus) keeps a name consistent: the same original, the same surrogate
    (sec,) = (tmp_path / "sec").glob("pseudonyms.*.json")   # beside it: publisher.key, the step's key
    from pydeid.io.publisher_key import load_or_create   # the step's default: the surrogates' seed of that key
    assert json.loads(sec.read_text())["seed"] == load_or_create(tmp_path / "sec").seed_for("surrogates")


def test_cli_defaults_without_secret_dir(probes, tmp_path, capsys):
    b, data, utts = probes
    assert main(["transform-text", "--report", str(tmp_path / "r.json"), str(data), str(data / "gold.conll"),
                 str(tmp_path / "out")]) == 0
    printed = capsys.readouterr().out
    assert "distinct original entity words (0.0000) appear anywhere in the output text" in printed
    _assert_clean(b, utts, tmp_path / "out")


def test_corpus_same_type_warns_and_its_leaks_are_counted(probes, tmp_path, capsys, caplog):
    """The seed's corpus-frequency replacement moves real names between callers: one warning line, and the word
    leak of the report sees it (the in-place rate does not)."""
    b, data, utts = probes
    with caplog.at_level(logging.WARNING):
        assert main(["transform-text", "--strategy", "default=corpus_same_type", "--report", str(tmp_path / "r.json"),
                     str(data), str(data / "gold.conll"), str(tmp_path / "out")]) == 0
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "moves real values between utterances" in warnings[0]
    rep = json.loads((tmp_path / "r.json").read_text())
    assert rep["leak"]["leaked"] > 0 and rep["leak"]["in_place"]["leaked"] == 0
    assert b.count(utts, b.read_text(tmp_path / "out" / "text"))["rare_names"]["found"] > 0


def test_rerun_with_another_seed_is_refused_unless_overwrite(probes, tmp_path, capsys):
    b, data, _ = probes
    args = ["--exp-dir", str(tmp_path / "exp"), "--secret-dir", str(tmp_path / "sec"), str(data),
            str(data / "gold.conll"), str(tmp_path / "out")]

    def step(*opts):
        return subprocess.run(["steps/transform_text.sh", *opts, *args], cwd=REPO, capture_output=True, text=True)

    def cli(*opts):
        return main(["transform-text", *opts, "--secret-dir", str(tmp_path / "sec"), *args[-3:]])
    assert cli() == 0
    text = (tmp_path / "out" / "text").read_text()
    assert cli() == 0                                        # same seed: a rerun gives the same output
    assert (tmp_path / "out" / "text").read_text() == text
    assert cli("--seed", "3") == 2                          # a usage error, as argparse
    assert "--seed 0" in capsys.readouterr().err
    r = step("--seed", "3")                                  # the step checks before its job: one line
    assert r.returncode != 0 and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "--seed 0" in r.stderr and "--seed 3" in r.stderr and "pseudonyms.out." in r.stderr
    assert "--overwrite-map true" in r.stderr and "Traceback" not in r.stderr
    assert (tmp_path / "out" / "text").read_text() == text   # nothing replaced
    assert step("--seed", "3", "--overwrite-map", "true").returncode == 0
    (sec,) = (tmp_path / "sec").glob("pseudonyms.*.json")   # beside it: publisher.key, the step's key
    assert json.loads(sec.read_text())["seed"] == 3


def _sent(text, spans, sid):
    toks = text.split()
    tags = ["O"] * len(toks)
    for a, b, t in spans:
        tags[a:b] = [f"B-{t}"] + [f"I-{t}"] * (b - a - 1)
    return Sentence(toks, tags, sid)


def test_default_is_seeded_consistent_per_dialogue_and_never_a_corpus_word():
    sents = [_sent("this is Anna Kowalski", [(2, 4, "PER")], "a-1"), _sent("Kowalski again", [(0, 1, "PER")], "a-2"),
             _sent("Kowalski here", [(0, 1, "PER")], "b-1"), _sent("Smith met Jones", [(0, 1, "PER"), (2, 3, "PER")],
                                                                   "c-1")]
    dlg = ["a", "a", "b", "c"]
    run = [TextTransformer(TransformConfig(seed=s), Pools()).transform(sents, dlg) for s in (0, 0, 1)]
    assert [x.tokens for x in run[0].sentences] == [x.tokens for x in run[1].sentences]
    assert [x.tokens for x in run[0].sentences] != [x.tokens for x in run[2].sentences]
    out = [x.tokens for x in run[0].sentences]
    assert out[0][3] == out[1][0]                 # one surname for Kowalski within dialogue a
    corpus = {"anna", "kowalski", "smith", "jones"}
    assert not {w.lower() for toks in out for w in toks} & corpus, out


def test_spelled_letters_and_spoken_addresses_keep_their_shape():
    sents = [_sent("that is K two W A L S K I", [(2, 10, "PER")], "a-1"),
             _sent("mail john dot smith at gmail dot com", [(1, 8, "EMAIL")], "b-1")]
    out = [x.tokens for x in TextTransformer(TransformConfig(), Pools()).transform(sents, ["a", "b"]).sentences]
    spelled = out[0][2:]
    assert len(spelled) == 8 and all(len(t) == 1 and t.isupper() for i, t in enumerate(spelled) if i != 1)
    assert spelled[1] in ("zero", "one", "three", "four", "five", "six", "seven", "eight", "nine")
    assert all(a != b for a, b in zip(spelled, "K two W A L S K I".split()))
    mail = out[1][1:]
    assert [mail[i] for i in (1, 3, 5, 6)] == ["dot", "at", "dot", "com"]
    assert not {mail[0], mail[2], mail[4]} & {"john", "smith", "gmail"}


def test_a_spelled_span_takes_the_letters_and_digits_beside_it():
    """A detector sees "W A L S K I" (a run of three letters or more); "K two" before it must go too."""
    from pydeid.text.transform import extend_spelled
    toks = "that is K two W A L S K I".split()
    assert extend_spelled(toks, [(4, 10, "NUM")]) == [(2, 10, "NUM")]
    toks = "it is a W A L S K I".split()                  # the article stays
    assert extend_spelled(toks, [(3, 9, "NUM")]) == [(3, 9, "NUM")]
    toks = "call Anna Kowalski two".split()                # not a spelled span: untouched
    assert extend_spelled(toks, [(1, 3, "PER")]) == [(1, 3, "PER")]


def test_a_number_read_over_several_turns_is_one_number():
    from pydeid.text.dialogue import continue_numbers
    toks = [t.split() for t in ("my card number is", "four four five", "okay", "uh one two", "thanks , bye",
                                "seven eight")]
    spans = continue_numbers(toks, [[], [], [], [], [], []], ["d"] * 6)
    assert spans == [[], [(0, 3, "NUM")], [], [(1, 3, "NUM")], [], []]
    # a tagged number ending a turn opens it too; another dialogue's turn does not continue it
    toks = [t.split() for t in ("call five five five", "one two", "three four")]
    spans = continue_numbers(toks, [[(1, 4, "PHONE")], [], []], ["d", "d", "e"])
    assert spans == [[(1, 4, "PHONE")], [(0, 2, "PHONE")], []]


@pytest.mark.parametrize("text,names", [
    ("ask will to call rose", ["will", "rose"]),
    ("ask Will to call Rose", ["Will", "Rose"]),
    ("Mark said Bill will pay the bill", ["Mark", "Bill"]),
    ("this is rose speaking", ["rose"]),
    ("text john smith that i am late", ["john smith"]),
    ("hello , Mrs Ashworth", ["Ashworth"]),
    ("I will call you back", []),
    ("call me later", []),
    ("tell alexa to play music", []),
    ("he said will you come", []),
    ("this is great", []),
    ("pay the bill", []),
    ("please call mom", []),
])
def test_person_cues(text, names):
    from pydeid.text.cue_names import person_cues
    toks = text.split()
    assert [" ".join(toks[s.start:s.end]) for s in person_cues(toks)] == names


def test_a_common_word_name_propagates_only_capitalised():
    from pydeid.text.propagate import propagate_names
    toks = [t.split() for t in ("Mark said Bill will pay", "Yes , Bill agreed .", "Will you come ?",
                                "bill paid the bill")]
    out = propagate_names(toks, [[(0, 1, "PER"), (2, 3, "PER")], [], [], []], ["d"] * 4)
    assert out == [[(0, 1, "PER"), (2, 3, "PER")], [(2, 3, "PER")], [], []]


@pytest.mark.slow
def test_default_tagger_then_step_defaults(probes, tmp_path):
    """The whole default path: `pydeid tag-entities` (default detectors) then the step's defaults; every probe
    word the tagger finds is gone, and the probes it is meant to find (rare names, categories, spelled names,
    common-word names, the split number) are found."""
    b, data, utts = probes
    tags, out = b.run_pipeline(REPO, data, tmp_path, gold_tags=False)
    res = b.count(utts, b.read_text(out / "text"))
    bad = {k: r for k, r in res.items() if r["found"] or r["in_place"]}
    assert not bad, bad


def test_an_employer_after_works_for():
    from pydeid.text.cue_names import CueNameDetector
    d = CueNameDetector()
    toks = "Marisol Quennevault works for Brightwater Nadlow".split()
    assert [(toks[s.start], s.type) for s in d.detect(toks)] == [("Brightwater", "ORG")]
    assert d.detect("this is for Monday".split()) == []
