"""`pydeid intent-data`: a train/test pair of intent-labelled CoNLL files for the utility recipes (egs/snips/s5)."""

COMMAND = "intent-data"
HELP = ("copy an intent-labelled CoNLL corpus (# intent = ... per sentence) into <out>/train.conll and test.conll: "
        "its own test file, or a deterministic stratified split when it ships one file (SLURP devel)")
OUTPUTS = ("out_dir",)


def add_arguments(p):
    from ._types import open_fraction
    p.add_argument("--test-fraction", type=open_fraction, default=0.3,
                   help="with a single input: fraction of each intent held out for test (intents with < 3 "
                        "sentences stay in training)")
    p.add_argument("train", help="CoNLL file with '# intent = <label>' comments (training, or the whole corpus)")
    p.add_argument("test", nargs="?", default=None, help="the corpus's own test CoNLL file (optional)")
    p.add_argument("out_dir")


def run(args):
    from pathlib import Path

    from pydeid.io.conll import write_conll
    from pydeid.nlu_utility.intent import intent_of, read_intents, split_by_intent

    train = read_intents(args.train)
    if args.test:
        test = read_intents(args.test)
        how = f"test = {args.test}"
    else:
        train, test = split_by_intent(train, args.test_fraction)
        how = f"stratified split of {args.train} by a hash of the sentence ids, test fraction {args.test_fraction}"
    unseen = sorted({intent_of(s) for s in test} - {intent_of(s) for s in train})
    if unseen:
        raise SystemExit(f"{args.test}: test intents absent from training: {', '.join(unseen[:5])}")
    out = Path(args.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    write_conll(out / "train.conll", train)
    write_conll(out / "test.conll", test)
    n_int = len({intent_of(s) for s in train})
    print(f"{out}: {len(train)} training and {len(test)} test sentences, {n_int} intents ({how})")
    return 0
