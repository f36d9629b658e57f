"""`pydeid decode-pocketsphinx`: decode a data dir with the pretrained pocketsphinx en-us recogniser."""

COMMAND = "decode-pocketsphinx"
HELP = ("decode a data dir with pocketsphinx en-us (general LM of the wheel or a build-ngram-lm dir): "
        "<decode-dir>/{text,textnorm.json,decode_pocketsphinx.json (RTF)}; --merge joins split jobs")


def add_arguments(p):
    p.add_argument("--lm", default="general",
                   help="'general' (the wheel's en-us 3-gram), a dir from pydeid build-ngram-lm, or an LM file")
    p.add_argument("--lw", type=float, default=None, help="language weight (default: pocketsphinx's 6.5)")
    p.add_argument("--merge", action="store_true",
                   help="join the decode dirs given as <data> ... into the last argument instead of decoding")
    p.add_argument("data", nargs="+", help="data dir (with --merge: the part decode dirs)")
    p.add_argument("decode_dir")


def run(args):
    from pydeid.asr.pocketsphinx_decode import decode_data_dir, merge_parts
    from pydeid.io import FormatError

    if args.merge:
        info = merge_parts(args.data, args.decode_dir)
    else:
        if len(args.data) != 1:
            raise FormatError(args.decode_dir, None, "decode takes one data dir (several only with --merge)")
        info = decode_data_dir(args.data[0], args.decode_dir, lm=args.lm, lw=args.lw)
    print(f"{args.decode_dir}: {info['utterances']} utterances, {info['audio_seconds']:.1f} s of audio, "
          f"RTF {info['rtf']} (LM {info['lm']})")
