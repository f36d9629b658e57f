"""`pydeid asr-decode` and `pydeid asr-decode-merge`: the Python behind steps/decode_asr.sh."""

COMMAND = "asr-decode"
HELP = "decode a Kaldi data dir with an ESPnet model trained by steps/train_asr.sh (hypotheses + CTM)"


def add_arguments(p):
    p.add_argument("--beam-size", type=int, default=None, help="default: <exp-dir>/decode.yaml, else 4")
    p.add_argument("--ctc-weight", type=float, default=None, help="default: <exp-dir>/decode.yaml, else 0.3")
    p.add_argument("--penalty", type=float, default=0.0)
    p.add_argument("--lm-exp", default=None, help="LM exp dir from steps/train_lm.sh (same token list)")
    p.add_argument("--lm-weight", type=float, default=None, help="default: <exp-dir>/decode.yaml, else 1.0")
    p.add_argument("--ngpu", type=int, default=0)
    p.add_argument("--model", default=None, help="model file in <exp-dir> or absolute path (default: the best "
                   "checkpoint by the first best_model_criterion of <exp-dir>/config.yaml)")
    p.add_argument("--no-ctm", action="store_true", help="do not write hypothesis word timings")
    p.add_argument("--check-current", action="store_true",
                   help="decode nothing: exit 0 if <decode-dir> already holds this decoding (same model, data, "
                        "options, nothing changed since), 1 otherwise (the reason on stderr)")
    p.add_argument("exp_dir")
    p.add_argument("data")
    p.add_argument("decode_dir")


def run(args):
    import sys

    from pydeid.asr.decode import decode_asr, decode_is_current
    if args.check_current:
        ok, why = decode_is_current(args.exp_dir, args.data, args.decode_dir, beam_size=args.beam_size,
                                    ctc_weight=args.ctc_weight, model_file=args.model, penalty=args.penalty,
                                    ctm=not args.no_ctm, lm_exp=args.lm_exp, lm_weight=args.lm_weight)
        print(f"{args.decode_dir}: {'current' if ok else 'to decode'}: {why}", file=sys.stderr)
        return 0 if ok else 1
    out = decode_asr(args.exp_dir, args.data, args.decode_dir, beam_size=args.beam_size,
                     ctc_weight=args.ctc_weight, ngpu=args.ngpu, model_file=args.model, penalty=args.penalty,
                     ctm=not args.no_ctm, lm_exp=args.lm_exp, lm_weight=args.lm_weight)
    print(f"{out}/text")
