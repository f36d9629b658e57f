"""tag-entities --uncased-input: an all-upper-case transcript (LibriSpeech, speechocean762) is tagged lower-cased and
written with its own tokens. On upper case spaCy calls most phrases an ORG (73 ORG spans in 600 speechocean762 test
sentences, every one a false alarm; 0 lower-cased)."""

from pydeid.cli import main
from pydeid.io import read_conll


def test_uncased_input_keeps_tokens_and_drops_the_upper_case_org_spam(tmp_path):
    d = tmp_path / "data"
    d.mkdir()
    (d / "text").write_text("u1 SATURDAY IS GOING TO BE A LOT OF FUN\nu2 THE STREETS WERE RELATIVELY CALM\n"
                            "u3 GOOD MORNING TO YOU TOO\n")
    for opt, out in (([], "cased.conll"), (["--uncased-input"], "uncased.conll")):
        assert main(["tag-entities", *opt, str(d), str(tmp_path / out)]) == 0
    cased = {s.id: s for s in read_conll(tmp_path / "cased.conll")}
    uncased = {s.id: s for s in read_conll(tmp_path / "uncased.conll")}
    assert any(t == "ORG" for s in cased.values() for _, _, t in s.spans())     # the failure it fixes
    for u, s in uncased.items():
        assert s.tokens == cased[u].tokens and all(t.isupper() for t in s.tokens)   # the text's own tokens
        assert all(t != "ORG" for _, _, t in s.spans()), s
    u1 = uncased["u1"]
    assert [(u1.tokens[a], t) for a, b, t in u1.spans()] == [("SATURDAY", "DATE")]
