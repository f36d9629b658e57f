"""`pydeid prepare-librispeech`: the Python behind local/librispeech/data_prep.sh."""

COMMAND = "prepare-librispeech"
HELP = "LibriSpeech subset -> Kaldi data dir (wav.scp `flac -c -d -s <path> |` as Kaldi, text, utt2spk, genders, utt2dur)"


def add_arguments(p):
    p.add_argument("--no-durations", action="store_true", help="do not write utt2dur (skips reading flac headers)")
    p.add_argument("corpus_root", help="LibriSpeech root (holding SPEAKERS.TXT and the subset folders)")
    p.add_argument("subset", help="e.g. train-clean-100, dev-clean, test-clean")
    p.add_argument("out_dir", help="output data dir, e.g. data/dev_clean")


def run(args):
    from pydeid.corpora.librispeech import prepare_subset

    d = prepare_subset(args.corpus_root, args.subset, args.out_dir, with_durations=not args.no_durations)
    print(f"{args.out_dir}: {len(d.utt2spk)} utterances, {len(d.spk2utt)} speakers from {args.subset}")
