"""`pydeid decode-phones`: phone-loop decoding of a data dir (pocketsphinx en-us, phonetic LM of the wheel)."""

COMMAND = "decode-phones"
HELP = ("phone-loop decoding of a data dir with pocketsphinx en-us (the PER utility meter): <decode-dir>/{text,"
        "decode_phones.json (RTF)}, resumable per utterance; --merge joins split jobs")


def add_arguments(p):
    p.add_argument("--lw", type=float, default=None, help="language weight of the phonetic LM (default 4.0)")
    p.add_argument("--merge", action="store_true",
                   help="join the decode dirs given as <data> ... into the last argument instead of decoding")
    p.add_argument("data", nargs="+", help="data dir (with --merge: the part decode dirs)")
    p.add_argument("decode_dir")


def run(args):
    from pydeid.asr.phone_decode import DEFAULT_LW, decode_phones_data_dir, merge_parts
    from pydeid.io import FormatError, UsageError

    if args.merge:
        info = merge_parts(args.data, args.decode_dir)
    else:
        if len(args.data) != 1:
            raise FormatError(args.decode_dir, None, "decode-phones takes one data dir (several only with --merge)")
        lw = DEFAULT_LW if args.lw is None else args.lw
        if not lw > 0:
            raise UsageError("--lw", f"must be > 0, not {args.lw}")
        info = decode_phones_data_dir(args.data[0], args.decode_dir, lw=lw)
    print(f"{args.decode_dir}: {info['utterances']} utterances, {info['audio_seconds']:.1f} s of audio, "
          f"RTF {info['rtf']} (phone loop, lw {info['lw']})")
