"""`pydeid asr-train`: the Python behind steps/train_asr.sh (ESPnet tokens, collect-stats and training)."""

COMMAND = "asr-train"
HELP = "train an ESPnet ASR model (conf/asr/<tier>.yaml) on a Kaldi data dir into an exp dir"


def add_arguments(p):
    p.add_argument("--config", required=True, help="ESPnet training YAML (conf/asr/small.yaml, ...)")
    p.add_argument("--token-type", default="char", choices=["char", "bpe"])
    p.add_argument("--nbpe", type=int, default=100, help="sentencepiece vocabulary size for --token-type bpe")
    p.add_argument("--case", default="lower", choices=["lower", "upper", "keep"], help="text case folding")
    p.add_argument("--keep-punct", action="store_true", help="do not strip punctuation from the text")
    p.add_argument("--ngpu", type=int, default=0)
    p.add_argument("--num-workers", type=int, default=0, help="ESPnet data loader workers")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--max-epoch", type=int, default=None, help="override max_epoch of the config")
    p.add_argument("--adv-alpha", type=float, default=None,
                   help="train the speaker-adversarial model with this gradient-reversal weight (0 = passive "
                        "speaker branch, encoder trained as the baseline)")
    p.add_argument("--adv-hidden", type=int, default=256, help="hidden units of the speaker branch")
    p.add_argument("--espnet-args", default="", help="extra asr_train options, one quoted string")
    p.add_argument("train_data")
    p.add_argument("valid_data")
    p.add_argument("exp_dir")


def run(args):
    import shlex

    from pydeid.asr.train import train_asr
    exp = train_asr(args.train_data, args.valid_data, args.exp_dir, args.config, token_type=args.token_type,
                    nbpe=args.nbpe, ngpu=args.ngpu, seed=args.seed, case=args.case,
                    strip_punct=not args.keep_punct, adv_alpha=args.adv_alpha, adv_hidden=args.adv_hidden,
                    num_workers=args.num_workers, max_epoch=args.max_epoch,
                    extra_args=shlex.split(args.espnet_args))
    from pydeid.asr.checkpoints import default_model_file
    print(f"{exp}: trained ({default_model_file(exp)})")
