"""`pydeid mask-spoken`: the spoken-pseudonym fill (each masked interval says the transformed text's surrogates)."""

COMMAND = "mask-spoken"
HELP = ("fill every masked interval with the surrogate words of the transformed text (espeak-ng, F0/level of the "
        "surrounding voice, fitted to the interval) -> new data dir with text, words.ctm and tags.conll")


def _bool(s):
    return str(s).lower() in ("1", "true", "yes")


def add_arguments(p):
    from pydeid.cli._types import TAGS_HELP, entity_tags
    p.add_argument("--tags", dest="tagset", default="all", type=entity_tags, help=TAGS_HELP)
    p.add_argument("--pad", type=float, default=0.1, help="seconds added before and after each entity")
    p.add_argument("--absorb-gaps", type=_bool, default=True,
                   help="extend each interval over the pauses separating it from the neighbouring words")
    from pydeid.io.publisher_key import SEED_HELP
    p.add_argument("--seed", default="0", help="surrogate voices are drawn from seed + utterance id; " + SEED_HELP +
                   " (the key in --secret-dir)")
    p.add_argument("--min-stretch", type=float, default=0.8, help="lowest time-stretch factor of an insert")
    p.add_argument("--max-stretch", type=float, default=1.25, help="highest time-stretch factor of an insert")
    p.add_argument("--fit-rate", type=_bool, default=False,
                   help="choose espeak's rate per insert so its natural duration is the interval's (then stretch)")
    p.add_argument("--rate-limits", default="100,320", help="min,max espeak rate (words/minute) of --fit-rate")
    p.add_argument("--match-spectrum", type=_bool, default=False,
                   help="move the insert's mean spectral envelope to the surrounding speech's (smooth, +-12 dB)")
    p.add_argument("--match-f0-range", type=_bool, default=False,
                   help="scale the insert's log-F0 spread to the surrounding speech's (the median is always matched)")
    p.add_argument("--noise-floor", type=_bool, default=False,
                   help="add seeded synthetic noise with the level and spectral shape of the utterance's noise floor "
                        "to every interval (no digital silence, no noiseless insert)")
    p.add_argument("--accents", default="english",
                   help="comma-separated espeak-ng English accents the surrogate voice is drawn from per utterance; "
                        "'english' (default): en-us,en,en-gb-x-rp,en-gb-scotland,en-029,en-gb-x-gbclan,"
                        "en-gb-x-gbcwmd,en-us-nyc; 'en-us' alone: the fill of sessions 1-6")
    p.add_argument("--fade", type=float, default=0.01, help="fade (s) at the insert's ends, inside the interval")
    p.add_argument("--ramp", type=float, default=0.005, help="fade (s) of the original just outside each interval")
    p.add_argument("--secret-dir", required=True,
                   help="where the per-utterance plans (surrogate voices, original entity times) go; mode 0600, "
                        "refused inside the input or output data dir")
    p.add_argument("--wav-dir", default=None, help="where the wavs go (default <out>/wav)")
    p.add_argument("--overwrite", type=_bool, default=False, help="redo utterances already written")
    p.add_argument("--check-only", type=_bool, default=False,
                   help="only check the inputs of every utterance (CTM, transformed tags, no insert saying an "
                        "original) and write nothing (steps/mask_spoken.sh runs it before its parallel jobs)")
    p.add_argument("--report", default=None, help="write a JSON summary here (keep it outside the corpus)")
    p.add_argument("data", help="input data dir (the neutral voices: converted audio)")
    p.add_argument("tags_file", help="CoNLL tags of the original utterances ('# id = <utt>')")
    p.add_argument("trans_tags", help="tags.conll of the transformed text (steps/transform_text.sh output, "
                                      "made from the same tags)")
    p.add_argument("ctm", help="word CTM of the input (utterance-relative times)")
    p.add_argument("out", help="output data dir")


def run(args):
    import json

    from pydeid.io import FormatError, atomic_write_text
    from pydeid.mask.spoken import ENGLISH_ACCENTS, SpokenOptions, check_accents, spoken_data_dir

    if not 0 < args.min_stretch <= 1.0 <= args.max_stretch:
        raise FormatError("--min-stretch/--max-stretch", None,
                          f"need 0 < min <= 1 <= max, got {args.min_stretch} and {args.max_stretch}")
    try:
        rlim = tuple(int(v) for v in args.rate_limits.split(","))
    except ValueError:
        rlim = ()
    if len(rlim) != 2 or not 80 <= rlim[0] <= rlim[1] <= 450:
        raise FormatError("--rate-limits", None, f"need min,max words per minute within 80..450, got "
                          f"'{args.rate_limits}'")
    try:
        accents = ENGLISH_ACCENTS if args.accents == "english" else check_accents(args.accents.split(","))
    except ValueError as e:
        raise FormatError("--accents", None, str(e)) from None
    from pydeid.io.publisher_key import resolve_seed
    args.seed = resolve_seed(args.seed, args.secret_dir, "spoken-fill", [args.data, args.out])
    opts = SpokenOptions(tagset=tuple(args.tagset.split(",")), pad=args.pad, absorb_gaps=args.absorb_gaps,
                         seed=args.seed, min_stretch=args.min_stretch, max_stretch=args.max_stretch,
                         fade=args.fade, ramp=args.ramp, fit_rate=args.fit_rate, rate_limits=rlim,
                         match_spectrum=args.match_spectrum, match_f0_range=args.match_f0_range, accents=accents,
                         noise_floor=args.noise_floor)
    rep = spoken_data_dir(args.data, args.tags_file, args.trans_tags, args.ctm, args.out, args.secret_dir, opts,
                          wav_dir=args.wav_dir, overwrite=args.overwrite, check_only=args.check_only)
    if args.check_only:
        print(f"{args.data}: inputs of {rep['utterances']} utterances checked ({rep['hidden']}); nothing written")
        return 0
    if args.report:
        atomic_write_text(args.report, json.dumps(rep, indent=1) + "\n")
    print(f"{args.out}: {rep['hidden']}")
    print(f"{args.out}: {rep['utterances']} utterances, {rep['inserts']} spoken inserts "
          f"({rep['stretch_clamped']} at a stretch limit, {rep['rate_clamped']} at a rate limit), duration change {rep['duration_change_s']:+.2f} s "
          f"({rep['written']} written, {rep['resumed']} resumed)")
    return 0
