"""Token lists of steps/train_asr.sh: characters, and sentencepiece units (--token-type bpe)."""

import pytest

from pydeid.asr.train import build_token_list

TEXT = "".join(f"u{i:03d} good morning doctor salieri it is about the fair on june the {w}\n"
               for i, w in enumerate(["first", "second", "third", "fourth", "fifth"] * 20))


@pytest.fixture
def text(tmp_path):
    p = tmp_path / "text"
    p.write_text(TEXT)
    return p


def test_sentencepiece_units_are_trained_and_reproducible(text, tmp_path):
    vocabs = []
    for k in range(2):
        tokens, model = build_token_list(text, tmp_path / f"tok{k}", "bpe", 30)
        assert model == tmp_path / f"tok{k}" / "bpe.model" and model.stat().st_size > 0
        toks = tokens.read_text().split()
        assert toks[:2] == ["<blank>", "<unk>"] and toks[-1] == "<sos/eos>" and "▁" in toks
        assert not list((tmp_path / f"tok{k}").glob("bpe.tmp*"))
        vocabs.append(((tmp_path / f"tok{k}" / "bpe.vocab").read_text(), toks))
    assert vocabs[0] == vocabs[1]  # one trainer thread: the same units every run


def test_characters(text, tmp_path):
    tokens, model = build_token_list(text, tmp_path / "tok", "char", 0)
    toks = tokens.read_text().split()
    assert model is None and "<space>" in toks and set("goodmrnig") <= set(toks)
    with pytest.raises(ValueError, match="char or bpe"):
        build_token_list(text, tmp_path / "x", "word", 0)
