"""`pydeid decode-pocketsphinx`: decode a data dir with the pretrained pocketsphinx en-us recogniser."""

from ._decode import add_data_arguments, decode_or_merge

COMMAND = "decode-pocketsphinx"
HELP = ("decode a data dir with pocketsphinx en-us (general LM of the wheel or a build-ngram-lm dir): "
        "<decode-dir>/{text,textnorm.json,decode_pocketsphinx.json (RTF)}; --merge joins split jobs")


def add_arguments(p):
    p.add_argument("--lm", default="general",
                   help="'general' (the wheel's en-us 3-gram), a dir from pydeid build-ngram-lm, or an LM file")
    p.add_argument("--lw", type=float, default=None, help="language weight (default: pocketsphinx's 6.5)")
    add_data_arguments(p)


def run(args):
    from pydeid.asr.pocketsphinx_decode import decode_data_dir, merge_parts

    info = decode_or_merge(args, lambda d, o: decode_data_dir(d, o, lm=args.lm, lw=args.lw), merge_parts, COMMAND)
    print(f"{args.decode_dir}: {info['utterances']} utterances, {info['audio_seconds']:.1f} s of audio, "
          f"RTF {info['rtf']} (LM {info['lm']})")
