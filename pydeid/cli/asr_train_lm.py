"""`pydeid asr-train-lm`: the Python behind steps/train_lm.sh (ESPnet token LM on an ASR exp dir's transcripts)."""

COMMAND = "asr-train-lm"
HELP = "train an ESPnet token LM on the transcripts and token list of an ASR exp dir (for --lm-exp decoding)"


def add_arguments(p):
    p.add_argument("--config", required=True, help="ESPnet lm_train YAML (conf/asr/lm.yaml)")
    p.add_argument("--ngpu", type=int, default=0)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--max-epoch", type=int, default=None, help="override max_epoch of the config")
    p.add_argument("asr_exp", help="ASR exp dir from steps/train_asr.sh (tokens, data/{train,valid}/text)")
    p.add_argument("lm_exp")


def run(args):
    from pydeid.asr.lm import train_lm
    out = train_lm(args.asr_exp, args.lm_exp, args.config, ngpu=args.ngpu, seed=args.seed,
                   max_epoch=args.max_epoch)
    print(f"{out}: trained ({out / 'valid.loss.best.pth'})")
