"""`pydeid transform-text`: replace tagged entities of a data dir's text (seed 000 algorithm, per-type strategies)."""

COMMAND = "transform-text"
HELP = ("de-identify a data dir's text with per-type replacement strategies and probability p; prints the DP "
        "epsilon of the policy used")


OUTPUTS = ("out_data", "report")


def add_arguments(p):
    import argparse

    from pydeid.cli._types import probability, regex
    from pydeid.text.strategies import STRATEGIES
    p.add_argument("--strategy", default=None,
                   help="per-type strategies, e.g. 'PER=pseudonymize,NUM=random_digits,default=surrogate'; names: "
                        f"{' '.join(STRATEGIES)}. "
                        "Default 'default=surrogate': values from outside the corpus (faker names, gazetteer places, "
                        "generated numbers, letters, e-mails), never an entity word of the input corpus, consistent "
                        "within a dialogue. same_type, single_same_type, full_entity and corpus_same_type draw from "
                        "the corpus's own entities and move real values between utterances (a warning says so)")
    p.add_argument("--p", type=probability, default=1.0, help="replacement probability of each sensitive unit (seed 000)")
    from pydeid.io.publisher_key import SEED_HELP
    p.add_argument("--seed", default="0", help=SEED_HELP + " (the key in --secret-dir)")
    p.add_argument("--secret-dir", default=None,
                   help="where the pseudonym map goes (mode 0600, refused inside the output); needed by pseudonymize; "
                        "the default surrogate's dialogue map is written there too when given")
    p.add_argument("--check", action="store_true",
                   help="only check the options (strategy names, secret placement, an earlier map's seed) and exit: "
                        "a step calls it before its job, so a refusal is one line")
    p.add_argument("--overwrite-map", action="store_true",
                   help="replace a pseudonym map that an earlier run into the same output wrote with another --seed "
                        "(refused without it)")
    p.add_argument("--pool-conll", default=None,
                   help="tagged corpus whose per-type frequencies are the replacement pool (default: the tags given)")
    # on by default: a neutral corpus must never give an original word back, even by chance
    p.add_argument("--avoid-original", action=argparse.BooleanOptionalAction, default=True,
                   help="no surrogate contains an identifying word of its sentence's entities (default; takes the "
                        "sampling strategies outside eq. 2); --no-avoid-original keeps seed 000's independent policy, "
                        "whose draws may give the original back by chance, for its epsilon")
    p.add_argument("--pseudonym-source", default="faker", choices=["faker", "corpus"],
                   help="where pseudonymize draws from: faker (default, never an entity word of the corpus) or the "
                        "corpus's own same-type words (moves real names between utterances; a warning says so)")
    p.add_argument("--exemplars", default="", help="named placeholders, e.g. 'PER=Smith,LOC=London'")
    p.add_argument("--dialogue-mode", default="auto",
                   choices=["auto", "utt2dialogue", "strip-speaker", "regex", "utterance", "speaker"],
                   help="scope of consistent pseudonyms: auto = data/utt2dialogue if present, else strip-speaker "
                        "(utterance id minus speaker prefix and last field: mini spk003-tr001-04 -> tr001)")
    p.add_argument("--dialogue-sep", default="-")
    p.add_argument("--dialogue-regex", default=None, type=regex)
    p.add_argument("--gold-tags", default=None,
                   help="gold CoNLL for the leak rate (default: the tags given, i.e. leak w.r.t. what was tagged)")
    p.add_argument("--report", default=None, help="write the report (counts, epsilon, leak rate) as JSON here")
    p.add_argument("data", help="input data dir (text; wav.scp not needed) or CoNLL file")
    p.add_argument("tags", help="CoNLL tags of the data (sentence ids = utterance ids), gold or from tag-entities")
    p.add_argument("out_data", help="output data dir (transformed text and tags.conll, other files copied)")


