"""`pydeid validate-data-dir`: the Python behind utils/validate_data_dir.sh."""

COMMAND = "validate-data-dir"
HELP = "check a Kaldi data dir (sorted unique ids, text/utt2spk/spk2utt/wav.scp/segments consistency)"


def add_arguments(p):
    p.add_argument("--no-text", action="store_true", help="do not require a text file")
    p.add_argument("--check-audio", action="store_true",
                   help="open every wav.scp entry (and compare durations with utt2dur and segments)")
    p.add_argument("--no-spk-sort", action="store_true",
                   help="as Kaldi: do not require utt2spk to be sorted by speaker as well as by utterance")
    p.add_argument("data", help="data directory")


def run(args):
    from pathlib import Path

    from pydeid.io import read_kaldi_map, validate_data_dir
    validate_data_dir(args.data, check_audio=args.check_audio, no_text=args.no_text, no_spk_sort=args.no_spk_sort)
    utt2spk = read_kaldi_map(Path(args.data) / "utt2spk")  # not DataDir.read: text may be absent (--no-text)
    print(f"{args.data}: OK ({len(utt2spk)} utterances, {len(set(utt2spk.values()))} speakers)")
