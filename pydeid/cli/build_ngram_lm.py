"""`pydeid build-ngram-lm`: a word n-gram LM (ARPA) + G2P dictionary of its words, from training transcripts."""

COMMAND = "build-ngram-lm"
HELP = ("word n-gram LM (interpolated Kneser-Ney, ARPA) from the transcripts of training data dirs, with G2P "
        "pronunciations of the words the CMU dictionary lacks: <lm-dir>/{lm.arpa,extra.dict,lm_info.json}")


def add_arguments(p):
    p.add_argument("--order", type=int, default=3, help="n-gram order")
    p.add_argument("--not-from", action="append", default=[], metavar="DATA",
                   help="a data dir (e.g. the test set) whose utterances must not be among the training "
                        "transcripts: a shared utterance id or transcript is an error (repeatable)")
    p.add_argument("train_data", nargs="+", help="training data dir(s) (their text files)")
    p.add_argument("lm_dir", help="output dir")


def run(args):
    from pydeid.asr.pocketsphinx_decode import build_corpus_lm
    from pydeid.io import DataDir, FormatError

    if args.order < 1:
        raise FormatError(args.lm_dir, None, f"--order must be >= 1, got {args.order}")
    text = {}
    for d in args.train_data:
        dd = DataDir.read(d)
        text.update(dd.text)
    for other in args.not_from:
        od = DataDir.read(other)
        shared = sorted(set(od.text) & set(text))
        if shared:
            raise FormatError(f"{other}/text", None, f"utterance '{shared[0]}' (and {len(shared) - 1} more) is "
                              "also in the LM training data")
        same = {" ".join(t.upper().split()) for t in od.text.values()} & \
               {" ".join(t.upper().split()) for t in text.values()}
        if same:
            print(f"build-ngram-lm: note: {len(same)} transcripts of {other} also occur (other speakers) in the "
                  "training data")
    info = build_corpus_lm(text.values(), args.lm_dir, order=args.order)
    print(f"{args.lm_dir}/lm.arpa: {info['order']}-gram, {info['sentences']} sentences, {info['tokens']} tokens, "
          f"vocabulary {info['vocabulary']} ({info['g2p_words']} pronounced by G2P), n-grams {info['ngrams']}")
