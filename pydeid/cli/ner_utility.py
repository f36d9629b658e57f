"""`pydeid ner-utility`: train the tagger on each strategy's output, test on original data (seed 004 table 7)."""

COMMAND = "ner-utility"
HELP = "train-on-transformed / test-on-original NER utility table (cased/uncased x punct/nopunct) into RESULTS.md"


def add_arguments(p):
    p.add_argument("--config", default="conf/text/ner_cpu.yaml", help="tagger YAML (conf/text/ner.yaml: seed 004)")
    p.add_argument("--strategies", default="none,placeholder,placeholder_entity,same_type,single_same_type,full_entity",
                   help="rows (comma list; 'none' is the baseline)")
    p.add_argument("--variants", default="cased-punct,cased-nopunct,uncased-punct,uncased-nopunct")
    p.add_argument("--p", type=float, default=1.0)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--seeds", default=None,
                   help="comma list of seeds (default: --seed alone): every cell is run once per seed (transformation "
                        "draws and tagger initialisation) and the tables give mean +- std (seed 002: 3 runs)")
    p.add_argument("--max-epochs", type=int, default=None)
    p.add_argument("--results", default=None, help="RESULTS.md to update (section text_ner_utility)")
    p.add_argument("--title", default="Text transformation: NER trained on transformed data, tested on original")
    p.add_argument("train", help="training data dir (tags.conll; written.conll used for punct variants) or CoNLL")
    p.add_argument("dev", help="development data dir or CoNLL")
    p.add_argument("test", help="test data dir or CoNLL (never transformed)")
    p.add_argument("exp_dir")


def run(args):
    import json
    from pathlib import Path

    from pydeid.io import atomic_write_text
    from pydeid.text.flair_ner import NerConfig
    from pydeid.text.utility import read_split, run_utility, utility_table

    cfg = NerConfig.from_yaml(args.config, max_epochs=args.max_epochs, seed=args.seed)
    splits = {"punct": tuple(read_split(x, True) for x in (args.train, args.dev, args.test)),
              "nopunct": tuple(read_split(x, False) for x in (args.train, args.dev, args.test))}
    dialogue_of = {}
    for d in (args.train, args.dev):
        if Path(d).is_dir() and (Path(d) / "utt2spk").exists():
            from pydeid.io.kaldi_map import read_kaldi_map
            from pydeid.text.dialogue import dialogue_ids
            u2s = read_kaldi_map(Path(d) / "utt2spk")
            utts = sorted(u2s)
            dialogue_of.update(zip(utts, dialogue_ids(utts, u2s, "auto", d)[0]))
    strategies = [s.strip() for s in args.strategies.split(",") if s.strip()]
    variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    seeds = [int(x) for x in args.seeds.split(",") if x.strip()] if args.seeds else [args.seed]
    res = run_utility(splits, args.exp_dir, cfg, strategies, variants, args.p, seeds[0], dialogue_of or None,
                      seeds=seeds)
    from pydeid.text.utility import protocol_table
    table = utility_table(res, "macro_f1")
    note = (f"\nMacro F1 (exact match, mean over types) of a flair BiLSTM-CRF ({Path(args.config).name}, at most "
            f"{cfg.max_epochs} epochs) trained on "
            f"the transformed training set ({Path(args.train).name}, p={args.p}, gold tags) and tested on the "
            f"original {Path(args.test).name}; punct = written form with punctuation, nopunct = spoken form. "
            f"Micro F1 per cell in {args.exp_dir}/<variant>/<strategy>/results.json. "
            + (f"Mean +- standard deviation over {len(seeds)} seeds ({', '.join(map(str, seeds))}): each draws the "
               "transformation and initialises the tagger.\n" if len(seeds) > 1 else
               "One seed (no spread: `run.sh --tables full` runs 3).\n"))
    if "none" in strategies and sum(v in res for v in variants) > 1:   # seed 004 table 6: the baseline per variant
        from pydeid.report import markdown_table
        from pydeid.text.utility import _runs, mean_std
        t6 = []
        for v in variants:
            if "none" in res.get(v, {}):
                m = mean_std(x["macro_f1"] for x in _runs(res[v]["none"]))
                t6.append([v, f"{100 * m[0]:.1f}% +- {100 * m[1]:.1f}"])
        note += ("\nSeed 004 table 6: macro F1 of the tagger trained on original data after pre-processing "
                 "(lower casing: uncased; no punctuation: nopunct), tested on the original test set in the same "
                 "form:\n\n" + markdown_table(["Model", "Macro F1 average"], t6))
    for v in variants:
        if v in res:
            note += (f"\nSeed 002 protocol, {v}: M' trained on the transformed training set T', scored on T', on the "
                     f"transformed test set V' and on the original test set V; delta = M'(V) - M(V) paired by seed "
                     f"(macro F1 %, mean +- std over runs):\n\n" + protocol_table(res, v))
    print(table + note)
    atomic_write_text(Path(args.exp_dir, "utility.json"), json.dumps(res, indent=1) + "\n")   # jobs may run side by side
    if args.results:
        from pydeid.report import update_results_section
        update_results_section(args.results, "text_ner_utility", table + note, args.title)
    return 0
