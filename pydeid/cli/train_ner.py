"""`pydeid train-ner`: train the flair BiLSTM-CRF entity tagger offline (seed 004 §4.2.1)."""

COMMAND = "train-ner"
HELP = "train the BiLSTM-CRF entity tagger (flair, corpus-trained word vectors, local character dictionary)"


def add_arguments(p):
    p.add_argument("--config", default=None, help="YAML (conf/text/ner.yaml: seed 004 defaults; ner_cpu.yaml: demo)")
    p.add_argument("--conll-name", default="tags.conll",
                   help="CoNLL file read inside data dirs (written.conll: the written form with punctuation)")
    p.add_argument("--lowercase", action="store_true", default=None, help="train on lower-cased tokens")
    p.add_argument("--nopunct", action="store_true", help="drop punctuation tokens before training")
    p.add_argument("--vectors", default=None, help="local gensim KeyedVectors / word2vec file instead of training")
    p.add_argument("--max-epochs", type=int, default=None)
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--threads", type=int, default=None, help="torch threads")
    p.add_argument("train", help="training data dir or CoNLL file")
    p.add_argument("dev", help="development data dir or CoNLL file")
    p.add_argument("out_dir", help="model dir (tagger.pt, ner_config.json, training.log)")


def _read(path, name):
    from pathlib import Path

    from pydeid.io.conll import read_conll
    p = Path(path)
    return read_conll(p / name if p.is_dir() else p)


def run(args):
    import logging
    import time
    logging.getLogger("gensim").setLevel(logging.WARNING)

    from pydeid.text.flair_ner import NerConfig, train_tagger
    from pydeid.text.transform import strip_punct

    cfg = NerConfig.from_yaml(args.config, lowercase=args.lowercase, vectors_path=args.vectors,
                              max_epochs=args.max_epochs, seed=args.seed, threads=args.threads)
    train, dev = _read(args.train, args.conll_name), _read(args.dev, args.conll_name)
    if args.nopunct:
        train, dev = strip_punct(train), strip_punct(dev)
    t0 = time.time()
    path = train_tagger(train, dev, args.out_dir, cfg)
    print(f"trained {path} on {len(train)} sentences in {time.time() - t0:.1f} s "
          f"(lowercase={cfg.lowercase}, nopunct={args.nopunct}, epochs<={cfg.max_epochs})")
    return 0
