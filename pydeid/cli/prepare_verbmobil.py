"""`pydeid prepare-verbmobil`: the Python behind local/verbmobil/data_prep.sh."""

COMMAND = "prepare-verbmobil"
HELP = ("VerbMobil BAS edition (English VM1/VM2 turns) -> Kaldi data dirs train/dev/test with the seed-004 A.3 "
        "speaker fixes, split rules and subsets; writes local/verbmobil/report.txt")


def _bool(v: str) -> bool:
    if v.lower() in ("true", "1", "yes"):
        return True
    if v.lower() in ("false", "0", "no"):
        return False
    raise ValueError(v)


def add_arguments(p):
    p.add_argument("--markers", choices=["keep", "drop"], default="keep",
                   help="keep <hes> <noise> <laugh> <unk> tokens in text (Kaldi style) or drop them (words only)")
    p.add_argument("--letters", choices=["lower", "dotted"], default="lower", help="spelled letters $A -> a or A.")
    p.add_argument("--case", choices=["keep", "upper", "lower"], default="keep", help="case of the words")
    p.add_argument("--text-source", choices=["auto", "par", "trl"], default="auto",
                   help="transcription: ORT tier of the .par (auto: else the .trl turn), or only one of them")
    p.add_argument("--skip-malformed", type=_bool, default=False,
                   help="skip (and report) malformed .par/.trl files instead of stopping with file:line")
    p.add_argument("--dedupe-channels", type=_bool, default=True,
                   help="keep one channel per (dialogue, turn index, speaker) when a turn exists on several")
    p.add_argument("--dialogue-volumes", help="table '<dialogue> <volume>' for layouts whose paths carry no VM<n>")
    p.add_argument("--native-table", help="table '<speaker> en|de|other' (native language of the speakers)")
    p.add_argument("out_dir", help="output folder: train/ dev/ test/ and local/verbmobil/ are written in it")
    p.add_argument("corpus_roots", nargs="+", help="one or more folders holding the BAS volumes")


def run(args):
    from pathlib import Path

    from pydeid.corpora.verbmobil import PrepOptions, prepare_verbmobil

    opts = PrepOptions(markers=args.markers, letters=args.letters, case=args.case, text_source=args.text_source,
                       skip_malformed=args.skip_malformed, dedupe_channels=args.dedupe_channels,
                       dialogue_volumes=Path(args.dialogue_volumes) if args.dialogue_volumes else None,
                       native_table=Path(args.native_table) if args.native_table else None)
    res = prepare_verbmobil(args.corpus_roots, args.out_dir, opts)
    for name in ("train", "dev", "test"):
        kept = res.kept(name)
        print(f"{args.out_dir}/{name}: {len(kept)} utterances, {len({t.speaker for t in kept})} speakers, "
              f"{len({t.tid.dialogue for t in kept})} dialogues")
    c = res.counts
    print(f"turns: {c['turns-kept']} kept, {c['turns-excluded']} excluded (not English), {c['turns-skipped']} "
          f"skipped; details in {args.out_dir}/local/verbmobil/report.txt and turns.tsv")
    if not res.kept():
        print("prepare-verbmobil: no English turn found", flush=True)
        return 1
    return 0
