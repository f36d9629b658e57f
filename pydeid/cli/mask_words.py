"""`pydeid mask-words`: the secure voice builder (mask_words_in_speech + mask_words_in_transcripts, seed 004 A.7)."""

COMMAND = "mask-words"
HELP = "silence tagged words in the audio and remove/replace them in the text -> new data dir"


def _bool(s):
    return str(s).lower() in ("1", "true", "yes")


OUTPUTS = ("out", "wav_dir", "report")


def add_arguments(p):
    from pydeid.cli._types import TAGS_HELP, entity_tags, nonnegative_float
    p.add_argument("--tags", dest="tagset", default="all", type=entity_tags, help=TAGS_HELP)
    p.add_argument("--pad", type=nonnegative_float, default=0.1, help="seconds added before and after each entity")
    p.add_argument("--absorb-gaps", type=_bool, default=True,
                   help="extend each mask over the pauses separating it from the neighbouring words")
    p.add_argument("--fill", default="silence", choices=["silence", "noise"])
    p.add_argument("--noise-dbfs", type=float, default=-70.0, help="RMS level of --fill noise")
    p.add_argument("--ramp", type=nonnegative_float, default=0.005, help="fade (s) applied just outside each interval")
    from pydeid.io.publisher_key import SEED_HELP
    p.add_argument("--seed", default="0", help="the noise of --fill noise; " + SEED_HELP + " (the key in --secret-dir)")
    p.add_argument("--secret-dir", default=None, help="where the publisher's key is kept (outside every corpus)")
    p.add_argument("--text-mode", default="remove", choices=["remove", "replace"])
    p.add_argument("--mask-token", default="<mask>", help="for --text-mode replace; '{tag}' -> entity type")
    p.add_argument("--strict", type=_bool, default=True,
                   help="any difference between CTM and tag words is an error (false: only at tagged words)")
    p.add_argument("--on-untimed", default="error", choices=["error", "drop"],
                   help="utterance whose hidden words have no usable CTM entry (e.g. the aligner failed): "
                        "stop, or leave it out of the output (counted)")
    p.add_argument("--wav-dir", default=None, help="where masked wavs go (default <out>/wav)")
    p.add_argument("--overwrite", type=_bool, default=False, help="redo utterances already written")
    p.add_argument("--report", default=None, help="write a JSON summary here (keep it outside the corpus)")
    p.add_argument("data", help="input data dir (original or converted voices)")
    p.add_argument("tags_file", help="CoNLL tags, one sentence per utterance with '# id = <utt>'")
    p.add_argument("ctm", help="word CTM (utterance-relative times), e.g. <ali-dir>/wrd_ali/ctm")
    p.add_argument("out", help="output data dir")


def run(args):
    import json

    from pydeid.io import atomic_write_text
    from pydeid.mask.pipeline import MaskOptions, mask_data_dir

    from pydeid.io.publisher_key import resolve_seed
    seed = resolve_seed(args.seed, args.secret_dir, "masking-noise", [args.data, args.out]) \
        if args.fill == "noise" or args.seed else 0   # silence draws nothing
    opts = MaskOptions(tagset=tuple(args.tagset.split(",")), pad=args.pad, fill=args.fill,
                       noise_dbfs=args.noise_dbfs, ramp=args.ramp, seed=seed, text_mode=args.text_mode,
                       mask_token=args.mask_token, strict=args.strict, absorb_gaps=args.absorb_gaps, on_untimed=args.on_untimed)
    rep = mask_data_dir(args.data, args.tags_file, args.ctm, args.out, opts, wav_dir=args.wav_dir,
                        overwrite=args.overwrite)
    if args.report:
        atomic_write_text(args.report, json.dumps(rep, indent=1) + "\n")
    print(f"{args.out}: {rep['hidden']}")
    print(f"{args.out}: {rep['utterances']} utterances, {rep['entities']} entities masked {rep['by_type']}, "
          f"{rep['masked_seconds']:.2f} s hidden ({rep['written']} written, {rep['resumed']} resumed, {rep['dropped']} dropped as untimed)")
    return 0
