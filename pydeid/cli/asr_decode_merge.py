"""`pydeid asr-decode-merge`: merge parallel decoding jobs (steps/decode_asr.sh --nj N)."""

COMMAND = "asr-decode-merge"
HELP = "merge the per-job decode dirs of steps/decode_asr.sh into one decode dir"


def add_arguments(p):
    p.add_argument("decode_dir")
    p.add_argument("parts", nargs="+", help="per-job decode dirs")


def run(args):
    from pydeid.asr.decode import merge_decode_dirs
    merge_decode_dirs(args.decode_dir, args.parts)
