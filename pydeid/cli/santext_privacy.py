"""`pydeid santext-privacy`: seed 003's privacy statistics of SanText rows over a training vocabulary."""

COMMAND = "santext-privacy"
HELP = ("N_x = Pr[M(x) = x], S_x (distinct outputs of x), S_y and the median embedding distance of SanText / "
        "SanText+ rows over each dataset's training vocabulary (JSON)")
OUTPUTS = ("out_json",)


def add_arguments(p):
    from ._types import positive_int
    p.add_argument("--data", action="append", required=True, metavar="NAME=DIR", help="as in text-utility")
    p.add_argument("--rows", required=True, help="santext rows, e.g. 'santext:spacy@1 santext+:spacy@1'")
    p.add_argument("--runs", type=positive_int, default=50, help="draws per vocabulary word")
    p.add_argument("out_json")


def run(args):
    import json
    import logging

    from pydeid.io import atomic_write_text
    from pydeid.io.errors import UsageError
    from pydeid.nlu_utility.intent import read_intents
    from pydeid.nlu_utility.report import santext_privacy
    from pydeid.nlu_utility.rows import parse_rows

    from .text_utility import parse_data
    logging.getLogger("gensim").setLevel(logging.WARNING)
    try:
        rows = parse_rows(args.rows)
    except ValueError as e:
        raise UsageError("--rows", str(e)) from None
    bad = [r.spec for r in rows if r.kind != "santext"]
    if bad:
        raise UsageError("--rows", f"not a SanText row: {', '.join(bad)}")
    out: dict = {}
    for name, d in parse_data(args.data).items():
        train = read_intents(d / "train.conll")
        for r in rows:
            st = santext_privacy(train, r, runs=args.runs)
            out.setdefault(name, {})[r.spec] = st
            print(f"{name} {r.spec}: |V|={st['V']} median d={st['median_distance']:.3g} N_x median "
                  f"{st['N_x']['median']:.3f} mean {st['N_x']['mean']:.3f}, S_x median {st['S_x']['median']:.0f}")
    atomic_write_text(args.out_json, json.dumps(out, indent=1) + "\n")
    return 0
