"""`pydeid score-phones`: phone error rate of a phone decoding against the reference pronunciations."""

COMMAND = "score-phones"
HELP = ("PER of a decode-phones dir against the CMU-dictionary pronunciation of <data>/text, with a speaker-"
        "bootstrap 95 %% interval: <decode-dir>/scoring_phones/{ref_phones,per_utt.txt,per_utt.json,results.json}")


def add_arguments(p):
    p.add_argument("--dict", default=None, help="pronunciation dictionary (default: the wheel's CMU dictionary)")
    p.add_argument("--bootstrap", type=int, default=1000, help="bootstrap resamples (speakers)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("data")
    p.add_argument("decode_dir")


def run(args):
    from pydeid.asr.phone_decode import score_phones
    from pydeid.io import UsageError

    if args.bootstrap < 1:
        raise UsageError("--bootstrap", f"must be >= 1, not {args.bootstrap}")
    r = score_phones(args.data, args.decode_dir, args.dict, args.bootstrap, args.seed)
    ci = "" if not r["ci95"] else f" 95 % CI [{r['ci95'][0]:.1f}, {r['ci95'][1]:.1f}]"
    print(f"%PER {r['per']:.2f} [ {r['sub'] + r['del'] + r['ins']} / {r['phones']}, {r['ins']} ins, {r['del']} del, "
          f"{r['sub']} sub ]{ci} {args.decode_dir}")
