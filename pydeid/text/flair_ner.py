"""The BiLSTM-CRF entity tagger (seed 004 §4.2.1) with flair, trained and used fully offline.

flair's defaults download: `CharacterEmbeddings()` fetches a "common-chars" dictionary and named word embeddings
("glove") fetch vectors. We build both from the data at hand: word vectors are trained with gensim (Word2Vec or
FastText) on the training text, or read from a local KeyedVectors / word2vec file given by path; the character
dictionary is built from the characters of the training text. Both are stored inside the saved tagger, so
`SequenceTagger.load` needs no network either.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Sequence

from pydeid.io.conll import CONTRACT_TYPES
from pydeid.io.conll import Sentence as ConllSentence

from .detector_registry import Detector, DetectorUnavailable
from .spans import Span

log = logging.getLogger(__name__)


@dataclass
class NerConfig:
    # word vectors: trained with gensim on the training text unless `vectors_path` names a local file
    vectors_path: str | None = None
    vectors_method: str = "word2vec"      # word2vec | fasttext
    vectors_dim: int = 300                # seed 004 used 300-d GloVe; we train vectors of the same size
    vectors_window: int = 5
    vectors_epochs: int = 20
    vectors_min_count: int = 1
    char_embedding_dim: int = 25
    hidden_size_char: int = 25
    # tagger and training (seed 004 §4.2.1: 256 hidden, lr 0.1 halved on plateau, batch 32, <= 50 epochs)
    hidden_size: int = 256
    rnn_layers: int = 1
    use_crf: bool = True
    dropout: float = 0.0                  # flair's defaults; smaller corpora train faster with less dropout
    word_dropout: float = 0.05
    locked_dropout: float = 0.5
    optimizer: str = "sgd"                # sgd (seed 004, flair's default) | adam (converges faster on tiny data)
    learning_rate: float = 0.1
    anneal_factor: float = 0.5
    patience: int = 3
    min_learning_rate: float = 0.0001
    mini_batch_size: int = 32
    max_epochs: int = 50
    lowercase: bool = False               # train/tag on lower-cased tokens (ASR-like input)
    use_dev: bool = True                  # anneal on the dev score and keep the best dev model (seed 004); False:
                                          # anneal on the training loss, keep the final model (tiny corpora)
    seed: int = 0
    threads: int = 0                      # torch threads (0: leave as is)
    extra: dict = field(default_factory=dict)

    @classmethod
    def from_yaml(cls, path: str | os.PathLike | None, **overrides) -> "NerConfig":
        d: dict = {}
        if path:
            from pydeid.io.config import dataclass_keys, load_yaml
            d = load_yaml(path, allowed=[k for k in dataclass_keys(cls) if k != "extra"])
        d.update({k: v for k, v in overrides.items() if v is not None})
        known = {k: d.pop(k) for k in list(d) if k in cls.__dataclass_fields__}
        if d:
            log.warning("ignoring unknown tagger options %s in %s", sorted(d), path)
        return cls(**known, extra=d)


def setup_offline_flair(cache_root: str | os.PathLike | None = None) -> None:
    """Point flair's cache at a local folder and make sure no hub is contacted."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    root = cache_root or os.environ.get("FLAIR_CACHE_ROOT")
    import flair
    if root:
        flair.cache_root = Path(root)


def _prep(tok: str, lowercase: bool) -> str:
    return tok.lower() if lowercase else tok


def to_flair(sentences: Sequence[ConllSentence], lowercase: bool = False, with_labels: bool = True):
    from flair.data import Sentence
    out = []
    for s in sentences:
        if not s.tokens:
            continue
        fs = Sentence([_prep(t, lowercase) for t in s.tokens])
        if with_labels:
            for a, b, typ in s.spans():
                fs[a:b].add_label("ner", typ)
        out.append(fs)
    return out


def train_word_vectors(token_lists: list[list[str]], cfg: NerConfig, out_path: Path) -> Path:
    """gensim vectors trained on the corpus text, saved as KeyedVectors (flair's WordEmbeddings reads the path)."""
    from gensim.models import FastText, Word2Vec
    cls = {"word2vec": Word2Vec, "fasttext": FastText}[cfg.vectors_method]
    model = cls(sentences=token_lists, vector_size=cfg.vectors_dim, window=cfg.vectors_window,
                min_count=cfg.vectors_min_count, epochs=cfg.vectors_epochs, sg=1, seed=cfg.seed, workers=1)
    kv = model.wv
    if cfg.vectors_method == "fasttext":
        # flair's WordEmbeddings looks words up in a plain KeyedVectors table
        from gensim.models import KeyedVectors
        plain = KeyedVectors(vector_size=kv.vector_size)
        plain.add_vectors(list(kv.index_to_key), kv.vectors)
        kv = plain
    kv.save(str(out_path))
    return out_path


def build_char_dictionary(token_lists: list[list[str]]):
    from flair.data import Dictionary
    d = Dictionary(add_unk=True)
    for toks in token_lists:
        for t in toks:
            for ch in t:
                d.add_item(ch)
    return d


