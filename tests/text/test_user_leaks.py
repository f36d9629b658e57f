"""Leaks a user triggers through the whole text path (default detectors, then the default strategy): the spellings
people and ASR systems produce for a name: case variants, possessives, hyphenated names, a name repeated later in
the dialogue in a form the detector misses, typos. Each dialogue names the words that must not survive."""

import math

import pytest

from pydeid.io.conll import Sentence
from pydeid.text.pools import Pools
from pydeid.text.transform import TextTransformer, TransformConfig

DIALOGUES = {
    "case": (["Hello , this is Anna Kowalski .", "KOWALSKI , did you say ?", "yes , kowalski , like the singer ."],
             {"kowalski", "anna"}),
    "possessive": (["I spoke to Mister Smith yesterday .", "Smith's wife called about the Paris trip ."],
                   {"smith", "paris"}),
    "typo": (["Hello , this is Anna Kowalski from Siemens .", "Sorry , is that Anna Kowalsky ?"],
             {"anna", "kowalski", "kowalsky", "siemens"}),
    # found: a hyphenated surname after an honorific, or alone, was not detected at all
    "hyphen_honorific": (["This is Mrs Smith-Jones speaking ."], {"smith", "jones"}),
    "hyphen_spoken": (["this is misses smith-jones speaking"], {"smith", "jones"}),
    "hyphen_alone": (["Smith-Jones called about the invoice ."], {"smith", "jones"}),
    # found: a later lower-case possessive the detector misses on its own ("kowalski's flight")
    "repeat_possessive": (["Good morning , this is Anna Kowalski .", "okay", "kowalski's flight leaves at ten"],
                          {"kowalski", "anna"}),
    "repeat_hyphen": (["This is Mrs Kowalski .", "the name on the form is Kowalski-Smith"], {"kowalski"}),
    "repeat_lower": (["Good morning , this is Peter Novak from Bosch .", "the contract with novak is ready",
                      "send it to novak's office"], {"peter", "novak", "bosch"}),
    # found: a misspelled, possessive, lower-case mention of a name the dialogue tags elsewhere
    "repeat_typo": (["this is anna kowalski from siemens", "siemen's offer is fine", "kowalsky's too"],
                    {"siemen", "siemens", "kowalsky", "kowalski", "anna"}),
    # found: a name spelled letter by letter passed whole (capitals, after "spelled") or from its fourth letter on
    "spelled_lower": (["my name is anna kowalski", "that is k o w a l s k i"], {"anna", "kowalski"}),
    "spelled_caps": (["MY NAME IS ANNA KOWALSKI", "THAT IS K O W A L S K I"], {"anna", "kowalski"}),
    "spelled_cased": (["Spelled K O W A L S K I .", "or K-O-W-A-L-S-K-I"], {"kowalski"}),
}


def _words(tokens) -> set:
    """The words a reader sees: lower-cased, possessive stripped, hyphenated names split."""
    out = set()
    for t in tokens:
        w = t.lower().replace("’", "'").strip(".,;:!?\"()")
        if w.endswith("'s"):
            w = w[:-2]
        out.update(x for x in w.split("-") if x)
    return out


def _spelled(tokens) -> set:
    """Letters spelled out one by one (single-letter tokens, or letters joined by hyphens), as strings."""
    out, run = set(), ""
    for t in list(tokens) + [""]:
        if len(t) == 1 and t.isalpha():
            run += t.lower()
            continue
        if len(run) > 2:
            out.add(run)
        run = ""
        if "-" in t and all(len(p) == 1 and p.isalpha() for p in t.split("-")):
            out.add(t.replace("-", "").lower())
    return out


def _run(detection, lines, seed):
    toks = [line.split() for line in lines]
    spans = detection.detect_many(toks)
    sents = [Sentence(t, ["O"] * len(t), f"u-{k}") for k, t in enumerate(toks)]
    res = TextTransformer(TransformConfig(seed=seed), Pools(sents)).transform(
        sents, ["d"] * len(sents), spans=[[(s.start, s.end, s.type) for s in sp] for sp in spans])
    return [s.tokens for s in res.sentences]


@pytest.mark.parametrize("case", sorted(DIALOGUES))
def test_default_text_path_leaks_no_name(default_detection, case):
    lines, secret = DIALOGUES[case]
    for seed in (0, 1):
        out = _run(default_detection, lines, seed)
        left = secret & _words(w for t in out for w in t)
        spelled = {r for t in out for r in _spelled(t) if any(r in w for w in secret)}   # "a l s k i" too
        assert not left and not spelled, (case, seed, [" ".join(t) for t in out])


