"""`pydeid text-utility`: train on transformed text, test on original text (seed 002's protocol) for intent
classification (every seed) and NER (flair, on a subset): the cells of egs/snips/s5's tables."""

COMMAND = "text-utility"
HELP = ("intent accuracy and NER F1 of models trained on each row's transformed training text and tested on the "
        "original test text (one JSON per dataset/row/seed under exp_dir; resumes)")


def _seeds(s):
    import argparse
    try:
        v = [int(x) for x in s.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a comma list of integers, got {s!r}") from None
    if not v:
        raise argparse.ArgumentTypeError("no seed given")
    return v


def add_arguments(p):
    from ._types import positive_int
    p.add_argument("--data", action="append", required=True, metavar="NAME=DIR",
                   help="a dataset: DIR holds train.conll and test.conll (pydeid intent-data); repeatable")
    p.add_argument("--rows", required=True,
                   help="space/comma list of rows: none, <strategy>[@p], santext[:corpus|spacy][@eps], "
                        "santext+[:corpus|spacy][@eps]")
    p.add_argument("--seeds", type=_seeds, default=[0, 1, 2], help="comma list: each draws the transformation and "
                                                                   "the classifier")
    p.add_argument("--ner-datasets", default="", help="comma list of dataset names with the NER task (flair)")
    p.add_argument("--ner-rows", default="", help="rows with the NER task (default: every row)")
    p.add_argument("--ner-seeds", type=_seeds, default=None, help="seeds with the NER task (default: --seeds)")
    p.add_argument("--ner-model", default="linear", choices=["linear", "flair"],
                   help="linear: pydeid.nlu_utility.tagger on the whole training set (seconds); flair: the project's "
                        "BiLSTM-CRF on --ner-train sentences (minutes per cell)")
    p.add_argument("--ner-config", default="conf/text/ner_cpu.yaml", help="flair tagger YAML")
    p.add_argument("--ner-train", type=positive_int, default=700, help="flair: training sentences of the subset")
    p.add_argument("--ner-dev", type=positive_int, default=150, help="flair: development sentences of the subset")
    p.add_argument("--ner-epochs", type=positive_int, default=6, help="flair: epochs")
    p.add_argument("--out", dest="out", default=None, help="exp_dir (instead of the positional argument)")
    p.add_argument("exp_dir", nargs="?", default=None)


def parse_data(items):
    from pathlib import Path

    from pydeid.io.errors import UsageError
    out = {}
    for it in items:
        name, sep, d = it.partition("=")
        if not sep or not name or not d:
            raise UsageError("--data", f"expected NAME=DIR, got {it!r}")
        for f in ("train.conll", "test.conll"):
            if not (Path(d) / f).exists():
                raise UsageError("--data", f"{Path(d) / f} does not exist (make it with pydeid intent-data)")
        out[name] = Path(d)
    return out


def run(args):
    import logging
    import time
    from pathlib import Path

    from pydeid.io.errors import UsageError
    from pydeid.nlu_utility.experiment import NerSpec, run_grid
    from pydeid.nlu_utility.intent import read_intents
    from pydeid.nlu_utility.rows import parse_rows

    logging.getLogger("gensim").setLevel(logging.WARNING)
    logging.getLogger("flair").setLevel(logging.WARNING)
    if (args.out is None) == (args.exp_dir is None):
        raise UsageError("exp_dir", "give the experiment folder once: positional or --out")
    args.exp_dir = args.exp_dir or args.out
    dirs = parse_data(args.data)
    try:
        rows = parse_rows(args.rows)
        ner_rows = [r.spec for r in parse_rows(args.ner_rows)] if args.ner_rows.strip() else None
    except ValueError as e:
        raise UsageError("--rows" if "ner" not in str(e) else "--ner-rows", str(e)) from None
    ner_ds = [x for x in args.ner_datasets.split(",") if x.strip()]
    for d in ner_ds:
        if d not in dirs:
            raise UsageError("--ner-datasets", f"unknown dataset {d!r}; --data gives {', '.join(dirs)}")
    if args.ner_model == "flair" and not Path(args.ner_config).exists() and ner_ds:
        raise UsageError("--ner-config", f"{args.ner_config} does not exist")
    datasets = {n: (read_intents(d / "train.conll"), read_intents(d / "test.conll")) for n, d in dirs.items()}
    ner = NerSpec(args.ner_config, args.ner_train, args.ner_dev, args.ner_epochs, args.ner_model) if ner_ds else None
    t0, c0 = time.time(), time.process_time()
    res = run_grid(datasets, rows, args.seeds, args.exp_dir, ner, ner_ds, ner_rows, args.ner_seeds)
    n = sum(len(v) for by in res.values() for v in by.values())
    print(f"{args.exp_dir}: {n} cells ({len(rows)} rows x {len(args.seeds)} seeds x {len(datasets)} datasets) in "
          f"{time.time() - t0:.0f} s wall, {time.process_time() - c0:.0f} s CPU of this process")
    return 0
