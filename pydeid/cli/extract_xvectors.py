"""`pydeid extract-xvectors` and its --finalize step: the Python behind steps/extract_xvectors.sh."""

COMMAND = "extract-xvectors"
HELP = "embed every utterance of a data dir with an attacker model into Kaldi ark/scp (kaldiio)"


def add_arguments(p):
    p.add_argument("--job", type=int, default=None,
                   help="job number: write xvector.<job>.{ark,scp} (the data dir is then a split of the data)")
    p.add_argument("--finalize", type=int, default=None, metavar="NJ",
                   help="do not extract: merge xvector.1..NJ.scp (0: use xvector.scp as is), write "
                        "spk_xvector.scp, num_utts.ark and copy utt2spk/genders; model_dir is ignored")
    p.add_argument("--num-threads", type=int, default=1, help="torch CPU threads per job")
    p.add_argument("model_dir", help="attacker model directory (steps/train_xvector.sh output)")
    p.add_argument("data", help="data dir to embed")
    p.add_argument("xvector_dir", help="output directory")


def run(args):
    import json
    from pathlib import Path

    out = Path(args.xvector_dir)
    if args.finalize is not None:
        from pydeid.attack.embeddings import finalize_xvector_dir
        info = finalize_xvector_dir(args.data, out, nj=args.finalize or None)
        print(f"{out}: {info['utterances']} utterance and {info['speakers']} speaker embeddings, dim {info['dim']}")
        return 0
    from pydeid.attack.embeddings import extraction_done
    from pydeid.io import DataDir, atomic_write_text
    name = "xvector" if args.job is None else f"xvector.{args.job}"
    if extraction_done(args.model_dir, DataDir.read(args.data), out / f"{name}.scp")[0]:
        # checked before importing torch: a resumed run skips finished jobs in a fraction of a second
        print(f"{out / (name + '.scp')}: already complete for this data and model, skipped")
        return 0
    import torch

    from pydeid.attack.extract import extract_data_dir
    torch.set_num_threads(args.num_threads)
    info = extract_data_dir(args.model_dir, args.data, out / f"{name}.ark", out / f"{name}.scp")
    if not info.get("skipped"):
        atomic_write_text(out / "log" / f"{name}.speed.json", json.dumps(info) + "\n")
    print(f"{out / (name + '.scp')}: {info}")
    return 0
