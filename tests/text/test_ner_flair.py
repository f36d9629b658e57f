"""The flair BiLSTM-CRF tagger trains and tags fully offline on the mini corpus and on real SNIPS text.

Sockets are blocked while training and tagging: a hidden download (flair's default character dictionary, named
embeddings such as "glove") would fail the test. The figures are printed (pytest -s) for the report; the
assertions check that the tagger really learned (its fit on the training data) and that tagging works end to end.
"""

import socket

import pytest

from pydeid.io import read_conll
from pydeid.text.flair_ner import FlairDetector, NerConfig, train_tagger
from pydeid.text.metrics import all_or_nothing_recall, macro_f1, span_prf

# small and fast, but able to fit a tiny corpus within seconds on one core
TINY = dict(vectors_dim=32, vectors_epochs=20, hidden_size=64, char_embedding_dim=16, hidden_size_char=16,
            mini_batch_size=4, optimizer="adam", learning_rate=0.01, locked_dropout=0.0, word_dropout=0.0,
            use_dev=False, threads=1, seed=0)


@pytest.fixture
def no_network(monkeypatch):
    """Refuse every IP connection (local Unix sockets, e.g. multiprocessing's forkserver, stay allowed)."""
    real_connect = socket.socket.connect

    def connect(self, address):
        if self.family in (socket.AF_INET, socket.AF_INET6):
            raise OSError("network access attempted during an offline test")
        return real_connect(self, address)

    def refuse(*a, **k):
        raise OSError("network access attempted during an offline test")
    monkeypatch.setattr(socket.socket, "connect", connect)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")


def _evaluate(model, sents, dialogues=None):
    det = FlairDetector(model)
    pred = det.detect_many([s.tokens for s in sents])
    gold = [s.spans() for s in sents]
    ps = [[(x.start, x.end, x.type) for x in p] for p in pred]
    res = span_prf(gold, ps)
    aon = all_or_nothing_recall([s.tokens for s in sents], gold, ps, dialogues or [s.id for s in sents])
    return res, aon, pred


def _report(name, res, aon):
    print(f"\n{name}: exact P/R/F1 {res['ALL'].exact}, partial {res['ALL'].partial}, macro F1 "
          f"{macro_f1(res):.3f}, any-type partial F1 {res['ANY-TYPE'].partial[2]:.3f}, all-or-nothing recall "
          f"{aon['aon_recall']:.3f}")
    for t, v in sorted(res.items()):
        print(f"  {t:8s} gold {v.n_gold:4d} pred {v.n_pred:4d} exact F1 {v.exact[2]:.3f} partial F1 {v.partial[2]:.3f}")


def test_flair_trains_and_tags_offline_on_mini(mini_corpus, tmp_path, no_network):
    train = read_conll(mini_corpus / "mini_train" / "tags.conll")
    dev = read_conll(mini_corpus / "mini_dev" / "tags.conll")
    test = read_conll(mini_corpus / "mini_test" / "tags.conll")
    model = train_tagger(train, dev, tmp_path / "ner", NerConfig(max_epochs=15, **TINY))
    assert model.exists() and (tmp_path / "ner" / "ner_config.json").exists()
    assert not list((tmp_path / "ner").glob("work/*.pt"))
    fit, _, _ = _evaluate(tmp_path / "ner", train)
    res, aon, pred = _evaluate(tmp_path / "ner", test, [s.id.split("-")[1] for s in test])
    _report("mini train (fit)", fit, {"aon_recall": float("nan")})
    _report("mini test", res, aon)
    assert fit["ALL"].exact[2] > 0.5            # it learned the training data
    assert fit["ANY-TYPE"].partial[2] > 0.8
    assert all(0 <= x.start < x.end <= len(s.tokens) for s, p in zip(test, pred) for x in p)
    assert {x.type for p in pred for x in p} <= {"PER", "ORG", "LOC", "DATE", "TIME", "NUM"}


