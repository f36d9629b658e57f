"""The ARPA n-gram LM of training transcripts (pydeid.asr.ngram_lm): a proper distribution, an ARPA file whose
back-off rule reproduces the interpolated model, and that pocketsphinx loads."""

from __future__ import annotations

import math

import pytest

from pydeid.asr.ngram_lm import EOS, NgramLM

SENTS = ["it was good for me", "it was a good day", "we speak out when we feel we should speak out",
         "good for you", "the day was good"]


def read_arpa(text: str) -> tuple[dict, dict]:
    prob, bow = {}, {}
    section = 0
    for line in text.splitlines():
        if line.startswith("\\") and line.endswith("-grams:"):
            section = int(line[1])
            continue
        if not section or not line.strip() or line.startswith("\\"):
            continue
        f = line.split("\t")
        g = tuple(f[1].split())
        assert len(g) == section
        prob[g] = float(f[0])
        if len(f) > 2:
            bow[g] = float(f[2])
    return prob, bow


def arpa_logp(prob, bow, g) -> float:
    """log10 p(g[-1] | g[:-1]) by the ARPA back-off rule."""
    if g in prob:
        return prob[g]
    return bow.get(g[:-1], 0.0) + arpa_logp(prob, bow, g[1:])


@pytest.mark.parametrize("order", [1, 2, 3])
def test_every_context_is_a_distribution(order):
    lm = NgramLM(SENTS, order=order)
    vocab = lm.vocab + [EOS]
    for h in [(), ("<s>",), ("good",), ("was", "good"), ("it", "was"), ("speak", "out"), ("me",), ("day", "out")]:
        h = h[-(order - 1):] if order > 1 else ()
        assert sum(lm._p(h + (w,)) for w in vocab) == pytest.approx(1.0, abs=1e-9), h


def test_arpa_back_off_reproduces_the_model():
    lm = NgramLM(SENTS, order=3)
    prob, bow = read_arpa(lm.to_arpa())
    assert sum(1 for g in prob if len(g) == 1) == len(lm.vocab) + 2  # + <s>, </s>
    for h in [("<s>",), ("it", "was"), ("was", "good"), ("feel", "we"), ("good", "day"), ("me", "out")]:
        for w in lm.vocab + [EOS]:
            assert arpa_logp(prob, bow, h + (w,)) == pytest.approx(math.log10(lm._p(h + (w,))), abs=2e-6)
    # seen continuations are more likely than unseen ones in the same context
    assert lm._p(("it", "was", "good")) > lm._p(("it", "was", "speak"))


def test_no_sentences_is_an_error():
    with pytest.raises(ValueError, match="no training sentences"):
        NgramLM(["", "  "], order=3)


def test_pocketsphinx_loads_the_arpa(tmp_path):
    pytest.importorskip("pocketsphinx")
    from pydeid.asr.pocketsphinx_decode import build_corpus_lm, PocketsphinxDecoder

    info = build_corpus_lm(SENTS + ["Zorblax met Quonk"], tmp_path / "lm", order=3)
    assert info["g2p_words"] >= 2  # zorblax, quonk are not in the CMU dictionary
    extra = (tmp_path / "lm" / "extra.dict").read_text()
    assert extra.startswith("quonk ") and "\nzorblax " in extra
    dec = PocketsphinxDecoder(lm=str(tmp_path / "lm"))
    assert dec.decoder.lookup_word("zorblax") is not None
    assert dec.settings["dict"].endswith("lm.dict")