def run(args):
    from pydeid.io.publisher_key import resolve_seed
    args.seed = resolve_seed(args.seed, args.secret_dir, "surrogates", [args.out_data, args.data])
    import json
    import logging
    from pathlib import Path

    from pydeid.io.conll import read_conll
    from pydeid.io.secrets import write_secret_json
    from pydeid.text.datadir import load_tagged_text, read_utt2spk, write_transformed_dir
    from pydeid.text.dialogue import dialogue_ids
    from pydeid.text.metrics import leak_rate, word_leaks
    from pydeid.text.pools import Pools
    from pydeid.text.transform import TextTransformer, TransformConfig

    log = logging.getLogger("transform-text")
    from pydeid.cli._types import strategy_spec
    from pydeid.io import UsageError, check_secret_path, secret_path_for
    from pydeid.text.strategies import DEFAULT_STRATEGY, STRATEGIES
    strategies = strategy_spec(args.strategy or DEFAULT_STRATEGY)
    secret_keepers = sorted({v for v in strategies.values() if STRATEGIES[v].needs_secret})
    if secret_keepers and not args.secret_dir:
        raise UsageError("--secret-dir", f"{', '.join(secret_keepers)} needs it (the map is a secret kept outside the "
                                         "output corpus)")
    secret = None
    if args.secret_dir:  # placement checked before anything is written; the map is keyed by the whole output path
        secret = secret_path_for(args.secret_dir, "pseudonyms", args.out_data)
        check_secret_path(secret, forbidden_dirs=[args.out_data, args.data])
        _refuse_other_seed(secret, args.seed, args.overwrite_map)
    if args.check:
        return 0
    exemplars = dict(x.split("=", 1) for x in args.exemplars.split(",") if "=" in x)
    utts, sents = load_tagged_text(args.data, args.tags)
    dlg, how = dialogue_ids(utts, read_utt2spk(args.data), args.dialogue_mode, args.data, args.dialogue_sep, args.dialogue_regex)
    log.info("dialogues: %d, from %s", len(set(dlg)), how)
    pools = Pools(read_conll(args.pool_conll) if args.pool_conll else sents)
    cfg = TransformConfig(strategies=strategies, p=args.p, seed=args.seed, avoid_original=args.avoid_original,
                          exemplars=exemplars, pseudonym_source=args.pseudonym_source)
    from pydeid.text.pools import PoolError
    try:
        res = TextTransformer(cfg, pools).transform(sents, dlg)
    except PoolError as e:
        raise SystemExit(f"transform-text: {e}") from None
    out = Path(args.out_data)
    write_transformed_dir(args.data, out, res.sentences)
    if res.pseudonym_map and secret is not None:
        write_secret_json(secret, {"seed": args.seed, "strategies": strategies, "dialogues": res.pseudonym_map},
                          forbidden_dirs=[out, args.data])
        log.info("pseudonym map (secret, 0600): %s", secret)
    gold = sents
    if args.gold_tags:
        _, gold = load_tagged_text(args.data, args.gold_tags)
    in_place = leak_rate([s.tokens for s in gold], [s.spans() for s in gold], [s.tokens for s in res.sentences],
                         [s.tags for s in res.sentences])
    leak = word_leaks([s.tokens for s in gold], [s.spans() for s in gold], [s.tokens for s in res.sentences])
    leak["in_place"] = in_place
    lines = res.report_lines(args.p)
    lines.append(f"dialogue scope: {how} ({len(set(dlg))} dialogues)")
    lines.append(f"leak rate ({'gold' if args.gold_tags else 'given'} tags): {leak['leaked']} of {leak['words']} "
                 f"distinct original entity words ({leak['leak_rate']:.4f}) appear anywhere in the output text; in "
                 f"place {in_place['leak_rate']:.4f} of {in_place['tokens']} identifying entity tokens survive")
    # seed 000 section 3: missed detections are never replaced, the algorithm runs at p_eff = p x recall
    from pydeid.text.dp import detection_recall, effective_p
    if args.gold_tags:
        recall = detection_recall([s.spans() for s in gold], [s.spans() for s in sents], [s.tokens for s in gold])
        p_eff = effective_p(args.p, recall)
        eps_eff, ov_eff = TextTransformer(cfg, pools).epsilon_at(gold, p_eff)
        n, hit = sum(v[0] for v in recall.values()), sum(v[1] for v in recall.values())
        detection = {"gold": str(args.gold_tags), "recall": {t: list(v) for t, v in recall.items()},
                     "recall_all": hit / n if n else 1.0, "p_eff": p_eff,
                     "epsilon_effective": _enc(ov_eff),
                     "types_effective": {t: _enc(e) for t, e in sorted(eps_eff.items())}}
        lines.append(f"detection recall on gold tokens {hit}/{n}: epsilon at p_eff = p x recall (seed 000 "
                     f"section 3): {ov_eff.fmt()}")
    else:
        detection = {"assumes_perfect_detection": True}
        lines.append("epsilon assumes perfect detection (no --gold-tags to measure the detector's recall)")
    for line in lines:
        print(line)
    if args.report:
        rep = res.report_dict(args.p)
        rep.update(leak=leak, dialogue_scope=how, strategies=strategies, seed=args.seed, detection=detection)
        Path(args.report).parent.mkdir(parents=True, exist_ok=True)
        Path(args.report).write_text(json.dumps(rep, indent=1, sort_keys=True) + "\n")
    return 0


def _refuse_other_seed(secret, seed: int, overwrite: bool) -> None:
    """A rerun into the same output with another --seed would silently replace the map that links the first run's
    output to its originals: refused in one line unless --overwrite-map."""
    import json
    from pathlib import Path

    from pydeid.io import UsageError
    path = Path(secret)
    if overwrite or not path.exists():
        return
    try:
        old = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return
    before = old.get("seed") if isinstance(old, dict) else None
    if before is not None and before != seed:
        raise UsageError("--seed", f"{path}: this output's pseudonym map was written with --seed {before}; this run "
                                   f"has --seed {seed}: refusing to replace it (pass --overwrite-map, "
                                   f"steps/transform_text.sh --overwrite-map true, or another output)")


def _enc(e) -> dict:
    import math
    v = None if e.epsilon is None else ("inf" if math.isinf(e.epsilon) else e.epsilon)
    return {"epsilon": v, "covered": e.epsilon is not None, "note": e.note, "seed000": e.seed000,
            "text": e.fmt()}
