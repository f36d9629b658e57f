"""`pydeid make-mini-corpus`: build the embedded synthetic corpus (the Python behind local/mini/prepare_data.sh)."""

COMMAND = "make-mini-corpus"
HELP = ("build the embedded corpus 'mini' (synthetic VerbMobil-style dialogues spoken by espeak-ng voices, with "
        "gold entity tags and word timings) as data dirs mini_{train,dev,test,test_enroll,test_trial}")


def add_arguments(p):
    p.add_argument("--seed", type=int, default=0, help="same seed -> byte-identical corpus")
    p.add_argument("--size", default="default", choices=["tiny", "default"], help="preset size")
    p.add_argument("--n-train-speakers", type=int, default=None, help="override the preset")
    p.add_argument("--n-dev-speakers", type=int, default=None, help="override the preset")
    p.add_argument("--n-test-speakers", type=int, default=None, help="override the preset")
    p.add_argument("--utts-per-speaker", type=int, default=None, help="override the preset")
    p.add_argument("--train-utts-per-speaker", type=int, default=None,
                   help="turns of each training speaker (0: --utts-per-speaker); override the preset")
    p.add_argument("--n-enroll", type=int, default=None, help="enrollment utterances per test speaker")
    p.add_argument("--category-turns", type=int, default=0,
                   help="replace the last N turns of each dialogue by turns with seed 004 A.1 sensitive categories "
                        "(HEALTH, AGE, CREDENTIAL, ADDRESS, IP ...; 0: off, the default corpus)")
    p.add_argument("--nj", type=int, default=None, help="parallel synthesis processes (output does not depend on it)")
    p.add_argument("out_dir", help="folder that receives wav/ and the data dirs")


def run(args):
    import sys

    from pydeid.corpora.mini import build_corpus, corpus_stats
    from pydeid.report import markdown_table
    try:
        out = build_corpus(args.out_dir, seed=args.seed, size=args.size, nj=args.nj,
                           n_train_speakers=args.n_train_speakers, n_dev_speakers=args.n_dev_speakers,
                           n_test_speakers=args.n_test_speakers, utts_per_speaker=args.utts_per_speaker,
                           n_enroll=args.n_enroll, train_utts_per_speaker=args.train_utts_per_speaker,
                           category_turns=args.category_turns)
    except (ValueError, FileExistsError) as e:  # bad options or a foreign folder: one line, no traceback
        print(f"pydeid {COMMAND}: ERROR: {e}", file=sys.stderr)
        return 1
    stats = corpus_stats(out)
    types = ["PER", "ORG", "LOC", "DATE", "TIME", "NUM"]
    rows = [[name, s["utts"], f"{s['hours'] * 60:.1f}", f"{s['speakers']} ({s['male']}m/{s['female']}f)", s["words"]]
            + [s["entities"][t] for t in types] for name, s in stats.items()]
    print(markdown_table(["data dir", "utts", "minutes", "speakers", "words"] + types, rows))
