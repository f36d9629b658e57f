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
    p.add_argument("data_and_dirs", nargs="+", metavar="DATA XVECTOR_DIR",
                   help="data dir to embed and its output directory; several pairs are embedded by this one "
                        "process (torch and the model load once: most of the time for small sets)")


def run(args):
    import json
    from pathlib import Path

    from pydeid.io import FormatError
    items = args.data_and_dirs
    if len(items) % 2:
        raise FormatError(None, None, f"expected <data> <xvector-dir> pairs after the model dir, got {len(items)} "
                                      "paths")
    pairs = [(items[i], Path(items[i + 1])) for i in range(0, len(items), 2)]
    from pydeid.attack.embeddings import xvector_dir_lock
    if args.finalize is not None:
        from pydeid.attack.embeddings import finalize_xvector_dir
        for data, out in pairs:
            with xvector_dir_lock(out):
                info = finalize_xvector_dir(data, out, nj=args.finalize or None)
            print(f"{out}: {info['utterances']} utterance and {info['speakers']} speaker embeddings, "
                  f"dim {info['dim']}")
        return 0
    from pydeid.attack.embeddings import extraction_done
    from pydeid.io import DataDir, atomic_write_text, check_data_audio
    for data, _ in pairs:  # every file opens, holds one 25 ms analysis window, agrees with utt2dur: before any write
        check_data_audio(data, min_seconds=0.025)
    name = "xvector" if args.job is None else f"xvector.{args.job}"
    torch = None
    for data, out in pairs:
        # a cache dir shared by attacks running side by side (an attacker's embeddings of a set): one process
        # embeds, the others wait and find it done; checked before importing torch, so a resumed run skips
        # finished jobs in a fraction of a second
        with xvector_dir_lock(out):
            if extraction_done(args.model_dir, DataDir.read(data), out / f"{name}.scp")[0]:
                print(f"{out / (name + '.scp')}: already complete for this data and model, skipped")
                continue
            if torch is None:
                import torch
                torch.set_num_threads(args.num_threads)
            from pydeid.attack.extract import extract_data_dir
            info = extract_data_dir(args.model_dir, data, out / f"{name}.ark", out / f"{name}.scp")
            if not info.get("skipped"):
                atomic_write_text(out / "log" / f"{name}.speed.json", json.dumps(info) + "\n")
            print(f"{out / (name + '.scp')}: {info}")
    return 0
