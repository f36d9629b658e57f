"""`pydeid score-wer`: Kaldi-style <decode-dir>/{wer,per_utt,rtf} plus pydeid's scoring/ (pydeid.asr.kaldi_wer)."""

COMMAND = "score-wer"
HELP = ("score a decode dir against <data>/text: <decode-dir>/wer (with the speaker-bootstrap 95-percent interval), "
        "per_utt (Kaldi alignment), rtf, scoring/")


def add_arguments(p):
    p.add_argument("data")
    p.add_argument("decode_dir")


def run(args):
    from pydeid.asr.kaldi_wer import write_wer_files

    write_wer_files(args.data, args.decode_dir)
    print(open(f"{args.decode_dir}/wer", encoding="utf-8").read().rstrip())
