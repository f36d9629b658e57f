"""`pydeid align`: forced alignment of a data dir -> <ali-dir>/wrd_ali/ctm, <ali-dir>/phn_ali/ctm, report.json."""

COMMAND = "align"
HELP = "forced alignment (pocketsphinx en-us or CTC with a recipe-trained ESPnet model) -> word and phone CTMs"


def add_arguments(p):
    p.add_argument("--backend", default="pocketsphinx", choices=["pocketsphinx", "ctc"])
    p.add_argument("--model-file", default=None, help="ctc: ESPnet .pth (default: best/latest next to config.yaml)")
    p.add_argument("--extra-dict", default=None, help="pocketsphinx: extra pronunciations 'word PH ON ES' per line")
    p.add_argument("--no-g2p", action="store_true", help="pocketsphinx: fail words missing from the dictionary "
                   "instead of predicting a pronunciation (they are aligned as [SPEECH] and counted)")
    p.add_argument("--no-phones", action="store_true",
                   help="pocketsphinx: skip the phone pass (phn_ali/ctm stays empty; ~3x faster)")
    p.add_argument("--resume", action="store_true",
                   help="do nothing when <ali-dir>/report.json is newer than the data's text and wav.scp")
    p.add_argument("data", help="data dir (wav.scp, text, ...)")
    p.add_argument("model", help="pocketsphinx: 'en-us' (the model in the wheel) or a dir with mdef + dict; "
                   "ctc: ESPnet exp dir holding config.yaml and the .pth")
    p.add_argument("ali_dir", help="output dir")


def run(args):
    from pathlib import Path

    from pydeid.align.pipeline import align_data_dir
    rep_file = Path(args.ali_dir) / "report.json"
    if args.resume and rep_file.exists() and all(
            rep_file.stat().st_mtime > (Path(args.data) / f).stat().st_mtime for f in ("text", "wav.scp")):
        print(f"{args.ali_dir}: up to date (--resume), skipped")
        return 0
    model_file = args.model_file
    if args.backend == "ctc" and not model_file:   # the exp dir's best checkpoint (the ASR layer knows which)
        from pydeid.asr.checkpoints import default_model_file
        exp = Path(args.model)
        model_file = default_model_file(exp if exp.is_dir() else exp.parent)
    rep = align_data_dir(args.data, args.ali_dir, backend=args.backend, model=args.model,
                         model_file=model_file, extra_dict=args.extra_dict, use_g2p=not args.no_g2p, phones=not args.no_phones)
    c = rep["counts"]
    print(f"{args.ali_dir}: aligned {c['aligned']}/{c['utterances']} utterances; "
          f"{c['g2p_tokens']} tokens needed G2P ({len(rep['g2p_words'])} distinct words); "
          f"non-verbal {c['nonverbal_tokens']} (aligned {c['nonverbal_aligned']}, absorbed {c['nonverbal_unplaced']}); "
          f"punctuation tokens {c['punctuation_tokens']}; failed {c['failed']}")
    return 0