def train_tagger(train: Sequence[ConllSentence], dev: Sequence[ConllSentence], out_dir: str | os.PathLike,
                 cfg: NerConfig, test: Sequence[ConllSentence] | None = None) -> Path:
    """Train the tagger; returns the path of the saved model (out_dir/tagger.pt)."""
    setup_offline_flair()
    import flair
    import torch
    from flair.data import Corpus
    from flair.datasets import SentenceDataset
    from flair.embeddings import CharacterEmbeddings, StackedEmbeddings, WordEmbeddings
    from flair.models import SequenceTagger
    from flair.trainers import ModelTrainer

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    if cfg.threads:
        torch.set_num_threads(cfg.threads)
    flair.set_seed(cfg.seed)
    flair.device = torch.device("cpu") if not torch.cuda.is_available() else flair.device

    train_f = to_flair(train, cfg.lowercase)
    dev_f = to_flair(dev, cfg.lowercase) if dev else []
    test_f = to_flair(test, cfg.lowercase) if test else []
    if not train_f:
        raise ValueError("no training sentence")
    token_lists = [[t.text for t in s] for s in train_f + dev_f]

    work = out_dir / "work"
    work.mkdir(exist_ok=True)
    if cfg.vectors_path:
        vec_path = Path(cfg.vectors_path)
        if not vec_path.exists():
            raise FileNotFoundError(f"word vectors {vec_path} not found (a local gensim KeyedVectors or word2vec "
                                    f".txt/.bin file; named embeddings such as 'glove' would download)")
    else:
        vec_path = train_word_vectors(token_lists, cfg, work / "vectors.kv")
    char_dict = build_char_dictionary(token_lists)
    embeddings = StackedEmbeddings([
        WordEmbeddings(str(vec_path), name="corpus-vectors"),
        CharacterEmbeddings(path_to_char_dict=char_dict, char_embedding_dim=cfg.char_embedding_dim,
                            hidden_size_char=cfg.hidden_size_char),
    ])
    use_dev = cfg.use_dev and bool(dev_f)
    corpus = Corpus(train=SentenceDataset(train_f), dev=SentenceDataset(dev_f) if use_dev else None,
                    test=SentenceDataset(test_f) if test_f else None, sample_missing_splits=False)
    tag_dict = Corpus(train=SentenceDataset(train_f + dev_f), sample_missing_splits=False
                      ).make_label_dictionary("ner", add_unk=False)
    tagger = SequenceTagger(hidden_size=cfg.hidden_size, embeddings=embeddings, tag_dictionary=tag_dict,
                            tag_type="ner", use_crf=cfg.use_crf, rnn_layers=cfg.rnn_layers, dropout=cfg.dropout,
                            word_dropout=cfg.word_dropout, locked_dropout=cfg.locked_dropout)
    trainer = ModelTrainer(tagger, corpus)
    optim = {"sgd": torch.optim.SGD, "adam": torch.optim.Adam}[cfg.optimizer]
    trainer.train(str(work), optimizer=optim, learning_rate=cfg.learning_rate, mini_batch_size=cfg.mini_batch_size,
                  max_epochs=cfg.max_epochs, anneal_factor=cfg.anneal_factor, patience=cfg.patience,
                  min_learning_rate=cfg.min_learning_rate, embeddings_storage_mode="none",
                  shuffle=True, save_final_model=True, create_file_logs=True, create_loss_file=True)
    best = work / "best-model.pt"
    # flair saves best-model.pt at the first epoch even when the dev score stays 0: keep it only if it learned
    chosen = best if best.exists() and _best_dev_score(work / "training.log") > 0 else work / "final-model.pt"
    final = out_dir / "tagger.pt"
    tmp = out_dir / ".tagger.pt.tmp"
    shutil.copyfile(chosen, tmp)
    os.replace(tmp, final)
    (out_dir / "ner_config.json").write_text(json.dumps(asdict(cfg), indent=1, sort_keys=True) + "\n")
    for name in ("training.log", "loss.tsv"):
        if (work / name).exists():
            shutil.copyfile(work / name, out_dir / name)
    for p in work.glob("*.pt"):
        p.unlink()
    return final


def _best_dev_score(log_file: Path) -> float:
    import re
    best = 0.0
    if log_file.exists():
        for m in re.finditer(r"DEV : loss \S+ - f1-score \(micro avg\)\s+([0-9.]+)", log_file.read_text()):
            best = max(best, float(m.group(1)))
    return best


class FlairDetector(Detector):
    """Tags sentences with a trained SequenceTagger (a model dir from train_tagger, or a .pt file)."""

    name = "flair"
    types = CONTRACT_TYPES       # trained on the tag contract (train-ner)

    @classmethod
    def from_config(cls, cfg) -> "FlairDetector":
        if not cfg.flair_model:
            raise DetectorUnavailable("detector flair needs a model dir (--model, from train-ner)")
        return cls(cfg.flair_model)

    def __init__(self, model: str | os.PathLike, batch_size: int = 64):
        setup_offline_flair()
        from flair.models import SequenceTagger
        model = Path(model)
        cfg_file = (model if model.is_dir() else model.parent) / "ner_config.json"
        self.lowercase = bool(json.loads(cfg_file.read_text()).get("lowercase")) if cfg_file.exists() else False
        path = model / "tagger.pt" if model.is_dir() else model
        if not path.exists():
            raise FileNotFoundError(f"no tagger at {path} (train one with steps/train_ner.sh)")
        self.tagger = SequenceTagger.load(str(path))
        self.batch_size = batch_size

    def detect_many(self, token_lists: Sequence[Sequence[str]]) -> list[list[Span]]:
        from flair.data import Sentence
        idx = [i for i, t in enumerate(token_lists) if t]
        fs = [Sentence([_prep(t, self.lowercase) for t in token_lists[i]]) for i in idx]
        if fs:
            self.tagger.predict(fs, mini_batch_size=self.batch_size, label_name="predicted")
        out: list[list[Span]] = [[] for _ in token_lists]
        for i, s in zip(idx, fs):
            for sp in s.get_spans("predicted"):
                a = sp.tokens[0].idx - 1
                b = sp.tokens[-1].idx
                out[i].append(Span(a, b, sp.get_label("predicted").value, {"flair"}))
        return out

    def detect(self, tokens: Sequence[str]) -> list[Span]:
        return self.detect_many([tokens])[0]
