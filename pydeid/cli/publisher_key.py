"""`pydeid publisher-key`: the integer seed of one purpose (voice plan, masking noise, ...) derived from the
publisher's key (drawn and stored at the first run) or from --seed; steps pass it on instead of a fixed seed."""

COMMAND = "publisher-key"
HELP = "print the seed of one purpose derived from the publisher's key (<secret-dir>/publisher.key) or --seed"


def add_arguments(p):
    from pydeid.io.publisher_key import PURPOSES
    p.add_argument("--seed", default="", help="empty: the publisher's key; an integer: replayable draws")
    p.add_argument("--purpose", required=True, choices=PURPOSES, action="append",
                   help="repeatable: the seeds are printed on one line, in the order asked")
    p.add_argument("--forbid", action="append", default=[], help="a data dir the key must not lie in (repeatable)")
    p.add_argument("--describe", action="store_true", help="print who can replay the draws instead of the seed")
    p.add_argument("secret_dir", help="where the publisher's key is kept (outside every corpus)")


def run(args):
    from pydeid.io.publisher_key import load_or_create
    key = load_or_create(args.secret_dir, args.seed, forbidden_dirs=args.forbid)
    print(key.describe() if args.describe else " ".join(str(key.seed_for(p)) for p in args.purpose))
    return 0
