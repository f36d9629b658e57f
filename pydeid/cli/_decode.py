"""Arguments and dispatch shared by the decoding verbs that run as split jobs (decode-pocketsphinx, decode-phones):
<data> <decode-dir>, or --merge <part-dir>... <decode-dir> (utils/split_decode.sh calls both forms)."""

from __future__ import annotations


def add_data_arguments(p) -> None:
    p.add_argument("--merge", action="store_true",
                   help="join the decode dirs given as <data> ... into the last argument instead of decoding")
    p.add_argument("data", nargs="+", help="data dir (with --merge: the part decode dirs)")
    p.add_argument("decode_dir")


def decode_or_merge(args, decode, merge, verb: str) -> dict:
    """merge(parts, decode_dir) with --merge, else decode(data, decode_dir) of the one data dir."""
    from pydeid.io import FormatError

    if args.merge:
        return merge(args.data, args.decode_dir)
    if len(args.data) != 1:
        raise FormatError(args.decode_dir, None, f"{verb} takes one data dir (several only with --merge)")
    return decode(args.data[0], args.decode_dir)
