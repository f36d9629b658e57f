"""`pydeid convert-spoken`: convert a spoken-pseudonym fill of the original voices with the original's conversion."""

COMMAND = "convert-spoken"
HELP = ("convert a mask-spoken output made on the ORIGINAL voices with the plan, target pool and source-speaker "
        "model of an existing conversion of the original data dir (the inserts are converted with their utterance)")


def _bool(s):
    return str(s).lower() in ("1", "true", "yes")


def add_arguments(p):
    p.add_argument("--orig-data", required=True,
                   help="the original data dir (the source speakers are modelled on it, never on the filled audio)")
    p.add_argument("--conversion", required=True,
                   help="exp dir of steps/transform_voice.sh that converted --orig-data (its secrets/voice_plan.json "
                        "and target pool are reused)")
    p.add_argument("--resume", type=_bool, default=True, help="keep the wavs already written")
    p.add_argument("filled", help="mask-spoken output on the original voices (not for publication)")
    p.add_argument("out", help="output data dir (the published spoken-pseudonym corpus)")


def run(args):
    from pydeid.voice.spoken_convert import convert_filled

    rep = convert_filled(args.orig_data, args.filled, args.conversion, args.out, resume=args.resume)
    print(f"{args.out}: {rep['utterances']} utterances ({rep['converted']} converted now) with the {rep['method']} "
          f"plan of {args.conversion}")
    return 0
