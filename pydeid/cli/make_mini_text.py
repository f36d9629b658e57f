"""`pydeid make-mini-text`: text-only dialogues (gold CoNLL) from the mini corpus grammar, for NER training."""

COMMAND = "make-mini-text"
HELP = ("write tags.conll, written.conll and text for N synthetic dialogues from the grammar of the mini corpus "
        "(no audio): extra NER training text")


def add_arguments(p):
    p.add_argument("--seed", type=int, default=0, help="same seed -> identical files")
    p.add_argument("--n-dialogues", type=int, default=500, help="number of dialogues (about 11 turns each)")
    p.add_argument("out_dir", help="folder for tags.conll, written.conll and text")


def run(args):
    from pydeid.corpora.mini.text_only import build_text
    out = build_text(args.out_dir, seed=args.seed, n_dialogues=args.n_dialogues)
    n = sum(1 for _ in open(out / "text", encoding="utf-8"))
    print(f"{out}: {n} sentences from {args.n_dialogues} dialogues")