def test_flair_on_real_snips_text(snips_dir, tmp_path, no_network):
    train = read_conll(snips_dir / "snips_train.conll")[::7]        # every intent, 300 sentences
    valid = read_conll(snips_dir / "snips_valid.conll")[::3]
    cfg = NerConfig(max_epochs=5, **dict(TINY, mini_batch_size=8))
    train_tagger(train, valid, tmp_path / "ner", cfg)
    fit, _, _ = _evaluate(tmp_path / "ner", train)
    res, aon, _ = _evaluate(tmp_path / "ner", valid)
    _report(f"snips train ({len(train)} sentences, fit)", fit, {"aon_recall": float("nan")})
    _report(f"snips valid ({len(valid)} sentences)", res, aon)
    assert fit["ALL"].exact[2] > 0.3
    assert res["ANY-TYPE"].partial[2] > 0.2


def test_cli_train_and_tag_lowercase(mini_corpus, tmp_path, no_network, capsys):
    """train-ner --lowercase then tag-entities on lower-cased (ASR-like) text, flair + grammar union."""
    import yaml

    from pydeid.cli import main
    cfg = tmp_path / "ner.yaml"
    cfg.write_text(yaml.safe_dump(dict(TINY, max_epochs=3)))
    d = mini_corpus
    assert main(["train-ner", "--config", str(cfg), "--lowercase", str(d / "mini_train"), str(d / "mini_dev"),
                 str(tmp_path / "m")]) == 0
    out = tmp_path / "pred.conll"
    assert main(["tag-entities", "--detectors", "flair,grammar", "--model", str(tmp_path / "m"),
                 "--lowercase-input", "--gold", str(d / "mini_test" / "tags.conll"), str(d / "mini_test"),
                 str(out)]) == 0
    printed = capsys.readouterr().out
    assert "ANY-TYPE" in printed
    sents = read_conll(out)
    assert all(t == t.lower() for s in sents for t in s.tokens)
    assert any(s.spans() for s in sents)


@pytest.mark.slow
def test_flair_cpu_config_on_default_mini(tmp_path_factory, repo_root, no_network):
    """conf/text/ner_cpu.yaml on the default-size mini corpus (measured: test exact F1 0.65-0.87 depending on the
    corpus version, any-type partial F1 0.95-0.99; ~5 min on a busy 2-core machine); the union with the grammars
    must keep every spoken number."""
    from pydeid.corpora.mini import build_corpus
    from pydeid.text.detectors import Detection, DetectionConfig
    mini = build_corpus(tmp_path_factory.mktemp("mini_default"), seed=0, size="default")
    train = read_conll(mini / "mini_train" / "tags.conll")
    dev = read_conll(mini / "mini_dev" / "tags.conll")
    test = read_conll(mini / "mini_test" / "tags.conll")
    model = tmp_path_factory.mktemp("ner") / "m"
    train_tagger(train, dev, model, NerConfig.from_yaml(repo_root / "conf" / "text" / "ner_cpu.yaml"))
    res, aon, _ = _evaluate(model, test, [s.id.split("-")[1] for s in test])
    _report("mini default test (ner_cpu.yaml)", res, aon)
    assert res["ALL"].exact[2] > 0.5 and res["ANY-TYPE"].partial[2] > 0.9
    det = Detection(DetectionConfig(detectors=["flair", "grammar"], flair_model=str(model)))
    spans = det.detect_many([s.tokens for s in test])
    gold_num = [(k, a, b) for k, s in enumerate(test) for a, b, t in s.spans() if t == "NUM"]
    covered = [{i for x in sp for i in range(x.start, x.end)} for sp in spans]
    assert gold_num and all(set(range(a, b)) <= covered[k] for k, a, b in gold_num)   # every digit word tagged


def test_offline_guard_catches_flair_default_download(no_network, tmp_path, monkeypatch):
    """The trap we avoid is real: flair's default character dictionary downloads, and the guard stops it."""
    import flair
    from flair.embeddings import CharacterEmbeddings
    import time
    monkeypatch.setattr(flair, "cache_root", tmp_path)
    monkeypatch.setattr(time, "sleep", lambda s: None)      # skip the HTTP retry back-off
    with pytest.raises(Exception) as e:
        CharacterEmbeddings()
    assert "network" in str(e.value).lower() or "connection" in type(e.value).__name__.lower()
