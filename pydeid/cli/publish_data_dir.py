"""`pydeid publish-data-dir`: the published copy of a data dir (keyed pseudonymous ids, no gender by default, the id
map as a secret), then every file of it checked for every original id (pydeid.io.pseudonyms)."""

COMMAND = "publish-data-dir"
HELP = ("copy a data dir for publication: speaker/utterance/recording ids replaced by keyed pseudonyms, audio "
        "renamed, gender dropped, id map kept as a secret; fails on any original id left")
OUTPUTS = ("out",)


def _bool(s):
    from pydeid.io import UsageError
    v = str(s).lower()
    if v not in ("true", "false"):
        raise UsageError("--keep-gender", f"expected true or false, got '{s}'")
    return v == "true"


def add_arguments(p):
    p.add_argument("--secret-dir", required=True,
                   help="where the publisher's key and the id map are (mode 0600; refused inside a data dir)")
    p.add_argument("--seed", default="",
                   help="empty: the publisher's key (<secret-dir>/publisher.key, drawn at the first run); an integer: "
                        "a key anyone who knows it can recompute (experiments)")
    p.add_argument("--keep-gender", default="false",
                   help="true: publish utt2gender/spk2gender too (the report then says gender is published)")
    p.add_argument("--orig-data", action="append", default=[],
                   help="a data dir whose ids must not appear either (the untransformed source; repeatable)")
    p.add_argument("--report", default=None, help="write a JSON summary here (outside the corpus)")
    p.add_argument("data", help="the data dir to publish (original ids; e.g. the masked working dir)")
    p.add_argument("out", help="the published data dir")


def run(args):
    import json

    from pydeid.io import atomic_write_text
    from pydeid.io.publisher_key import load_or_create
    from pydeid.io.pseudonyms import publish_data_dir

    keep = _bool(args.keep_gender)
    key = load_or_create(args.secret_dir, args.seed, forbidden_dirs=[args.data, args.out, *args.orig_data])
    rep = publish_data_dir(args.data, args.out, key, args.secret_dir, keep_gender=keep, orig_data=args.orig_data)
    if args.report:
        atomic_write_text(args.report, json.dumps(rep, indent=1) + "\n")
    print(f"{args.out}: {rep['utterances']} utterances, {rep['speakers']} speakers, ids {rep['ids']}; "
          f"no original id in any file ({rep['original_ids_checked']} checked)")
    print(f"{args.out}: gender {rep['gender']}")
    print(f"{args.out}: {rep['key']}")
    return 0