def test_propagation_stays_in_its_dialogue_and_leaves_words_that_are_not_names():
    from pydeid.text.propagate import propagate_names
    toks = [["This", "is", "Mark", "Novak", "from", "Will", "Industries"],
            ["I", "will", "mark", "it", "for", "Novak", "'s", "team"],     # cased: lower-case "will", "mark" stay
            ["ok", "novak's", "files", "and", "mark's", "notes"],          # lower case: names are found
            ["novak", "again"]]                                            # another dialogue: no name there
    spans = [[(2, 4, "PER"), (5, 7, "ORG")], [], [], []]
    got = propagate_names(toks, spans, ["a", "a", "a", "b"])
    assert got[0] == spans[0]
    assert got[1] == [(5, 6, "PER")]
    assert got[2] == [(1, 2, "PER"), (4, 5, "PER")]      # "will" is a common word: never a propagated name
    assert got[3] == []


def test_transform_without_propagation_keeps_the_given_tags():
    sents = [Sentence("This is Anna Kowalski".split(), ["O", "O", "B-PER", "I-PER"], "u-1"),
             Sentence("kowalski's flight".split(), ["O", "O"], "u-2")]
    on = TextTransformer(TransformConfig(seed=0), Pools(sents)).transform(sents, ["d", "d"])
    off = TextTransformer(TransformConfig(seed=0, propagate_names=False), Pools(sents)).transform(sents, ["d", "d"])
    assert on.sentences[1].tags[0] == "B-PER" and on.sentences[1].tokens[0] != "kowalski's"
    assert off.sentences[1].tokens == ["kowalski's", "flight"]


@pytest.mark.parametrize("name", ["surrogate", "same_type", "full_entity", "faker", "pseudonymize", "random_digits",
                                  "named_placeholder"])
def test_upper_case_text_gets_upper_case_surrogates(name):
    """Kaldi corpora often write text in capitals (LibriSpeech): a surrogate in mixed case ("HELLO THIS IS Mclean
    Martin") shows which words were replaced, as a capitalised one would in lower-case text."""
    pool = [Sentence("Mark Lively met Bob at Royal in Pittsburgh on Tuesday at ten".split(),
                     ["B-PER", "I-PER", "O", "B-PER", "O", "B-ORG", "O", "B-LOC", "O", "B-DATE", "O", "B-TIME"], "p")]
    s = Sentence("HELLO THIS IS ANNA KOWALSKI FROM SIEMENS IN OXFORD ON MONDAY AT NINE".split(),
                 ["O", "O", "O", "B-PER", "I-PER", "O", "B-ORG", "O", "B-LOC", "O", "B-DATE", "O", "B-TIME"], "u")
    cfg = TransformConfig(strategies={"default": name}, p=1.0, seed=0, avoid_original=True)
    out = TextTransformer(cfg, Pools(pool + [s])).transform([s], ["d"], ).sentences[0]
    changed = [t for t, o in zip(out.tokens, s.tokens) if t != o]
    assert changed and all(t == t.upper() for t in out.tokens), out.tokens


def test_one_typo():
    from pydeid.text.propagate import one_typo
    assert one_typo("kowalsky", "kowalski") and one_typo("kowalksi", "kowalski") and one_typo("siemen", "siemens")
    assert one_typo("siemenss", "siemens") and one_typo("xowalski", "kowalski")
    assert not one_typo("kowalski", "kowalski") and not one_typo("kowlaksi", "kowalski")
    assert not one_typo("siemen", "siemenss") and not one_typo("abcde", "badce")


@pytest.mark.parametrize("name", ["surrogate", "same_type", "full_entity", "pseudonymize"])
def test_spelled_letters_become_other_letters_and_a_hundred_stays_a_number(name):
    s = Sentence("that is k o w a l s k i or a hundred".split(),
                 ["O", "O"] + ["B-NUM"] + ["I-NUM"] * 7 + ["O", "B-NUM", "I-NUM"], "u")
    for seed in range(4):
        cfg = TransformConfig(strategies={"default": name}, p=1.0, seed=seed)
        out = TextTransformer(cfg, Pools([s])).transform([s], ["d"]).sentences[0].tokens
        assert all(len(x) == 1 and x.isalpha() and x != y for x, y in zip(out[2:10], s.tokens[2:10])), out
        assert out[11:] != ["a", "hundred"] and out[11] in {"zero", "one", "two", "three", "four", "five", "six",
                                                           "seven", "eight", "nine"}, out
    # the accounting follows: each letter is redrawn among the 25 others (randomized response over 26 values)
    k = Sentence("k l w".split(), ["B-NUM", "I-NUM", "I-NUM"], "u")   # ("o" is also the digit oh)
    r = TextTransformer(TransformConfig(strategies={"default": "same_type"}, p=0.5), Pools([k])).transform([k])
    assert r.epsilon["NUM"].epsilon == pytest.approx(math.log(25)) and "letters, 26 values" in r.epsilon["NUM"].note
