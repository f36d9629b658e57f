"""`pydeid whisper-data-dir`: a data dir whose text is the Whisper hypothesis (steps/transcribe.sh)."""

OUTPUTS = ("out",)
COMMAND = "whisper-data-dir"
HELP = ("data dir with text = the Whisper hypothesis of a decode-whisper dir (normalised: no punctuation, numbers "
        "spelled, --case) and optionally the word CTM of its words")


def add_arguments(p):
    p.add_argument("--case", default="lower", choices=["lower", "upper", "keep"],
                   help="case of the new text (the corpus's convention)")
    p.add_argument("--ctm", default=None, help="write the word CTM (Whisper's word times) here")
    p.add_argument("data", help="the decoded data dir (audio, speakers)")
    p.add_argument("decode_dir", help="steps/decode_whisper.sh output")
    p.add_argument("out", help="output data dir")


def run(args):
    from pydeid.asr.whisper_decode import transcript_data_dir

    n = transcript_data_dir(args.data, args.decode_dir, args.out, case=args.case, ctm=args.ctm)
    print(f"{args.out}: text = Whisper hypotheses of {args.decode_dir} ({n['utterances']} utterances, "
          f"{n['words']} words, {n['empty']} empty)")
