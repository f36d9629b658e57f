"""The strategy registry: a toy operator (one class + one registry line) runs through `pydeid transform-text` like
the built-in strategies; every name a user types goes through the registry, an unknown one is a one-line error."""

import json
import subprocess
import sys

import pytest

from pydeid.cli import main
from pydeid.io import read_conll
from pydeid.io.kaldi_map import read_kaldi_map
from pydeid.text import strategies
from pydeid.text.dp import INF, EpsilonReport
from pydeid.text.strategies import STRATEGIES, Strategy, make_strategy, parse_strategy_spec, register


class Numbered(Strategy):
    """Toy operator: the n-th entity of a type within a dialogue becomes '<TYPE><n>' (it reads the context)."""

    name = "toy_numbered"

    def replace(self, toks, typ, ctx):
        seen = ctx.pseudonym_map.setdefault(ctx.dialogue, {}).setdefault("toy", {})
        seen[typ] = seen.get(typ, 0) + 1
        return [f"{typ}{seen[typ]}"]

    def epsilon(self, typ, p, observed, ctx):
        return EpsilonReport(INF, "toy: the count reveals how many entities came before")


@pytest.fixture
def toy():
    saved = dict(STRATEGIES)
    assert register(Numbered) is Numbered                         # the one registry line
    yield Numbered
    STRATEGIES.clear()                                            # the registry as it was, for the other tests
    STRATEGIES.update(saved)


def test_builtin_registry_order_and_lookup():
    assert list(STRATEGIES)[:3] == ["keep", "redact", "typed_placeholder"] and len(STRATEGIES) == 14
    assert "toy_numbered" not in STRATEGIES
    assert strategies.get("surrogate") is strategies.Surrogate
    assert make_strategy("pseudonymize", p=0.5, pseudonym_source="corpus").source == "corpus"
    assert {n for n, c in STRATEGIES.items() if c.draws_from_corpus} == \
        {"same_type", "single_same_type", "full_entity", "corpus_same_type"}
    assert [n for n, c in STRATEGIES.items() if c.needs_secret] == ["pseudonymize"]
    with pytest.raises(ValueError, match=r"^unknown strategy 'sametype' for PER; choose from keep, redact, "):
        parse_strategy_spec("PER=sametype")
    with pytest.raises(ValueError, match=r"^unknown strategy 'nosuch'; choose from keep, "):
        make_strategy("nosuch")
    with pytest.raises(TypeError, match="not a Strategy subclass"):
        register(dict)


def test_toy_strategy_through_transform_text(toy, mini_corpus, tmp_path, capsys):
    src = mini_corpus / "mini_test"
    out, rep = tmp_path / "out", tmp_path / "r.json"
    rc = main(["transform-text", "--strategy", "PER=toy_numbered,default=redact", "--report", str(rep),
               str(src), str(src / "tags.conll"), str(out)])
    assert rc == 0
    printed = capsys.readouterr().out
    assert "PER   toy_numbered" in printed and "toy: the count reveals" in printed
    gold = read_conll(src / "tags.conll")
    new = {s.id: s for s in read_conll(out / "tags.conll")}
    text = read_kaldi_map(out / "text", require_value=False)
    n_per = 0
    for s in gold:
        per = [(a, b) for a, b, t in s.spans() if t == "PER"]
        n_per += len(per)
        toks = text[s.id].split()
        assert toks == new[s.id].tokens
        got = [toks[i] for i, g in enumerate(new[s.id].tags) if g.endswith("-PER")]
        assert len(got) == len(per) and all(w.startswith("PER") and w[3:].isdigit() for w in got)
        assert not {s.tokens[i] for a, b in per for i in range(a, b)} & set(toks)
    assert n_per > 0
    report = json.loads(rep.read_text())
    assert report["types"]["PER"]["strategy"] == "toy_numbered" and report["types"]["LOC"]["strategy"] == "redact"


def test_unknown_strategy_is_one_line(mini_corpus, tmp_path):
    src = mini_corpus / "mini_test"
    r = subprocess.run([sys.executable, "-m", "pydeid", "transform-text", "--strategy", "PER=toy_numbered",
                        str(src), str(src / "tags.conll"), str(tmp_path / "out")], capture_output=True, text=True)
    assert r.returncode == 2 and not (tmp_path / "out").exists()
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "unknown strategy 'toy_numbered' for PER; choose from keep" in lines[0], r.stderr
