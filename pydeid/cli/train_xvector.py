"""`pydeid train-xvector`: the Python behind steps/train_xvector.sh."""

COMMAND = "train-xvector"
HELP = "train the attacker's speaker-embedding network (x-vector or ECAPA-TDNN, speechbrain) on a data dir"


OUTPUTS = ("model_dir",)


def add_arguments(p):
    p.add_argument("--config", default=None, help="YAML config (conf/xvector/*.yaml); defaults otherwise")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--epochs", type=int, default=None, help="override the config's number of epochs")
    p.add_argument("--vad", choices=("energy", "none"), default=None,
                   help="override the config's front-end: energy (Kaldi compute-vad) or none")
    p.add_argument("--num-threads", type=int, default=None, help="torch CPU threads (default: torch's choice)")
    p.add_argument("data", help="training data dir (its speakers are the classes)")
    p.add_argument("model_dir", help="output model directory (config.yaml + embedding_model.ckpt)")


def run(args):
    import json
    from pathlib import Path

    from pydeid.attack.config import load_config
    over = {k: v for k, v in (("epochs", args.epochs), ("vad", args.vad)) if v}
    cfg = load_config(args.config, over or None)  # checked before torch loads

    import torch

    from pydeid.attack.train import train_attacker
    from pydeid.io import atomic_write_text

    if args.num_threads:
        torch.set_num_threads(args.num_threads)
    summary = train_attacker(args.data, args.model_dir, cfg, seed=args.seed)
    summary["data"] = str(args.data)
    atomic_write_text(Path(args.model_dir) / "train_summary.json", json.dumps(summary, indent=1) + "\n")
    acc = f"; final train-acc {summary['history'][-1]['train_acc']:.3f}" if summary["history"] else ""
    print(f"{args.model_dir}: trained on {summary['speakers']} speakers / {summary['utterances']} utterances, "
          f"{summary['epochs']} epochs in {summary['train_seconds']} s{acc}")
