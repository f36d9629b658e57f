"""`pydeid prepare-speechocean`: the Python behind local/speechocean762/data_prep.sh."""

COMMAND = "prepare-speechocean"
HELP = "speechocean762 split (train or test, the corpus's layout, .WAV or .flac) -> Kaldi data dir with genders"


def add_arguments(p):
    p.add_argument("--no-durations", action="store_true", help="do not write utt2dur")
    p.add_argument("corpus_root", help="speechocean762 root (holding WAVE/, train/, test/)")
    p.add_argument("split", choices=["train", "test"])
    p.add_argument("out_dir")


def run(args):
    from pydeid.corpora.speechocean import prepare_split

    d = prepare_split(args.corpus_root, args.split, args.out_dir, with_durations=not args.no_durations)
    g = sorted(d.spk2gender.values())
    print(f"{args.out_dir}: {len(d.utt2spk)} utterances, {len(d.spk2utt)} speakers ({g.count('f')} f, "
          f"{g.count('m')} m) from {args.split}")
