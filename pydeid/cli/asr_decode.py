"""`pydeid asr-decode` and `pydeid asr-decode-merge`: the Python behind steps/decode_asr.sh."""

COMMAND = "asr-decode"
HELP = "decode a Kaldi data dir with an ESPnet model trained by steps/train_asr.sh (hypotheses + CTM)"


def add_arguments(p):
    p.add_argument("--beam-size", type=int, default=None, help="default: <exp-dir>/decode.yaml, else 4")
    p.add_argument("--ctc-weight", type=float, default=None, help="default: <exp-dir>/decode.yaml, else 0.3")
    p.add_argument("--penalty", type=float, default=0.0)
    p.add_argument("--ngpu", type=int, default=0)
    p.add_argument("--model", default="valid.acc.best.pth", help="model file in <exp-dir> or absolute path")
    p.add_argument("--no-ctm", action="store_true", help="do not write hypothesis word timings")
    p.add_argument("exp_dir")
    p.add_argument("data")
    p.add_argument("decode_dir")


def run(args):
    from pydeid.asr.decode import decode_asr
    out = decode_asr(args.exp_dir, args.data, args.decode_dir, beam_size=args.beam_size,
                     ctc_weight=args.ctc_weight, ngpu=args.ngpu, model_file=args.model, penalty=args.penalty,
                     ctm=not args.no_ctm)
    print(f"{out}/text")
