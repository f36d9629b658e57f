"""`pydeid decode-phones`: phone-loop decoding of a data dir (pocketsphinx en-us, phonetic LM of the wheel)."""

from ._decode import add_data_arguments, decode_or_merge

COMMAND = "decode-phones"
HELP = ("phone-loop decoding of a data dir with pocketsphinx en-us (the PER utility meter): <decode-dir>/{text,"
        "decode_phones.json (RTF)}, resumable per utterance; --merge joins split jobs")


def add_arguments(p):
    p.add_argument("--lw", type=float, default=None, help="language weight of the phonetic LM (default 4.0)")
    add_data_arguments(p)


def run(args):
    from pydeid.asr.phone_decode import DEFAULT_LW, decode_phones_data_dir, merge_parts
    from pydeid.io import UsageError

    lw = DEFAULT_LW if args.lw is None else args.lw
    if not args.merge and not lw > 0:
        raise UsageError("--lw", f"must be > 0, not {args.lw}")
    info = decode_or_merge(args, lambda d, o: decode_phones_data_dir(d, o, lw=lw), merge_parts, COMMAND)
    print(f"{args.decode_dir}: {info['utterances']} utterances, {info['audio_seconds']:.1f} s of audio, "
          f"RTF {info['rtf']} (phone loop, lw {info['lw']})")
