"""`pydeid asr-hyp-data-dir`: a data dir whose text is the ASR output (and words.ctm its word timings)."""

COMMAND = "asr-hyp-data-dir"
HELP = "data dir with text = ASR hypotheses and words.ctm = hypothesis timings (text transformation on ASR output)"


def add_arguments(p):
    p.add_argument("data", help="the decoded data dir (audio, speakers)")
    p.add_argument("decode_dir", help="steps/decode_asr.sh output (text, hyp.ctm)")
    p.add_argument("out", help="output data dir")


def run(args):
    from pydeid.asr.decode import hyp_data_dir
    out = hyp_data_dir(args.data, args.decode_dir, args.out)
    print(f"{out}: text = hypotheses of {args.decode_dir}")
